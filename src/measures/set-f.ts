import { numRelAt, numRelRetAt, type JudgedRanking } from '../rank/judged-ranking.js'

/**
 * Set F-measure (trec_eval `set_F`): with P = num_rel_ret/num_ret and Rc = num_rel_ret/R,
 *   F = (β + 1) · P · Rc / (β · P + Rc)
 * relevant = grade ≥ rel (the conventions' level by default).
 * Note: β is used as given, not squared (trec_eval's formula). 0 when nothing relevant retrieved.
 */
export function setF(q: JudgedRanking, beta = 1, rel = q.relevanceLevel): number {
  const relRet = numRelRetAt(q, rel)
  if (!relRet) return 0
  const P = relRet / q.numRet
  const R = relRet / numRelAt(q, rel)
  return ((beta + 1) * P * R) / (beta * P + R)
}
