/**
 * The `official-baseline` convention set: the code behind RETECO's published baseline numbers,
 * reproduced exactly: `pytrec_eval` (trec_eval 9.0.8 inside) called by the organizers'
 * `official_baseline.calculate_retrieval_metrics`, then `official_baseline.main()`'s domain
 * macro (starter kit at levinhthuanle/RETECO `bb1f9343`; pytrec_eval-terrier 0.5.9).
 *
 * Per topic (pytrec_eval):
 * - the run file is read into a dict as the RETECO dataset card does
 *   (`q,_,d,rank,score,_tag = ln.split(); run[q][d] = float(score)`): **the last line of a
 *   duplicated doc wins**, the rank column is never read, whitespace-only lines are skipped;
 * - scores are stored as C `float` (float32); docs ordered by score descending, ties by doc id
 *   descending (byte order, trec_eval `comp_sim_docno`);
 * - **unknown doc ids stay in place** as non-relevant; run topics without qrels are ignored;
 *   **qrels topics missing from the run are excluded** (pytrec_eval returns no entry for them);
 * - measures `ndcg_cut.k`, `map_cut.k` (divided by R), `recall.k`, `P.k` for
 *   k = 1, 5, 10, 25, 50, 100 and `recip_rank` over the whole list (no cutoff).
 *
 * Per domain (`calculate_retrieval_metrics`): the mean of each measure over the evaluated topics,
 * summed in pytrec_eval's order (the run's topic order), then Python `round(·, 5)`, as keys
 * `NDCG@k`, `MAP@k`, `Recall@k`, `P@k`, `MRR`, plus `num_topics`; `{}` when no run topic is in
 * the qrels. Over domains (`main()`): each key's mean of the rounded domain values, rounded
 * again to 5 decimals, `num_topics` summed. 1b is scored on step topics, so it is a flat mean
 * over steps per domain, then the domain macro. A domain whose result is `{}` makes `main()`
 * raise `KeyError: 'NDCG@1'` (`'num_topics'` if it is the first domain): reported as such, with
 * the macro over the non-empty domains alongside.
 */

import { pytrecEval } from '../../../conventions/profiles.js'
import { decodeId, encodeId } from '../../../io/bytes.js'
import { averagePrecisionAt } from '../../../measures/average-precision.js'
import { ndcgAt } from '../../../measures/ndcg.js'
import { precision } from '../../../measures/precision.js'
import { recall } from '../../../measures/recall.js'
import { reciprocalRank } from '../../../measures/reciprocal-rank.js'
import type { Qrels, QueryJudgments, RunQuery } from '../../../model/types.js'
import { prepareQuery } from '../../../rank/prepare.js'
import { pythonFormatFixed, pythonRound } from '../../../report/python-round.js'
import {
  PythonError,
  pythonFloat,
  pythonIsBlank,
  pythonSplit,
  pythonTextLines,
  pythonUnpack,
} from './compat-python.js'

/** The cutoffs `official_baseline.K_VALUES` evaluates: 1, 5, 10, 25, 50, 100. */
export const OFFICIAL_K_VALUES: readonly number[] = [1, 5, 10, 25, 50, 100]

/** A run as the dataset-card snippet builds it: topic → (doc → score), insertion-ordered. */
export type PythonRunDict = ReadonlyMap<string, ReadonlyMap<string, number>>

/** Outcome of {@link readRunAsPythonDict}. */
export type PythonRunDictResult =
  | {
      readonly ok: true
      /** Topic and doc ids are binary strings (UTF-8 bytes), as trecscore's qrels ids. */
      readonly run: PythonRunDict
      /** Whether the literal snippet (which does not skip blank lines) reads the file. */
      readonly snippetLoads: boolean
      /** Its error when it does not, e.g. `ValueError: not enough values to unpack (expected 6, got 0)`. */
      readonly snippetError?: string
    }
  | {
      readonly ok: false
      /** The snippet's error on a malformed non-blank line (the run cannot be scored). */
      readonly error: string
      readonly snippetLoads: false
      readonly snippetError: string
    }

/**
 * Read a TREC run as the RETECO dataset card's snippet does, into `{qid: {docid: score}}`:
 * Python text (UTF-8, universal newlines), `ln.split()` into exactly 6 fields, `float(score)`;
 * a repeated (topic, doc) keeps its first position and its **last** score; the rank column and
 * run tag are not read. Whitespace-only lines are skipped (the literal snippet crashes on them:
 * `snippetLoads` says whether it would have read the file).
 */
