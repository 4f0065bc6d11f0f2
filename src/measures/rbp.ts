import type { JudgedRanking } from '../rank/judged-ranking.js'
import { tableGain, trecGainTable, trecGainLevels, type GainPair } from './gains.js'

/**
 * Rank-biased precision (trec_eval `rbp`):  RBP = (1 − p) Σ_i gain(d_i) · p^(i−1), p = 0.9
 * by default. Gains are grades (or the given table), rescaled to [0, 1] by (g − min)/(max − min)
 * when any lies outside it. trec_eval reads `min`/`max` uninitialised; we start them at 0 and 1
 * ... as its zero-initialised build does (the fixtures' values).
 * Reference: Moffat & Zobel, Rank-biased precision for measurement of retrieval effectiveness,
 * TOIS 2008.
 */
export function rbp(q: JudgedRanking, p = 0.9, pairs: readonly GainPair[] = []): number {
  const levels = trecGainLevels(q, pairs)
  let min = 0
  let max = 0
  for (const l of levels) {
    if (l.gain < min) min = l.gain
    if (l.gain > max) max = l.gain
  }
  if (min < 0 || max > 1) for (const l of levels) l.gain = (l.gain - min) / (max - min)
  const gt = trecGainTable(levels)
  let sum = 0
  let cur = 1
  for (let i = 0; i < q.numRet; i++) {
    const gain = tableGain(gt, levels, q.grades[i]!)
    if (gain !== 0) sum += gain * cur
    cur *= p
  }
  return (1 - p) * sum
}

/**
 * RBP residual (trec_eval `rbp_resid`): the most RBP could grow if every unjudged retrieved doc
 * were relevant:  p^n + (1 − p) Σ_{unjudged i} p^(i−1); 0 when every retrieved doc is judged.
 */
export function rbpResidual(q: JudgedRanking, p = 0.9): number {
  let unj = 0
  let sum = 0
  let cur = 1
  for (let i = 0; i < q.numRet; i++) {
    if (q.grades[i]! < 0) {
      unj++
      sum += cur
    }
    cur *= p
  }
  return unj ? cur + (1 - p) * sum : 0
}
