import type { JudgedRanking } from '../rank/judged-ranking.js'
import { relevantInTop } from './cutoffs.js'
import { defineMeasure } from './measure.js'
import { cutOf, JUDGED_ONLY, judgedView, REL, relOf } from './params.js'

/**
 * Hits at k:  Hits@k = |{d in top min(k, n) : grade(d) ≥ rel}|; no cutoff: every retrieved doc.
 * A count per query, averaged over queries (ranx `hits`, whose `k = 0` is no cutoff).
 * Reference: ranx 0.3.20 `metrics/hits.py` (AmenRa/ranx @ 2cae52f); Bassani, ranx: a
 * blazing-fast Python library for ranking evaluation and comparison, ECIR 2022.
 */
export function hits(q: JudgedRanking, k: number, rel = q.relevanceLevel): number {
  return relevantInTop(q, [k], rel)[0]!
}

/** Hits (ranx `hits`). */
export const hitsMeasure = defineMeasure({
  name: 'Hits',
  aliases: [],
  summary: 'Number of relevant documents in the top k (averaged over queries).',
  formula: 'Hits@k = |{d in top k : grade(d) >= rel}|',
  params: { rel: REL, judged_only: JUDGED_ONLY },
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: false,
  valueRange: 'nonnegative',
  compute: (q, p, ctx) =>
    hits(judgedView(q, p.values.judged_only), cutOf(p.at), relOf(p.values.rel, ctx)),
})
