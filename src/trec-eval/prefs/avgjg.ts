import { averagePrecision } from '../../measures/average-precision.js'
import { precision, rPrecisionMult } from '../../measures/precision.js'
import type { JudgedRanking } from '../../rank/judged-ranking.js'

/**
 * Judgment-group averages of qrels measures (`-R qrels_jg`): each judgment group g (one
 * assessor's qrels of the query) gives its own judged ranking, the measure is computed on each,
 * and the query's value is the mean over its groups:
 *
 *   map_avgjg              = (1/G) Σ_g AP_g
 *   P_avgjg.k              = (1/G) Σ_g P_g@k
 *   Rprec_mult_avgjg.x     = (1/G) Σ_g P_g@⌊x·R_g + 0.9⌋
 *
 * with AP, P@k and Rprec_mult exactly as `map`, `P.k` and `Rprec_mult.x` (R_g = the group's
 * relevant docs; `-l`, `-M`, `-J` apply per group). With one group these equal the plain measures.
 */
export function mapAvgjg(groups: readonly JudgedRanking[]): number {
  return averageOverGroups(groups, (q) => [averagePrecision(q)])[0] ?? 0
}

/** P_avgjg.k = (1/G) Σ_g P_g@k; see {@link mapAvgjg}. */
export function precisionAvgjg(
  groups: readonly JudgedRanking[],
  cutoffs: readonly number[],
): number[] {
  return averageOverGroups(groups, (q) => precision(q, cutoffs))
}

/** Rprec_mult_avgjg.x = (1/G) Σ_g P_g@⌊x·R_g + 0.9⌋; see {@link mapAvgjg}. */
export function rPrecisionMultAvgjg(
  groups: readonly JudgedRanking[],
  multiples: readonly number[],
): number[] {
  return averageOverGroups(groups, (q) => rPrecisionMult(q, multiples))
}

/** Element-wise mean of per-group values, summed in group order (trec_eval's accumulation). */
function averageOverGroups(
  groups: readonly JudgedRanking[],
  perGroup: (q: JudgedRanking) => number[],
): number[] {
  let sums: number[] = []
  for (const q of groups) {
    const v = perGroup(q)
    sums = (sums.length ? sums : v.map(() => 0)).map((s, k) => s + v[k]!)
  }
  return groups.length > 1 ? sums.map((s) => s / groups.length) : sums
}
