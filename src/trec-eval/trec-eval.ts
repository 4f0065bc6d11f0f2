/**
 * `trecscore trec-eval`: a drop-in for NIST trec_eval 10.0 (and 9.0.8 with `--compat 9.0.8`)
 * with byte-identical output. Where trec_eval crashes or reads uninitialised memory, this does
 * what was intended (see the README's trec_eval section).
 */

import type { Conventions } from '../conventions/conventions.js'
import { trecEvalV9, trecEvalV10 } from '../conventions/profiles.js'
import { formatIssue } from '../errors/format-issue.js'
import { atof, atol } from '../io/bytes.js'
import { type QueryJob, type QueryJobModule, runInParallel } from '../io/parallel-run.js'
import { streamQrels } from '../io/read.js'
import { streamRunQueries } from '../io/run-reader.js'
import { SourceError } from '../io/source.js'
import { MIN_GEO_MEAN } from '../measures/average-precision.js'
import type { Qrels, RunQuery } from '../model/types.js'
import { GradeArena } from '../rank/grade-arena.js'
import { IdSet } from '../rank/id-hash.js'
import { IdIndex, ValueRows } from '../rank/id-index.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import { prepareQuery } from '../rank/prepare.js'
import { padRight, printfFixed } from '../report/printf.js'
import { parseTrecEvalArgs, type TrecEvalArgs, UsageError } from './args.js'
import { TREC_EVAL_USAGE, trecEvalHelp } from './help.js'
import { prepareFailureMessage } from './messages.js'
import { appendQueryLines, ByteOutput, queryLinePlan, teFixed } from './output.js'
import { readPrefsRelInfo, readQrelsJgRelInfo } from './prefs/index.js'
import { QueryLineWriter } from './query-lines.js'
import { TREC_EVAL_MEASURES, TREC_EVAL_NICKNAMES, V10_ONLY_MEASURES } from './table.js'
import type {
  ActiveMeasure,
  Prepared,
  QueryInputs,
  RelInfo,
  TeAnyMeasure,
  TeContext,
  TrecEvalIO,
} from './types.js'
import { applyZscores, readZscores } from './zscores.js'

export type { ActiveMeasure, Prepared, QueryInputs, RelInfo, TrecEvalIO } from './types.js'

/** Exit with a code after printing (trec_eval's `exit(n)`). */
class Exit extends Error {
  override name = 'TrecEvalExit'
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

/** Outcome of evaluating one query: values, or why `measure` could not be computed. */
type QueryOutcome =
  | { readonly ok: true; readonly values: Float64Array; readonly texts: readonly (string | null)[] }
  | { readonly ok: false; readonly message: string; readonly measure: string }

function fmtCutDouble(x: number): string {
  // "%3.2f"
  return printfFixed(x, 3, 2)
}

function parseCutoffParams(
  kind: 'long-cutoffs' | 'double-cutoffs',
  text: string,
  io: TrecEvalIO,
): number[] {
  const parts = text.split(',')
  const vals = parts.map((p) => (kind === 'long-cutoffs' ? atol(p) : atof(p)))
  vals.sort((x, y) => x - y)
  if (kind === 'long-cutoffs' && vals[0]! <= 0) {
    io.err('trec_eval: Negative cutoff detected\n')
    throw new Error('init')
  }
  for (let i = 1; i < vals.length; i++) {
    if (vals[i - 1] === vals[i]) {
      io.err('trec_eval: duplicate cutoffs detected\n')
      throw new Error('init')
    }
  }
  return vals
}

function parsePairs(text: string, io: TrecEvalIO): { name: string; value: number }[] {
  let last = ','
  for (const ch of text) {
    if (ch === ',') {
      if (last === ',') break
      last = ','
    } else if (ch === '=') {
      if (last === '=') {
        last = ','
        break
      }
      last = '='
    }
  }
  if (last !== '=') {
    io.err(`trec_eval: malformed pair parameters in '${text}'\n`)
    throw new Error('init')
  }
  const out: { name: string; value: number }[] = []
  let name = ''
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i]
    if (ch === '=') {
      name = text.slice(start, i)
      start = i + 1
    } else if (ch === ',' || ch === undefined) {
      out.push({ name, value: atof(text.slice(start, i)) })
      start = i + 1
    }
  }
  return out
}

