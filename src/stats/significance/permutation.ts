/**
 * Fisher's randomization (permutation) test for paired samples, two-sided, by sign flips.
 *
 * Under H0 (A and B exchangeable within each pair) each d_i = a_i − b_i is equally likely to
 * carry either sign. Statistic: the mean difference d̄ = (1/n) Σ d_i. For a sign vector
 * s ∈ {−1, +1}^n, d̄_s = (1/n) Σ s_i d_i.
 *
 * - **Exact** when 2^n ≤ `permutations` (and n ≤ 30): every sign vector is enumerated (the observed one
 *   included) and p = #{s : |d̄_s| ≥ |d̄|} / 2^n.
 * - **Sampled** otherwise: B = `permutations` random sign vectors from the seeded generator
 *   (`createRng(seed)`; each 32-bit draw gives the signs of 32 pairs, bit 1 = flipped) and
 *   p = (#{b : |d̄_b| ≥ |d̄|} + 1) / (B + 1)
 *   (the observed arrangement counted once: never 0, a valid p-value; Phipson & Smyth 2010,
 *   "Permutation p-values should never be zero", Stat. Appl. Genet. Mol. Biol. 9(1)).
 *
 * Sources: Fisher (1935), *The Design of Experiments*, §21; Smucker, Allan & Carterette (2007),
 * "A comparison of statistical significance tests for information retrieval evaluation", CIKM.
 * "≥" allows a relative rounding slack of 1e-9 (see `atLeastAsExtreme`).
 */
import { createRng } from '../random.js'
import { atLeastAsExtreme, differences, mean, type PairedTestResult } from './paired.js'

/** Options of {@link permutationTest}. */
export interface PermutationOptions {
  /** Sign-flip budget B (exact enumeration when 2^n ≤ B). @default 10000 */
  readonly permutations?: number
  /** Seed of the sampled version. @default 42 */
  readonly seed?: number
}

/** Paired two-sided randomization test of A against B (statistic: mean difference). */
export function permutationTest(
  a: readonly number[],
  b: readonly number[],
  options: PermutationOptions = {},
): PairedTestResult & { readonly exact: boolean } {
  const budget = options.permutations ?? 10000
  const seed = options.seed ?? 42
  if (!(Number.isInteger(budget) && budget >= 1))
    throw new RangeError(`permutations must be a positive integer, got ${budget}`)
  const d = differences(a, b)
  const n = d.length
  if (n < 1)
    return {
      statistic: null,
      p: null,
      exact: true,
      method: 'permutation test needs at least 1 pair, got 0',
    }
  const observed = mean(d)
  // Sums instead of means: same ordering, fewer divisions.
  const obsSum = observed * n
  if (n <= 30 && 2 ** n <= budget) {
    const total = 2 ** n
    let count = 0
    for (let mask = 0; mask < total; mask++) {
      let s = 0
      for (let i = 0; i < n; i++) s += ((mask >>> i) & 1) === 1 ? -d[i]! : d[i]!
      if (atLeastAsExtreme(s, obsSum)) count++
    }
    return {
      statistic: observed,
      p: count / total,
      exact: true,
      method: `exact, all ${total} sign vectors enumerated`,
    }
  }
  const rng = createRng(seed)
  const dv = Float64Array.from(d)
  let count = 0
  for (let k = 0; k < budget; k++) {
    // One 32-bit draw gives the signs of 32 pairs (bit 1: flipped).
    let s = 0
    let bits = 0
    let left = 0
    for (let i = 0; i < n; i++) {
      if (left === 0) {
        bits = (rng.next() * 4294967296) >>> 0
        left = 32
      }
      s += bits & 1 ? -dv[i]! : dv[i]!
      bits >>>= 1
      left--
    }
    if (atLeastAsExtreme(s, obsSum)) count++
  }
  return {
    statistic: observed,
    p: (count + 1) / (budget + 1),
    exact: false,
    method: `sampled, ${budget} random sign vectors (seed ${seed}), p = (count + 1)/(B + 1)`,
  }
}