export function readRunAsPythonDict(bytes: Uint8Array): PythonRunDictResult {
  const run = new Map<string, Map<string, number>>()
  let snippetError: string | undefined
  try {
    for (const { text } of pythonTextLines(bytes)) {
      const blank = pythonIsBlank(text)
      const f = pythonSplit(text)
      try {
        pythonUnpack(f, 6)
      } catch (e) {
        if (!(e instanceof PythonError)) throw e
        snippetError ??= e.message
        if (blank) continue
        throw e
      }
      const score = pythonFloat(f[4]!)
      const topic = encodeId(f[0]!)
      let docs = run.get(topic)
      if (!docs) run.set(topic, (docs = new Map()))
      docs.set(encodeId(f[2]!), score)
    }
  } catch (e) {
    if (!(e instanceof PythonError)) throw e
    return {
      ok: false,
      error: e.message,
      snippetLoads: false,
      snippetError: snippetError ?? e.message,
    }
  }
  return snippetError === undefined
    ? { ok: true, run, snippetLoads: true }
    : { ok: true, run, snippetLoads: false, snippetError }
}

/** pytrec_eval's per-topic values, keyed as it names them (`ndcg_cut_10`, `P_5`, `recip_rank`, …). */
export type PytrecTopicValues = Readonly<Record<string, number>>

/**
 * The judgments as the Python dict `{docid: grade}` pytrec_eval is given: a doc judged twice is
 * one entry (trec_eval would refuse the query), so R and the grade counts are recomputed from
 * the distinct docs. (Official `gt` is built from `gold_ids`, all grade 1.)
 */
function asDict(j: QueryJudgments): QueryJudgments {
  if (j.duplicateDocs.length === 0) return j
  const relLevels: number[] = []
  for (const g of j.grades.values()) {
    if (g < 0) continue
    while (relLevels.length <= g) relLevels.push(0)
    relLevels[g]!++
  }
  return { ...j, relLevels, duplicateDocs: [] }
}

/**
 * pytrec_eval's `evaluate()` on one domain: for each run topic that has qrels, in run order,
 * `ndcg_cut_k`, `map_cut_k`, `recall_k`, `P_k` (k in `kValues`) and `recip_rank`, with
 * trec_eval 9.0.8 semantics (float32 scores, ties by doc id descending, unknown docs kept as
 * non-relevant, `recip_rank` without cutoff, `map_cut` divided by R). Topics without qrels are
 * skipped, qrels topics without run lines are absent. Keys of the result are binary-string ids.
 */
export function pytrecEvaluate(
  qrels: Qrels,
  run: PythonRunDict,
  kValues: readonly number[] = OFFICIAL_K_VALUES,
): Map<string, PytrecTopicValues> {
  const out = new Map<string, PytrecTopicValues>()
  for (const [topic, docs] of run) {
    const judgments = qrels.queries.get(topic)
    if (!judgments) continue
    const query: RunQuery = {
      queryId: topic,
      docIds: [...docs.keys()],
      scores: [...docs.values()].map(Math.fround),
      ranks: null,
      lines: [],
    }
    const prepared = prepareQuery(asDict(judgments), query, pytrecEval)
    if (!prepared.ok) continue
    const q = prepared.ranking
    const ndcg = ndcgAt(q, kValues)
    const ap = averagePrecisionAt(q, kValues)
    const r = recall(q, kValues)
    const p = precision(q, kValues)
    const values: Record<string, number> = {}
    kValues.forEach((k, i) => (values[`ndcg_cut_${k}`] = ndcg[i]!))
    kValues.forEach((k, i) => (values[`map_cut_${k}`] = ap[i]!))
    kValues.forEach((k, i) => (values[`recall_${k}`] = r[i]!))
    kValues.forEach((k, i) => (values[`P_${k}`] = p[i]!))
    values['recip_rank'] = reciprocalRank(q)
    out.set(topic, values)
  }
  return out
}

/**
 * `official_baseline.calculate_retrieval_metrics` on pytrec_eval's per-topic values: for each
 * measure, Σ over topics in their order (float64, left to right, from 0) / n, then Python
 * `round(·, 5)`; keys `NDCG@k`…, `MAP@k`…, `Recall@k`…, `P@k`…, `MRR`, `num_topics` in that
 * order. An empty input gives `{}`, as the original.
 */
