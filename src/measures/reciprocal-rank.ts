import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure, single, teValues } from './measure.js'
import { cutOf, JUDGED_ONLY, judgedView, REL, relOf } from './params.js'
import { TREC_EVAL_SUCCESS_CUTOFFS } from './trec-eval-defaults.js'

/**
 * Reciprocal rank:  RR@k = 1 / (rank of the first doc with grade ≥ rel), 0 when none is in the
 * top k (no cutoff by default: trec_eval `recip_rank`).
 */
export function reciprocalRank(
  q: JudgedRanking,
  rel = q.relevanceLevel,
  cutoff = Infinity,
): number {
  const n = Math.min(q.numRet, cutoff)
  for (let i = 0; i < n; i++) if (q.grades[i]! >= rel) return 1 / (i + 1)
  return 0
}

/**
 * Success at k:  1 when a doc with grade ≥ rel is in the top k, else 0 (trec_eval `success.k`).
 */
export function success(
  q: JudgedRanking,
  cutoffs: readonly number[],
  rel = q.relevanceLevel,
): number[] {
  let first = -1
  for (let i = 0; i < q.numRet; i++) {
    if (q.grades[i]! >= rel) {
      first = i
      break
    }
  }
  return cutoffs.map((k) => (first >= 0 && first < k ? 1 : 0))
}

/** Reciprocal rank (ir_measures `RR`, `RR@k`; trec_eval `recip_rank`). */
export const reciprocalRankMeasure = defineMeasure({
  name: 'RR',
  aliases: ['MRR'],
  summary: 'Reciprocal rank of the first relevant document (within the top k when given).',
  formula: 'RR@k = 1 / rank of the first d with grade(d) >= rel, 0 if none in the top k',
  params: { rel: REL, judged_only: JUDGED_ONLY },
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [{ name: 'recip_rank', compute: single((q) => reciprocalRank(q)) }],
  compute: (q, p, ctx) =>
    reciprocalRank(judgedView(q, p.values.judged_only), relOf(p.values.rel, ctx), cutOf(p.at)),
})

/** Success at k (ir_measures `Success@k`, trec_eval `success.k`). */
export const successMeasure = defineMeasure({
  name: 'Success',
  aliases: [],
  summary: '1 when a relevant document is in the top k, else 0.',
  formula: 'Success@k = 1[exists d in top k : grade(d) >= rel]',
  params: { rel: REL, judged_only: JUDGED_ONLY },
  at: 'cutoff',
  atRequired: true,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    {
      name: 'success',
      params: 'long-cutoffs',
      defaults: TREC_EVAL_SUCCESS_CUTOFFS,
      compute: (q, p) => success(q, teValues(p)),
    },
  ],
  compute: (q, p, ctx) =>
    success(judgedView(q, p.values.judged_only), [cutOf(p.at)], relOf(p.values.rel, ctx))[0]!,
})