/** Initialise one measure from the first `-m name.params` given for it (trec_eval's rule). */
function initMeasure(
  def: TeAnyMeasure,
  paramText: string | undefined,
  io: TrecEvalIO,
): ActiveMeasure {
  const m = initMeasureParams(def, paramText, io)
  const labels = m.names.map((n) => `${padRight(n, 22)}\t`)
  return { ...m, labels, labelBytes: labels.map((l) => Buffer.from(l, 'latin1')) }
}

function initMeasureParams(
  def: TeAnyMeasure,
  paramText: string | undefined,
  io: TrecEvalIO,
): Omit<ActiveMeasure, 'labels' | 'labelBytes'> {
  const name = def.name
  switch (def.params) {
    case 'none':
      return { def, params: { kind: 'none' }, names: [name] }
    case 'long-cutoffs':
    case 'double-cutoffs': {
      const values =
        paramText === undefined ? [...def.defaults!] : parseCutoffParams(def.params, paramText, io)
      const names = values.map((v) =>
        def.params === 'long-cutoffs' ? `${name}_${v}` : `${name}_${fmtCutDouble(v)}`,
      )
      return { def, params: { kind: def.params, values, printable: paramText ?? null }, names }
    }
    case 'double-params': {
      const values = paramText === undefined ? [...def.defaults!] : paramText.split(',').map(atof)
      return {
        def,
        params: { kind: 'double-params', values, printable: paramText ?? null },
        names: [paramText === undefined ? name : `${name}_${paramText}`],
      }
    }
    case 'pairs': {
      const pairs = paramText === undefined ? [] : parsePairs(paramText, io)
      return {
        def,
        params: { kind: 'pairs', pairs, printable: paramText ?? null },
        names: [paramText === undefined ? name : `${name}_${paramText}`],
      }
    }
  }
}

/** Resolve `-m` arguments to measures in print order (trec_eval's `mark_measure`). */
export function selectMeasures(
  specs: readonly string[],
  compat: TrecEvalArgs['compat'],
  io: TrecEvalIO,
): { marked: Set<string>; params: Map<string, string> } | string {
  const known = new Set(
    TREC_EVAL_MEASURES.map((m) => m.name).filter(
      (n) => compat === '10.0' || !V10_ONLY_MEASURES.has(n),
    ),
  )
  const marked = new Set<string>()
  const params = new Map<string, string>()
  for (const spec of specs.length ? specs : ['official']) {
    const dot = spec.indexOf('.')
    const base = dot >= 0 ? spec.slice(0, dot) : spec
    if (dot >= 0) {
      const p = spec.slice(dot + 1)
      if (p === '') {
        io.err(`trec_eval: improper measure in parameter '${base}'\n`)
        return base
      }
      if (!params.has(base)) params.set(base, p)
    }
    const nick = TREC_EVAL_NICKNAMES.get(base)
    if (nick) {
      for (const n of nick) if (known.has(n)) marked.add(n)
      continue
    }
    if (!known.has(base)) return base
    marked.add(base)
  }
  return { marked, params }
}

/** Summary `num_rel` with -c: judgments with grade > 0 over every qrels query (ignores -l). */
function completeNumRel(qrels: Qrels): number {
  let n = 0
  for (const q of qrels.queries.values()) {
    for (const g of q.grades.values()) if (g > 0) n++
    // duplicates are judgments too
  }
  return n
}

/**
 * Run the trec_eval drop-in with `argv` (without the program name); returns the exit code.
 * All output goes through `io`.
 */
export async function trecEval(argv: readonly string[], io: TrecEvalIO): Promise<number> {
  try {
    return await main(argv, io)
  } catch (e) {
    if (e instanceof Exit) return e.code
    throw e
  }
}

