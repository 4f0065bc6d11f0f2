/**
 * The `scorer-py` convention set: the RETECO organizers' pure-Python scorer (`scorer.py` with
 * `ir_metrics.py`, starter kit at levinhthuanle/RETECO `bb1f9343`), reproduced exactly,
 * including its printed output, its rounding and its crashes.
 *
 * What it does, and where that differs from the evaluation plan:
 * - qrels: `qid _ docid rel` per non-blank line; a topic's gold set is the docs with rel > 0.
 *   Topics scored = gold topics present in the run, in qrels order (**missing topics excluded**).
 * - run: `qid Q0 docid rank score tag`; each topic ordered by **(rank ascending, score
 *   descending)**, file order on full ties: the **rank column** decides, not the score.
 *   **Duplicates are kept** (a doc listed twice earns gain twice: nDCG can exceed 1) and
 *   **unknown doc ids are kept** (non-relevant).
 * - nDCG@k binary: DCG = Σ_{i≤k} [d_i ∈ gold] / log2(i+1), IDCG over min(|gold|, k) ones; 0 if
 *   IDCG = 0. TP@k = Σ_{i≤n} w_i·[d_i ∈ gold] / Σ_{i≤n} w_i with w_i = 1/log2(i+1),
 *   n = min(k, len); TR@k = |top n ∩ gold| / n (both 0 for an empty ranking); TC@k = covered
 *   steps / steps of the query in `--steps` (a step is covered when one of its gold ids is in
 *   the top k), None (left out) without steps; NDCG|FC@k = mean nDCG over topics with TC = 1,
 *   **0.0 when there is none**.
 * - means are plain left-to-right float sums / count (None dropped; 0.0 for an empty list),
 *   then Python `round(·, 4)`; printed with Python `repr` (`0.26`, `0.0`), text or `--json`.
 * - Track 2 adds `by_turn`: mean nDCG per bucket T1..T4, T5+ (turn ≥ 5), T? (unparsable), from
 *   the topic id after its last `_turn_`, buckets in sorted order.
 * - a line without exactly 6 fields, a rank that is not an int or a score that is not a float
 *   crashes it (exit 1); {@link scorerPy} returns that traceback line as `error`.
 */
import { pythonFloatRepr, pythonRound } from '../../../report/python-round.js'
import {
  comparePythonStr,
  PythonError,
  pythonFloat,
  pythonInt,
  pythonIsBlank,
  pythonSplit,
  pythonStrRepr,
  pythonTextLines,
  pythonUnpack,
} from './compat-python.js'

/** Inputs of one `scorer.py` call: the bytes of the files it is given. */
export interface ScorerPyInput {
  /** `--track`: 1 (temporal diagnostics) or 2 (by_turn buckets). */
  readonly track: 1 | 2
  /** `--run`: the TREC run file. */
  readonly run: Uint8Array
  /** `--qrels`: the qrels file. */
  readonly qrels: Uint8Array
  /** `--steps` (Track 1): the `steps_<split>.jsonl` file defining required periods. */
  readonly steps?: Uint8Array
  /** `--k`, default 10. */
  readonly k?: number
}

/** Unrounded values of one scored topic, as `ir_metrics` computes them. */
export interface ScorerPyTopic {
  /** Topic id (decoded text). */
  readonly topic: string
  /** Binary nDCG@k (can exceed 1 with duplicates). */
  readonly nDCG: number
  /** Track 1: TP@k. */
  readonly TP?: number
  /** Track 1: TR@k. */
  readonly TR?: number
  /** Track 1: TC@k; null when the topic has no steps (left out of the TC mean). */
  readonly TC?: number | null
  /** Track 2: turn bucket (`T1`…`T4`, `T5+`, `T?`). */
  readonly bucket?: string
  /** The top k doc ids in `scorer.py`'s order (duplicates and unknown ids included). */
  readonly rankingTopK: readonly string[]
}

