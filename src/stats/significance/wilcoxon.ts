/**
 * Wilcoxon signed-rank test for paired samples, two-sided.
 *
 * d_i = a_i − b_i. **Zeros are dropped** (Wilcoxon's original convention, scipy's
 * `zero_method='wilcox'`, R's `wilcox.test`); n' = number of non-zero differences. The |d_i| are
 * ranked 1..n' with tied values given their average rank; V = W+ = Σ ranks of positive d_i
 * (R's statistic `V`).
 *
 * - **Exact** when n' < 50 and the |d_i| have no ties: the null distribution of W+ (every sign
 *   equally likely) is counted exactly (number of subsets of {1..n'} with each sum), and
 *   p = min(1, 2 · min(P(W+ ≤ V), P(W+ ≥ V))).
 * - **Normal approximation** otherwise, with the tie correction and the continuity correction:
 *   μ = n'(n'+1)/4,  σ² = n'(n'+1)(2n'+1)/24 − Σ_t (t³ − t)/48  (t: sizes of tie groups),
 *   z = (V − μ − ½·sign(V − μ)) / σ,  p = 2 · P(Z ≥ |z|)  (capped at 1).
 *
 * This is R's `wilcox.test(a, b, paired = TRUE)` default (`correct = TRUE`) and scipy's
 * `wilcoxon(a, b, zero_method='wilcox', correction=True)`; one difference named here: when zeros
 * were dropped but n' < 50 with no ties, we still use the exact distribution of the n' non-zero
 * ranks (R switches to the normal approximation).
 *
 * Sources: Wilcoxon (1945), "Individual comparisons by ranking methods", Biometrics Bulletin 1(6);
 * Hollander & Wolfe (1973), *Nonparametric Statistical Methods*, §3.1.
 */
import { normalSf } from './distributions.js'
import { differences, type PairedTestResult } from './paired.js'

/** Largest n' for the exact distribution (exclusive). */
export const WILCOXON_EXACT_LIMIT = 50

/** Number of subsets of {1..n} with each sum k = 0..n(n+1)/2 (the exact null distribution of W+, times 2^n). */
export function signedRankCounts(n: number): number[] {
  const max = (n * (n + 1)) / 2
  const c = new Array<number>(max + 1).fill(0)
  c[0] = 1
  for (let r = 1; r <= n; r++) for (let k = (r * (r + 1)) / 2; k >= r; k--) c[k]! += c[k - r]!
  return c
}

/** Paired two-sided Wilcoxon signed-rank test of A against B. */
export function wilcoxonTest(
  a: readonly number[],
  b: readonly number[],
): PairedTestResult & {
  readonly nonZero: number
  readonly zeros: number
  readonly exact: boolean
} {
  const d = differences(a, b).filter((x) => x !== 0)
  const zeros = a.length - d.length
  const n = d.length
  const dropped = zeros ? `, ${zeros} zero difference(s) dropped` : ''
  if (n === 0)
    return {
      statistic: null,
      p: null,
      nonZero: 0,
      zeros,
      exact: false,
      method: `Wilcoxon signed-rank: no non-zero difference${dropped}`,
    }
  const order = d.map((x, i) => [Math.abs(x), i] as const).sort((x, y) => x[0] - y[0])
  const ranks = new Array<number>(n)
  let tieTerm = 0
  for (let i = 0; i < n; ) {
    let j = i
    while (j + 1 < n && order[j + 1]![0] === order[i]![0]) j++
    const t = j - i + 1
    const avg = (i + 1 + (j + 1)) / 2
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = avg
    tieTerm += t * t * t - t
    i = j + 1
  }
  let V = 0
  for (let i = 0; i < n; i++) if (d[i]! > 0) V += ranks[i]!
  if (n < WILCOXON_EXACT_LIMIT && tieTerm === 0) {
    const counts = signedRankCounts(n)
    const total = 2 ** n
    let lower = 0
    let upper = 0
    for (let k = 0; k < counts.length; k++) {
      if (k <= V) lower += counts[k]!
      if (k >= V) upper += counts[k]!
    }
    const p = Math.min(1, (2 * Math.min(lower, upper)) / total)
    return {
      statistic: V,
      p,
      nonZero: n,
      zeros,
      exact: true,
      method: `Wilcoxon signed-rank, exact distribution of W+ (n = ${n})${dropped}`,
    }
  }
  const mu = (n * (n + 1)) / 4
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48)
  const why = tieTerm ? 'ties' : `n = ${n} ≥ ${WILCOXON_EXACT_LIMIT}`
  if (sigma === 0)
    return {
      statistic: V,
      p: 1,
      nonZero: n,
      zeros,
      exact: false,
      method: `Wilcoxon signed-rank, normal approximation (${why}): zero variance, p = 1${dropped}`,
    }
  const diff = V - mu
  const z = (diff - 0.5 * Math.sign(diff)) / sigma
  const p = Math.min(1, 2 * normalSf(Math.abs(z)))
  return {
    statistic: V,
    p,
    nonZero: n,
    zeros,
    exact: false,
    method: `Wilcoxon signed-rank, normal approximation with tie and continuity correction (${why})${dropped}`,
  }
}