async function main(argv: readonly string[], io: TrecEvalIO): Promise<number> {
  let args: TrecEvalArgs
  try {
    args = parseTrecEvalArgs(argv)
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`trec_eval: ${e.message}\n${TREC_EVAL_USAGE}`)
      return 1
    }
    throw e
  }
  const v9 = args.compat === '9.0.8'
  if (args.version) {
    io.err(`trec_eval version ${v9 ? '9.0.7' : '10.0-rc3'} (trecscore drop-in)\n`)
    return 0
  }
  // Measures are marked while options are read, so an illegal one is reported first.
  const sel = selectMeasures(args.measures, args.compat, io)
  if (typeof sel === 'string') {
    io.err(`trec_eval: illegal measure '${sel}'\n`)
    return 1
  }
  if (args.help) {
    io.out(trecEvalHelp(args.measures.length ? sel.marked : new Set()))
    return 0
  }
  if (args.operands.length !== 2) {
    io.err(TREC_EVAL_USAGE)
    return 1
  }
  const [qrelsFile, runFile] = args.operands as [string, string]
  if (args.debug !== null) {
    io.err(
      'trec_eval: -D (debug output) is not supported by trecscore; use `trecscore evaluate --explain`\n',
    )
    return 1
  }
  const conv: Conventions = {
    ...(v9 ? trecEvalV9 : trecEvalV10),
    relevanceLevel: args.relevanceLevelText === null ? 1 : atol(args.relevanceLevelText),
    depth: args.maxDocs === null ? null : atol(args.maxDocs),
    judgedOnly: args.judgedOnly,
  }
  const ctx: TeContext = {
    collectionSize: args.collectionSize === null ? 0 : atol(args.collectionSize),
    recallRounding: conv.recallRounding,
  }

  // Relevance information, then the results format (trec_eval checks them in this order).
  const rel = await readRelInfo(args.relFormat, qrelsFile, conv, io, runFile)
  if (args.resultsFormat !== 'trec_results') {
    io.err(`trec_eval: Illegal retrieval results format '${args.resultsFormat}'\n`)
    return 2
  }

  // Z-score file (read after both inputs in trec_eval; its errors come later).
  // Measures.
  const active: ActiveMeasure[] = []
  for (const def of TREC_EVAL_MEASURES) {
    if (!sel.marked.has(def.name)) continue
    try {
      active.push(initMeasure(def, sel.params.get(def.name), io))
    } catch {
      io.err(`trec_eval: Cannot initialize measure '${def.name}'\n`)
      return 2
    }
  }
  const width = active.reduce((n, m) => n + m.names.length, 0)

  // Run: stream queries, evaluating each judged query as soon as its lines are complete; large
  // files are read on several threads.
  let job = new TrecEvalJob(rel, active, width, ctx)
  const evaluate = (run: RunQuery): QueryOutcome => computeAll(rel.inputs(run), active, width, ctx)
  let tag = ''
  try {
    const parse = {
      file: runFile,
      comments: conv.comments,
      float32: conv.scorePrecision === 'float32',
      stopAtFirstError: true,
      compactIds: true,
      syntax: 'c',
    } as const
    const config: TrecEvalJobConfig = {
      relFormat: args.relFormat,
      qrelsFile,
      runFile,
      conv,
      ctx,
      measures: active.map((m) => ({
        name: m.def.name,
        param: sel.params.get(m.def.name) ?? null,
      })),
    }
    const par =
      qrelsFile === '-'
        ? null
        : await runInParallel(runFile, parse, { module: import.meta.url, config }, job)
    if (par) tag = par.lastTag
    else {
      job = new TrecEvalJob(rel, active, width, ctx) // the parallel attempt may have left some
      const seq = job
      const summary = await streamRunQueries(
        runFile,
        parse,
        (qid) => rel.has(qid),
        (run) => seq.add(run),
      )
      const p = summary.parser
      if (p.issues.length) {
        const issue = p.issues[0]!
        if (issue.code === 'field_count' || issue.code === 'nul_byte')
          io.err(`trec_eval.get_results: Malformed line ${p.malformedLineNumber}\n`)
        io.err(`trecscore: ${formatIssue(issue)}\n`)
        io.err(`trec_eval: Quit in file '${runFile}'\n`)
        return 2
      }
      if (p.contentLines === 0 && p.blankLines === 0 && p.commentLines === 0) {
        io.err(
          `trec_eval.get_results: Cannot read results file '${runFile}'\ntrec_eval: Quit in file '${runFile}'\n`,
        )
        return 2
      }
      tag = p.lastTag
    }
  } catch (e) {
    if (e instanceof SourceError) {
      io.err(
        `trec_eval.get_results: Cannot read results file '${runFile}'\ntrecscore: ${e.message}\ntrec_eval: Quit in file '${runFile}'\n`,
      )
      return 2
    }
    throw e
  }

  const zscores = args.zscores === null ? null : await readZscores(args.zscores, io)
  if (args.zscores !== null && zscores === null) return 2

  // Evaluate in qrels order, printing as trec_eval does.
  const qids = rel.queryIds
  const sums = new Float64Array(width)
  let evaluated = 0
  const out = new ByteOutput(
    (text) => io.out(text),
    io.outBytes ? (bytes) => io.outBytes!(bytes) : undefined,
  )
  const flush = (): void => out.flush()
  const scratch = new Float64Array(width)
  const plan = args.queryEval ? queryLinePlan(active) : []
  const lines = args.queryEval && zscores === null ? QueryLineWriter.create(plan) : null
  for (const qid of qids) {
    let outcome = job.outcome(qid, scratch)
    let missing = false
    if (!outcome) {
      if (!args.complete) {
        if (v9) continue
        flush()
        io.err(`trec_eval: result qid '${qid}' not found in qrels\n`)
        return 4
      }
      if (v9) continue
      missing = true
      outcome = evaluate({
        queryId: qid,
        docIds: ['ceci_nest_pas_un_docno'],
        scores: [1],
        ranks: null,
        lines: [0],
      })
    }
    if (!outcome.ok) {
      flush()
      io.err(`${outcome.message}trec_eval: Can't calculate measure '${outcome.measure}'\n`)
      return 4
    }
    const values = outcome.values
    let texts = outcome.texts
    if (missing) {
      const own = texts.slice()
      texts = own
      // trec_eval resets some values of the fake ranking by their printed names, so a measure
      // given parameters (`utility_2,-1,0,0`, `relstring_20`) keeps its fake-ranking value.
      let off = 0
      active.forEach((m, mi) => {
        m.names.forEach((name, k) => {
          if (
            name === 'num_ret' ||
            name === 'utility' ||
            name.startsWith('unj') ||
            name === 'rbp_resid'
          )
            values[off + k] = 0
          if (name === 'relstring') own[mi] = ''
        })
        off += m.names.length
      })
    }
    if (zscores) applyZscores(zscores, qid, active, values)
    let off = 0
    for (const m of active) {
      const n = m.names.length
      if (m.def.summary !== 'none' || m.def.perQuery !== 'none')
        for (let k = 0; k < n; k++) sums[off + k] = sums[off + k]! + values[off + k]!
      off += n
    }
    if (lines) lines.write(out, qid, values, texts)
    else if (args.queryEval) appendQueryLines(out, plan, qid, values, texts, zscores !== null)
    evaluated++
  }
  if (evaluated === 0 && !(v9 && args.complete && qids.length > 0)) {
    flush()
    io.err('trec_eval: No queries with both results and relevance info\n')
    return 7
  }
  // Summary.
  const numQueries = args.complete ? qids.length : evaluated
  if (args.summary) {
    let off = 0
    const z = zscores ? 'Z' : ''
    for (const m of active) {
      const n = m.names.length
      for (let k = 0; k < n; k++) {
        const name = padRight(m.names[k]!, 22)
        const sum = sums[off + k]!
        switch (m.def.summary) {
          case 'runid':
            out.text(`${name}\tall\t${tag}\n`)
            break
          case 'num_q':
            out.text(
              zscores ? `Z${name}\tall\t${teFixed(numQueries)}\n` : `${name}\tall\t${numQueries}\n`,
            )
            break
          case 'sum':
          case 'num_rel': {
            const v =
              m.def.summary === 'num_rel' && args.complete && rel.completeNumRel
                ? rel.completeNumRel()
                : sum
            out.text(
              zscores ? `Z${name}\tall\t${teFixed(v)}\n` : `${name}\tall\t${Math.trunc(v)}\n`,
            )
            break
          }
          case 'mean':
            out.text(`${z}${name}\tall\t${teFixed(numQueries ? sum / numQueries : sum)}\n`)
            break
          case 'gm': {
            let v = sum
            if (numQueries > 0) {
              if (args.complete) v += (numQueries - evaluated) * Math.log(MIN_GEO_MEAN)
              v = Math.exp(v / numQueries)
            }
            out.text(`${z}${name}\tall\t${teFixed(v)}\n`)
            break
          }
          case 'none':
            break
        }
      }
      off += n
    }
  }
  flush()
  return 0
}