/**
 * The result dict `scorer.py` prints, values already rounded to 4 decimals, keys in its order:
 * `k`, `num_topics`, `nDCG@k`, then Track 1 `TP@k`, `TR@k`, `TC@k`, `NDCG|FC@k`,
 * `num_full_coverage`, or Track 2 `by_turn`.
 */
export type ScorerPyResult = ReadonlyArray<
  readonly [key: string, value: number | ReadonlyArray<readonly [bucket: string, value: number]>]
>

/** Outcome of {@link scorerPy}: what the script prints (text and `--json`), or its crash. */
export type ScorerPyOutput =
  | {
      readonly ok: true
      readonly exitCode: 0
      /** The result dict, rounded as printed. */
      readonly result: ScorerPyResult
      /** Per scored topic, unrounded, in scoring order (qrels order). */
      readonly perTopic: readonly ScorerPyTopic[]
      /** Unrounded means (before `round(·, 4)`): nDCG, TP, TR, TC, NDCG|FC (Track 1) or nDCG. */
      readonly unroundedMeans: Readonly<Record<string, number>>
      /** Exact stdout without `--json`. */
      readonly text: string
      /** Exact stdout with `--json`. */
      readonly json: string
    }
  | {
      readonly ok: false
      readonly exitCode: 1
      /** Last line of the traceback, e.g. `ValueError: invalid literal for int() with base 10: '3.0'`. */
      readonly error: string
    }

interface RunRow {
  readonly rank: number | bigint
  readonly score: number
  readonly doc: string
}

/** `scorer.load_qrels`: topic → gold set (rel > 0), in first-appearance order. */
function loadQrels(bytes: Uint8Array): Map<string, Set<string>> {
  const gold = new Map<string, Set<string>>()
  for (const { text } of pythonTextLines(bytes)) {
    if (pythonIsBlank(text)) continue
    const f = pythonSplit(text)
    pythonUnpack(f, 4)
    if (pythonInt(f[3]!) > 0) {
      let g = gold.get(f[0]!)
      if (!g) gold.set(f[0]!, (g = new Set()))
      g.add(f[2]!)
    }
  }
  return gold
}

/** `(r[0], -r[1])` tuple order of `load_run`'s sort key; 0 = equal (stable sort keeps file order). */
function compareRows(a: RunRow, b: RunRow): number {
  if (a.rank < b.rank) return -1
  if (a.rank > b.rank) return 1
  const x = -a.score
  const y = -b.score
  // Tuple comparison: equal first elements, then the second decides; NaN is never < or ==.
  if (x < y) return -1
  if (y < x) return 1
  return 0
}

/** `scorer.load_run`: topic → doc ids in (rank asc, score desc) order, duplicates kept. */
function loadRun(bytes: Uint8Array): Map<string, string[]> {
  const ranked = new Map<string, RunRow[]>()
  for (const { text } of pythonTextLines(bytes)) {
    if (pythonIsBlank(text)) continue
    const f = pythonSplit(text)
    pythonUnpack(f, 6)
    const rank = pythonInt(f[3]!)
    const score = pythonFloat(f[4]!)
    let rows = ranked.get(f[0]!)
    if (!rows) ranked.set(f[0]!, (rows = []))
    rows.push({ rank, score, doc: f[2]! })
  }
  const out = new Map<string, string[]>()
  for (const [qid, rows] of ranked)
    out.set(
      qid,
      rows.sort(compareRows).map((r) => r.doc),
    )
  return out
}

