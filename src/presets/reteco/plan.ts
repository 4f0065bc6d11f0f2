/**
 * The `plan` convention set: RETECO scored by the evaluation plan's written rules
 * (datascienceuibk.github.io/RETECO/evaluation.html) plus the choices of the conformance README
 * §5(d), for sub-tracks 1a, 1b, 2a and 2c (2c retrieval is scored as 2a).
 *
 * Per topic (a 1a query, a 1b step, a 2a/2c turn keyed by (domain, topic)):
 * 1. the run's lines of the topic; unknown doc ids (not in the domain's `documents.jsonl`,
 *    byte-exact) are discarded first, before any cut;
 * 2. ordered by score descending after rounding to float32 (`Math.fround`, as pytrec_eval),
 *    ties by doc id descending in byte order, then line order; the rank column is ignored
 *    (a topic whose rank column disagrees is reported);
 * 3. duplicates removed after their first occurrence in that order (the highest-scored copy);
 * 4. measured with binary relevance (grade ≥ 1), R = the topic's relevant qrels:
 *    - nDCG@10 = Σ_{i≤10} rel_i / log2(i+1) / Σ_{i≤min(R,10)} 1 / log2(i+1)
 *    - MAP@10 = Σ_{relevant r ≤ 10} P@r / R   (divided by R, trec_eval `map_cut.10`)
 *    - Recall@10 = hits@10 / R,  P@10 = hits@10 / 10 (even when fewer were retrieved)
 *    - MRR = 1 / rank of the first relevant doc in the whole cleaned list (no cutoff)
 *    - TP@10, TR@10, TP-TEMPO@10 and (1a) TC@10 from the temporal label provider (`temporal.ts`,
 *      `labels.ts`; offline by default: qrels and steps).
 * A qrels topic missing from the run scores 0 on every measure (TC 0 when the query has
 * required periods, else undefined) and is counted; a topic left empty by cleaning scores 0
 * (`empty_after_cleaning`). Run topics without qrels are ignored and counted.
 *
 * Aggregation (left-to-right sums in domain-name order, then qrels-file topic order), stated as
 * data ({@link PLAN_AGGREGATIONS}) and computed by the engine (`evaluate/aggregations.ts`):
 * - 1a: `queryMacro` (headline, pooled over domains), `perDomain`, `domainMacro`; TC@10 over
 *   queries with a defined TC, nDCG|FC@10 over queries with TC = 1 (`null` when none), with
 *   their counts.
 * - 1b: per query the mean over its qrels steps (missing steps 0), then `queryMacro` (headline);
 *   `stepMacro` (flat over steps), `perDomain` (both), `domainMacroOfQueryMeans`,
 *   `domainMacroOfStepMeans`, `perQuery`. TC and nDCG|FC are not defined for 1b.
 * - 2a/2c: `turnMacro` (headline), `perDomain`, `domainMacro`, `byTurnDepth` (T1..T4, T5+, T?),
 *   `byTurnDepthPerDomain`, `conversationMacroPerDomain` and `conversationThenDomainMacro`
 *   (turns averaged per conversation, conversations per domain, then domains).
 */
import type { Conventions } from '../../conventions/conventions.js'
import { trecEvalV9 } from '../../conventions/profiles.js'
import {
  type AggregationColumn,
  type AggregationRow,
  type AggregationSpec,
  aggregateAll,
  type QueryTable,
} from '../../evaluate/aggregations.js'
import { decodeId } from '../../io/bytes.js'
import { averagePrecisionAt } from '../../measures/average-precision.js'
import { ndcgAt } from '../../measures/ndcg.js'
import { precision } from '../../measures/precision.js'
import { recall } from '../../measures/recall.js'
import { reciprocalRank } from '../../measures/reciprocal-rank.js'
import {
  temporalCoverage,
  temporalPrecisionReteco,
  temporalPrecisionTempo,
  temporalRelevance,
} from '../../measures/temporal.js'
import { NOT_POOLED, type QueryJudgments, type RunQuery } from '../../model/types.js'
import type { JudgedRanking } from '../../rank/judged-ranking.js'
import { orderDocs } from '../../rank/prepare.js'
import {
  type MacroSummary,
  type MeanSummary,
  type MetricValues,
  macroSummary,
  meanSummary,
  PLAN_METRICS,
  type PlanMetric,
} from './aggregate.js'
import { readCorpusIds } from './data.js'
import { RetecoInputError } from './errors.js'
import { offlineLabels, type TemporalLabelProvider, type TopicTemporalLabels } from './labels.js'
import { parseTurnTopic, stepQueryOf, TURN_BUCKETS, type TurnBucket, turnBucket } from './topics.js'
import {
  type RetecoData,
  type RetecoDomainData,
  type RetecoRun,
  type RetecoRunFile,
  type RetecoRunProblem,
  type RetecoRunTopic,
  type RetecoSubtrack,
  topicQrels,
} from './types.js'

