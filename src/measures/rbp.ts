import { NOT_POOLED } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import { type GainPair, gainEnd, tableGain, trecGainLevels, trecGainTable } from './gains.js'
import { defineMeasure, defineTrecEvalMeasure, single, tePairs } from './measure.js'
import { cutOf } from './params.js'
import { averagedRbpWeights, rbpWeights, TIES } from './ties.js'

/**
 * Rank-biased precision (trec_eval `rbp`):  RBP = (1 − p) Σ_i gain(d_i) · p^(i−1), p = 0.9
 * by default. Gains are grades (or the given table), rescaled to [0, 1] by (g − min)/(max − min)
 * when any lies outside it. trec_eval reads `min`/`max` uninitialised; we start them at 0 and 1
 * ... as its zero-initialised build does (the fixtures' values).
 * With `max_rel` m, gains are min(max(grade, 0), m)/m on a fixed scale (cwl_eval's graded RBP);
 * with `gains='raw'` the grade itself, max(grade, 0), unscaled (trectools'
 * `binary_topical_relevance=False`, which ir_measures' `RBP(p=0.8)` reaches; ranx).
 * With `ties='average'` each weight (1 − p)·p^(i−1) is replaced by the mean weight of its run of
 * equal scores (McSherry & Najork 2008; `ties.ts`), as trectools 0.0.50's `get_rbp` computes:
 *   RBP = Σ_i w̄_i · gain(d_i).
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
  // Past the last doc of nonzero gain nothing is added.
  for (let i = 0, end = gainEnd(q, gt, levels); i < end; i++) {
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

/**
 * RBP with binary gains, cut at k:  (1 − p) Σ_{i ≤ k, grade(d_i) ≥ rel} p^(i−1)
 * (ir_measures `RBP(rel=…)`).
 */
export function rbpBinary(q: JudgedRanking, p: number, rel: number, k: number): number {
  let sum = 0
  let w = 1
  for (let i = 0; i < k; i++) {
    if (q.grades[i]! >= rel) sum += w
    w *= p
  }
  return (1 - p) * sum
}

/**
 * RBP with gains on a fixed scale, cut at k:  (1 − p) Σ_{i ≤ k} p^(i−1) · min(max(grade(d_i), 0), m)/m
 * (cwl_eval's RBP with a graded gain file; unjudged docs and negative judgments gain 0).
 */
export function rbpScaled(q: JudgedRanking, p: number, maxRel: number, k: number): number {
  let sum = 0
  let w = 1
  for (let i = 0; i < k; i++) {
    const g = q.grades[i]!
    if (g > 0) sum += (w * Math.min(g, maxRel)) / maxRel
    w *= p
  }
  return (1 - p) * sum
}

/** The gain of each grade as {@link rbp} scales it (grades, rescaled to [0, 1] when one lies outside). */
function trecRbpGain(q: JudgedRanking): (grade: number) => number {
  const levels = trecGainLevels(q, [])
  let min = 0
  let max = 0
  for (const l of levels) {
    if (l.gain < min) min = l.gain
    if (l.gain > max) max = l.gain
  }
  if (min < 0 || max > 1) for (const l of levels) l.gain = (l.gain - min) / (max - min)
  const gt = trecGainTable(levels)
  return (g) => tableGain(gt, levels, g)
}

/**
 * RBP over per-rank weights: Σ_i w_i · gain(d_i), w the rank weights (1 − p)·p^(i−1), 0 past k,
 * with `average` each run of equal scores given its mean weight (trectools `get_rbp`); `gain`
 * maps a grade.
 */
export function rbpWeighted(
  q: JudgedRanking,
  p: number,
  gain: (grade: number) => number,
  k = Infinity,
  average = false,
): number {
  const w = average ? averagedRbpWeights(q, p, k) : rbpWeights(q.numRet, p, k)
  let sum = 0
  for (let i = 0; i < q.numRet; i++) {
    const g = gain(q.grades[i]!)
    if (g !== 0) sum += w[i]! * g
  }
  return sum
}

/** trectools' evaluation depth (`depth=1000`), the p^depth of its residual. */
export const TRECTOOLS_DEPTH = 1000

