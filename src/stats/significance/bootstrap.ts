/**
 * Paired bootstrap test, two-sided (shift method).
 *
 * The differences d_i = a_i − b_i are shifted to mean 0 (z_i = d_i − d̄, so H0 holds in the
 * resampling population); B resamples of n values drawn with replacement from z (seeded
 * `createRng(seed)`, indices drawn as `Rng.int(n)` does) give means z̄*_b, and
 *
 *   p = (#{b : |z̄*_b| ≥ |d̄|} + 1) / (B + 1),
 *
 * the share of resampled means at least as far from 0 as the observed mean, with the observed
 * sample counted once (so p > 0). Statistic reported: d̄.
 *
 * Sources: Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, §16.4 (testing with the
 * shifted empirical distribution; here with the mean, not the studentized, statistic);
 * Sakai (2006), "Evaluating evaluation metrics based on the bootstrap", SIGIR.
 */
import { effectFromSums, type PairedEffect } from './effect.js'
import {
  atLeastAsExtreme,
  differences,
  mean,
  type PairedTestResult,
  resampledSums,
} from './paired.js'

/** Options of {@link bootstrapTest}. */
export interface BootstrapOptions {
  /** Resamples B. @default 10000 */
  readonly resamples?: number
  /** @default 42 */
  readonly seed?: number
}

/** Paired two-sided bootstrap test of A against B (statistic: mean difference). */
export function bootstrapTest(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): PairedTestResult {
  const B = options.resamples ?? 10000
  const seed = options.seed ?? 42
  if (!(Number.isInteger(B) && B >= 1))
    throw new RangeError(`bootstrap resamples must be a positive integer, got ${B}`)
  const d = differences(a, b)
  const n = d.length
  if (n < 2)
    return { statistic: null, p: null, method: `bootstrap test needs at least 2 pairs, got ${n}` }
  const observed = mean(d)
  const z = Float64Array.from(d, (x) => x - observed)
  const [sums] = resampledSums([z], B, seed)
  return testFromSums(observed, n, sums!, seed)
}

function testFromSums(
  observed: number,
  n: number,
  sums: Float64Array,
  seed: number,
): PairedTestResult {
  const B = sums.length
  const obsSum = observed * n
  let count = 0
  for (let k = 0; k < B; k++) if (atLeastAsExtreme(sums[k]!, obsSum)) count++
  return {
    statistic: observed,
    p: (count + 1) / (B + 1),
    method: `paired bootstrap, shift method, ${B} resamples (seed ${seed}), p = (count + 1)/(B + 1)`,
  }
}

/**
 * The bootstrap test and the effect sizes (bootstrap CI) of one pair from ONE resampling: both
 * draw the same indices (same seed and n), so one pass sums d and z = d − d̄ together. Equal,
 * bit for bit, to `bootstrapTest(a, b, o)` and `pairedEffect(a, b, o)` called apart, at half the
 * cost.
 */
export function bootstrapTestAndEffect(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions & { readonly level?: number } = {},
): { readonly test: PairedTestResult; readonly effect: PairedEffect } {
  const B = options.resamples ?? 10000
  const seed = options.seed ?? 42
  const level = options.level ?? 0.95
  if (!(Number.isInteger(B) && B >= 1))
    throw new RangeError(`bootstrap resamples must be a positive integer, got ${B}`)
  if (!(level > 0 && level < 1)) throw new RangeError(`CI level must be in (0, 1), got ${level}`)
  const d = differences(a, b)
  const n = d.length
  if (n < 2) {
    return {
      test: { statistic: null, p: null, method: `bootstrap test needs at least 2 pairs, got ${n}` },
      effect: { meanDifference: n ? mean(d) : NaN, ci: null, level, cohensDz: null },
    }
  }
  const observed = mean(d)
  const [sd, sz] = resampledSums(
    [Float64Array.from(d), Float64Array.from(d, (x) => x - observed)],
    B,
    seed,
  )
  return { test: testFromSums(observed, n, sz!, seed), effect: effectFromSums(d, sd!, level) }
}