/** The rank cutoff of every plan measure. */
export const PLAN_CUTOFF = 10

/**
 * The core {@link Conventions} the plan scorer applies (ordering and float32 rounding through the
 * core `orderDocs`): trec_eval 9 ordering, first copy in ranking order kept, unknown docs
 * discarded (given the domain corpus), missing queries scored 0, binary gains at level 1.
 */
export const retecoPlanConventions = {
  ...trecEvalV9,
  duplicates: 'keep-first-ranked',
  unknownDocs: 'discard',
  missingQueries: 'zero',
  gains: { kind: 'binary' },
  queryKey: 'group-qid',
  comments: false,
} as const satisfies Conventions

/** How a topic came out of cleaning. */
export type PlanTopicStatus = 'scored' | 'missing' | 'empty_after_cleaning'

/** The plan scorer's result for one topic. */
export interface PlanTopic {
  readonly domain: string
  readonly topicId: string
  readonly status: PlanTopicStatus
  /** Relevant judged documents (grade ≥ 1). */
  readonly R: number
  readonly values: MetricValues
  /** TC@10: 1a query topics only; `null` when undefined (no required periods) or not 1a. */
  readonly tc: number | null
  /** The cleaned top 10 (binary-string ids); empty for a missing topic. */
  readonly top10: readonly string[]
  /** 1b: the query the step belongs to. */
  readonly queryId: string | null
  /** 2a/2c: conversation id, turn number (null when unparsable) and depth bucket. */
  readonly conversationId: string | null
  readonly turnId: number | null
  readonly bucket: TurnBucket | null
  /** Run lines of the topic, and what cleaning removed. */
  readonly lines: number
  readonly duplicatesRemoved: number
  readonly unknownDiscarded: number
  /** Top-10 documents the label provider has no label for (counted as not relevant). */
  readonly unlabelled: number
  /** The rank column orders the lines differently from the scores. */
  readonly rankDisagrees: boolean
  /** Adjacent pairs (in score order) whose scores differ as doubles but tie as float32. */
  readonly float32OnlyTies: number
}

/** Per domain: what the run file held and what was done with it. */
export interface PlanDomainCounts {
  readonly domain: string
  /** The run file of the domain (`null`: no file for it in a per-domain directory). */
  readonly file: string | null
  readonly lines: number
  readonly topicsInFile: number
  /** Qrels topics of the domain. */
  readonly topics: number
  /** Qrels topics absent from the run (scored 0), in qrels order. */
  readonly missing: readonly string[]
  /** Topics left empty by cleaning (scored 0). */
  readonly emptyAfterCleaning: readonly string[]
  /** Run topics without qrels (ignored), with their line counts. */
  readonly unknownTopics: readonly (readonly [string, number])[]
  readonly unknownTopicLines: number
  readonly duplicateRows: number
  readonly unknownDocRows: number
  /** Topics whose rank column disagrees with the score order. */
  readonly rankDisagreements: number
  readonly float32OnlyTies: number
  readonly unlabelled: number
  readonly tags: readonly (readonly [string, number])[]
  /** Per-domain file only (a single file's problems are in `PlanResult.runProblems`). */
  readonly parseErrors: readonly RetecoRunProblem[]
  readonly validationErrors: readonly RetecoRunProblem[]
  /** Warnings, worded as the plan reference words them. */
  readonly warnings: readonly string[]
}

/** 1b: one query's mean over its steps. */
export interface PlanQueryMean {
  readonly domain: string
  readonly queryId: string
  readonly values: MetricValues
  readonly steps: number
}

/** Scores of a 1a run. */
export interface Plan1aScores {
  readonly subtrack: '1a'
  readonly headline: number
  readonly queryMacro: MeanSummary
  readonly perDomain: ReadonlyMap<string, MeanSummary>
  readonly domainMacro: MacroSummary
}

/** Scores of a 1b run. */
export interface Plan1bScores {
  readonly subtrack: '1b'
  readonly headline: number
  /** Mean over queries of the per-query step means (headline). */
  readonly queryMacro: MeanSummary
  /** Flat mean over all steps. */
  readonly stepMacro: MeanSummary
  readonly perDomain: ReadonlyMap<
    string,
    { readonly queryMacro: MeanSummary; readonly stepMacro: MeanSummary }
  >
  readonly domainMacroOfQueryMeans: MacroSummary
  readonly domainMacroOfStepMeans: MacroSummary
  readonly perQuery: readonly PlanQueryMean[]
}

