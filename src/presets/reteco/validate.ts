/**
 * `validate --preset reteco-1a|1b|2a|2c`: the generic run validator ({@link RunValidator}) plus
 * a RETECO layer with the organizers' `format_checker.py` rules and the evaluation plan's rules.
 *
 * One read per file feeds both the generic validator and {@link FormatChecker} (a port of the
 * official checker); the layer turns what the checker's split of each line shows into RETECO
 * problems, all in the one {@link RunProblem} union:
 * - checker rules the generic checks lack: exactly 6 columns (`extra_fields`), `#` lines are run
 *   lines (`comment_line`), rank > 0 (`rank_not_positive`), the score rising down the file within
 *   a topic (`score_rises`, a warning, same rule and lines as the checker), topics not in the
 *   sub-track (`not_a_topic`, with a hint), documents not in the domain corpus (`doc_not_in_corpus`);
 * - plan rules: missing topics (`missing_topic`, `missing_domain_file`), duplicates (the generic
 *   `duplicate_doc` becomes the warning `duplicate_doc_dropped`: the plan drops them), depth over
 *   1,000 (`deeper_than_limit`, a warning), mixed run tags (generic), a rank column that orders a
 *   topic differently from the scores (`rank_order_differs`, replacing the generic line-pair
 *   `rank_score_order`), and a file with no topic of the sub-track at all (`no_known_topics`).
 *
 * Verdict: errors make a file fail, as in the checker. Each file carries the checker's own
 * verdict; where they differ, `differences` says which of our errors the checker accepts and why.
 */
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import { readChunks, SourceError } from '../../io/source.js'
import { explainCheckerDifference } from '../../validate/format-run-problem.js'
import {
  hasWhere,
  RUN_PROBLEM_CODES,
  RUN_PROBLEM_SEVERITY,
  type RunProblem,
  type RunProblemCode,
  type TopicHint,
  type Where,
} from '../../validate/run-problem.js'
import {
  type ProblemCount,
  type RunValidationReport,
  RunValidator,
} from '../../validate/validate-run.js'
import { loadRetecoData, readCorpusIds } from './data.js'
import { RetecoInputError } from './errors.js'
import { missingCorpusProblems } from './plan.js'
import {
  type CheckedLine,
  FORMAT_CHECKER_ERROR_KINDS,
  FormatChecker,
  type FormatCheckerResult,
} from './reference-ports/format-checker.js'
import { domainOfRunFile } from './runs.js'
import { parseTurnTopic, stepQueryOf } from './topics.js'
import { type RetecoDomainData, type RetecoSubtrack, topicQrels, trackOf } from './types.js'
import { loadRetecoTopicIndex, type RetecoTopicIndex, type TopicKind } from './validate-topics.js'

/** Most documents a RETECO topic may have (the task's run depth). */
export const RETECO_MAX_DEPTH = 1000

/** What one file is checked against: the sub-track's topics and corpora for it. */
export interface RetecoFileContext {
  readonly subtrack: RetecoSubtrack
  /** The split whose topics are expected (for hints). */
  readonly split: string
  /** The domain of a per-domain file; `null` for a single file holding every domain. */
  readonly domain: string | null
  /** Expected topics (binary strings) → their domain, in qrels order (the missing-topic order). */
  readonly topics: ReadonlyMap<string, string>
  /** Corpus ids per domain (binary strings). A domain without one is not checked. */
  readonly corpora: ReadonlyMap<string, ReadonlySet<string>>
  /** Where other topic ids belong (hints); empty when unknown. */
  readonly index: RetecoTopicIndex
  /** Topics of the sub-track and split in every domain → domains (other-domain hints). */
  readonly allTopics: ReadonlyMap<string, readonly string[]>
}

/** Options shared by {@link RetecoFileValidator} and {@link validateRetecoRun}. */
export interface RetecoValidateOptions {
  /** Problems listed per code (all are counted). @default 20 */
  readonly maxListed?: number
  /** Warnings fail the verdict too. @default false */
  readonly strict?: boolean
  /** Longest line checked. @default 16 MiB */
  readonly maxLineBytes?: number
  /**
   * Check a domain without `documents.jsonl` anyway (its doc ids cannot be checked; the plan
   * scorer then keeps them). Without it such a domain is an error (exit 2), as in `score`.
   * @default false
   */
  readonly allowMissingCorpus?: boolean
}

