import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineTrecEvalMeasure, single, teValues } from './measure.js'
import { TREC_EVAL_UTILITY } from './trec-eval-defaults.js'

/**
 * Linear utility (trec_eval `utility`, coefficients a,b,c,d, default 1,−1,0,0):
 *   a·rel_ret + b·nonrel_ret + c·rel_not_ret + d·(N + rel_ret − ret − R)
 * with N the collection size (trec_eval `-N`).
 */
export function utility(
  q: JudgedRanking,
  coefficients: readonly number[],
  collectionSize: number,
): number {
  const [a, b, c, d] = coefficients as [number, number, number, number]
  return (
    a * q.numRelRet +
    b * (q.numRet - q.numRelRet) +
    c * (q.numRel - q.numRelRet) +
    d * (collectionSize + q.numRelRet - q.numRet - q.numRel)
  )
}

/** trec_eval `utility.a,b,c,d` (drop-in only). */
export const utilityTrecEval = defineTrecEvalMeasure({
  name: 'utility',
  params: 'double-params',
  defaults: TREC_EVAL_UTILITY,
  compute: single((q, p, ctx) => utility(q, teValues(p), ctx.collectionSize)),
})