/** Scores of a 2a / 2c run. */
export interface Plan2aScores {
  readonly subtrack: '2a' | '2c'
  readonly headline: number
  readonly turnMacro: MeanSummary
  readonly perDomain: ReadonlyMap<string, MeanSummary>
  readonly domainMacro: MacroSummary
  /** Pooled over domains; buckets that hold turns, in T1..T4, T5+, T? order. */
  readonly byTurnDepth: ReadonlyMap<TurnBucket, MeanSummary>
  readonly byTurnDepthPerDomain: ReadonlyMap<string, ReadonlyMap<TurnBucket, MeanSummary>>
  readonly conversationMacroPerDomain: ReadonlyMap<string, MeanSummary>
  readonly conversationThenDomainMacro: MacroSummary
}

/** Scores of any sub-track. */
export type PlanScores = Plan1aScores | Plan1bScores | Plan2aScores

/** The plan scorer's full result. */
export interface PlanResult {
  readonly subtrack: RetecoSubtrack
  /** Scored domains, in name order. */
  readonly domains: readonly string[]
  /** `false` when a run file has a parse error: then `scores` is `null` (the run cannot be scored). */
  readonly parseable: boolean
  /** `false` also for validation errors (rank ≤ 0, repeated rank); the run is still scored. */
  readonly valid: boolean
  readonly scores: PlanScores | null
  /** Every qrels topic, in domain order then qrels order (empty when not parseable). */
  readonly topics: readonly PlanTopic[]
  readonly counts: readonly PlanDomainCounts[]
  /** Warnings about the run as a whole (unrouted topics of a single file, stray files, missing domain files). */
  readonly runWarnings: readonly string[]
  /** A single file's parse and validation errors (per-domain files: in `counts`). */
  readonly runProblems: readonly RetecoRunProblem[]
  readonly labels: string
  readonly duplicates: 'keep-first-ranked' | 'keep-first'
  readonly scorePrecision: 'float32' | 'float64'
  /**
   * Domains scored without a `documents.jsonl` (only with `allowMissingCorpus`): their unknown
   * doc ids were kept, and the printed conventions say so.
   */
  readonly domainsWithoutCorpus: readonly string[]
}

/** Options of {@link scorePlan}. */
export interface PlanOptions {
  readonly data: RetecoData
  readonly subtrack: RetecoSubtrack
  readonly run: RetecoRun
  /** Temporal label provider. @default offlineLabels() */
  readonly labels?: TemporalLabelProvider
  /**
   * Which copy of a duplicated doc is kept: the first in ranking order (plan), or the first line
   * in file order (the reference's `variant_dedup_file_order`). @default 'keep-first-ranked'
   */
  readonly duplicates?: 'keep-first-ranked' | 'keep-first'
  /** Score rounding before ordering. @default 'float32' */
  readonly scorePrecision?: 'float32' | 'float64'
  /** Corpus id sets per domain (else each domain's `documents.jsonl` is streamed). */
  readonly corpora?: ReadonlyMap<string, ReadonlySet<string>>
  /**
   * Score a domain that has no `documents.jsonl` (nor a set in `corpora`), keeping its unknown
   * doc ids (`--allow-missing-corpus`; listed in `domainsWithoutCorpus`). By default such a domain
   * is an error: the plan discards unknown ids, and skipping that rule changes the score.
   * @default false
   */
  readonly allowMissingCorpus?: boolean
}

/**
 * The domains of a sub-track that have no corpus (`documents.jsonl`, or a set in `corpora`), and
 * the error lines that refuse them unless `allowMissingCorpus` is set.
 */
export function missingCorpusProblems(
  data: RetecoData,
  subtrack: RetecoSubtrack,
  corpora?: ReadonlyMap<string, ReadonlySet<string>>,
): { domains: string[]; problems: string[] } {
  const domains = subtrack === '1a' || subtrack === '1b' ? data.track1 : data.track2
  const missing = [...domains.values()].filter((d) => !d.corpusFile && !corpora?.has(d.domain))
  return {
    domains: missing.map((d) => d.domain),
    problems: missing.map(
      (d) =>
        `${d.dir}: no documents.jsonl for domain ${d.domain}: the plan discards run doc ids that are not in the domain's corpus, so scoring without it would change the score silently; add the corpus, or give --allow-missing-corpus (score, validate) to keep unknown ids in this domain, which the printed conventions then say`,
    ),
  }
}