/**
 * trectools 0.0.50's RBP residual (`get_rbp`'s second value), with the tie-averaged weights w̄:
 *   RBP_resid = Σ_{i: grade ≥ rel or unjudged} w̄_i − Σ_{i: grade ≥ rel} w̄_i + p^1000
 * (unjudged = absent from the qrels; trectools drops negative labels first, which
 * `--negative-judgments unjudged` does). It adds p^1000 whatever the run's length, where cwl_eval
 * and trec_eval add the weight past the run.
 */
export function rbpResidualAveraged(q: JudgedRanking, p: number, rel: number): number {
  const w = averagedRbpWeights(q, p)
  let res = 0
  let relevant = 0
  for (let i = 0; i < q.numRet; i++) {
    const g = q.grades[i]!
    if (g >= rel) {
      res += w[i]!
      relevant += w[i]!
    } else if (g === NOT_POOLED) res += w[i]!
  }
  return res - relevant + p ** TRECTOOLS_DEPTH
}

/** trec_eval's persistence: the last `p=` pair, else 0.9. */
function persistence(pairs: readonly GainPair[]): number {
  let v = 0.9
  for (const pr of pairs) if (pr.name === 'p') v = pr.value
  return v
}

/** Rank-biased precision (ir_measures `RBP`, trec_eval 10 `rbp`, which is `RBP(p=0.9)`). */
export const rbpMeasure = defineMeasure({
  name: 'RBP',
  aliases: [],
  summary:
    "Rank-biased precision with persistence p (binary gains with rel, else grades scaled to [0,1]; gains='raw' unscaled; ties='average' as trectools).",
  formula: 'RBP = (1-p) * sum_i gain(d_i) * p^(i-1)',
  params: {
    p: {
      type: 'float',
      default: 0.8,
      range: { min: 0, max: 1, maxOpen: true },
      doc: 'persistence: the chance of looking at the next document',
    },
    rel: {
      type: 'int',
      doc: 'binary gains: grade >= rel counts 1 (without it, graded gains, whatever the relevance level)',
    },
    max_rel: {
      type: 'int',
      range: { min: 1 },
      doc: 'graded gains on a fixed scale, min(max(grade,0),max_rel)/max_rel, as cwl_eval (not with rel)',
    },
    gains: {
      type: 'string',
      choices: ['raw'],
      doc: "raw: the grade itself, max(grade,0), unscaled (trectools' binary_topical_relevance=False, ranx; not with rel or max_rel)",
    },
    ties: TIES,
  },
  exclusive: [
    ['rel', 'max_rel'],
    ['gains', 'rel'],
    ['gains', 'max_rel'],
  ],
  docsWhen: (v) => v.ties === 'average',
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: false,
  trecEval: [
    {
      name: 'rbp',
      params: 'pairs',
      fixed: { p: 0.9 },
      v10Only: true,
      compute: single((q, p) => rbp(q, persistence(tePairs(p)), tePairs(p))),
    },
  ],
  compute: (q, p) => {
    const { p: pp, rel, max_rel, gains, ties } = p.values
    if (ties === 'average') {
      const gain =
        rel !== undefined
          ? (g: number) => (g >= rel ? 1 : 0)
          : max_rel !== undefined
            ? (g: number) => (g > 0 ? Math.min(g, max_rel) / max_rel : 0)
            : gains === 'raw'
              ? (g: number) => Math.max(g, 0)
              : trecRbpGain(q)
      return rbpWeighted(q, pp, gain, cutOf(p.at), true)
    }
    if (gains === 'raw') return rbpWeighted(q, pp, (g) => Math.max(g, 0), cutOf(p.at))
    const k = Math.min(q.numRet, cutOf(p.at))
    if (rel !== undefined) return rbpBinary(q, pp, rel, k)
    if (max_rel !== undefined) return rbpScaled(q, pp, max_rel, k)
    return rbp(k === q.numRet ? q : { ...q, grades: q.grades.subarray(0, k), numRet: k }, pp)
  },
})

/** trec_eval 10 `rbp_resid` (drop-in only). */
export const rbpResidualTrecEval = defineTrecEvalMeasure({
  name: 'rbp_resid',
  params: 'pairs',
  v10Only: true,
  compute: single((q, p) => rbpResidual(q, persistence(tePairs(p)))),
})