/** Serialisable description of a trec_eval evaluation, rebuilt by worker threads. */
export interface TrecEvalJobConfig {
  readonly relFormat: string
  readonly qrelsFile: string
  readonly runFile: string
  readonly conv: Conventions
  readonly ctx: TeContext
  readonly measures: readonly { readonly name: string; readonly param: string | null }[]
}

/**
 * Evaluates each judged query of the run as it arrives, keeping its outcome: query ids as bytes
 * (`IdIndex`), and for each the index of its row of values, rows stored once each (`ValueRows`:
 * a million tiny queries have a handful of distinct outcomes), texts and failures apart. So a
 * query costs about 30 bytes, whatever the number of measures.
 */
class TrecEvalJob implements QueryJob<TrecEvalJobState> {
  private readonly index = new IdIndex()
  private rowOf = new Int32Array(1024)
  private readonly rows: ValueRows
  private readonly texts = new Map<number, readonly (string | null)[]>()
  private readonly failed = new Map<string, QueryOutcome>()
  constructor(
    private readonly rel: RelInfo,
    private readonly active: readonly ActiveMeasure[],
    width: number,
    private readonly ctx: TeContext,
  ) {
    this.rows = new ValueRows(width)
    this.none = noTexts(active.length)
    this.textColumns = active.flatMap((m, mi) =>
      (m.def as { readonly text?: unknown }).text ? [mi] : [],
    )
  }
  /** The measures that may have a text (the others' texts are always null). */
  private readonly textColumns: readonly number[]
  add(run: RunQuery): void {
    if (this.rel.has(run.queryId))
      this.keep(
        run.queryId,
        computeAll(this.rel.inputs(run), this.active, this.rows.width, this.ctx),
      )
  }
  private keep(queryId: string, o: QueryOutcome): void {
    if (!o.ok) {
      this.failed.set(queryId, o)
      return
    }
    this.keepRow(queryId, this.rows.intern(o.values), o.texts)
  }
  /** Keep a query whose values are row `row`. */
  private keepRow(queryId: string, row: number, texts: readonly (string | null)[]): void {
    this.failed.delete(queryId)
    const slot = this.index.add(queryId)
    if (slot >= this.rowOf.length) {
      const r = new Int32Array(this.rowOf.length * 2)
      r.set(this.rowOf)
      this.rowOf = r
    }
    this.rowOf[slot] = row
    if (texts.some((t) => t !== null)) this.texts.set(slot, texts)
    else this.texts.delete(slot)
  }
  private readonly none: readonly (string | null)[]
  /**
   * The outcome of a query, or undefined when not evaluated. Its values are a fresh copy, or
   * written into `into` (reused from query to query, so printing a million queries makes no
   * garbage array for each); its texts are shared: copy them before changing them.
   */
  outcome(queryId: string, into?: Float64Array): QueryOutcome | undefined {
    const f = this.failed.get(queryId)
    if (f) return f
    const slot = this.index.indexOf(queryId)
    if (slot < 0) return undefined
    const row = this.rowOf[slot]!
    return {
      ok: true,
      values: into ? this.rows.floatsInto(row, into) : this.rows.floats(row),
      texts: this.texts.get(slot) ?? this.none,
    }
  }
  /**
   * The outcomes as a few flat arrays and strings (a worker's thousands of queries cross in one
   * copy): texts as one JSON array of the text measures' texts, slot by slot.
   */
  exportState(): TrecEvalJobState {
    const n = this.index.size
    const ids: string[] = []
    for (let k = 0; k < n; k++) ids.push(this.index.idAt(k))
    const w = this.rows.width
    const rows = new Float64Array(this.rows.size * w)
    const row = new Float64Array(w)
    for (let r = 0; r < this.rows.size; r++) rows.set(this.rows.floatsInto(r, row), r * w)
    const cols = this.textColumns
    const textSlots = new Int32Array(this.texts.size)
    const textValues: (string | null)[] = []
    let i = 0
    for (const [slot, t] of this.texts) {
      textSlots[i++] = slot
      for (const c of cols) textValues.push(t[c] ?? null)
    }
    return {
      ids,
      rowOf: this.rowOf.slice(0, n),
      rows,
      textSlots,
      texts: JSON.stringify(textValues),
      failed: [...this.failed],
    }
  }
  /** Take a worker's outcomes, as if its queries had been added here in its order. */
  absorb(state: TrecEvalJobState): void {
    const w = this.rows.width
    // Each distinct row of the worker is interned once, not once per query.
    const rowHere = new Int32Array(state.rows.length / w)
    for (let r = 0; r < rowHere.length; r++)
      rowHere[r] = this.rows.intern(state.rows.subarray(r * w, (r + 1) * w))
    const cols = this.textColumns
    const values = JSON.parse(state.texts) as (string | null)[]
    const texts = new Map<number, (string | null)[]>()
    state.textSlots.forEach((slot, i) => {
      const t = noTexts(this.active.length)
      cols.forEach((c, j) => {
        t[c] = values[i * cols.length + j] ?? null
      })
      texts.set(slot, t)
    })
    state.ids.forEach((q, k) => {
      this.keepRow(q, rowHere[state.rowOf[k]!]!, texts.get(k) ?? this.none)
    })
    for (const [q, o] of state.failed) this.keep(q, o)
  }
}