const ZERO: MetricValues = Object.fromEntries(PLAN_METRICS.map((m) => [m, 0])) as Record<
  PlanMetric,
  number
>

function quote(id: string): string {
  return `'${decodeId(id)}'`
}

interface Cleaned {
  readonly ranked: string[]
  readonly duplicatesRemoved: number
  readonly unknownDiscarded: number
}

function asRunQuery(t: RetecoRunTopic, float32: boolean): RunQuery {
  return {
    queryId: t.topicId,
    docIds: t.docIds,
    scores: float32 ? t.scores.map(Math.fround) : t.scores,
    ranks: t.ranks,
    lines: t.lines,
  }
}

/** Unknown ids out, ordered (core `orderDocs`, score-docid-desc), duplicates out. */
function clean(
  t: RetecoRunTopic,
  corpus: ReadonlySet<string> | null,
  duplicates: 'keep-first-ranked' | 'keep-first',
  float32: boolean,
): Cleaned {
  const n = t.docIds.length
  let keep: number[] = []
  for (let i = 0; i < n; i++) if (!corpus || corpus.has(t.docIds[i]!)) keep.push(i)
  const unknownDiscarded = n - keep.length
  let duplicatesRemoved = 0
  if (duplicates === 'keep-first') {
    const seen = new Set<string>()
    const first: number[] = []
    for (const i of keep) {
      if (seen.has(t.docIds[i]!)) continue
      seen.add(t.docIds[i]!)
      first.push(i)
    }
    duplicatesRemoved = keep.length - first.length
    keep = first
  }
  const order = orderDocs(asRunQuery(t, float32), retecoPlanConventions.ordering, keep)
  const ranked: string[] = []
  const seen = new Set<string>()
  for (const i of order) {
    const id = t.docIds[i]!
    if (seen.has(id)) continue
    seen.add(id)
    ranked.push(id)
  }
  duplicatesRemoved += order.length - ranked.length
  return { ranked, duplicatesRemoved, unknownDiscarded }
}

/** Whether the rank column (ascending, stable) orders the lines differently from the scores. */
function rankDisagrees(
  t: RetecoRunTopic,
  float32: boolean,
): { disagrees: boolean; f32Ties: number } {
  const byScore = orderDocs(asRunQuery(t, float32), retecoPlanConventions.ordering)
  const byRank = orderDocs(asRunQuery(t, float32), 'rank')
  let disagrees = false
  for (let k = 0; k < byScore.length; k++) {
    if (byScore[k] !== byRank[k]) {
      disagrees = true
      break
    }
  }
  let f32Ties = 0
  for (let k = 1; k < byScore.length; k++) {
    const a = t.scores[byScore[k - 1]!]!
    const b = t.scores[byScore[k]!]!
    if (a !== b && Math.fround(a) === Math.fround(b)) f32Ties++
  }
  return { disagrees, f32Ties }
}

function judgedRanking(j: QueryJudgments, ranked: readonly string[]): JudgedRanking {
  const grades = new Int32Array(ranked.length)
  let numRelRet = 0
  let numNonpool = 0
  for (let i = 0; i < ranked.length; i++) {
    const g = j.grades.get(ranked[i]!)
    grades[i] = g === undefined ? NOT_POOLED : g
    if (g === undefined) numNonpool++
    else if (g >= 1) numRelRet++
  }
  let numRel = 0
  let numRelLevels = 0
  for (let g = 0; g < j.relLevels.length; g++) {
    if (j.relLevels[g]) {
      numRelLevels = g + 1
      if (g >= 1) numRel += j.relLevels[g]!
    }
  }
  return {
    queryId: j.queryId,
    grades,
    numRet: ranked.length,
    relLevels: j.relLevels,
    numRelLevels,
    relevanceLevel: 1,
    numRel,
    numRelRet,
    numNonpool,
    numUnjudgedInPool: 0,
  }
}

/** The plan measures of one cleaned ranking (binary relevance, cutoff 10). */
export function planTopicValues(
  j: QueryJudgments,
  ranked: readonly string[],
  labels: TopicTemporalLabels,
): { values: MetricValues; unlabelled: number; R: number } {
  const q = judgedRanking(j, ranked)
  const top = ranked.slice(0, PLAN_CUTOFF)
  let unlabelled = 0
  const v = top.map((d) => {
    const l = labels.relevance(d)
    if (l === undefined) unlabelled++
    return l === true
  })
  const values: MetricValues = {
    'nDCG@10': ndcgAt(q, [PLAN_CUTOFF], { kind: 'binary' }, 1)[0]!,
    'MAP@10': averagePrecisionAt(q, [PLAN_CUTOFF], 1)[0]!,
    'Recall@10': recall(q, [PLAN_CUTOFF], 1)[0]!,
    'P@10': precision(q, [PLAN_CUTOFF], 1)[0]!,
    MRR: reciprocalRank(q, 1),
    'TP@10': temporalPrecisionReteco(v, PLAN_CUTOFF),
    'TR@10': temporalRelevance(v, PLAN_CUTOFF),
    'TP-TEMPO@10': temporalPrecisionTempo(v, PLAN_CUTOFF),
  }
  return { values, unlabelled, R: q.numRel }
}

