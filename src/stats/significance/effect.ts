/**
 * Effect sizes of a paired comparison (d_i = a_i − b_i):
 *
 * - mean difference d̄ with a **percentile bootstrap 95% CI**: B resamples of the d_i with
 *   replacement (seeded `createRng(seed)`, drawn by `resampledSums` in O(B·n) time and O(B)
 *   memory), their means sorted, and the CI is
 *   [q(0.025), q(0.975)] with q the type-7 quantile (linear interpolation between order
 *   statistics, R's default `quantile`). Efron & Tibshirani (1993), *An Introduction to the
 *   Bootstrap*, §13.3.
 * - **Cohen's d for paired samples, d_z** = d̄ / s_d, with s_d the standard deviation of the
 *   differences (n − 1 in the denominator); d_z = t / √n. Cohen (1988), *Statistical Power
 *   Analysis for the Behavioral Sciences*, 2nd ed., §2.3.5; Lakens (2013), Front. Psychol. 4:863,
 *   eq. 6. `null` when s_d = 0 or n < 2.
 */
import { differences, mean, resampledSums, sampleSd } from './paired.js'

/** Effect sizes of A − B. */
export interface PairedEffect {
  readonly meanDifference: number
  /** Percentile bootstrap CI at `level`; `null` when n < 2. */
  readonly ci: readonly [number, number] | null
  readonly level: number
  /** Cohen's d_z; `null` when sd = 0 or n < 2. */
  readonly cohensDz: number | null
}

/** Options of {@link pairedEffect}. */
export interface EffectOptions {
  /** @default 10000 */
  readonly resamples?: number
  /** @default 42 */
  readonly seed?: number
  /** @default 0.95 */
  readonly level?: number
}

/** Type-7 quantile of a sorted sample (R's default): h = (n − 1)q, linear between neighbours. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q
  const lo = Math.floor(h)
  const hi = Math.min(sorted.length - 1, lo + 1)
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!)
}

/** Cohen's d_z = mean(d) / sd(d) (n − 1); `null` when undefined. */
export function cohensDz(a: readonly number[], b: readonly number[]): number | null {
  const d = differences(a, b)
  if (d.length < 2) return null
  const s = sampleSd(d)
  return s > 0 ? mean(d) / s : null
}

/** Mean difference, its percentile bootstrap CI, and Cohen's d_z. */
export function pairedEffect(
  a: readonly number[],
  b: readonly number[],
  options: EffectOptions = {},
): PairedEffect {
  const B = options.resamples ?? 10000
  const level = options.level ?? 0.95
  if (!(Number.isInteger(B) && B >= 1))
    throw new RangeError(`bootstrap resamples must be a positive integer, got ${B}`)
  if (!(level > 0 && level < 1)) throw new RangeError(`CI level must be in (0, 1), got ${level}`)
  const d = differences(a, b)
  const n = d.length
  const m = n ? mean(d) : NaN
  if (n < 2) return { meanDifference: m, ci: null, level, cohensDz: null }
  const [sums] = resampledSums([Float64Array.from(d)], B, options.seed ?? 42)
  return effectFromSums(d, sums!, level)
}

/**
 * The effect sizes of differences `d` (n ≥ 2) given the resampled sums of d (see
 * `resampledSums`): the CI's resampled means are sums / n, sorted in place.
 */
export function effectFromSums(
  d: readonly number[],
  sums: Float64Array,
  level: number,
): PairedEffect {
  const n = d.length
  for (let k = 0; k < sums.length; k++) sums[k] = sums[k]! / n
  sums.sort()
  const tail = (1 - level) / 2
  const s = sampleSd(d)
  return {
    meanDifference: mean(d),
    ci: [quantileSorted(sums, tail), quantileSorted(sums, 1 - tail)],
    level,
    cohensDz: s > 0 ? mean(d) / s : null,
  }
}
