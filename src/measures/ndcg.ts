import type { GainSpec } from '../conventions/conventions.js'
import { type JudgedRanking, numRelRetAt } from '../rank/judged-ranking.js'
import { ascendingOrder, zeros } from './cutoffs.js'
import {
  type GainPair,
  gainEnd,
  gainOf,
  IdealGains,
  tableGain,
  trecGainLevels,
  trecGainTable,
} from './gains.js'
import { defineMeasure, defineTrecEvalMeasure, single, tePairs, teValues } from './measure.js'
import { cutOf, JUDGED_ONLY, judgedView } from './params.js'
import { TIES, tieAveragedSum } from './ties.js'
import { TREC_EVAL_CUTOFFS } from './trec-eval-defaults.js'

/**
 * nDCG at k with a gain function:
 *   DCG@k = Σ_{i=1..min(k,n)} gain(d_i) / log2(i + 1),  nDCG@k = DCG@k / IDCG@k
 * IDCG@k is the DCG of the best ordering of all judged docs of the query, cut at k but not at
 * the run's length (k = Infinity: no cutoff, trec_eval's `ndcg`). 0 when IDCG = 0.
 * With `grade` gains this is trec_eval's `ndcg_cut.k` (which ignores the relevance level).
 * Reference: Järvelin & Kekäläinen, Cumulated gain-based evaluation of IR techniques, TOIS 2002.
 */
export function ndcgAt(
  q: JudgedRanking,
  cutoffs: readonly number[],
  spec: GainSpec = { kind: 'grade' },
  rel = q.relevanceLevel,
): number[] {
  const order = ascendingOrder(cutoffs)
  const maxK = order.length ? cutoffs[order[order.length - 1]!]! : 0
  // Docs with positive gain: with grade, exp and binary gains only judged relevant docs have
  // one, so the DCG pass may stop after the last of them; a gains map may reward any grade.
  const positive =
    spec.kind === 'map' ? Infinity : numRelRetAt(q, spec.kind === 'binary' ? Math.max(rel, 1) : 1)
  const dcg = zeros(cutoffs.length)
  let sum = 0
  let seen = 0
  let i = 0
  for (const at of order) {
    const limit = Math.min(cutoffs[at]!, q.numRet)
    for (; i < limit && seen < positive; i++) {
      const gain = gainOf(spec, q.grades[i]!, rel)
      if (gain > 0) {
        sum += gain / Math.log2(i + 2)
        seen++
      }
    }
    dcg[at] = sum
  }
  const ideal = idealGains(q, spec, rel, maxK)
  const out = zeros(cutoffs.length)
  let isum = 0
  let j = 0
  for (const at of order) {
    const limit = Math.min(cutoffs[at]!, ideal.length)
    for (; j < limit; j++) isum += ideal[j]! / Math.log2(j + 2)
    out[at] = isum > 0 ? dcg[at]! / isum : 0
  }
  return out
}

/**
 * The ideal ranking's gains: every judged doc with a positive gain, in descending order, at least
 * the first `maxK` of them (with grade gains exactly those; the ideal is cut at k, not at the
 * run's length).
 */
function idealGains(q: JudgedRanking, spec: GainSpec, rel: number, maxK: number): number[] {
  const ideal: number[] = []
  const levels = q.relLevels
  if (spec.kind === 'grade') {
    for (let g = q.numRelLevels - 1; g > 0 && ideal.length < maxK; g--)
      for (let c = 0; c < levels[g]! && ideal.length < maxK; c++) ideal.push(g)
    return ideal
  }
  for (let g = 0; g < levels.length; g++) {
    const gain = gainOf(spec, g, rel)
    if (gain > 0) for (let c = 0; c < levels[g]!; c++) ideal.push(gain)
  }
  return ideal.sort((a, b) => b - a)
}

/** The gain spec of a DCG-family measure's `gains`/`dcg` parameters, else the conventions' gains. */
export function dcgGainSpec(
  values: {
    readonly gains?: Readonly<Record<number, number>> | undefined
    readonly dcg?: string | undefined
  },
  conventions: { readonly gains: GainSpec },
): GainSpec {
  if (values.gains) return { kind: 'map', gains: values.gains }
  return values.dcg === 'exp-log2' ? { kind: 'exp' } : conventions.gains
}

/**
 * Tie-aware nDCG@k (McSherry & Najork, ECIR 2008): the DCG@k with each discount 1/log2(i + 1)
 * (0 past k) replaced by the mean discount of its run of equal scores (`ties.ts`), over the same
 * IDCG@k as {@link ndcgAt}: the mean nDCG@k over every order of the tied docs. 0 when IDCG = 0.
 */
