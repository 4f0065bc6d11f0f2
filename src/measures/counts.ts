import type { JudgedRanking } from '../rank/judged-ranking.js'
import { numRelAt, numRelRetAt } from '../rank/judged-ranking.js'

/** num_ret: documents ranked (after depth cut and judged-only). Summed over queries. */
export function numRet(q: JudgedRanking): number {
  return q.numRet
}

/** num_rel: judged documents with grade ≥ rel (R). Summed over queries. */
export function numRel(q: JudgedRanking, rel = q.relevanceLevel): number {
  return numRelAt(q, rel)
}

/** num_rel_ret: ranked documents with grade ≥ rel. Summed over queries. */
export function numRelRet(q: JudgedRanking, rel = q.relevanceLevel): number {
  return numRelRetAt(q, rel)
}

/** num_nonrel_judged_ret = num_ret − not-in-pool − unjudged − num_rel_ret. Summed over queries. */
export function numNonrelJudgedRet(q: JudgedRanking): number {
  return q.numRet - q.numNonpool - q.numUnjudgedInPool - q.numRelRet
}