export function calculateRetrievalMetrics(
  scores: ReadonlyMap<string, PytrecTopicValues>,
  kValues: readonly number[] = OFFICIAL_K_VALUES,
): Readonly<Record<string, number>> {
  if (scores.size === 0) return {}
  const fields: [string, string][] = [
    ...kValues.map((k): [string, string] => [`NDCG@${k}`, `ndcg_cut_${k}`]),
    ...kValues.map((k): [string, string] => [`MAP@${k}`, `map_cut_${k}`]),
    ...kValues.map((k): [string, string] => [`Recall@${k}`, `recall_${k}`]),
    ...kValues.map((k): [string, string] => [`P@${k}`, `P_${k}`]),
    ['MRR', 'recip_rank'],
  ]
  const n = scores.size
  const out: Record<string, number> = {}
  for (const [name, key] of fields) {
    let sum = 0
    for (const v of scores.values()) sum += v[key]!
    out[name] = pythonRound(sum / n, 5)
  }
  out['num_topics'] = n
  return out
}

/** Inputs of one domain for {@link officialBaseline}. */
export interface OfficialBaselineDomainInput {
  readonly domain: string
  /** The domain's qrels for the scored sub-track and split (the official `gt`). */
  readonly qrels: Qrels
  /** The domain's run file. */
  readonly run: Uint8Array
}

/** What {@link officialBaseline} reports for one domain. */
export interface OfficialBaselineDomain {
  readonly domain: string
  /** Whether the dataset card's literal snippet reads the run (it crashes on blank lines). */
  readonly snippetLoads: boolean
  readonly snippetError?: string
  /** Set when the run cannot be read at all (malformed non-blank line); nothing else is then. */
  readonly error?: string
  /** `calculate_retrieval_metrics` output (rounded to 5 decimals); `{}` when no topic was evaluated. */
  readonly metrics: Readonly<Record<string, number>>
  /** pytrec_eval per-topic values, full precision, in its order; topic ids decoded to text. */
  readonly perTopic: ReadonlyMap<string, PytrecTopicValues>
  readonly numTopicsEvaluated: number
  readonly numQrelsTopics: number
  /** Qrels topics (in qrels order, decoded) absent from the run: excluded, not scored 0. */
  readonly topicsMissingFromRun: readonly string[]
  /** Unrounded means of the per-topic values; null when no topic was evaluated. */
  readonly unroundedMeans: PytrecTopicValues | null
}

/** What {@link officialBaseline} reports: per domain, the official macro, and diagnostics. */
export interface OfficialBaselineResult {
  /** `main()`'s result key, e.g. `1a_dev`. */
  readonly key: string
  readonly domains: readonly OfficialBaselineDomain[]
  /**
   * `main()`'s macro: per key, the domain mean of the rounded domain values, rounded to 5
   * decimals, `num_topics` summed. null when `main()` fails (see `macroError`).
   */
  readonly macro: Readonly<Record<string, number>> | null
  /** Why there is no macro: `KeyError: 'NDCG@1'` (an empty domain), or an unreadable run. */
  readonly macroError?: string
  /** The same macro over the domains with a non-empty result only (no `num_topics`). */
  readonly macroOverNonemptyDomains: Readonly<Record<string, number>> | null
  /** Number of domains in `macroOverNonemptyDomains`. */
  readonly domainsInMacro: number
  /** `main()`'s summary line for this key (`  track1_tempo   1a_dev     nDCG@10 0.0542 …`); null when it fails. */
  readonly summaryLine: string | null
  /** Mean over non-empty domains of their unrounded means (no rounding anywhere). */
  readonly unroundedDomainMacro: PytrecTopicValues | null
  /** Mean over every evaluated topic of all domains, in domain then topic order. */
  readonly unroundedPooledOverEvaluatedTopics: PytrecTopicValues | null
}

function meanOf(rows: readonly PytrecTopicValues[]): PytrecTopicValues | null {
  if (rows.length === 0) return null
  const out: Record<string, number> = {}
  for (const key of Object.keys(rows[0]!)) {
    let s = 0
    for (const r of rows) s += r[key]!
    out[key] = s / rows.length
  }
  return out
}

