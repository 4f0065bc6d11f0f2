import type { GainSpec } from '../conventions/conventions.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import { gainOf } from './gains.js'
import { defineMeasure, single, tePairs } from './measure.js'
import { dcgGainSpec, ndcgFull } from './ndcg.js'
import { cutOf, JUDGED_ONLY, judgedView } from './params.js'
import { TIES, tieAveragedSum } from './ties.js'

/**
 * Unnormalised discounted cumulative gain at k:
 *   DCG@k = Σ_{i=1..min(k,n)} gain(d_i) / log2(i + 1)
 * gain = grade (`dcg='log2'`, Järvelin & Kekäläinen; ranx `dcg`), 2^grade − 1 (`dcg='exp-log2'`,
 * Burges et al. 2005; ranx `dcg_burges`), or a grade→gain map. No cutoff: the whole ranking
 * (trec_eval `dcg`, whose `dcg.1=3` pairs set the gains map). Unjudged docs gain 0; 0 for an
 * empty ranking. ranx gives a gain only to grades ≥ its `rel_lvl` (default 1): the same values,
 * since grade 0 gains 0 either way.
 * With `ties='average'` each discount 1/log2(i + 1) (0 past k) is replaced by the mean discount of
 * its run of equal scores (McSherry & Najork, ECIR 2008; `ties.ts`): the mean DCG@k over every
 * order of the tied docs.
 * References: Järvelin & Kekäläinen, Cumulated gain-based evaluation of IR techniques, TOIS 2002;
 * Burges et al., Learning to rank using gradient descent, ICML 2005; ranx 0.3.20
 * `metrics/ndcg.py` (AmenRa/ranx @ 2cae52f).
 */
export function dcgAt(q: JudgedRanking, k: number, spec: GainSpec, rel: number): number {
  const n = Math.min(k, q.numRet)
  let sum = 0
  for (let i = 0; i < n; i++) {
    const gain = gainOf(spec, q.grades[i]!, rel)
    if (gain !== 0) sum += gain / Math.log2(i + 2)
  }
  return sum
}

/** DCG (ranx `dcg`, `dcg_burges`; trec_eval `dcg`). */
export const dcgMeasure = defineMeasure({
  name: 'DCG',
  aliases: [],
  summary: 'Discounted cumulative gain, not normalised (at k when given).',
  formula:
    'DCG@k = sum_{i<=k} gain(d_i)/log2(i+1); gain = grade (log2), 2^grade-1 (exp-log2), or the gains map',
  params: {
    dcg: {
      type: 'string',
      choices: ['log2', 'exp-log2'],
      default: 'log2',
      doc: 'gain of a grade g: g (log2, ranx dcg) or 2^g - 1 (exp-log2, ranx dcg_burges); with log2 (the default) the conventions’ gains apply',
    },
    gains: { type: 'gains', doc: 'explicit grade:gain map, e.g. {0:0,1:1,2:3}; overrides dcg' },
    judged_only: JUDGED_ONLY,
    ties: TIES,
  },
  exclusive: [['ties', 'judged_only']],
  docsWhen: (v) => v.ties === 'average',
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: false,
  valueRange: 'nonnegative',
  trecEval: [
    { name: 'dcg', params: 'pairs', compute: single((q, p) => ndcgFull(q, tePairs(p)).dcg) },
  ],
  compute: (q, p, ctx) => {
    const spec = dcgGainSpec(p.values, ctx.conventions)
    const rel = ctx.conventions.relevanceLevel
    if (p.values.ties === 'average')
      return tieAveragedSum(
        q,
        cutOf(p.at),
        (i) => 1 / Math.log2(i + 2),
        (g) => gainOf(spec, g, rel),
      )
    return dcgAt(
      judgedView(q, p.values.judged_only),
      cutOf(p.at),
      spec,
      ctx.conventions.relevanceLevel,
    )
  },
})