/** `scorer.load_steps`: query id → one gold set per step (in file order, steps merged per id). */
function loadSteps(bytes: Uint8Array): Map<string, Set<string>[]> {
  const periods = new Map<string, Set<string>[]>()
  for (const { text } of pythonTextLines(bytes)) {
    if (pythonIsBlank(text)) continue
    let rec: unknown
    try {
      rec = JSON.parse(text)
    } catch (e) {
      throw new PythonError('json.decoder.JSONDecodeError', (e as Error).message)
    }
    if (typeof rec !== 'object' || rec === null || Array.isArray(rec))
      throw new PythonError(
        'AttributeError',
        `'${Array.isArray(rec) ? 'list' : typeof rec}' object has no attribute 'get'`,
      )
    const r = rec as Record<string, unknown>
    const steps = 'steps' in r ? r['steps'] : []
    if (!Array.isArray(steps))
      throw new PythonError(
        'TypeError',
        `'${steps === null ? 'NoneType' : typeof steps}' object is not iterable`,
      )
    for (const st of steps) {
      if (!('id' in r)) throw new PythonError('KeyError', "'id'")
      const id = r['id']
      const gold =
        typeof st === 'object' && st !== null && 'gold_ids' in st
          ? (st as Record<string, unknown>)['gold_ids']
          : []
      // A non-string id or gold id can never equal a topic or doc id read from text: skip it.
      if (typeof id !== 'string') continue
      let list = periods.get(id)
      if (!list) periods.set(id, (list = []))
      const ids = typeof gold === 'string' ? [...gold] : Array.isArray(gold) ? gold : []
      list.push(new Set(ids.filter((g): g is string => typeof g === 'string')))
    }
  }
  return periods
}

/** Python slice `xs[:k]` (negative k counts from the end). */
function head<T>(xs: readonly T[], k: number): T[] {
  return k >= 0 ? xs.slice(0, k) : xs.slice(0, Math.max(0, xs.length + k))
}

/** `ir_metrics._dcg`: Σ_i rel_i / log2(i + 2), summed left to right. */
function dcg(rels: readonly number[]): number {
  let s = 0
  for (let i = 0; i < rels.length; i++) s += rels[i]! / Math.log2(i + 2)
  return s
}

/**
 * `ir_metrics.ndcg_at_k`: binary nDCG@k = DCG(top k) / DCG of min(|gold|, k) ones; 0.0 when that
 * ideal is 0. Duplicates in `ranked` count each time.
 */
export function scorerPyNdcg(
  ranked: readonly string[],
  gold: ReadonlySet<string>,
  k: number,
): number {
  const grades = head(ranked, k).map((d) => (gold.has(d) ? 1 : 0))
  const idcg = dcg(new Array<number>(Math.max(0, Math.min(gold.size, k))).fill(1))
  return idcg > 0 ? dcg(grades) / idcg : 0
}

/** `ir_metrics.temporal_relevance_at_k`: |top n ∩ relevant| / n, n = min(k, len); 0.0 if empty. */
export function scorerPyTemporalRelevance(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  const top = head(ranked, k)
  if (top.length === 0) return 0
  let hits = 0
  for (const d of top) if (relevant.has(d)) hits++
  return hits / top.length
}

/**
 * `ir_metrics.temporal_precision_at_k`: Σ_{i≤n} w_i·[d_i relevant] / Σ_{i≤n} w_i with
 * w_i = 1/log2(i+1), n = min(k, len); 0.0 for an empty ranking.
 */
export function scorerPyTemporalPrecision(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  let num = 0
  let den = 0
  const top = head(ranked, k)
  for (let i = 0; i < top.length; i++) {
    const w = 1 / Math.log2(i + 2)
    den += w
    if (relevant.has(top[i]!)) num += w
  }
  return den > 0 ? num / den : 0
}

/**
 * `ir_metrics.temporal_coverage_at_k`: share of the periods (gold sets) with at least one doc in
 * the top k; null (left out of the mean) when there are no periods.
 */
export function scorerPyTemporalCoverage(
  ranked: readonly string[],
  periods: readonly ReadonlySet<string>[],
  k: number,
): number | null {
  if (periods.length === 0) return null
  const top = new Set(head(ranked, k))
  let covered = 0
  for (const gs of periods) {
    for (const d of gs) {
      if (top.has(d)) {
        covered++
        break
      }
    }
  }
  return covered / periods.length
}

