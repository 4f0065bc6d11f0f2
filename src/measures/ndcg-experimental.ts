import type { JudgedRanking } from '../rank/judged-ranking.js'
import { TREC_GAINS } from './g.js'
import {
  type GainPair,
  gainEnd,
  gainPairs,
  IdealGains,
  tableGain,
  trecGainLevels,
  trecGainTable,
} from './gains.js'
import { defineMeasure, single, tePairs } from './measure.js'

/**
 * nDCG averaged over relevant docs (trec_eval `ndcg_rel`, experimental): the mean of
 * DCG(r)/IDCG(r) at each doc r with positive gain, where each relevant doc not retrieved
 * contributes DCG(end)/IDCG(its ideal position). Gains as in trec_eval's `ndcg`.
 * Reference: trec_eval 10 `m_ndcg_rel.c`.
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
  // Past the last doc of nonzero gain the ranking adds nothing; the ideal part goes on below
  // with the same positions, so the sums are the same.
  const end = gainEnd(q, gt, levels)
  for (; i < end && ideal.gain > 0; i++) {
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
  for (; i < end; i++) {
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
 * Reference: trec_eval 10 `m_Rndcg.c`.
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
    // The rest of the ranking (the ideal gains are spent, so the loop below does not run): past
    // the last doc of nonzero gain it adds nothing.
    for (const end = gainEnd(q, gt, levels); i < end; i++) {
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

/** nDCG averaged over the relevant docs (trec_eval `ndcg_rel`). */
export const ndcgRelMeasure = defineMeasure({
  name: 'nDCG_rel',
  aliases: [],
  summary: 'nDCG averaged at the rank of each relevant document (trec_eval ndcg_rel).',
  formula:
    'nDCG_rel = (1/R) * sum over relevant d of DCG(rank d)/IDCG(rank d); unretrieved d: DCG(end)/IDCG(ideal rank)',
  params: { gains: TREC_GAINS },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    { name: 'ndcg_rel', params: 'pairs', compute: single((q, p) => ndcgRel(q, tePairs(p))) },
  ],
  compute: (q, p) => ndcgRel(q, gainPairs(p.values.gains)),
})

/** nDCG averaged where the ideal gain changes (trec_eval `Rndcg`). */
export const rNdcgMeasure = defineMeasure({
  name: 'RnDCG',
  aliases: [],
  summary: 'nDCG averaged at each rank where the ideal gain level changes (trec_eval Rndcg).',
  formula:
    'RnDCG = mean of DCG(r)/IDCG(r) over the ranks r where the ideal gain drops, and the end',
  params: { gains: TREC_GAINS },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [{ name: 'Rndcg', params: 'pairs', compute: single((q, p) => rNdcg(q, tePairs(p))) }],
  compute: (q, p) => rNdcg(q, gainPairs(p.values.gains)),
})
