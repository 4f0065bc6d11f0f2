import { type JudgedRanking, numRelAt, numRelRetAt } from '../rank/judged-ranking.js'
import { defineMeasure, single, teValues } from './measure.js'
import { REL, relOf } from './params.js'
import { TREC_EVAL_SET_F_BETA } from './trec-eval-defaults.js'

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

/** Set F (ir_measures `SetF`, trec_eval `set_F.beta`). */
export const setFMeasure = defineMeasure({
  name: 'SetF',
  aliases: ['F'],
  summary: 'F-measure of the whole retrieved set (trec_eval set_F: beta not squared).',
  formula: 'F = (beta+1) P R / (beta P + R)',
  params: {
    beta: { type: 'float', default: 1, range: { min: 0 }, doc: 'weight of recall' },
    rel: REL,
  },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    {
      name: 'set_F',
      params: 'double-params',
      param: 'beta',
      defaults: [TREC_EVAL_SET_F_BETA],
      compute: single((q, p) => setF(q, teValues(p)[0] ?? TREC_EVAL_SET_F_BETA)),
    },
  ],
  compute: (q, p, ctx) => setF(q, p.values.beta, relOf(p.values.rel, ctx)),
})
