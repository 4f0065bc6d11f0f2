/**
 * The `plan` convention set: RETECO scored by the evaluation plan's written rules, on the engine.
 * The rules are the `reteco-1a`, `reteco-1b`, `reteco-2a` and `reteco-2c` presets (`presets.ts`:
 * measures, conventions, aggregations as data); {@link scorePlan} reads the run with RETECO's
 * own format rules (`runs.ts`: a parse error stops scoring, a validation error does not), runs
 * the preset with `runLoadedPreset` (the one preset runner: grouped (domain, topic) keys, the
 * per-domain corpus, the temporal label provider, `aggregateTable`) and turns its result into
 * the plan's per-topic rows, per-domain counts and warnings.
 *
 * Per topic (a 1a query, a 1b step, a 2a/2c turn keyed by (domain, topic)), as the engine
 * prepares it under `retecoPlanConventions`:
 * 1. the run's lines of the topic; unknown doc ids (not in the domain's `documents.jsonl`,
 *    byte-exact) are discarded first, before any cut;
 * 2. ordered by score descending after rounding to float32, ties by doc id descending in byte
 *    order, then line order; the rank column is ignored (a topic whose rank column disagrees is
 *    reported);
 * 3. duplicates removed after their first occurrence in that order (the highest-scored copy);
 * 4. measured with binary relevance (grade ≥ 1), R = the topic's relevant qrels: nDCG@10,
 *    MAP@10 (divided by R), Recall@10, P@10 (divided by 10), MRR (no cutoff), and TP@10, TR@10,
 *    TP-TEMPO@10, (1a) TC@10 and nDCG|FC@10 from the temporal labels (`measures/temporal.ts`).
 * A qrels topic missing from the run is zero-filled (TC 0 when the query has required periods,
 * else undefined) and counted; a topic left empty by cleaning scores 0 (`empty_after_cleaning`).
 * Run topics without qrels are ignored and counted.
 */

import type { AggregationRow } from '../../evaluate/aggregations.js'
import { groupedQueryId } from '../../evaluate/grouped-keys.js'
import { decodeId } from '../../io/bytes.js'
import type { RunQuery } from '../../model/types.js'
import type { PrepareCounts } from '../../rank/prepare.js'
import { orderDocs } from '../../rank/prepare.js'
import { definePreset } from '../preset.js'
import { retecoAdaptedInputs, runLoadedPreset } from '../run-preset.js'
import {
  type MacroSummary,
  type MeanSummary,
  type MetricValues,
  macroSummary,
  meanSummary,
  PLAN_METRICS,
  type PlanMetric,
} from './aggregate.js'
import {
  corpusFor,
  missingCorpusProblems,
  stepQueries,
  subtrackDomains,
  unscorableReasons,
} from './engine-inputs.js'
import { RetecoInputError } from './errors.js'
import { offlineLabels, type TemporalLabelProvider } from './labels.js'
import { PLAN_CUTOFF, retecoPlanConventions, retecoPresetOf } from './presets.js'
import { parseTurnTopic, type TurnBucket, turnBucket } from './topics.js'
import {
  type RetecoData,
  type RetecoRun,
  type RetecoRunProblem,
  type RetecoRunTopic,
  type RetecoSubtrack,
  topicQrels,
} from './types.js'

export {
  corpusFor,
  missingCorpusProblems,
  runCorpora,
  unscorableReasons,
} from './engine-inputs.js'
export { PLAN_AGGREGATIONS, PLAN_CUTOFF, retecoPlanConventions } from './presets.js'

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