async function corpusFor(
  d: RetecoDomainData,
  file: RetecoRunFile | undefined,
  given: ReadonlyMap<string, ReadonlySet<string>> | undefined,
): Promise<ReadonlySet<string> | null> {
  const pre = given?.get(d.domain)
  if (pre) return pre
  if (!d.corpusFile) return null
  // Only the run's own doc ids are looked up: memory stays bounded by the run, not the corpus.
  const wanted = new Set<string>()
  if (file) for (const t of file.topics.values()) for (const id of t.docIds) wanted.add(id)
  return readCorpusIds(d.corpusFile, { only: wanted })
}

/**
 * The corpus ids a run needs, per domain of the sub-track: the run's doc ids that are in the
 * domain's `documents.jsonl` (streamed once). Pass the result as `corpora` to score the same run
 * several times without re-reading the corpora. Domains without a corpus file are left out
 * (nothing is then discarded as unknown there).
 */
export async function runCorpora(
  data: RetecoData,
  subtrack: RetecoSubtrack,
  run: RetecoRun,
): Promise<Map<string, ReadonlySet<string>>> {
  const out = new Map<string, ReadonlySet<string>>()
  for (const [name, d] of subtrack === '1a' || subtrack === '1b' ? data.track1 : data.track2) {
    const c = await corpusFor(d, run.domains.get(name), undefined)
    if (c) out.set(name, c)
  }
  return out
}

/** Step id → query id from the steps file; ids it lacks fall back to the `<qid>_step<n>` form. */
function stepQueries(d: RetecoDomainData): (stepId: string) => string {
  const m = new Map<string, string>()
  for (const rec of d.stepRecords.values()) for (const s of rec.steps) m.set(s.stepId, rec.queryId)
  return (stepId) => m.get(stepId) ?? stepQueryOf(stepId) ?? stepId
}

/**
 * Why a sub-track cannot be scored on loaded data (empty when it can): no domain of the track,
 * or a domain without the qrels the sub-track needs (`qrels_<split>.txt`; 1b:
 * `qrels_steps_<split>.txt`, which the pilot sample lacks).
 */
export function unscorableReasons(data: RetecoData, subtrack: RetecoSubtrack): string[] {
  const track1 = subtrack === '1a' || subtrack === '1b'
  const domains = track1 ? data.track1 : data.track2
  if (domains.size === 0)
    return [`${data.root}: no ${track1 ? 'track1_tempo' : 'track2_recor'} domain to score`]
  const problems: string[] = []
  const file =
    data.layout === 'pilot'
      ? subtrack === '1b'
        ? 'step qrels'
        : 'qrels.txt'
      : subtrack === '1b'
        ? `qrels_steps_${data.split}.txt`
        : `qrels_${data.split}.txt`
  for (const d of domains.values()) {
    const missing = subtrack === '1b' ? !d.stepQrels : !d.qrelsFile
    if (missing)
      problems.push(
        `${d.dir}: no ${file} for domain ${d.domain}: sub-track ${subtrack} cannot be scored on this data`,
      )
  }
  return problems
}

/**
 * Score a run with the `plan` conventions (see the module comment). Returns per-topic values,
 * every aggregation of the sub-track, and per-domain counts of missing, duplicate and unknown
 * items. A run with a parse error gets `scores: null` and its errors in `counts`. Throws
 * {@link RetecoInputError} when a needed qrels file is absent.
 *
 * @example
 * const data = await loadRetecoData('data', { split: 'dev', tracks: ['track1_tempo'] })
 * const run = await readRetecoRun('runs/bm25', { domains: data.track1, subtrack: '1a' })
 * const result = await scorePlan({ data, subtrack: '1a', run })
 * console.log(result.scores?.headline)
 */
