import type { JudgedRanking } from '../rank/judged-ranking.js'
import { numRelAt, numRelRetAt } from '../rank/judged-ranking.js'
import { defineMeasure, single } from './measure.js'
import { REL, relOf } from './params.js'

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

/** Documents retrieved (ir_measures `NumRet`, trec_eval `num_ret`). */
export const numRetMeasure = defineMeasure({
  name: 'NumRet',
  aliases: ['num_ret'],
  summary: 'Number of documents retrieved (summed over queries).',
  formula: 'num_ret',
  params: {},
  at: 'none',
  atRequired: false,
  aggregate: 'sum',
  needsRelevant: false,
  trecEval: [{ name: 'num_ret', perQuery: 'long', summary: 'sum', compute: single(numRet) }],
  compute: (q) => numRet(q),
})

/** Relevant documents R (ir_measures `NumRel`, trec_eval `num_rel`). */
export const numRelMeasure = defineMeasure({
  name: 'NumRel',
  aliases: ['num_rel'],
  summary: 'Number of relevant judged documents R (summed over queries).',
  formula: 'R = |{d judged : grade(d) >= rel}|',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'sum',
  needsRelevant: false,
  trecEval: [
    { name: 'num_rel', perQuery: 'long', summary: 'num_rel', compute: single((q) => numRel(q)) },
  ],
  compute: (q, p, ctx) => numRel(q, relOf(p.values.rel, ctx)),
})

/** Relevant documents retrieved (ir_measures `NumRelRet`, trec_eval `num_rel_ret`). */
export const numRelRetMeasure = defineMeasure({
  name: 'NumRelRet',
  aliases: ['num_rel_ret'],
  summary: 'Number of relevant documents retrieved (summed over queries).',
  formula: 'num_rel_ret = |{d retrieved : grade(d) >= rel}|',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'sum',
  needsRelevant: false,
  trecEval: [
    { name: 'num_rel_ret', perQuery: 'long', summary: 'sum', compute: single((q) => numRelRet(q)) },
  ],
  compute: (q, p, ctx) => numRelRet(q, relOf(p.values.rel, ctx)),
})

/** Judged non-relevant documents retrieved (trec_eval `num_nonrel_judged_ret`). */
export const numNonrelJudgedRetMeasure = defineMeasure({
  name: 'NumNonrelJudgedRet',
  aliases: ['num_nonrel_judged_ret'],
  summary: 'Number of judged non-relevant documents retrieved (summed over queries).',
  formula: 'num_ret - not_in_pool - unjudged - num_rel_ret',
  params: {},
  at: 'none',
  atRequired: false,
  aggregate: 'sum',
  needsRelevant: false,
  trecEval: [
    {
      name: 'num_nonrel_judged_ret',
      perQuery: 'long',
      summary: 'sum',
      compute: single(numNonrelJudgedRet),
    },
  ],
  compute: (q) => numNonrelJudgedRet(q),
})
