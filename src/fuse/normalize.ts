/**
 * Per-run, per-query score normalisations, applied to the scores of one ranked list before
 * fusion. Each maps a list of n scores s_1 ≥ … ≥ s_n (rank order) to new scores; absent docs are
 * not part of the list, so they never shift a minimum, mean or sum.
 *
 * - `none`:   s_i unchanged.
 * - `minmax`: (s_i − min) / (max − min). Constant scores (including a single doc): every doc 1,
 *             so a run that retrieved one doc still counts it fully.
 * - `zscore`: (s_i − mean) / sd, sd the population standard deviation (divide by n). Constant
 *             scores (sd = 0, a single doc included): every doc 0.
 * - `sum`:    (s_i − min) / Σ_j (s_j − min): shifted to be non-negative, then summing to 1.
 *             Constant scores (the sum is 0, a single doc included): every doc 1/n.
 * - `rank`:   (n − r_i + 1) / n with r_i the rank (1-based): the top doc 1, the last 1/n;
 *             scores are ignored beyond the order they define.
 */
import type { Normalization, RankedList } from './types.js'

/** Normalise one ranked list (a new list; the input is not changed). */
export function normalizeList(list: RankedList, norm: Normalization): RankedList {
  const s = list.scores
  const n = s.length
  if (norm === 'none' || n === 0) return list
  let out: number[]
  switch (norm) {
    case 'minmax': {
      const { min, max } = range(s)
      out = max === min ? s.map(() => 1) : s.map((v) => (v - min) / (max - min))
      break
    }
    case 'zscore': {
      const mean = ordered(s).reduce((a, v) => a + v, 0) / n
      const variance = ordered(s.map((v) => (v - mean) * (v - mean))).reduce((a, v) => a + v, 0) / n
      const sd = Math.sqrt(variance)
      out = sd === 0 ? s.map(() => 0) : s.map((v) => (v - mean) / sd)
      break
    }
    case 'sum': {
      const { min } = range(s)
      const total = ordered(s.map((v) => v - min)).reduce((a, v) => a + v, 0)
      out = total === 0 ? s.map(() => 1 / n) : s.map((v) => (v - min) / total)
      break
    }
    case 'rank':
      out = s.map((_, i) => (n - i) / n)
      break
  }
  return { docIds: list.docIds, scores: out }
}

function range(s: readonly number[]): { min: number; max: number } {
  let min = Infinity
  let max = -Infinity
  for (const v of s) {
    if (v < min) min = v
    if (v > max) max = v
  }
  return { min, max }
}

/** Values in ascending order, so sums do not depend on the order docs arrived in. */
function ordered(values: readonly number[]): number[] {
  return values.slice().sort((a, b) => a - b)
}
