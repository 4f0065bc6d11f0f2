import { type JudgedRanking, numRelAt, relevantEnd } from '../rank/judged-ranking.js'
import {
  type GainPair,
  gainEnd,
  gainPairs,
  IdealGains,
  tableGain,
  trecGainLevels,
  trecGainTable,
} from './gains.js'
import { defineMeasure, type ParamSpec, single, tePairs } from './measure.js'
import { REL, relOf } from './params.js'

/** `gains` of the trec_eval gain-table families (`G`, `nDCG_rel`, `RnDCG`). */
export const TREC_GAINS = {
  type: 'gains',
  doc: 'grade:gain map, as trec_eval -m G.1=3,2=9 (unlisted grades keep gain = grade); default: gain = grade',
} as const satisfies ParamSpec

/**
 * Binary G (trec_eval `binG`, experimental):
 *   binG = (1/R) Σ_{relevant retrieved d} 1 / log2(2 + non-relevant docs ranked above d)
 * 0 when nothing relevant was retrieved. Reference: trec_eval 10 `m_binG.c`.
 */
export function binG(q: JudgedRanking, rel = q.relevanceLevel): number {
  let relSoFar = 0
  let sum = 0
  for (let i = 0, end = relevantEnd(q, rel); i < end; i++) {
    if (q.grades[i]! >= rel) {
      relSoFar++
      sum += 1 / Math.log2(3 + i - relSoFar)
    }
  }
  return relSoFar ? sum / numRelAt(q, rel) : 0
}

/**
 * Normalised gain G (trec_eval `G`, experimental): each retrieved doc adds
 * gain(d) / log2(2 + idealCost(i) − gainSoFar(i)), the sum normalised by the total ideal gain.
 * Ideal positions cost their gain (at least 1). Gains as in trec_eval's `ndcg`.
 * Reference: trec_eval 10 `m_G.c`.
 */
export function gainG(q: JudgedRanking, pairs: readonly GainPair[] = []): number {
  const levels = trecGainLevels(q, pairs)
  const gt = trecGainTable(levels)
  const ideal = new IdealGains(levels)
  const minCost = 1
  let g = 0
  let sumResults = 0
  let sumIdeal = 0
  let sumCost = 0
  let i = 0
  // Past the last doc of nonzero gain nothing is added to g; the ideal gains are summed below.
  const end = gainEnd(q, gt, levels)
  for (; i < end && ideal.gain > 0; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    sumResults += gain
    const ig = ideal.next()
    if (ig > 0) sumIdeal += ig
    sumCost += ig >= minCost ? ig : minCost
    if (gain !== 0) g += gain / Math.log2(2 + sumCost - sumResults)
  }
  for (; i < end; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    sumResults += gain
    sumCost += minCost
    if (gain !== 0) g += gain / Math.log2(2 + sumCost - sumResults)
  }
  while (ideal.gain > 0) {
    const ig = ideal.next()
    if (ig > 0) sumIdeal += ig
    i++
  }
  return sumIdeal > 0 ? g / sumIdeal : 0
}

/** Binary G (trec_eval `binG`). */
export const binGMeasure = defineMeasure({
  name: 'binG',
  aliases: [],
  summary:
    'Binary G: relevant docs discounted by the non-relevant docs above them (trec_eval binG).',
  formula: 'binG = (1/R) * sum over relevant retrieved d of 1/log2(2 + non-relevant docs above d)',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [{ name: 'binG', compute: single((q) => binG(q)) }],
  compute: (q, p, ctx) => binG(q, relOf(p.values.rel, ctx)),
})

/** Normalised gain G (trec_eval `G`). */
export const gainGMeasure = defineMeasure({
  name: 'G',
  aliases: [],
  summary: 'Gain G: gains discounted by the ideal cost not yet earned (trec_eval G).',
  formula:
    'G = (1/total ideal gain) * sum_i gain(d_i) / log2(2 + idealCost(i) - gainSoFar(i)); idealCost sums max(ideal gain, 1)',
  params: { gains: TREC_GAINS },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [{ name: 'G', params: 'pairs', compute: single((q, p) => gainG(q, tePairs(p))) }],
  compute: (q, p) => gainG(q, gainPairs(p.values.gains)),
})