/** One of our error codes the checker does not share on a file, and why. */
export interface CheckerDifference {
  readonly code: RunProblemCode
  readonly count: number
  readonly reason: string
}

/** The RETECO validation of one run file. */
export interface RetecoFileValidation {
  /** The generic report layout, with the RETECO problems merged in (same renderers). */
  readonly report: RunValidationReport
  readonly domain: string | null
  /** What `format_checker.py` (with the domain's qrels and corpus) says about the file. */
  readonly checker: FormatCheckerResult
  /** Our verdict (no errors) equals the checker's (VALID). */
  readonly agrees: boolean
  /** When they disagree: our errors the checker accepts (or the checker's errors we do not share). */
  readonly differences: readonly CheckerDifference[]
}

interface TopicRows {
  docIds: string[]
  ranks: number[]
  scores: number[]
  /** Where the topic's first line is (`rank_order_differs` points there). */
  first: Where
}

/**
 * The RETECO layer over one file: {@link feed} chunks, then {@link end}. Pure (no I/O).
 *
 * @example
 * const v = new RetecoFileValidator('law.trec', context)
 * v.feed(bytes)
 * const { report, checker, agrees } = v.end()
 */
export class RetecoFileValidator {
  private readonly generic: RunValidator
  private readonly checker: FormatChecker
  private readonly ctx: RetecoFileContext
  private readonly maxListed: number
  private readonly strict: boolean
  private readonly extra = new Map<RunProblemCode, number>()
  private readonly listed: RunProblem[] = []
  private readonly seen = new Map<string, TopicRows>()
  private readonly fileCorpus: ReadonlySet<string> | null

  constructor(file: string, context: RetecoFileContext, options: RetecoValidateOptions = {}) {
    this.ctx = context
    this.maxListed = options.maxListed ?? 20
    this.strict = options.strict ?? false
    this.generic = new RunValidator({
      file,
      maxDepth: RETECO_MAX_DEPTH,
      maxListed: this.maxListed,
      strict: this.strict,
      // The checker rule below reports lines of more than 6 columns, with its own wording.
      extraFields: false,
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    })
    this.fileCorpus = context.domain === null ? null : (context.corpora.get(context.domain) ?? null)
    const corpora = [...context.corpora.values()]
    const docs =
      this.fileCorpus ??
      (corpora.length > 0 ? { has: (id: string) => corpora.some((c) => c.has(id)) } : undefined)
    this.checker = new FormatChecker({
      topics: new Set(context.topics.keys()),
      ...(docs ? { docs } : {}),
      onLine: (l) => this.line(l),
    })
  }

  /** Check the complete lines of `chunk`. */
  feed(chunk: Uint8Array): void {
    this.generic.feed(chunk)
    this.checker.feed(chunk)
  }

  /** The input could not be read to its end (`reason` as worded by the reader). */
  fail(reason: string): void {
    this.generic.fail(reason)
  }

  /** Finish and merge. */
  end(): RetecoFileValidation {
    const checker = this.checker.end()
    this.finish()
    const g = this.generic.end()
    const convert = (p: RunProblem): RunProblem | null => {
      if (p.code === 'rank_score_order') return null
      if (p.code === 'duplicate_doc') return { ...p, code: 'duplicate_doc_dropped' }
      if (p.code === 'too_deep') return { ...p, code: 'deeper_than_limit' }
      return p
    }
    const renamed: Partial<Record<RunProblemCode, RunProblemCode | null>> = {
      rank_score_order: null,
      duplicate_doc: 'duplicate_doc_dropped',
      too_deep: 'deeper_than_limit',
    }
    const counts = new Map<RunProblemCode, { count: number; listed: number }>()
    for (const c of g.counts) {
      const code = c.code in renamed ? renamed[c.code] : c.code
      if (code) counts.set(code, { count: c.count, listed: c.listed })
    }
    for (const [code, count] of this.extra) {
      const listed = this.listed.filter((p) => p.code === code).length
      counts.set(code, { count, listed })
    }
    const problems = [
      ...g.problems.map(convert).filter((p): p is RunProblem => p !== null),
      ...this.listed,
    ]
    const order = new Map(RUN_PROBLEM_CODES.map((c, i) => [c, i]))
    const key = (p: RunProblem): number =>
      hasWhere(p) ? p.line : p.code === 'empty_file' || p.code === 'no_run_lines' ? 0 : Infinity
    problems.sort(
      (a, b) =>
        key(a) - key(b) ||
        (hasWhere(a) ? a.column : 0) - (hasWhere(b) ? b.column : 0) ||
        order.get(a.code)! - order.get(b.code)!,
    )
    const list: ProblemCount[] = []
    let errors = 0
    let warnings = 0
    for (const code of RUN_PROBLEM_CODES) {
      const c = counts.get(code)
      if (!c) continue
      const severity = RUN_PROBLEM_SEVERITY[code]
      if (severity === 'error') errors += c.count
      else warnings += c.count
      list.push({ code, severity, count: c.count, listed: c.listed })
    }
    const report: RunValidationReport = {
      ...g,
      ok: errors === 0 && !(this.strict && warnings > 0),
      errors,
      warnings,
      counts: list,
      problems,
    }
    const agrees = (errors === 0) === checker.valid
    return {
      report,
      domain: this.ctx.domain,
      checker,
      agrees,
      differences: agrees ? [] : differencesOf(list, checker),
    }
  }