/** A {@link TrecEvalJob}'s outcomes as they travel between threads. */
interface TrecEvalJobState {
  /** Evaluated queries in slot order; `rowOf[k]` is the row of `ids[k]` in `rows`. */
  readonly ids: readonly string[]
  readonly rowOf: Int32Array
  /** The distinct rows of values, `width` each, one after the other. */
  readonly rows: Float64Array
  /** The slots of the queries that have texts. */
  readonly textSlots: Int32Array
  /**
   * Their texts as a JSON array: for each of `textSlots` in turn, the text of each measure that
   * may have one (`textColumns`), in measure order.
   */
  readonly texts: string
  readonly failed: readonly (readonly [string, QueryOutcome])[]
}

function noTexts(n: number): (string | null)[] {
  return new Array<string | null>(n).fill(null)
}

/** Build the job a worker thread runs (see `io/parallel-run.ts`); inputs were checked already. */
export async function createQueryJob(
  config: TrecEvalJobConfig,
): Promise<QueryJob<TrecEvalJobState>> {
  const silent: TrecEvalIO = { out: () => {}, err: () => {} }
  const rel = await readRelInfo(
    config.relFormat,
    config.qrelsFile,
    config.conv,
    silent,
    config.runFile,
  )
  const active = config.measures.map((m) =>
    initMeasure(TREC_EVAL_MEASURES.find((d) => d.name === m.name)!, m.param ?? undefined, silent),
  )
  const width = active.reduce((n, m) => n + m.names.length, 0)
  return new TrecEvalJob(rel, active, width, config.ctx)
}
// This module is a worker job module (`{ module: import.meta.url }` in `main`).
void ({ createQueryJob } satisfies QueryJobModule<TrecEvalJobConfig, TrecEvalJobState>)

