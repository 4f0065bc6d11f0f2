import type { JudgedRanking } from '../rank/judged-ranking.js'
import { type GainPair, IdealGains, tableGain, trecGainLevels, trecGainTable } from './gains.js'
import { defineTrecEvalMeasure, single, tePairs } from './measure.js'

/**
 * nDCG averaged over relevant docs (trec_eval `ndcg_rel`, experimental): the mean of
 * DCG(r)/IDCG(r) at each doc r with positive gain, where each relevant doc not retrieved
 * contributes DCG(end)/IDCG(its ideal position). Gains as in trec_eval's `ndcg`.
 */
export function ndcgRel(q: JudgedRanking, pairs: readonly GainPair[] = []): number {
  const levels = trecGainLevels(q, pairs)
  const gt = trecGainTable(levels)
  const ideal = new IdealGains(levels)
  let dcg = 0
  let idcg = 0
  let sum = 0
  let numRelRet = 0
  let numRel = 0
  let i = 0
  for (; i < q.numRet && ideal.gain > 0; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    if (gain !== 0) dcg += gain / Math.log2(i + 2)
    const ig = ideal.next()
    if (ig > 0) {
      numRel++
      idcg += ig / Math.log2(i + 2)
    }
    if (gain > 0) {
      sum += dcg / idcg
      numRelRet++
    }
  }
  for (; i < q.numRet; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    if (gain !== 0) dcg += gain / Math.log2(i + 2)
    if (gain > 0) {
      sum += dcg / idcg
      numRelRet++
    }
  }
  while (ideal.gain > 0) {
    const ig = ideal.next()
    if (ig > 0) {
      numRel++
      idcg += ig / Math.log2(i + 2)
    }
    i++
  }
  sum += ((numRel - numRelRet) * dcg) / idcg
  return sum > 0 ? sum / numRel : 0
}

/**
 * nDCG averaged at the R-level boundaries (trec_eval `Rndcg`, experimental): the mean of nDCG at
 * each rank where the ideal gain level changes, plus at the end of the ranking. 0 when R = 0.
 */
export function rNdcg(q: JudgedRanking, pairs: readonly GainPair[] = []): number {
  const levels = trecGainLevels(q, pairs)
  const gt = trecGainTable(levels)
  if (q.numRel === 0) return 0
  const ideal = new IdealGains(levels)
  let dcg = 0
  let idcg = 0
  let sum = 0
  let changes = 0
  let oldIdeal = ideal.gain
  let i = 0
  for (; i < q.numRet && ideal.gain > 0; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    const ig = ideal.next()
    if (oldIdeal !== ig) {
      if (idcg > 0) {
        sum += dcg / idcg
        changes++
      }
      oldIdeal = ig
    }
    if (gain !== 0) dcg += gain / Math.log2(i + 2)
    if (ig > 0) idcg += ig / Math.log2(i + 2)
  }
  if (i < q.numRet) {
    for (; i < q.numRet; i++) {
      const gain = tableGain(gt, levels, q.grades[i]!)
      if (gain !== 0) dcg += gain / Math.log2(i + 2)
    }
    if (idcg > 0) {
      sum += dcg / idcg
      changes++
    }
  }
  while (ideal.gain > 0) {
    const ig = ideal.next()
    if (oldIdeal !== ig) {
      if (idcg > 0) {
        sum += dcg / idcg
        changes++
      }
      oldIdeal = ig
    }
    if (ig > 0) idcg += ig / Math.log2(i + 2)
    i++
  }
  return sum / changes
}

/** trec_eval `ndcg_rel` (drop-in only). */
export const ndcgRelTrecEval = defineTrecEvalMeasure({
  name: 'ndcg_rel',
  params: 'pairs',
  compute: single((q, p) => ndcgRel(q, tePairs(p))),
})

/** trec_eval `Rndcg` (drop-in only). */
export const rNdcgTrecEval = defineTrecEvalMeasure({
  name: 'Rndcg',
  params: 'pairs',
  compute: single((q, p) => rNdcg(q, tePairs(p))),
})