  private add(p: RunProblem): void {
    const n = (this.extra.get(p.code) ?? 0) + 1
    this.extra.set(p.code, n)
    if (n <= this.maxListed) this.listed.push(p)
  }

  private where(l: CheckedLine, field: number): Where {
    const raw = l.raw()
    const column = (l.offsets[field] ?? raw.length) + 1
    return { line: l.line, column, text: raw.slice(0, 400), lineBytes: raw.length }
  }

  private line(l: CheckedLine): void {
    const f = l.fields
    if (f[0]!.startsWith('#')) {
      this.add({ ...this.where(l, 0), code: 'comment_line', found: f.length })
      return
    }
    if (f.length < 6) return
    if (f.length > 6) this.add({ ...this.where(l, 6), code: 'extra_fields', found: f.length })
    const qid = f[0]!
    const docId = f[2]!
    let rows = this.seen.get(qid)
    if (!rows) {
      this.seen.set(qid, (rows = { docIds: [], ranks: [], scores: [], first: this.where(l, 3) }))
      if (!this.ctx.topics.has(qid)) this.add({ ...this.where(l, 0), ...this.notATopic(qid) })
    }
    const domain = this.ctx.domain ?? this.ctx.topics.get(qid) ?? null
    const corpus = domain === null ? null : (this.ctx.corpora.get(domain) ?? null)
    const known = corpus
      ? corpus.has(docId)
      : domain === null && this.ctx.corpora.size > 0
        ? [...this.ctx.corpora.values()].some((c) => c.has(docId))
        : true
    if (!known)
      this.add({ ...this.where(l, 2), code: 'doc_not_in_corpus', queryId: qid, docId, domain })
    if (l.rank !== null && l.rank <= 0)
      this.add({ ...this.where(l, 3), code: 'rank_not_positive', found: f[3]! })
    for (const x of l.findings) {
      if (x.kind === 'score_increases') {
        this.add({
          ...this.where(l, 4),
          code: 'score_rises',
          queryId: qid,
          score: x.score,
          previousScore: x.previousScore,
          previousLine: x.previousLine,
        })
      }
    }
    if (l.rank !== null && l.score !== null && Number.isFinite(l.score)) {
      rows.docIds.push(docId)
      rows.ranks.push(Number(l.rank))
      rows.scores.push(l.score)
    }
  }