/** What trec_eval says when a measure's input does not match the `-R` format. */
const FORMAT_MISMATCH = {
  qrels: 'trec_eval.form_res_qrels: rel_info format not qrels or results format not trec_results\n',
  prefs:
    'trec_eval.form_prefs_info: prefs_info format not (prefs or qrels_prefs) or results format not trec_results\n',
  qrels_jg: 'trec_eval: rel_info format not qrels_jg or results format not trec_results\n',
} as const

/**
 * Evaluate every active measure on one query, in print order; the first measure whose input
 * cannot be prepared fails the query (trec_eval's "Can't calculate measure").
 */
export function computeAll(
  inputs: QueryInputs,
  active: readonly ActiveMeasure[],
  width: number,
  ctx: TeContext,
): QueryOutcome {
  const values = new Float64Array(width)
  const texts = new Array<string | null>(active.length)
  let off = 0
  for (let mi = 0; mi < active.length; mi++) {
    const m = active[mi]!
    const def = m.def
    let text: string | null = null
    if (def.usesRanking) {
      let out: readonly number[]
      switch (def.input) {
        case 'prefs': {
          const c = inputs.prefs ? inputs.prefs() : FORMAT_MISMATCH_PREPARED.prefs
          if (!c.ok) return { ok: false, message: c.message, measure: def.name }
          out = def.compute(c.value, m.params, ctx)
          break
        }
        case 'qrels_jg': {
          const g = inputs.judgmentGroups
            ? inputs.judgmentGroups()
            : FORMAT_MISMATCH_PREPARED.qrels_jg
          if (!g.ok) return { ok: false, message: g.message, measure: def.name }
          out = def.compute(g.value, m.params, ctx)
          break
        }
        default: {
          const q = inputs.qrels ? inputs.qrels() : FORMAT_MISMATCH_PREPARED.qrels
          if (!q.ok) return { ok: false, message: q.message, measure: def.name }
          out = def.compute(q.value, m.params, ctx)
          if (def.text) text = def.text(q.value, m.params)
        }
      }
      for (let k = 0; k < m.names.length; k++) values[off + k] = out[k] ?? 0
    }
    texts[mi] = text
    off += m.names.length
  }
  return { ok: true, values, texts }
}

