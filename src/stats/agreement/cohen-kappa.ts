import { numpyPairwiseSum } from './numpy-sum.js'

/**
 * Cohen's kappa between two raters over a FIXED category list (default 1..5), as
 * `sklearn.metrics.cohen_kappa_score(human, judge, weights=…, labels=[1..5])` (scikit-learn 1.2.1)
 * computes it in float64:
 *
 *   C = confusion matrix (rows: human, columns: judge), n = Σ C
 *   E_ij = colsum_i · rowsum_j / n              (np.outer(sum over axis 0, sum over axis 1) / n)
 *   w_ij = 0 if i = j else 1 (unweighted) | |i − j| (linear) | (i − j)² (quadratic), i, j indices
 *   κ = 1 − Σ w·C / Σ w·E                      (Σ w·E is numpy's pairwise sum over the K² cells)
 *
 * The category set is fixed, not the observed labels: sklearn without `labels=` uses the observed
 * labels and their index distances and gives a different (wrong) QWK. κ is NaN when Σ w·E = 0
 * (both raters constant on the same category); when only one rater is constant it is exactly 0.
 */

export type KappaWeights = 'unweighted' | 'linear' | 'quadratic'

/** A statistic's value, or why it has none (`nan`: the reference returns NaN; `undefined`: no value is defined). */
export interface StatValue {
  readonly value: number | null
  readonly status: 'ok' | 'nan' | 'undefined'
}

/** The default rating scale: the five Likert categories 1..5. */
export const LIKERT_CATEGORIES: readonly number[] = [1, 2, 3, 4, 5]

/** Cohen's kappa (sklearn 1.2.1 float64 arithmetic, reproduced exactly). Ratings outside `categories` are a RangeError. */
export function cohenKappa(
  human: readonly number[],
  judge: readonly number[],
  weights: KappaWeights = 'quadratic',
  categories: readonly number[] = LIKERT_CATEGORIES,
): StatValue {
  if (human.length !== judge.length)
    throw new RangeError(
      `cohenKappa: ${human.length} human ratings but ${judge.length} judge ratings`,
    )
  const k = categories.length
  const index = new Map(categories.map((c, i) => [c, i]))
  const confusion = new Array<number>(k * k).fill(0)
  for (let t = 0; t < human.length; t++) {
    const i = index.get(human[t]!)
    const j = index.get(judge[t]!)
    if (i === undefined || j === undefined) {
      throw new RangeError(
        `cohenKappa: rating ${i === undefined ? human[t] : judge[t]} is not one of the categories ${categories.join(',')}`,
      )
    }
    confusion[i * k + j]! += 1
  }
  return cohenKappaFromConfusion(confusion, k, weights)
}

/** Cohen's kappa from a k×k confusion matrix (row-major; rows human, columns judge), same arithmetic. */
export function cohenKappaFromConfusion(
  confusion: ArrayLike<number>,
  k: number,
  weights: KappaWeights = 'quadratic',
): StatValue {
  const colsum = new Array<number>(k).fill(0) // judge marginals (np.sum(confusion, axis=0))
  const rowsum = new Array<number>(k).fill(0) // human marginals (axis=1)
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      rowsum[i]! += confusion[i * k + j]!
      colsum[j]! += confusion[i * k + j]!
    }
  }
  let n = 0
  for (let i = 0; i < k * k; i++) n += confusion[i]!
  const weight = (i: number, j: number): number =>
    weights === 'unweighted'
      ? i === j
        ? 0
        : 1
      : weights === 'linear'
        ? Math.abs(i - j)
        : (i - j) * (i - j)
  let observed = 0 // integer sum: exact in any order
  const expectedCells = new Float64Array(k * k)
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = weight(i, j)
      observed += w * confusion[i * k + j]!
      expectedCells[i * k + j] = w * ((colsum[i]! * rowsum[j]!) / n)
    }
  }
  const expected = numpyPairwiseSum(expectedCells)
  const value = 1 - observed / expected
  return Number.isFinite(value) ? { value, status: 'ok' } : { value: null, status: 'nan' }
}