export async function scorePlan(options: PlanOptions): Promise<PlanResult> {
  const { data, subtrack, run } = options
  const labelsProvider = options.labels ?? offlineLabels()
  const duplicates = options.duplicates ?? retecoPlanConventions.duplicates
  const scorePrecision = options.scorePrecision ?? retecoPlanConventions.scorePrecision
  const float32 = scorePrecision === 'float32'
  const domains = subtrack === '1a' || subtrack === '1b' ? data.track1 : data.track2
  const problems = unscorableReasons(data, subtrack)
  const noCorpus = missingCorpusProblems(data, subtrack, options.corpora)
  if (!options.allowMissingCorpus) problems.push(...noCorpus.problems)
  if (problems.length) throw new RetecoInputError(problems)

  const runWarnings: string[] = []
  for (const d of run.missingDomainFiles)
    runWarnings.push(
      `${run.path}: no run file for domain ${d}: its ${topicQrels(domains.get(d)!, subtrack)!.queries.size} topics are missing (scored 0)`,
    )
  for (const f of run.strayFiles)
    runWarnings.push(`${f}: file named after no domain of the data (ignored)`)
  for (const [t, n] of run.unroutedTopics)
    runWarnings.push(`topic ${quote(t)} not in qrels (${n} lines ignored)`)
  if (run.whole && run.whole.tags.length > 1)
    runWarnings.push(`mixed run tags: [${run.whole.tags.map(([t]) => quote(t)).join(', ')}]`)

  const wholeErrors = run.whole ? run.whole.parseErrors : []
  const parseable =
    wholeErrors.length === 0 && [...run.domains.values()].every((f) => f.parseErrors.length === 0)
  const valid =
    parseable &&
    (run.whole ? run.whole.validationErrors.length === 0 : true) &&
    [...run.domains.values()].every((f) => f.validationErrors.length === 0)

  const topics: PlanTopic[] = []
  const counts: PlanDomainCounts[] = []
  for (const [name, d] of domains) {
    const qrels = topicQrels(d, subtrack)!
    const file = run.domains.get(name)
    const warnings: string[] = []
    const domainTopics: PlanTopic[] = []
    let duplicateRows = 0
    let unknownDocRows = 0
    let rankDisagreements = 0
    let f32 = 0
    let unlabelled = 0
    const corpus = parseable ? await corpusFor(d, file, options.corpora) : null
    const queryOfStep = stepQueries(d)
    if (parseable) {
      for (const [topicId, j] of qrels.queries) {
        const labels = labelsProvider.labelsFor(d, topicId)
        const rt = file?.topics.get(topicId)
        const turn = subtrack === '2a' || subtrack === '2c' ? parseTurnTopic(topicId) : null
        const meta = {
          domain: name,
          topicId,
          queryId: subtrack === '1b' ? queryOfStep(topicId) : null,
          conversationId: turn ? turn.conversationId : null,
          turnId: turn ? turn.turnId : null,
          bucket: turn ? turnBucket(turn.turnId) : null,
        }
        let R = 0
        for (let g = 1; g < j.relLevels.length; g++) R += j.relLevels[g]!
        if (!rt || rt.docIds.length === 0) {
          const required = subtrack === '1a' ? labels.requiredPeriods : null
          domainTopics.push({
            ...meta,
            status: 'missing',
            R,
            values: ZERO,
            tc: required ? 0 : null,
            top10: [],
            lines: 0,
            duplicatesRemoved: 0,
            unknownDiscarded: 0,
            unlabelled: 0,
            rankDisagrees: false,
            float32OnlyTies: 0,
          })
          continue
        }
        const c = clean(rt, corpus, duplicates, float32)
        const m = planTopicValues(j, c.ranked, labels)
        const top10 = c.ranked.slice(0, PLAN_CUTOFF)
        const tc =
          subtrack === '1a'
            ? temporalCoverage(
                labels.requiredPeriods,
                top10.map((doc) => labels.periods(doc)),
                PLAN_CUTOFF,
              )
            : null
        const diag = rankDisagrees(rt, float32)
        duplicateRows += c.duplicatesRemoved
        unknownDocRows += c.unknownDiscarded
        unlabelled += m.unlabelled
        if (diag.disagrees) rankDisagreements++
        f32 += diag.f32Ties
        if (diag.f32Ties)
          warnings.push(
            `topic ${quote(topicId)}: ${diag.f32Ties} adjacent score pairs equal only in float32`,
          )
        if (diag.disagrees)
          warnings.push(`topic ${quote(topicId)}: rank column order differs from score order`)
        if (c.duplicatesRemoved)
          warnings.push(
            `topic ${quote(topicId)}: ${c.duplicatesRemoved} duplicate doc rows removed`,
          )
        if (c.unknownDiscarded)
          warnings.push(`topic ${quote(topicId)}: ${c.unknownDiscarded} unknown doc ids discarded`)
        domainTopics.push({
          ...meta,
          status: c.ranked.length ? 'scored' : 'empty_after_cleaning',
          R: m.R,
          values: m.values,
          tc,
          top10,
          lines: rt.docIds.length,
          duplicatesRemoved: c.duplicatesRemoved,
          unknownDiscarded: c.unknownDiscarded,
          unlabelled: m.unlabelled,
          rankDisagrees: diag.disagrees,
          float32OnlyTies: diag.f32Ties,
        })
      }
    }
    const unknownTopics: [string, number][] = []
    if (file)
      for (const [t, rt] of file.topics)
        if (!qrels.queries.has(t) && rt.lines.length) unknownTopics.push([t, rt.lines.length])
    for (const [t, n] of unknownTopics)
      warnings.push(`topic ${quote(t)} not in qrels (${n} lines ignored)`)
    if (file && file.tags.length > 1)
      warnings.push(`mixed run tags: [${file.tags.map(([t]) => quote(t)).join(', ')}]`)
    topics.push(...domainTopics)
    counts.push({
      domain: name,
      file: file ? file.file : null,
      lines: file ? file.lines : 0,
      topicsInFile: file ? file.topics.size : 0,
      topics: qrels.queries.size,
      missing: domainTopics.filter((t) => t.status === 'missing').map((t) => t.topicId),
      emptyAfterCleaning: domainTopics
        .filter((t) => t.status === 'empty_after_cleaning')
        .map((t) => t.topicId),
      unknownTopics,
      unknownTopicLines: unknownTopics.reduce((s, [, n]) => s + n, 0),
      duplicateRows,
      unknownDocRows,
      rankDisagreements,
      float32OnlyTies: f32,
      unlabelled,
      tags: file ? file.tags : [],
      parseErrors: file && run.layout === 'per-domain' ? file.parseErrors : [],
      validationErrors: file && run.layout === 'per-domain' ? file.validationErrors : [],
      warnings,
    })
  }
  const base = {
    subtrack,
    domains: [...domains.keys()],
    parseable,
    valid,
    counts,
    runWarnings,
    runProblems: run.whole ? [...run.whole.parseErrors, ...run.whole.validationErrors] : [],
    labels: labelsProvider.name,
    duplicates,
    scorePrecision,
    domainsWithoutCorpus: noCorpus.domains,
  }
  if (!parseable) return { ...base, scores: null, topics: [] }
  return { ...base, scores: aggregatePlan(subtrack, [...domains.keys()], topics), topics }
}