  private notATopic(qid: string): Omit<Extract<RunProblem, { code: 'not_a_topic' }>, keyof Where> {
    const { subtrack, domain } = this.ctx
    const base = { code: 'not_a_topic' as const, queryId: qid, subtrack, domain }
    const hint = (
      h: TopicHint,
      suggestion: string | null,
    ): typeof base & { hint: TopicHint; suggestion: string | null } => ({
      ...base,
      hint: h,
      suggestion,
    })
    const track2 = trackOf(subtrack) === 'track2_recor'
    const pilot = /^(.*)#turn([0-9]+)$/.exec(qid)
    if (pilot)
      return track2
        ? hint('pilot_turn', `${pilot[1]}_turn_${pilot[2]}`)
        : hint('other_track', 'Track 2 (RECOR) pilot topic')
    const elsewhere = this.ctx.allTopics.get(qid)
    if (elsewhere && domain !== null && !elsewhere.includes(domain))
      return hint('other_domain', elsewhere.join(', '))
    const want: TopicKind = subtrack === '2c' ? '2a' : subtrack
    const places = this.ctx.index.get(qid) ?? []
    const sameSplit = places.filter((p) => p.split === this.ctx.split)
    for (const p of sameSplit.length ? sameSplit : places) {
      if (p.kind === want) {
        if (p.split !== this.ctx.split) return hint('other_split', p.split)
        if (domain !== null && p.domain !== domain) return hint('other_domain', p.domain)
        continue
      }
      if (want === '1a' && p.kind === '1b') return hint('step_id', stepQueryOf(qid))
      if (want === '1b' && p.kind === '1a') return hint('query_id', this.firstStepOf(qid))
      if (p.kind === '2a') return hint('other_track', 'Track 2 (RECOR) topic')
      if (want === '2a') return hint('other_track', 'Track 1 (TEMPO) topic')
      return hint('other_subtrack', p.kind)
    }
    const query = stepQueryOf(qid)
    if (want === '1b' && query !== null) {
      const steps = [...this.ctx.topics.keys()]
        .filter((t) => stepQueryOf(t) === query)
        .map((t) => t.slice(query.length + 1))
      if (steps.length) return hint('unknown_step', steps.join(', '))
    }
    if (want === '2a') {
      const conv = parseTurnTopic(qid).conversationId
      const turns = [...this.ctx.topics.keys()]
        .map(parseTurnTopic)
        .filter((t) => t.conversationId === conv && t.turnId !== null)
        .map((t) => t.turnId)
      if (conv !== qid && turns.length) return hint('unknown_turn', turns.join(', '))
    }
    if (want === '1a' && query !== null) return hint('step_id', query)
    if (want === '1b' && this.ctx.index.get(`${qid}_step1`)) return hint('query_id', `${qid}_step1`)
    return { ...base, hint: null, suggestion: null }
  }

  private firstStepOf(qid: string): string | null {
    for (const t of this.ctx.topics.keys()) if (stepQueryOf(t) === qid) return t
    return null
  }

  private finish(): void {
    for (const [qid, rows] of this.seen) {
      const diff = rankOrderDifference(rows)
      if (diff) {
        this.add({
          ...rows.first,
          code: 'rank_order_differs',
          queryId: qid,
          position: diff.position,
          byRank: diff.byRank,
          byScore: diff.byScore,
        })
      }
    }
    let knownSeen = 0
    for (const qid of this.seen.keys()) if (this.ctx.topics.has(qid)) knownSeen++
    if (this.seen.size > 0 && knownSeen === 0) {
      this.add({
        code: 'no_known_topics',
        subtrack: this.ctx.subtrack,
        domain: this.ctx.domain,
        topics: this.seen.size,
      })
    }
    for (const [qid, domain] of this.ctx.topics) {
      if (!this.seen.has(qid))
        this.add({ code: 'missing_topic', queryId: qid, subtrack: this.ctx.subtrack, domain })
    }
  }
}

/**
 * Where the rank column (`scorer.py`: rank ascending, then score descending) and the scores
 * (pytrec_eval and the plan: float32 score descending, then doc id descending) first put
 * different documents, or `null` when the orders agree.
 */
function rankOrderDifference(
  rows: TopicRows,
): { position: number; byRank: string; byScore: string } | null {
  const n = rows.docIds.length
  const idx = Array.from({ length: n }, (_, i) => i)
  const byRank = [...idx].sort(
    (a, b) => rows.ranks[a]! - rows.ranks[b]! || rows.scores[b]! - rows.scores[a]! || a - b,
  )
  const f = rows.scores.map((s) => Math.fround(s))
  const byScore = [...idx].sort(
    (a, b) =>
      f[b]! - f[a]! ||
      (rows.docIds[a]! < rows.docIds[b]! ? 1 : rows.docIds[a]! > rows.docIds[b]! ? -1 : 0) ||
      a - b,
  )
  for (let p = 0; p < n; p++) {
    const r = byRank[p]!
    const s = byScore[p]!
    if (rows.docIds[r] !== rows.docIds[s])
      return { position: p + 1, byRank: rows.docIds[r]!, byScore: rows.docIds[s]! }
  }
  return null
}

