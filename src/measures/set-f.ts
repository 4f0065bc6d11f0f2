import type { JudgedRanking } from '../rank/judged-ranking.js'

/**
 * Set F-measure (trec_eval `set_F`): with P = num_rel_ret/num_ret and Rc = num_rel_ret/R,
 *   F = (β + 1) · P · Rc / (β · P + Rc)
 * Note: β is used as given, not squared (trec_eval's formula). 0 when nothing relevant retrieved.
 */
export function setF(q: JudgedRanking, beta = 1): number {
  if (!q.numRelRet) return 0
  const P = q.numRelRet / q.numRet
  const R = q.numRelRet / q.numRel
  return ((beta + 1) * P * R) / (beta * P + R)
}
