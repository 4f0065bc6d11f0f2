/**
 * Temporal measures (RETECO, TEMPO): computed on extra labels of the ranked documents
 * (`TemporalLabels`, given to the evaluator as a label provider), not on the qrels.
 *
 * Notation: the prepared ranking r_1, r_2, …; n = min(k, length); v_i ∈ {0, 1} the temporal
 * relevance label of r_i (an unlabelled document counts 0); w_i = 1 / log2(i + 1); P the
 * query's required periods, C(d) the periods document d covers.
 *
 * - TP@k = Σ_{i≤n} w_i·v_i / Σ_{i≤n} w_i (RETECO's offline definition), 0 when n = 0
 * - TP_TEMPO@k = (1/|R|) Σ_{r∈R} |{j ∈ R : j ≤ r}| / r with R = {i ≤ n : v_i = 1}, 0 when R = ∅
 * - TR@k = Σ_{i≤n} v_i / n, 0 when n = 0
 * - TC@k = |P ∩ ∪_{i≤n} C(r_i)| / |P|, undefined when P = ∅
 * - nDCG_FC@k = nDCG@k when TC@k = 1, else undefined (its mean is nDCG|FC@k)
 * - Unlabelled@k = |{i ≤ n : r_i has no temporal label}| (a count, summed)
 */
import type { JudgedRanking } from '../rank/judged-ranking.js'
import type { TemporalLabels } from './labels.js'
import { defineMeasure, type MeasureContext } from './measure.js'
import { ndcgAt } from './ndcg.js'

/**
 * Temporal Precision@k, RETECO offline definition (`ir_metrics.temporal_precision_at_k`): the
 * DCG-weighted share of temporally relevant documents in the top n:
 *
 *   TP@k = Σ_{i≤n} w_i·v_i / Σ_{i≤n} w_i,   0 for an empty ranking.
 *
 * Equivalently DCG@k of the ranking over the DCG@k of n relevant documents. Example: labels
 * 1 0 0 0 0 at k = 5 give 0.339160.
 */
export function temporalPrecisionReteco(labels: readonly boolean[], k: number): number {
  const n = Math.min(k, labels.length)
  if (n === 0) return 0
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) {
    const w = 1 / Math.log2(i + 2)
    if (labels[i]) num += w
    den += w
  }
  return num / den
}

/**
 * Temporal Precision@k, TEMPO paper definition (`temporal_metrics.py`, eq. 1), named `TP-TEMPO@k`:
 * average precision over the temporally relevant documents *retrieved* in the top n. With
 * R = { i ≤ n : v_i = 1 },
 *
 *   TP-TEMPO@k = (1/|R|) Σ_{r∈R} |{ j ∈ R : j ≤ r }| / r,   0 when R is empty.
 *
 * Examples (k = 5): 1 0 0 0 0 → 1.0; 0 0 0 0 1 → 0.2; 1 1 0 0 0 → 1.0.
 */
export function temporalPrecisionTempo(labels: readonly boolean[], k: number): number {
  const n = Math.min(k, labels.length)
  let hits = 0
  let sum = 0
  for (let i = 0; i < n; i++) {
    if (labels[i]) {
      hits++
      sum += hits / (i + 1)
    }
  }
  return hits ? sum / hits : 0
}

/**
 * Temporal Relevance@k (`ir_metrics.temporal_relevance_at_k`): the share of the top n judged
 * temporally relevant:  TR@k = Σ_{i≤n} v_i / n,  0 for an empty ranking. With qrels as labels this
 * is P@k whenever at least k documents were retrieved.
 */
export function temporalRelevance(labels: readonly boolean[], k: number): number {
  const n = Math.min(k, labels.length)
  if (n === 0) return 0
  let hits = 0
  for (let i = 0; i < n; i++) if (labels[i]) hits++
  return hits / n
}

/**
 * Temporal Coverage@k (`ir_metrics.temporal_coverage_at_k`): the fraction of the required
 * periods P covered by at least one of the top n documents, with C(d) the periods document d
 * covers:
 *
 *   TC@k = |P ∩ ∪_{i≤n} C(r_i)| / |P|,   `null` (undefined, left out of means) when P is empty.
 */
export function temporalCoverage(
  required: readonly string[] | null,
  covered: readonly (readonly string[])[],
  k: number,
): number | null {
  if (!required || required.length === 0) return null
  const want = new Set(required)
  const got = new Set<string>()
  const n = Math.min(k, covered.length)
  for (let i = 0; i < n; i++) for (const p of covered[i]!) if (want.has(p)) got.add(p)
  return got.size / want.size
}

/** The temporal labels of the top min(k, n) ranked docs (`undefined`: unlabelled). */
function topLabels(q: JudgedRanking, k: number, ctx: MeasureContext): (boolean | undefined)[] {
  const n = Math.min(k, q.numRet)
  const labels = ctx.labels?.temporal
  const ids = q.docIds
  const out = new Array<boolean | undefined>(n)
  for (let i = 0; i < n; i++) out[i] = labels && ids ? labels.relevance(ids[i]!) : undefined
  return out
}