/** The keys of a plan topic in the per-query table: domain, 1b query, 2a/2c conversation and turn bucket. */
function topicKeys(t: PlanTopic): Record<string, string> {
  return {
    group: t.domain,
    parent: t.queryId ?? t.topicId,
    conversation: t.conversationId ?? t.topicId,
    bucket: t.bucket ?? 'T?',
  }
}

/**
 * The per-query table of a plan result: the plan metrics (an empty group averages 0, as
 * RETECO's `_mean`), and for 1a TC@10 and nDCG|FC@10 (nDCG@10 where TC@10 = 1, else undefined),
 * both undefined for an empty group; domains in name order, buckets T1…T5+, T?.
 */
export function planQueryTable(
  subtrack: RetecoSubtrack,
  domainNames: readonly string[],
  topics: readonly PlanTopic[],
): QueryTable {
  const coverage = subtrack === '1a'
  const columns: AggregationColumn[] = [
    ...PLAN_METRICS.map((name) => ({ name, empty: 0 as const })),
    ...(coverage
      ? [
          { name: 'TC@10', empty: null },
          { name: 'nDCG|FC@10', empty: null },
        ]
      : []),
  ]
  const rows = topics.map((t) => ({
    keys: topicKeys(t),
    values: [
      ...PLAN_METRICS.map((m) => t.values[m]),
      ...(coverage ? [t.tc, t.tc === 1 ? t.values['nDCG@10'] : null] : []),
    ],
  }))
  return {
    columns,
    rows,
    keyOrders: {
      group: { values: domainNames, keepEmpty: true },
      bucket: { values: TURN_BUCKETS, keepEmpty: false },
    },
  }
}

