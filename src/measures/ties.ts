import type { JudgedRanking } from '../rank/judged-ranking.js'
import type { ParamSpec } from './measure.js'

/**
 * Tie averaging (McSherry & Najork, "Computing information retrieval performance measures
 * efficiently in the presence of tied scores", ECIR 2008): a measure that is a sum of per-rank
 * weights times gains, Σ_i w_i · g_i, takes its expected value over every order of each run of
 * equal scores by giving each doc of a run the mean weight of the run's ranks:
 *   w̄_i = (1/|T|) Σ_{j ∈ T} w_j,  T = the maximal run of consecutive ranks with the score of i.
 * trectools' `average_ties=True` (RBP, uRBP, alpha-uRBP) computes exactly this (its runs are
 * found over the whole sorted table and may span two topics; here a run never leaves its query).
 * Ranks past a cutoff weigh 0 and still take part in the mean. A ranking without scores
 * (`docs` absent, hand-built) has no ties.
 */

/** `ties`: how a measure that sums rank weights treats equal scores. */
export const TIES = {
  type: 'string',
  choices: ['break', 'average'],
  default: 'break',
  doc: "break: ranks as the ordering convention gives them; average: each doc of a run of equal scores gets the mean weight of the run's ranks (McSherry & Najork 2008, trectools' average_ties)",
} as const satisfies ParamSpec

/** `ties` defaulting to `average`, as trectools' uRBP and alpha-uRBP. */
export const TIES_AVERAGE = { ...TIES, default: 'average' } as const satisfies ParamSpec

/** The weights `w` (one per rank of `q`) with every run of equal scores averaged, in place. */
export function averageOverTies(q: JudgedRanking, w: Float64Array): Float64Array {
  const s = q.docs?.scores
  if (!s) return w
  const n = Math.min(w.length, s.length)
  for (let a = 0; a < n; ) {
    let b = a + 1
    while (b < n && s[b] === s[a]) b++
    if (b - a > 1) {
      let sum = 0
      for (let k = a; k < b; k++) sum += w[k]!
      const mean = sum / (b - a)
      for (let k = a; k < b; k++) w[k] = mean
    }
    a = b
  }
  return w
}

/**
 * Σ_i w̄_i · gain(grade_i) over the ranks of `q`: `weight(i)` (i from 0) is the rank weight, 0
 * from the cutoff `k` on, averaged over each run of equal scores (the tie-aware value of a
 * sum-of-weights measure: P@k with weight 1, DCG@k with 1/log2(i + 2)).
 */
export function tieAveragedSum(
  q: JudgedRanking,
  k: number,
  weight: (i: number) => number,
  gain: (grade: number) => number,
): number {
  const w = new Float64Array(q.numRet)
  const m = Math.min(q.numRet, k)
  for (let i = 0; i < m; i++) w[i] = weight(i)
  averageOverTies(q, w)
  let sum = 0
  for (let i = 0; i < q.numRet; i++) {
    const g = gain(q.grades[i]!)
    if (g !== 0) sum += w[i]! * g
  }
  return sum
}

/** RBP's rank weights (1 − p)·p^(i−1) for `n` ranks, 0 past the cutoff `k`. */
export function rbpWeights(n: number, p: number, k = Infinity): Float64Array {
  const w = new Float64Array(n)
  const m = Math.min(n, k)
  for (let i = 0; i < m; i++) w[i] = (1 - p) * p ** i
  return w
}

/** RBP's rank weights for the ranks of `q`, 0 past the cutoff `k`, ties averaged. */
export function averagedRbpWeights(q: JudgedRanking, p: number, k = Infinity): Float64Array {
  return averageOverTies(q, rbpWeights(q.numRet, p, k))
}