/** The temporal relevance v_i of the top min(k, n) (unlabelled = not relevant). */
function relevant(q: JudgedRanking, k: number, ctx: MeasureContext): boolean[] {
  return topLabels(q, k, ctx).map((v) => v === true)
}

/** TC@k of a prepared ranking, `null` without required periods. */
function coverageOf(q: JudgedRanking, k: number, ctx: MeasureContext): number | null {
  const labels: TemporalLabels | undefined = ctx.labels?.temporal
  if (!labels) return null
  const ids = q.docIds ?? []
  const n = Math.min(k, q.numRet, ids.length)
  const covered: (readonly string[])[] = []
  for (let i = 0; i < n; i++) covered.push(labels.periods(ids[i]!))
  return temporalCoverage(labels.requiredPeriods, covered, k)
}

const TEMPORAL = {
  at: 'cutoff',
  atRequired: true,
  aggregate: 'mean',
  needsRelevant: false,
  needsLabels: 'temporal',
  params: {},
} as const

/** Temporal precision, RETECO's offline definition (`TP@k`). */
export const temporalPrecisionMeasure = defineMeasure({
  ...TEMPORAL,
  name: 'TP',
  aliases: ['TemporalPrecision'],
  summary: 'Temporal precision: DCG-weighted share of temporally relevant docs in the top k.',
  formula: 'TP@k = sum_{i<=n} v_i/log2(i+1) / sum_{i<=n} 1/log2(i+1), n = min(k, len); 0 if n = 0',
  compute: (q, p, ctx) => temporalPrecisionReteco(relevant(q, p.at!, ctx), p.at!),
})

/** Temporal precision, the TEMPO paper's AP-style definition (`TP_TEMPO@k`, printed `TP-TEMPO@k`). */
export const temporalPrecisionTempoMeasure = defineMeasure({
  ...TEMPORAL,
  name: 'TP_TEMPO',
  aliases: [],
  summary:
    "Temporal precision as the TEMPO paper defines it (average precision over the top k's temporally relevant docs).",
  formula:
    'TP_TEMPO@k = (1/|R|) sum_{r in R} |{j in R : j <= r}| / r, R = {i <= n : v_i = 1}; 0 if R is empty',
  compute: (q, p, ctx) => temporalPrecisionTempo(relevant(q, p.at!, ctx), p.at!),
})

/** Temporal relevance (`TR@k`). */
export const temporalRelevanceMeasure = defineMeasure({
  ...TEMPORAL,
  name: 'TR',
  aliases: ['TemporalRelevance'],
  summary: 'Temporal relevance: share of the top min(k, n) docs that are temporally relevant.',
  formula: 'TR@k = sum_{i<=n} v_i / n, n = min(k, len); 0 if n = 0',
  compute: (q, p, ctx) => temporalRelevance(relevant(q, p.at!, ctx), p.at!),
})

/** Temporal coverage (`TC@k`): undefined for a query without required periods. */
export const temporalCoverageMeasure = defineMeasure({
  ...TEMPORAL,
  name: 'TC',
  aliases: ['TemporalCoverage'],
  summary: "Temporal coverage: share of the query's required periods covered by the top k docs.",
  formula: 'TC@k = |P ∩ union_{i<=n} C(r_i)| / |P|; undefined when P is empty',
  compute: (q, p, ctx) => coverageOf(q, p.at!, ctx),
})

/** nDCG@k over fully covered queries (`nDCG_FC@k`, printed `nDCG|FC@k`). */
export const ndcgFullCoverageMeasure = defineMeasure({
  ...TEMPORAL,
  name: 'nDCG_FC',
  aliases: [],
  summary:
    'nDCG@k of the queries whose top k covers every required period (TC@k = 1); undefined for the others.',
  formula: 'nDCG_FC@k = nDCG@k when TC@k = 1, else undefined',
  needsRelevant: true,
  compute: (q, p, ctx) =>
    coverageOf(q, p.at!, ctx) === 1
      ? ndcgAt(q, [p.at!], ctx.conventions.gains, ctx.conventions.relevanceLevel)[0]!
      : null,
})

/** Top-k documents without a temporal label (`Unlabelled@k`): shows gaps in a label file. */
export const unlabelledMeasure = defineMeasure({
  ...TEMPORAL,
  name: 'Unlabelled',
  aliases: [],
  summary:
    'Documents of the top k without a temporal label (a count; they count as not temporally relevant).',
  formula: 'Unlabelled@k = |{i <= min(k, len) : r_i has no temporal label}|',
  aggregate: 'sum',
  compute: (q, p, ctx) => topLabels(q, p.at!, ctx).filter((v) => v === undefined).length,
})
