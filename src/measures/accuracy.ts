import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure } from './measure.js'
import { cutOf, REL, relOf } from './params.js'

/**
 * Accuracy at k (ir_measures' `Accuracy`, its accuracy provider): the share of (relevant,
 * non-relevant) pairs within the top k in which the relevant doc is ranked first,
 *   Accuracy@k = 1 − Σ_{j=1..n_r} nonrel_before(r_j) / (n_r · n_n)
 * n_r, n_n = relevant (grade ≥ rel) and non-relevant docs in the top k (unjudged docs are
 * non-relevant); no cutoff: the whole ranking. Undefined (left out of the mean) when n_r = 0,
 * as ir_measures reports no value then, or when n_n = 0, where ir_measures raises
 * ZeroDivisionError. ir_measures orders by score alone (a stable sort: ties in file order);
 * here the conventions' ordering applies.
 * Reference: ir_measures 0.4.3 `providers/accuracy_provider.py` (terrierteam/ir_measures @
 * dc04a88), MacAvaney et al., Streamlining evaluation with ir-measures, ECIR 2022.
 */
export function accuracy(q: JudgedRanking, k: number, rel = q.relevanceLevel): number | null {
  const n = Math.min(k, q.numRet)
  let nonrel = 0
  let rels = 0
  let before = 0
  for (let i = 0; i < n; i++) {
    if (q.grades[i]! >= rel) {
      rels++
      before += nonrel
    } else nonrel++
  }
  if (rels === 0 || nonrel === 0) return null
  return 1 - before / (nonrel * rels)
}

/** Accuracy (ir_measures `Accuracy`, `Accuracy@k`). */
export const accuracyMeasure = defineMeasure({
  name: 'Accuracy',
  aliases: [],
  summary:
    'Probability that a retrieved relevant document is ranked above a retrieved non-relevant one.',
  formula:
    'Accuracy@k = 1 - sum over relevant r in top k of nonrel_above(r) / (n_rel * n_nonrel), within the top k',
  params: { rel: REL },
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  undefinedWhen:
    'the top k holds no relevant or no non-relevant document (ir_measures: no value, or ZeroDivisionError)',
  compute: (q, p, ctx) => accuracy(q, cutOf(p.at), relOf(p.values.rel, ctx)),
})