function differencesOf(
  counts: readonly ProblemCount[],
  checker: FormatCheckerResult,
): CheckerDifference[] {
  const out: CheckerDifference[] = []
  if (checker.valid) {
    for (const c of counts) {
      if (c.severity !== 'error') continue
      const reason = explainCheckerDifference(c.code)
      out.push({
        code: c.code,
        count: c.count,
        reason:
          reason ??
          'format_checker.py splits this line differently (Python universal newlines or Unicode whitespace)',
      })
    }
  } else if (checker.crashed) {
    out.push({
      code: 'invalid_utf8',
      count: 1,
      reason: `format_checker.py stops with a traceback (${checker.crashed}); trecscore reads the bytes as they are and warns`,
    })
  } else {
    for (const kind of FORMAT_CHECKER_ERROR_KINDS) {
      const count = checker.kinds[kind]
      if (count === 0) continue
      const code: RunProblemCode =
        kind === 'columns'
          ? 'field_count'
          : kind === 'rank'
            ? 'rank_not_an_integer'
            : kind === 'score'
              ? 'score_not_a_number'
              : 'duplicate_rank'
      out.push({
        code,
        count,
        reason: `format_checker.py reports ${count} "${kind}" ${count === 1 ? 'error' : 'errors'} that trecscore reads differently (Unicode whitespace or digits, a bare CR)`,
      })
    }
  }
  return out
}

/** The RETECO validation of a whole run (a file, or a directory with one file per domain). */
export interface RetecoValidation {
  readonly run: string
  readonly subtrack: RetecoSubtrack
  readonly split: string
  readonly layout: 'single-file' | 'per-domain'
  readonly files: readonly RetecoFileValidation[]
  /** Run-level problems: domains without a file, files named after no domain. */
  readonly problems: readonly RunProblem[]
  readonly errors: number
  readonly warnings: number
  readonly ok: boolean
  readonly strict: boolean
}

/** Options of {@link validateRetecoRun}. */
export interface ValidateRetecoRunOptions extends RetecoValidateOptions {
  readonly subtrack: RetecoSubtrack
  /** The data folder (release layout, or the pilot sample). */
  readonly data: string
  /** Split whose topics are expected. @default 'dev' */
  readonly split?: string
}

/**
 * The topics a run of a sub-track must cover in a domain: the qrels topics (1b: step qrels);
 * for a split without qrels (the hidden test) the task files' ids instead: 1a the examples'
 * query ids, 1b the steps' step ids, 2a/2c every turn `<conv_id>_turn_<turn_id>`.
 */
export function expectedTopics(d: RetecoDomainData, subtrack: RetecoSubtrack): string[] {
  const file = subtrack === '1b' ? d.stepQrelsFile : d.qrelsFile
  if (file !== null) return [...(topicQrels(d, subtrack)?.queries.keys() ?? [])]
  if (subtrack === '1a') return d.queries.map((q) => q.id)
  if (subtrack === '1b')
    return [...d.stepRecords.values()].flatMap((r) => r.steps.map((s) => s.stepId))
  return d.conversations.flatMap((c) => c.turns.map((t) => t.topicId))
}

/**
 * Validate a RETECO run against a data folder: a single file (Track 1: topics of every domain)
 * or a directory with one file per domain (`<domain>.<ext>`; Track 2 needs it, its topic ids
 * collide across domains). Throws {@link RetecoInputError} (exit 2) for unusable data or a run
 * that is neither a readable file nor a directory.
 *
 * @example
 * const v = await validateRetecoRun('runs/bm25', { subtrack: '2a', data: 'RETECO-SemEval2027' })
 * v.ok // false when any file has an error
 */
