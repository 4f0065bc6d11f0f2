import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure, single, teValues } from './measure.js'
import { TREC_EVAL_UTILITY } from './trec-eval-defaults.js'

/**
 * Linear utility (trec_eval `utility`, coefficients a,b,c,d, default 1,−1,0,0):
 *   a·rel_ret + b·nonrel_ret + c·rel_not_ret + d·(N + rel_ret − ret − R)
 * with N the collection size (trec_eval `-N`).
 * Reference: trec_eval 10 `m_utility.c`; D. D. Lewis, The TREC-4 filtering track, TREC 1995.
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

/** Linear utility (trec_eval `utility.a,b,c,d`). */
export const utilityMeasure = defineMeasure({
  name: 'Utility',
  aliases: [],
  summary: 'Linear set utility a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret.',
  formula: 'Utility = a*rel_ret + b*(ret - rel_ret) + c*(R - rel_ret) + d*(N + rel_ret - ret - R)',
  params: {
    a: { type: 'float', default: 1, doc: 'coefficient of relevant retrieved' },
    b: { type: 'float', default: -1, doc: 'coefficient of non-relevant retrieved' },
    c: { type: 'float', default: 0, doc: 'coefficient of relevant not retrieved' },
    d: { type: 'float', default: 0, doc: 'coefficient of non-relevant not retrieved (needs N)' },
    N: {
      type: 'int',
      default: 0,
      range: { min: 0 },
      doc: 'collection size, as trec_eval -N (only d uses it)',
    },
  },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: false,
  valueRange: 'real',
  trecEval: [
    {
      name: 'utility',
      params: 'double-params',
      paramList: ['a', 'b', 'c', 'd'],
      defaults: TREC_EVAL_UTILITY,
      compute: single((q, p, ctx) => utility(q, teValues(p), ctx.collectionSize)),
    },
  ],
  compute: (q, p) => {
    const { a, b, c, d, N } = p.values
    return utility(q, [a, b, c, d], N)
  },
})
