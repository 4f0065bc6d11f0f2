import { MIN_GEO_MEAN } from '../measures/average-precision.js'
import type { Aggregate } from '../measures/measure.js'

/** One measure aggregated over a query set, with the counts behind it. */
export interface AggregateValue {
  /** Canonical measure name. */
  readonly measure: string
  /** How per-query values were combined. */
  readonly aggregate: Aggregate
  /** The aggregate, or `null` when no query had a defined value. */
  readonly value: number | null
  /** Queries whose value entered the aggregate (its denominator for means). */
  readonly queries: number
  /** Queries whose value was undefined (`null`) and left out. */
  readonly undefinedQueries: number
  /**
   * Population standard deviation of the per-query values that entered the aggregate,
   * sqrt(Σ (v − mean)² / n) (numpy's `std`, ddof = 0, as ranx's `return_std`), whatever the
   * aggregate (for GMAP, of the per-query AP values themselves); `null` when no query had a
   * defined value, or for a preset's table aggregation (means of group means), which has no one
   * set of per-query values. The sample deviation is std · sqrt(n / (n − 1)).
   */
  readonly std: number | null
}

/**
 * Combine per-query values (in the order given, so sums are reproducible): arithmetic mean,
 * sum (counts), or geometric mean exp(mean(log(max(v, 0.00001)))) as trec_eval's gm_map; and
 * their population standard deviation (two passes: the mean, then the squared deviations).
 * `null` values are undefined: left out and counted.
 */
export function aggregate(
  measure: string,
  kind: Aggregate,
  values: readonly (number | null)[],
): AggregateValue {
  let sum = 0
  let plain = 0
  let n = 0
  let undef = 0
  for (const v of values) {
    if (v === null) {
      undef++
      continue
    }
    sum += kind === 'gmean' ? Math.log(Math.max(v, MIN_GEO_MEAN)) : v
    plain += v
    n++
  }
  let std: number | null = null
  if (n > 0) {
    const mean = plain / n
    let sq = 0
    for (const v of values) if (v !== null) sq += (v - mean) * (v - mean)
    std = Math.sqrt(sq / n)
  }
  let value: number | null
  if (kind === 'sum') value = sum
  else if (n === 0) value = null
  else value = kind === 'mean' ? sum / n : Math.exp(sum / n)
  return { measure, aggregate: kind, value, queries: n, undefinedQueries: undef, std }
}