export async function validateRetecoRun(
  run: string,
  options: ValidateRetecoRunOptions,
): Promise<RetecoValidation> {
  const { subtrack } = options
  const track = trackOf(subtrack)
  const data = await loadRetecoData(options.data, {
    split: options.split ?? 'dev',
    tracks: [track],
  })
  const domains = track === 'track1_tempo' ? data.track1 : data.track2
  if (domains.size === 0)
    throw new RetecoInputError([`${options.data}: no ${track} domain for sub-track ${subtrack}`])
  const noCorpus = missingCorpusProblems(data, subtrack)
  if (noCorpus.problems.length && !options.allowMissingCorpus)
    throw new RetecoInputError(noCorpus.problems)
  const index = data.layout === 'release' ? await loadRetecoTopicIndex(options.data) : new Map()
  const topicsOf = new Map<string, string[]>()
  const allTopics = new Map<string, string[]>()
  for (const [d, dd] of domains) {
    const ids = expectedTopics(dd, subtrack)
    topicsOf.set(d, ids)
    for (const t of ids) {
      const list = allTopics.get(t)
      if (list) list.push(d)
      else allTopics.set(t, [d])
    }
  }
  const corpora = new Map<string, ReadonlySet<string>>()
  const corpusOf = async (d: string): Promise<void> => {
    const f = domains.get(d)?.corpusFile
    if (f && !corpora.has(d)) corpora.set(d, await readCorpusIds(f))
  }
  const st = await fsp.stat(run).catch(() => null)
  if (!st) throw new RetecoInputError([`${run}: cannot read: no such file or directory`])
  const files: RetecoFileValidation[] = []
  const problems: RunProblem[] = []
  const base = { subtrack, split: data.split, index, allTopics }
  if (st.isDirectory()) {
    const names = [...domains.keys()]
    const entries = (await fsp.readdir(run, { withFileTypes: true }))
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
    const byDomain = new Map<string, string>()
    for (const name of entries) {
      const d = domainOfRunFile(name, names)
      if (!d) problems.push({ code: 'stray_file', path: join(run, name), domains: names })
      else if (byDomain.has(d))
        throw new RetecoInputError([
          `${run}: two run files for domain ${d}: ${byDomain.get(d)} and ${name}`,
        ])
      else byDomain.set(d, name)
    }
    if (byDomain.size === 0) {
      throw new RetecoInputError([
        `${run}: no run file named after a domain (expected ${names
          .slice(0, 3)
          .map((n) => `${n}.trec`)
          .join(', ')}${names.length > 3 ? ', …' : ''})`,
      ])
    }
    for (const d of names) {
      const name = byDomain.get(d)
      if (!name) {
        problems.push({ code: 'missing_domain_file', domain: d, topics: topicsOf.get(d)!.length })
        continue
      }
      await corpusOf(d)
      const topics = new Map(topicsOf.get(d)!.map((t) => [t, d]))
      files.push(
        await validateFile(
          join(run, name),
          {
            ...base,
            domain: d,
            topics,
            corpora: new Map(corpora.has(d) ? [[d, corpora.get(d)!]] : []),
          },
          options,
        ),
      )
      corpora.clear()
    }
  } else {
    if (track === 'track2_recor' && domains.size > 1) {
      throw new RetecoInputError([
        `${run}: Track 2 runs must be a directory with one file per domain (${[...domains.keys()]
          .slice(0, 3)
          .map((d) => `${d}.trec`)
          .join(', ')}, …): turn topic ids such as "2_turn_1" repeat across domains`,
      ])
    }
    for (const d of domains.keys()) await corpusOf(d)
    const topics = new Map<string, string>()
    for (const [d, ids] of topicsOf) for (const t of ids) if (!topics.has(t)) topics.set(t, d)
    files.push(
      await validateFile(
        run,
        {
          ...base,
          domain: track === 'track2_recor' ? [...domains.keys()][0]! : null,
          topics,
          corpora,
        },
        options,
      ),
    )
  }
  let errors = 0
  let warnings = 0
  for (const f of files) (errors += f.report.errors), (warnings += f.report.warnings)
  for (const p of problems) RUN_PROBLEM_SEVERITY[p.code] === 'error' ? errors++ : warnings++
  const strict = options.strict ?? false
  return {
    run,
    subtrack,
    split: data.split,
    layout: st.isDirectory() ? 'per-domain' : 'single-file',
    files,
    problems,
    errors,
    warnings,
    ok: errors === 0 && !(strict && warnings > 0),
    strict,
  }
}

async function validateFile(
  file: string,
  ctx: RetecoFileContext,
  options: RetecoValidateOptions,
): Promise<RetecoFileValidation> {
  const v = new RetecoFileValidator(file, ctx, options)
  try {
    for await (const chunk of readChunks(file)) v.feed(chunk)
  } catch (e) {
    if (!(e instanceof SourceError)) throw e
    v.fail(e.reason)
  }
  return v.end()
}