/** `ir_metrics.mean`: left-to-right sum / count over the non-null values; 0.0 when none. */
function mean(xs: readonly (number | null)[]): number {
  let s = 0
  let n = 0
  for (const x of xs) {
    if (x === null) continue
    s += x
    n++
  }
  return n ? s / n : 0
}

/**
 * `scorer.turn_bucket`: the int after the last `_turn_` of the topic id → `T<n>`, or `T5+` for
 * n ≥ 5; `T?` when there is no `_turn_` or the rest is not an int (Python `int()` syntax).
 */
export function scorerPyTurnBucket(topic: string): string {
  const at = topic.lastIndexOf('_turn_')
  if (at < 0) return 'T?'
  let t: number | bigint
  try {
    t = pythonInt(topic.slice(at + 6))
  } catch {
    return 'T?'
  }
  return t >= 5 ? 'T5+' : `T${t}`
}

/** Python's `repr` (text) or `json.dumps(indent=2)` (json) of the by_turn dict. */
function bucketsText(v: ReadonlyArray<readonly [string, number]>, style: 'text' | 'json'): string {
  if (style === 'text')
    return `{${v.map(([b, x]) => `${pythonStrRepr(b)}: ${pythonFloatRepr(x)}`).join(', ')}}`
  if (v.length === 0) return '{}'
  return `{\n${v.map(([b, x]) => `    ${JSON.stringify(b)}: ${pythonFloatRepr(x)}`).join(',\n')}\n  }`
}

/** Keys of the result whose values are Python ints (printed without ".0"). */
const INT_KEYS = new Set(['k', 'num_topics', 'num_full_coverage'])

function render(
  track: 1 | 2,
  result: ScorerPyResult,
  official: string,
): { text: string; json: string } {
  const num = (key: string, v: number): string =>
    INT_KEYS.has(key) ? String(v) : pythonFloatRepr(v)
  const topics = result.find(([key]) => key === 'num_topics')![1] as number
  let text = `# RETECO Track ${track} -- ${topics} topics scored\n`
  for (const [key, v] of result) {
    if (key === 'k' || key === 'num_topics') continue
    const shown = typeof v === 'number' ? num(key, v) : bucketsText(v, 'text')
    text += `  ${key.padEnd(14, ' ')} ${shown}${key === official ? '  <-- OFFICIAL' : ''}\n`
  }
  const body = result.map(
    ([key, v]) =>
      `  ${JSON.stringify(key)}: ${typeof v === 'number' ? num(key, v) : bucketsText(v, 'json')}`,
  )
  return { text, json: `{\n${body.join(',\n')}\n}\n` }
}

/**
 * Run `scorer.py --track T --run RUN --qrels QRELS [--steps STEPS] [--k K]` on file contents:
 * returns its result, per-topic values and exact stdout (text and `--json`), or, where the
 * script crashes on malformed input, `ok: false` with the traceback's last line.
 *
 * @example
 * const out = scorerPy({ track: 1, run, qrels, steps })
 * if (out.ok) process.stdout.write(out.text)  // "# RETECO Track 1 -- 12 topics scored\n  nDCG@10 …"
 */
export function scorerPy(input: ScorerPyInput): ScorerPyOutput {
  try {
    return score(input)
  } catch (e) {
    if (e instanceof PythonError) return { ok: false, exitCode: 1, error: e.message }
    throw e
  }
}