/** The plan's aggregations of each sub-track, as data (computed by the engine's `aggregateTable`). */
export const PLAN_AGGREGATIONS = {
  '1a': [
    { id: 'query-macro', title: 'query macro', levels: [] },
    { id: 'per-domain', title: 'per domain', levels: [], splitBy: ['group'] },
    { id: 'domain-macro', title: 'domain macro', levels: [['group']] },
  ],
  '1b': [
    { id: 'query-macro', title: 'query macro of step means', levels: [['group', 'parent']] },
    { id: 'step-macro', title: 'flat step mean', levels: [] },
    {
      id: 'per-domain-queries',
      title: 'per domain (query means)',
      levels: [['group', 'parent']],
      splitBy: ['group'],
    },
    { id: 'per-domain-steps', title: 'per domain (step means)', levels: [], splitBy: ['group'] },
    { id: 'per-query', title: 'per query', levels: [], splitBy: ['group', 'parent'] },
    {
      id: 'domain-macro-of-query-means',
      title: 'domain macro of query means',
      levels: [['group', 'parent'], ['group']],
    },
    { id: 'domain-macro-of-step-means', title: 'domain macro of step means', levels: [['group']] },
  ],
  '2a': [
    { id: 'turn-macro', title: 'turn macro', levels: [] },
    { id: 'per-domain', title: 'per domain', levels: [], splitBy: ['group'] },
    { id: 'domain-macro', title: 'domain macro', levels: [['group']] },
    { id: 'turn-depth', title: 'turn depth (pooled)', levels: [], splitBy: ['bucket'] },
    {
      id: 'turn-depth-per-domain',
      title: 'turn depth per domain',
      levels: [],
      splitBy: ['group', 'bucket'],
    },
    {
      id: 'conversation-per-domain',
      title: 'per domain (conversation means)',
      levels: [['group', 'conversation']],
      splitBy: ['group'],
    },
    {
      id: 'conversation-then-domain',
      title: 'conversation then domain macro',
      levels: [['group', 'conversation'], ['group']],
    },
  ],
} as const satisfies Record<'1a' | '1b' | '2a', readonly AggregationSpec[]>

/** Every aggregation of the sub-track over per-topic results (see the module comment). */
export function aggregatePlan(
  subtrack: RetecoSubtrack,
  domainNames: readonly string[],
  topics: readonly PlanTopic[],
): PlanScores {
  const table = planQueryTable(subtrack, domainNames, topics)
  const byId = new Map(
    aggregateAll(table, PLAN_AGGREGATIONS[subtrack === '2c' ? '2a' : subtrack]).map((a) => [
      a.id,
      a.rows,
    ]),
  )
  const rows = (id: string): readonly AggregationRow[] => byId.get(id)!
  const one = (id: string): AggregationRow => rows(id)[0]!
  const coverage = subtrack === '1a'
  const mean = (r: AggregationRow): MeanSummary => meanSummary(r, coverage)
  const macro = (r: AggregationRow): MacroSummary => macroSummary(r, coverage)
  const perDomain = (id: string): Map<string, MeanSummary> =>
    new Map(rows(id).map((r) => [r.split['group']!, mean(r)]))
  if (subtrack === '1a') {
    const queryMacro = mean(one('query-macro'))
    return {
      subtrack,
      headline: queryMacro.values['nDCG@10'],
      queryMacro,
      perDomain: perDomain('per-domain'),
      domainMacro: macro(one('domain-macro')),
    }
  }
  if (subtrack === '1b') {
    const queries = perDomain('per-domain-queries')
    const steps = perDomain('per-domain-steps')
    const queryMacro = mean(one('query-macro'))
    return {
      subtrack,
      headline: queryMacro.values['nDCG@10'],
      queryMacro,
      stepMacro: mean(one('step-macro')),
      perDomain: new Map(
        domainNames.map((d) => [d, { queryMacro: queries.get(d)!, stepMacro: steps.get(d)! }]),
      ),
      domainMacroOfQueryMeans: macro(one('domain-macro-of-query-means')),
      domainMacroOfStepMeans: macro(one('domain-macro-of-step-means')),
      perQuery: rows('per-query').map((r) => ({
        domain: r.split['group']!,
        queryId: r.split['parent']!,
        values: mean(r).values,
        steps: r.units,
      })),
    }
  }
  const buckets = (rs: readonly AggregationRow[]): Map<TurnBucket, MeanSummary> =>
    new Map(rs.map((r) => [r.split['bucket'] as TurnBucket, mean(r)]))
  const depthRows = rows('turn-depth-per-domain')
  const turnMacro = mean(one('turn-macro'))
  return {
    subtrack,
    headline: turnMacro.values['nDCG@10'],
    turnMacro,
    perDomain: perDomain('per-domain'),
    domainMacro: macro(one('domain-macro')),
    byTurnDepth: buckets(rows('turn-depth')),
    byTurnDepthPerDomain: new Map(
      domainNames.map((d) => [d, buckets(depthRows.filter((r) => r.split['group'] === d))]),
    ),
    conversationMacroPerDomain: perDomain('conversation-per-domain'),
    conversationThenDomainMacro: macro(one('conversation-then-domain')),
  }
}