function quote(id: string): string {
  return `'${decodeId(id)}'`
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

/** The plan metric values of an engine row (the preset's first measures are {@link PLAN_METRICS}). */
function metricValues(row: readonly (number | null)[]): MetricValues {
  const o = {} as Record<PlanMetric, number>
  PLAN_METRICS.forEach((m, i) => {
    o[m] = row[i] ?? 0
  })
  return o
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
  const domains = subtrackDomains(data, subtrack)
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

  // The engine: the sub-track's preset (with the asked duplicate and precision rules) on the run.
  const prepared = new Map<string, { counts: PrepareCounts; top: readonly string[]; n: number }>()
  let rows: ReadonlyMap<string, readonly (number | null)[]> = new Map()
  let tables: Readonly<Record<string, readonly AggregationRow[]>> = {}
  if (parseable) {
    const corpora = new Map<string, ReadonlySet<string>>()
    for (const [name, d] of domains) {
      const c = await corpusFor(d, run.domains.get(name), options.corpora)
      if (c) corpora.set(name, c)
    }
    const base = retecoPresetOf(subtrack)
    const preset =
      duplicates === base.conventions.duplicates &&
      scorePrecision === base.conventions.scorePrecision
        ? base
        : definePreset({
            ...base,
            conventions: { ...base.conventions, duplicates, scorePrecision },
          })
    const loaded = retecoAdaptedInputs(preset, data, subtrack, labelsProvider, async () => ({
      run,
      corpora,
      digest: { role: 'run', file: run.path, sha256: '', bytes: 0 },
    }))
    const detail = await runLoadedPreset(
      preset,
      loaded,
      { data: data.root, runs: [run.path] },
      {
        onPrepared: (_file, queryId, counts, ranking) =>
          prepared.set(queryId, {
            counts,
            top: (ranking.docIds ?? []).slice(0, PLAN_CUTOFF),
            n: ranking.numRet,
          }),
      },
    )
    rows = new Map(detail.evaluations[0]!.perQuery.map((q) => [q.queryId, q.values]))
    tables = detail.result.runs[0]!.tables ?? {}
  }
  const tcAt = PLAN_METRICS.length
  const unlabelledAt = tcAt + (subtrack === '1a' ? 2 : 0)

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
    const queryOfStep = stepQueries(d)
    if (parseable) {
      for (const [topicId, j] of qrels.queries) {
        const id = groupedQueryId(name, topicId)
        const values = rows.get(id) ?? []
        const rt = file?.topics.get(topicId)
        const turn = subtrack === '2a' || subtrack === '2c' ? parseTurnTopic(topicId) : null
        let R = 0
        for (let g = 1; g < j.relLevels.length; g++) R += j.relLevels[g]!
        const meta = {
          domain: name,
          topicId,
          queryId: subtrack === '1b' ? queryOfStep(topicId) : null,
          conversationId: turn ? turn.conversationId : null,
          turnId: turn ? turn.turnId : null,
          bucket: turn ? turnBucket(turn.turnId) : null,
          R,
          values: metricValues(values),
          tc: subtrack === '1a' ? (values[tcAt] ?? null) : null,
        }
        const p = rt && rt.docIds.length ? prepared.get(id) : undefined
        if (!rt || !p) {
          domainTopics.push({
            ...meta,
            status: 'missing',
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
        const diag = rankDisagrees(rt, float32)
        const topUnlabelled = values[unlabelledAt] ?? 0
        const { duplicatesRemoved, unknownDiscarded } = p.counts
        duplicateRows += duplicatesRemoved
        unknownDocRows += unknownDiscarded
        unlabelled += topUnlabelled
        if (diag.disagrees) rankDisagreements++
        f32 += diag.f32Ties
        if (diag.f32Ties)
          warnings.push(
            `topic ${quote(topicId)}: ${diag.f32Ties} adjacent score pairs equal only in float32`,
          )
        if (diag.disagrees)
          warnings.push(`topic ${quote(topicId)}: rank column order differs from score order`)
        if (duplicatesRemoved)
          warnings.push(`topic ${quote(topicId)}: ${duplicatesRemoved} duplicate doc rows removed`)
        if (unknownDiscarded)
          warnings.push(`topic ${quote(topicId)}: ${unknownDiscarded} unknown doc ids discarded`)
        domainTopics.push({
          ...meta,
          status: p.n ? 'scored' : 'empty_after_cleaning',
          top10: p.top,
          lines: rt.docIds.length,
          duplicatesRemoved,
          unknownDiscarded,
          unlabelled: topUnlabelled,
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
  return { ...base, scores: planScores(subtrack, [...domains.keys()], tables), topics }
}

/** The plan's summaries of a sub-track from the rows of its preset's table aggregations. */
function planScores(
  subtrack: RetecoSubtrack,
  domainNames: readonly string[],
  tables: Readonly<Record<string, readonly AggregationRow[]>>,
): PlanScores {
  const rows = (id: string): readonly AggregationRow[] => tables[id]!
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