/** {@link FORMAT_MISMATCH} as the failed preparation of each input kind. */
const FORMAT_MISMATCH_PREPARED = {
  qrels: { ok: false, message: FORMAT_MISMATCH.qrels },
  prefs: { ok: false, message: FORMAT_MISMATCH.prefs },
  qrels_jg: { ok: false, message: FORMAT_MISMATCH.qrels_jg },
} as const

/** Read the relevance file in the `-R` format; an unknown format or bad file quits (exit 2). */
async function readRelInfo(
  format: string,
  file: string,
  conv: Conventions,
  io: TrecEvalIO,
  runFile: string,
): Promise<RelInfo> {
  let rel: RelInfo | null
  switch (format) {
    case 'qrels':
      return qrelsRelInfo(await readQrelsOrQuit(file, conv, io), conv, runFile)
    case 'prefs':
    case 'qrels_prefs':
      rel = await readPrefsRelInfo(file, format, conv, io)
      break
    case 'qrels_jg':
      rel = await readQrelsJgRelInfo(file, conv, io, runFile)
      break
    default:
      io.err(`trec_eval: Illegal rel_format '${format}'\n`)
      throw new Exit(2)
  }
  if (rel) return rel
  io.err(`trec_eval: Quit in file '${file}'\n`)
  throw new Exit(2)
}

/** A qrels file as relevance information: one judged ranking per query. */
function qrelsRelInfo(qrels: Qrels, conv: Conventions, runFile: string): RelInfo {
  const scratch = new IdSet()
  const grades = new GradeArena()
  return {
    queryIds: [...qrels.queries.keys()].sort(),
    has: (qid) => qrels.queries.has(qid),
    inputs(run) {
      let prepared: Prepared<JudgedRanking> | null = null
      const prepare = (): Prepared<JudgedRanking> => {
        const r = prepareQuery(qrels.queries.get(run.queryId)!, run, conv, {
          scratch,
          grades,
          refuseWithoutJudgments: true,
        })
        return r.ok
          ? { ok: true, value: r.ranking }
          : { ok: false, message: prepareFailureMessage(r.failure, run.queryId, runFile) }
      }
      return { qrels: () => (prepared ??= prepare()) }
    },
    completeNumRel: () => completeNumRel(qrels),
  }
}

async function readQrelsOrQuit(file: string, conv: Conventions, io: TrecEvalIO): Promise<Qrels> {
  let parsed: Awaited<ReturnType<typeof streamQrels>>
  try {
    parsed = await streamQrels(file, {
      comments: conv.comments,
      stopAtFirstError: true,
      syntax: 'c',
    })
  } catch (e) {
    if (e instanceof SourceError) {
      io.err(
        `trec_eval.get_qrels: Cannot read qrels file '${file}'\ntrecscore: ${e.message}\ntrec_eval: Quit in file '${file}'\n`,
      )
      throw new Exit(2)
    }
    throw e
  }
  if (parsed.bytes === 0) {
    io.err(
      `trec_eval.get_qrels: Cannot read qrels file '${file}'\ntrec_eval: Quit in file '${file}'\n`,
    )
    throw new Exit(2)
  }
  if (!parsed.ok) {
    const issue = parsed.issues[0]!
    io.err(`trec_eval.get_qrels: Malformed line ${parsed.malformedLineNumber}\n`)
    io.err(`trecscore: ${formatIssue(issue)}\n`)
    io.err(`trec_eval: Quit in file '${file}'\n`)
    throw new Exit(2)
  }
  return parsed.value
}