export function ndcgTieAveraged(
  q: JudgedRanking,
  k: number,
  spec: GainSpec = { kind: 'grade' },
  rel = q.relevanceLevel,
): number {
  const ideal = idealGains(q, spec, rel, k)
  let idcg = 0
  for (let j = 0; j < Math.min(k, ideal.length); j++) idcg += ideal[j]! / Math.log2(j + 2)
  if (idcg <= 0) return 0
  const dcg = tieAveragedSum(
    q,
    k,
    (i) => 1 / Math.log2(i + 2),
    (g) => gainOf(spec, g, rel),
  )
  return dcg / idcg
}

/** DCG, ideal DCG and their ratio over the whole ranking (trec_eval `dcg`, `ideal_dcg`, `ndcg`). */
export interface NdcgParts {
  readonly dcg: number
  readonly idealDcg: number
  readonly ndcg: number
}

/**
 * trec_eval's `ndcg` (no cutoff) with its gain table (`-m ndcg.1=3,2=9`): DCG over the whole
 * ranking; the ideal DCG over every judged doc with positive gain, not truncated to the ranking.
 * Gains are grades unless given; not affected by the relevance level.
 */
export function ndcgFull(q: JudgedRanking, pairs: readonly GainPair[] = []): NdcgParts {
  const levels = trecGainLevels(q, pairs)
  const gt = trecGainTable(levels)
  const ideal = new IdealGains(levels)
  let dcg = 0
  let idcg = 0
  let i = 0
  // Past the last doc of nonzero gain the ranking adds nothing to dcg; the ideal part goes on
  // below with the same positions.
  const end = gainEnd(q, gt, levels)
  for (; i < end && ideal.gain > 0; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    if (gain !== 0) dcg += gain / Math.log2(i + 2)
    const ig = ideal.next()
    if (ig > 0) idcg += ig / Math.log2(i + 2)
  }
  for (; i < end; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    if (gain !== 0) dcg += gain / Math.log2(i + 2)
  }
  while (ideal.gain > 0) {
    const ig = ideal.next()
    if (ig > 0) idcg += ig / Math.log2(i + 2)
    i++
  }
  return { dcg, idealDcg: idcg, ndcg: idcg > 0 ? dcg / idcg : 0 }
}

/** nDCG (ir_measures `nDCG`, `nDCG@k`; trec_eval `ndcg`, `ndcg_cut.k`). */
export const ndcgMeasure = defineMeasure({
  name: 'nDCG',
  aliases: ['NDCG'],
  summary: 'Normalised discounted cumulative gain (at k when given).',
  formula:
    'nDCG@k = sum_{i<=k} gain(d_i)/log2(i+1) / IDCG@k; gain = grade (log2), 2^grade-1 (exp-log2), or the gains map',
  params: {
    dcg: {
      type: 'string',
      choices: ['log2', 'exp-log2'],
      default: 'log2',
      doc: 'gain of a grade g: g (log2) or 2^g - 1 (exp-log2); with log2 (the default) the conventions’ gains apply',
    },
    gains: { type: 'gains', doc: 'explicit grade:gain map, e.g. {0:0,1:1,2:3,3:7}; overrides dcg' },
    judged_only: JUDGED_ONLY,
    ties: TIES,
  },
  exclusive: [['ties', 'judged_only']],
  docsWhen: (v) => v.ties === 'average',
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    { name: 'ndcg', params: 'pairs', compute: single((q, p) => ndcgFull(q, tePairs(p)).ndcg) },
    {
      name: 'ndcg_cut',
      params: 'long-cutoffs',
      defaults: TREC_EVAL_CUTOFFS,
      compute: (q, p) => ndcgAt(q, teValues(p)),
    },
  ],
  compute: (q, p, ctx) => {
    const spec = dcgGainSpec(p.values, ctx.conventions)
    if (p.values.ties === 'average')
      return ndcgTieAveraged(q, cutOf(p.at), spec, ctx.conventions.relevanceLevel)
    return ndcgAt(
      judgedView(q, p.values.judged_only),
      [cutOf(p.at)],
      spec,
      ctx.conventions.relevanceLevel,
    )[0]!
  },
})

/** trec_eval `ideal_dcg` (drop-in only). */
export const idealDcgTrecEval = defineTrecEvalMeasure({
  name: 'ideal_dcg',
  params: 'pairs',
  compute: single((q, p) => ndcgFull(q, tePairs(p)).idealDcg),
})
