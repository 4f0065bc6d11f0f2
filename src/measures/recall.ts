import { type JudgedRanking, numRelAt, numRelRetAt } from '../rank/judged-ranking.js'
import { relevantInTop } from './cutoffs.js'
import { defineMeasure, single, teValues } from './measure.js'
import { cutOf, JUDGED_ONLY, judgedView, REL, relOf } from './params.js'
import { TREC_EVAL_CUTOFFS } from './trec-eval-defaults.js'

/**
 * Recall at k:  R@k = |{d in top k : grade(d) ≥ rel}| / R; 0 when R = 0 (trec_eval `recall.k`).
 */
export function recall(
  q: JudgedRanking,
  cutoffs: readonly number[],
  rel = q.relevanceLevel,
): number[] {
  const R = numRelAt(q, rel)
  if (R === 0) return cutoffs.map(() => 0)
  const hits = relevantInTop(q, cutoffs, rel)
  return hits.map((h) => h / R)
}

/** Set recall:  set_recall = num_rel_ret / R; 0 when R = 0. */
export function setRecall(q: JudgedRanking, rel = q.relevanceLevel): number {
  const R = numRelAt(q, rel)
  return R === 0 ? 0 : numRelRetAt(q, rel) / R
}

/**
 * Completeness at k:  1 when every relevant doc (grade ≥ rel) is in the top k, else 0.
 * A query with no relevant doc is complete (1).
 */
export function completeness(
  q: JudgedRanking,
  cutoffs: readonly number[],
  rel = q.relevanceLevel,
): number[] {
  const R = numRelAt(q, rel)
  return relevantInTop(q, cutoffs, rel).map((h) => (h >= R ? 1 : 0))
}

/** Recall at k (ir_measures `R@k`, trec_eval `recall.k`); set recall without `@k`. */
export const recallMeasure = defineMeasure({
  name: 'R',
  aliases: ['Recall'],
  summary:
    'Recall at k: share of the relevant documents found in the top k (all retrieved without @k).',
  formula: 'R@k = |{d in top k : grade(d) >= rel}| / R',
  params: { rel: REL, judged_only: JUDGED_ONLY },
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    {
      name: 'recall',
      params: 'long-cutoffs',
      defaults: TREC_EVAL_CUTOFFS,
      compute: (q, p) => recall(q, teValues(p)),
    },
  ],
  compute: (q, p, ctx) => {
    const v = judgedView(q, p.values.judged_only)
    const rel = relOf(p.values.rel, ctx)
    return p.at === undefined ? setRecall(v, rel) : recall(v, [p.at], rel)[0]!
  },
})

/** Completeness at k: every relevant document in the top k (not in trec_eval). */
export const completenessMeasure = defineMeasure({
  name: 'Completeness',
  aliases: [],
  summary: '1 when every relevant document is in the top k, else 0.',
  formula: 'Completeness@k = 1[|relevant in top k| = R]',
  params: { rel: REL, judged_only: JUDGED_ONLY },
  at: 'cutoff',
  atRequired: true,
  aggregate: 'mean',
  needsRelevant: true,
  compute: (q, p, ctx) =>
    completeness(judgedView(q, p.values.judged_only), [cutOf(p.at)], relOf(p.values.rel, ctx))[0]!,
})

/** Set recall (ir_measures `SetR`, trec_eval `set_recall`). */
export const setRecallMeasure = defineMeasure({
  name: 'SetR',
  aliases: [],
  summary: 'Recall of the whole retrieved set.',
  formula: 'SetR = num_rel_ret / R',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [{ name: 'set_recall', compute: single((q) => setRecall(q)) }],
  compute: (q, p, ctx) => setRecall(q, relOf(p.values.rel, ctx)),
})