/** `main()`'s `{m: round(sum(v[m] for v in vals) / len(vals), 5) for m in vals[0] if m != "num_topics"}`. */
function roundedMacro(vals: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const m of Object.keys(vals[0]!)) {
    if (m === 'num_topics') continue
    let s = 0
    for (const v of vals) {
      if (!(m in v)) throw new PythonError('KeyError', `'${m}'`)
      s += v[m]!
    }
    out[m] = pythonRound(s / vals.length, 5)
  }
  return out
}

/**
 * Score one sub-track and split over the given domains (in the order given: `main()` follows
 * its `--track1` / `--track2` arguments, or the sorted folder names) exactly as
 * `official_baseline.py` with `pytrec_eval` does. See the module comment for every convention.
 *
 * @example
 * const r = officialBaseline('track1_tempo', '1a_dev', [{ domain: 'bitcoin', qrels, run }])
 * r.macro?.['NDCG@10'] // 0.05306: the official, 5-decimal value
 */
export function officialBaseline(
  track: string,
  key: string,
  inputs: readonly OfficialBaselineDomainInput[],
): OfficialBaselineResult {
  const domains: OfficialBaselineDomain[] = []
  let unreadable = false
  // One single-file run is given to every domain: read it into the dict once.
  const reads = new Map<Uint8Array, PythonRunDictResult>()
  for (const input of inputs) {
    const read = reads.get(input.run) ?? readRunAsPythonDict(input.run)
    reads.set(input.run, read)
    const numQrelsTopics = input.qrels.queries.size
    const snippet = read.snippetLoads
      ? { snippetLoads: true }
      : { snippetLoads: false, snippetError: read.snippetError! }
    if (!read.ok) {
      unreadable = true
      domains.push({
        domain: input.domain,
        ...snippet,
        error: read.error,
        metrics: {},
        perTopic: new Map(),
        numTopicsEvaluated: 0,
        numQrelsTopics,
        topicsMissingFromRun: [],
        unroundedMeans: null,
      })
      continue
    }
    const scores = pytrecEvaluate(input.qrels, read.run)
    const perTopic = new Map([...scores].map(([t, v]) => [decodeId(t), v] as const))
    domains.push({
      domain: input.domain,
      ...snippet,
      metrics: calculateRetrievalMetrics(scores),
      perTopic,
      numTopicsEvaluated: scores.size,
      numQrelsTopics,
      topicsMissingFromRun: [...input.qrels.queries.keys()]
        .filter((t) => !read.run.has(t))
        .map(decodeId),
      unroundedMeans: meanOf([...scores.values()]),
    })
  }
  const nonempty = domains.filter((d) => d.numTopicsEvaluated > 0)
  const unroundedDomainMacro = meanOf(nonempty.map((d) => d.unroundedMeans!))
  const unroundedPooledOverEvaluatedTopics = meanOf(
    nonempty.flatMap((d) => [...d.perTopic.values()]),
  )
  const macroOverNonemptyDomains = nonempty.length
    ? roundedMacro(nonempty.map((d) => d.metrics))
    : null
  const common = {
    key,
    domains,
    macroOverNonemptyDomains,
    domainsInMacro: nonempty.length,
    unroundedDomainMacro,
    unroundedPooledOverEvaluatedTopics,
  }
  if (unreadable)
    return { ...common, macro: null, macroError: 'a domain could not be loaded', summaryLine: null }
  // main(): every domain whose loader produced topics holds this key (a `{}` result included).
  const vals = domains.filter((d) => d.numQrelsTopics > 0).map((d) => d.metrics)
  if (vals.length === 0)
    return {
      ...common,
      macro: null,
      macroError: 'no domain has topics for this key',
      summaryLine: null,
    }
  let macro: Record<string, number>
  try {
    macro = roundedMacro(vals)
    let topics = 0
    for (const v of vals) {
      if (!('num_topics' in v)) throw new PythonError('KeyError', "'num_topics'")
      topics += v['num_topics']!
    }
    macro['num_topics'] = topics
  } catch (e) {
    if (!(e instanceof PythonError)) throw e
    return { ...common, macro: null, macroError: e.message, summaryLine: null }
  }
  const f = (m: string): string => pythonFormatFixed(macro[m]!, 4)
  const summaryLine = `  ${track.padEnd(14, ' ')} ${key.padEnd(10, ' ')} nDCG@10 ${f('NDCG@10')}   MAP@10 ${f('MAP@10')}  Recall@10 ${f('Recall@10')}  MRR ${f('MRR')}  (${macro['num_topics']} topics)`
  return { ...common, macro, summaryLine }
}
