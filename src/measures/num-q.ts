import { defineMeasure } from './measure.js'

/**
 * Number of queries:  NumQ = Σ_q 1 over the queries averaged (those evaluated, plus the
 * zero-filled ones when missing queries count as zero), i.e. trec_eval's `num_q` and
 * ir_measures' `NumQ` (a sum aggregate). References: trec_eval 10 `m_num_q.c`; ir_measures
 * 0.4 `measures/numq.py`.
 */
export const numQMeasure = defineMeasure({
  name: 'NumQ',
  aliases: ['num_q'],
  summary: 'Number of queries evaluated (summed over queries).',
  formula: 'NumQ = sum over queries of 1',
  params: {},
  at: 'none',
  atRequired: false,
  aggregate: 'sum',
  needsRelevant: false,
  trecEval: [
    {
      name: 'num_q',
      perQuery: 'none',
      summary: 'num_q',
      usesRanking: false,
      compute: () => [1],
    },
  ],
  compute: () => 1,
})