function score(input: ScorerPyInput): ScorerPyOutput {
  const k = input.k ?? 10
  const gold = loadQrels(input.qrels)
  const run = loadRun(input.run)
  const qids = [...gold.keys()].filter((q) => run.has(q))
  const official = `nDCG@${k}`
  const perTopic: ScorerPyTopic[] = []
  let result: ScorerPyResult
  let unroundedMeans: Record<string, number>
  if (input.track === 1) {
    const periods = input.steps ? loadSteps(input.steps) : new Map<string, Set<string>[]>()
    const ndcgs: number[] = []
    const tps: number[] = []
    const trs: number[] = []
    const tcs: (number | null)[] = []
    const fc: number[] = []
    for (const q of qids) {
      const docs = run.get(q)!
      const g = gold.get(q)!
      const nd = scorerPyNdcg(docs, g, k)
      const tr = scorerPyTemporalRelevance(docs, g, k)
      const tp = scorerPyTemporalPrecision(docs, g, k)
      const tc = scorerPyTemporalCoverage(docs, periods.get(q) ?? [], k)
      ndcgs.push(nd)
      trs.push(tr)
      tps.push(tp)
      tcs.push(tc)
      if (tc === 1) fc.push(nd)
      perTopic.push({ topic: q, nDCG: nd, TP: tp, TR: tr, TC: tc, rankingTopK: head(docs, k) })
    }
    unroundedMeans = {
      nDCG: mean(ndcgs),
      TP: mean(tps),
      TR: mean(trs),
      TC: mean(tcs),
      'NDCG|FC': mean(fc),
    }
    result = [
      ['k', k],
      ['num_topics', qids.length],
      [official, pythonRound(unroundedMeans['nDCG']!, 4)],
      [`TP@${k}`, pythonRound(unroundedMeans['TP']!, 4)],
      [`TR@${k}`, pythonRound(unroundedMeans['TR']!, 4)],
      [`TC@${k}`, pythonRound(unroundedMeans['TC']!, 4)],
      [`NDCG|FC@${k}`, pythonRound(unroundedMeans['NDCG|FC']!, 4)],
      ['num_full_coverage', tcs.filter((t) => t === 1).length],
    ]
  } else {
    const byTurn = new Map<string, number[]>()
    const all: number[] = []
    for (const q of qids) {
      const docs = run.get(q)!
      const nd = scorerPyNdcg(docs, gold.get(q)!, k)
      const bucket = scorerPyTurnBucket(q)
      all.push(nd)
      let list = byTurn.get(bucket)
      if (!list) byTurn.set(bucket, (list = []))
      list.push(nd)
      perTopic.push({ topic: q, nDCG: nd, bucket, rankingTopK: head(docs, k) })
    }
    unroundedMeans = { nDCG: mean(all) }
    const buckets = [...byTurn]
      .sort((a, b) => comparePythonStr(a[0], b[0]))
      .map(([b, v]) => [b, pythonRound(mean(v), 4)] as const)
    result = [
      ['k', k],
      ['num_topics', qids.length],
      [official, pythonRound(unroundedMeans['nDCG']!, 4)],
      ['by_turn', buckets],
    ]
  }
  return {
    ok: true,
    exitCode: 0,
    result,
    perTopic,
    unroundedMeans,
    ...render(input.track, result, official),
  }
}

/** One domain's files for {@link scorerPyPooled}. */
export interface ScorerPyDomainFiles {
  readonly domain: string
  readonly run: Uint8Array
  readonly qrels: Uint8Array
  readonly steps?: Uint8Array
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * Track 1 pooled over domains, as recorded for the organizers' scorer: the domains' run, qrels
 * and steps files concatenated byte for byte (`cat`) in sorted domain order, then one
 * {@link scorerPy} call. Track 1 ids are unique across domains, so this is a query-level macro
 * over all domains. (Track 2 cannot be pooled: its topic ids collide across domains.)
 */
export function scorerPyPooled(domains: readonly ScorerPyDomainFiles[], k = 10): ScorerPyOutput {
  const sorted = [...domains].sort((a, b) => comparePythonStr(a.domain, b.domain))
  const withSteps = sorted.filter((d) => d.steps)
  return scorerPy({
    track: 1,
    run: concat(sorted.map((d) => d.run)),
    qrels: concat(sorted.map((d) => d.qrels)),
    ...(withSteps.length ? { steps: concat(withSteps.map((d) => d.steps!)) } : {}),
    k,
  })
}
