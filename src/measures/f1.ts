import { type JudgedRanking, numRelAt } from '../rank/judged-ranking.js'
import { relevantInTop } from './cutoffs.js'
import { defineMeasure } from './measure.js'
import { cutOf, JUDGED_ONLY, judgedView, REL, relOf } from './params.js'

/**
 * F1 at k, the harmonic mean of P@k and R@k:
 *   P = hits/k, Rc = hits/R, F1@k = 2·P·Rc / (P + Rc);  0 when P + Rc = 0 (no hit, or R = 0)
 * hits = relevant docs in the top k; P divides by k even when fewer were retrieved. No cutoff:
 * k = the number retrieved (0 when nothing was). As ranx `f1` (rel_lvl = `rel`).
 * Reference: ranx 0.3.20 `metrics/f1.py` (AmenRa/ranx @ 2cae52f); van Rijsbergen,
 * Information Retrieval, 1979 (F, β = 1).
 */
export function f1At(q: JudgedRanking, k: number, rel = q.relevanceLevel): number {
  const R = numRelAt(q, rel)
  const size = Number.isFinite(k) ? k : q.numRet
  if (R === 0 || size === 0) return 0
  const h = relevantInTop(q, [size], rel)[0]!
  const p = h / size
  const r = h / R
  return p + r === 0 ? 0 : (2 * p * r) / (p + r)
}

/** F1 at k (ranx `f1`). */
export const f1Measure = defineMeasure({
  name: 'F1',
  aliases: [],
  summary: 'Harmonic mean of P@k and R@k (ranx f1).',
  formula: 'F1@k = 2 P@k R@k / (P@k + R@k); 0 when both are 0',
  params: { rel: REL, judged_only: JUDGED_ONLY },
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  compute: (q, p, ctx) =>
    f1At(judgedView(q, p.values.judged_only), cutOf(p.at), relOf(p.values.rel, ctx)),
})
