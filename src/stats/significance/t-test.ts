/**
 * Student's paired t-test (two-sided).
 *
 *   d_i = a_i − b_i,  d̄ = (1/n) Σ d_i,  s = sqrt(Σ (d_i − d̄)² / (n − 1)),
 *   t = d̄ / (s / √n),  df = n − 1,  p = P(|T_df| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2).
 *
 * Source: Student (1908), "The probable error of a mean", Biometrika 6(1); any statistics text
 * (e.g. Rice, *Mathematical Statistics and Data Analysis*, §11.3). Matches R's
 * `t.test(a, b, paired = TRUE)` and scipy's `ttest_rel`.
 *
 * Degenerate cases (named, not hidden): n < 2 → cannot run (`p = null`); every d_i equal (s = 0):
 * all zero → t undefined, p = 1 (no evidence of a difference); all the same non-zero value →
 * |t| = ∞, p = 0.
 */
import { studentTTwoSided } from './distributions.js'
import { differences, mean, type PairedTestResult, sampleSd } from './paired.js'

/** Paired two-sided Student t-test of A against B. */
export function pairedTTest(
  a: readonly number[],
  b: readonly number[],
): PairedTestResult & { readonly df: number } {
  const d = differences(a, b)
  const n = d.length
  if (n < 2)
    return {
      statistic: null,
      p: null,
      df: Math.max(0, n - 1),
      method: `t test needs at least 2 pairs, got ${n}`,
    }
  const m = mean(d)
  const s = sampleSd(d)
  const df = n - 1
  if (s === 0) {
    if (m === 0)
      return {
        statistic: null,
        p: 1,
        df,
        method: `t distribution, df ${df}: every difference is 0, p = 1`,
      }
    return {
      statistic: m > 0 ? Infinity : -Infinity,
      p: 0,
      df,
      method: `t distribution, df ${df}: every difference is ${m}, |t| = ∞, p = 0`,
    }
  }
  const t = m / (s / Math.sqrt(n))
  return { statistic: t, p: studentTTwoSided(t, df), df, method: `t distribution, df ${df}` }
}
