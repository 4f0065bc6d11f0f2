import { createRng } from '../random.js'

/**
 * Cluster bootstrap percentile confidence intervals. Each of B resamples draws as many clusters
 * as there are, uniformly with replacement (mulberry32 via `createRng(seed)`), and keeps ALL the
 * items of every drawn cluster (turns of one conversation are correlated, so the conversation is
 * the unit). Every statistic is recomputed on the same resamples. A resample on which a
 * statistic is undefined (NaN, constant ratings) is counted and left out of that statistic's
 * percentiles, never silently. The interval is the (1−c)/2 and (1+c)/2 quantiles of the defined
 * resample values, numpy's default 'linear' method (Hyndman–Fan type 7):
 *
 *   h = (m − 1)·p,  q = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])   over the sorted values x[0..m−1]
 */

export interface ClusterBootstrapOptions {
  /** Number of resamples B (≥ 1). */
  readonly resamples: number
  /** Seed of the mulberry32 stream. */
  readonly seed: number
  /** Confidence level in (0, 1), e.g. 0.95. */
  readonly confidence: number
}

export interface BootstrapInterval {
  /** Lower and upper percentile bounds; null when no resample gave a value. */
  readonly lower: number | null
  readonly upper: number | null
  /** Resamples drawn. */
  readonly resamples: number
  /** Resamples on which the statistic was undefined (left out of the percentiles). */
  readonly undefinedResamples: number
}

/** The quantile method used, for reports. */
export const BOOTSTRAP_METHOD =
  'cluster bootstrap (resampling whole conversations), percentile interval, numpy linear quantiles (Hyndman–Fan type 7)'

/** numpy's `_lerp`: a + (b − a)·t, computed from b's side when t ≥ 0.5 (NumPy ≥ 1.22). */
function lerp(a: number, b: number, t: number): number {
  const diff = b - a
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t
}

/** Quantile p ∈ [0, 1] of values sorted ascending, numpy's default 'linear' method. */
export function quantileLinear(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('quantileLinear: no values')
  const h = (sorted.length - 1) * p
  const lo = Math.floor(h)
  if (lo >= sorted.length - 1) return sorted[sorted.length - 1]!
  return lerp(sorted[lo]!, sorted[lo + 1]!, h - lo)
}

/**
 * The cluster bootstrap core: for each of B resamples, draws `clusterCount` cluster indices
 * uniformly with replacement and calls `compute(drawn)` for the value of every statistic
 * (null = undefined on that resample).
 */
export function clusterBootstrapIndices<K extends string>(
  clusterCount: number,
  names: readonly K[],
  compute: (drawn: readonly number[]) => Readonly<Record<K, number | null>>,
  options: ClusterBootstrapOptions,
): Record<K, BootstrapInterval> {
  const { resamples, seed, confidence } = options
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`bootstrap: resamples must be an integer >= 1, got ${resamples}`)
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`bootstrap: confidence must be in (0, 1), got ${confidence}`)
  const values = new Map<K, number[]>(names.map((k) => [k, []]))
  const undefinedCounts = new Map<K, number>(names.map((k) => [k, 0]))
  const result = {} as Record<K, BootstrapInterval>
  if (clusterCount === 0) {
    for (const k of names)
      result[k] = { lower: null, upper: null, resamples: 0, undefinedResamples: 0 }
    return result
  }
  const rng = createRng(seed)
  const drawn = new Array<number>(clusterCount)
  for (let b = 0; b < resamples; b++) {
    for (let c = 0; c < clusterCount; c++) drawn[c] = rng.int(clusterCount)
    const got = compute(drawn)
    for (const k of names) {
      const v = got[k]
      if (v === null || !Number.isFinite(v)) undefinedCounts.set(k, undefinedCounts.get(k)! + 1)
      else values.get(k)!.push(v)
    }
  }
  // as np.percentile(x, 2.5) does for 95%: percent first, then / 100
  const percent = confidence * 100
  const lowP = (100 - percent) / 2 / 100
  const highP = (100 + percent) / 2 / 100
  for (const k of names) {
    const sorted = values.get(k)!.sort((a, b) => a - b)
    result[k] = {
      lower: sorted.length ? quantileLinear(sorted, lowP) : null,
      upper: sorted.length ? quantileLinear(sorted, highP) : null,
      resamples,
      undefinedResamples: undefinedCounts.get(k)!,
    }
  }
  return result
}

/**
 * Runs the cluster bootstrap for several statistics at once. `statistics` maps a name to a
 * function of the resampled items (all items of the drawn clusters, in draw order) returning a
 * value or null (undefined on that resample).
 */
export function clusterBootstrap<T, K extends string>(
  clusters: readonly (readonly T[])[],
  statistics: Readonly<Record<K, (items: readonly T[]) => number | null>>,
  options: ClusterBootstrapOptions,
): Record<K, BootstrapInterval> {
  const names = Object.keys(statistics) as K[]
  const items: T[] = []
  return clusterBootstrapIndices(
    clusters.length,
    names,
    (drawn) => {
      items.length = 0
      for (const c of drawn) for (const item of clusters[c]!) items.push(item)
      const out = {} as Record<K, number | null>
      for (const k of names) out[k] = statistics[k](items)
      return out
    },
    options,
  )
}
