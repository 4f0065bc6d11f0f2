/**
 * The plan's metrics and the summary shapes its aggregations are reported in. The means
 * themselves are computed by the engine (`evaluate/aggregations.ts`, from the per-query table of
 * the preset run, `presets.ts`' `PLAN_AGGREGATIONS`): plain left-to-right sums in domain-name (byte) order, then the qrels
 * file's topic order, divided by the count (as the Python references do).
 */
import type { AggregationRow } from '../../evaluate/aggregations.js'

/** The per-topic measures of the plan scorer, in display order. */
export const PLAN_METRICS = [
  'nDCG@10',
  'MAP@10',
  'Recall@10',
  'P@10',
  'MRR',
  'TP@10',
  'TR@10',
  'TP-TEMPO@10',
] as const

/** One of {@link PLAN_METRICS}. */
export type PlanMetric = (typeof PLAN_METRICS)[number]

/** A value per plan measure. */
export type MetricValues = Readonly<Record<PlanMetric, number>>

/** Temporal coverage summary of a set of Track 1 query topics. */
export interface CoverageSummary {
  /** Mean TC@10 over the topics whose TC is defined; `null` when none is. */
  readonly tc: number | null
  /** Topics with a defined TC (required periods known). */
  readonly tcDefined: number
  /** nDCG|FC@10: mean nDCG@10 over the topics with TC = 1; `null` when none has. */
  readonly ndcgFullCoverage: number | null
  /** Topics with TC = 1. */
  readonly fullCoverage: number
}

/** A mean over topics (or queries, turns, conversations). */
export interface MeanSummary {
  readonly values: MetricValues
  /** How many values were averaged. */
  readonly count: number
  /** Track 1 query topics only: the temporal coverage summary. */
  readonly coverage: CoverageSummary | null
}

/** A macro-average over groups (domains, conversations). */
export interface MacroSummary {
  readonly values: MetricValues
  /** Groups averaged. */
  readonly groups: number
  /** Mean of the groups' defined TC (null when none); present when the groups carry coverage. */
  readonly tc: number | null
  /** Mean of the groups' defined nDCG|FC@10 (null when none). */
  readonly ndcgFullCoverage: number | null
}

/** Plan metric values from an aggregation row (its first columns are {@link PLAN_METRICS}). */
function metricValues(row: AggregationRow): MetricValues {
  const o = {} as Record<PlanMetric, number>
  PLAN_METRICS.forEach((m, i) => {
    o[m] = row.values[i] ?? 0
  })
  return o
}

/**
 * A mean summary from an aggregation row of the plan's table; with `coverage` (1a), TC@10 and
 * nDCG|FC@10 are the two columns after the metrics, with their defined counts.
 */
export function meanSummary(row: AggregationRow, coverage: boolean): MeanSummary {
  const n = PLAN_METRICS.length
  return {
    values: metricValues(row),
    count: row.units,
    coverage: coverage
      ? {
          tc: row.values[n] ?? null,
          tcDefined: row.defined[n] ?? 0,
          ndcgFullCoverage: row.values[n + 1] ?? null,
          fullCoverage: row.defined[n + 1] ?? 0,
        }
      : null,
  }
}

/** A macro summary from an aggregation row whose last level grouped by domain (or conversation). */
export function macroSummary(row: AggregationRow, coverage: boolean): MacroSummary {
  const n = PLAN_METRICS.length
  return {
    values: metricValues(row),
    groups: row.units,
    tc: coverage ? (row.values[n] ?? null) : null,
    ndcgFullCoverage: coverage ? (row.values[n + 1] ?? null) : null,
  }
}
