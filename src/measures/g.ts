import type { JudgedRanking } from '../rank/judged-ranking.js'
import { type GainPair, IdealGains, tableGain, trecGainLevels, trecGainTable } from './gains.js'
import { defineTrecEvalMeasure, single, tePairs } from './measure.js'

/**
 * Binary G (trec_eval `binG`, experimental):
 *   binG = (1/R) Σ_{relevant retrieved d} 1 / log2(2 + non-relevant docs ranked above d)
 */
export function binG(q: JudgedRanking, rel = q.relevanceLevel): number {
  let relSoFar = 0
  let sum = 0
  for (let i = 0; i < q.numRet; i++) {
    if (q.grades[i]! >= rel) {
      relSoFar++
      sum += 1 / Math.log2(3 + i - relSoFar)
    }
  }
  return relSoFar ? sum / q.numRel : 0
}

/**
 * Normalised gain G (trec_eval `G`, experimental): each retrieved doc adds
 * gain(d) / log2(2 + idealCost(i) − gainSoFar(i)), the sum normalised by the total ideal gain.
 * Ideal positions cost their gain (at least 1). Gains as in trec_eval's `ndcg`.
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
  for (; i < q.numRet && ideal.gain > 0; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    sumResults += gain
    const ig = ideal.next()
    if (ig > 0) sumIdeal += ig
    sumCost += ig >= minCost ? ig : minCost
    if (gain !== 0) g += gain / Math.log2(2 + sumCost - sumResults)
  }
  for (; i < q.numRet; i++) {
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

/** trec_eval `binG` (drop-in only). */
export const binGTrecEval = defineTrecEvalMeasure({ name: 'binG', compute: single((q) => binG(q)) })

/** trec_eval `G` (drop-in only). */
export const gainGTrecEval = defineTrecEvalMeasure({
  name: 'G',
  params: 'pairs',
  compute: single((q, p) => gainG(q, tePairs(p))),
})
