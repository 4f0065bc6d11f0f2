import { NOT_POOLED } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure, type MeasureContext, type ParamSpec } from './measure.js'
import { relOf } from './params.js'
import { rbpResidualAveraged } from './rbp.js'
import { TIES } from './ties.js'

/**
 * C/W/L measures (cwl_eval 1.0.12, ireval/cwl; Moffat, Bailey, Scholer & Thomas, "INST: an
 * adaptive metric for information retrieval evaluation", ADCS 2015, and Azzopardi, Thomas &
 * Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019).
 *
 * A user model is the chance C_i of going on from rank i to rank i + 1. The weight of rank i is
 *   W_i = Π_{j<i} C_j / Σ_{m=1..N} Π_{j<m} C_j
 * and the measure is the expected utility per item  EU = Σ_{i=1..N} W_i · g_i.
 * As cwl_eval does, every ranking is cut or padded (gain 0) to exactly N = 1000 items.
 *
 * Gains g_i ∈ [0, 1]: with `max_rel` the scaled grade min(max(grade, 0), max_rel)/max_rel, else
 * binary, 1 when grade ≥ `rel` (default: the conventions' relevance level). Unjudged docs and
 * negative judgments gain 0 (cwl clips negatives to 0; they still count as judged).
 *
 * | family | C_i (i = rank from 1) |
 * | --- | --- |
 * | INST(T) | ((i + T + T_i − 1)/(i + T + T_i))², T_i = T − Σ_{j≤i} g_j |
 * | INSQ(T) | ((i + 2T − 1)/(i + 2T))² |
 * | BPM(T)@K | 1 while Σ_{j≤i} g_j < T and i < K, else 0 (cwl's BPM-Static) |
 * | SDCG@k | log2(i + 1)/log2(i + 2) for i < k, 0 after: DCG@k / Σ_{i≤k} 1/log2(i + 1) |
 * | NERR8@k | 1 − g_i for i < k, 0 after |
 * | NERR9@k | (i/(i + 1))(1 − g_i) for i < k, 0 after |
 * | NERR10(p) | p(1 − g_i) |
 * | NERR11(T) | ((i + 2T − 1)/(i + 2T))²(1 − g_i) |
 *
 * RBP's residual (cwl's `ResEU` with `-r`, family `RBP_resid`) is the expected utility when
 * every unjudged doc and every padded position has gain 1, minus the one where they have 0:
 *   RBP_resid = [(1 − p) Σ_{i ≤ n, unjudged} p^(i−1) + p^n − p^N] / (1 − p^N),  n = min(|run|, N).
 * With `ties='average'` it is trectools 0.0.50's residual instead (`get_rbp`, see `rbp.ts`).
 */

/** cwl_eval's ranking length (`max_n`): lists are cut or padded to it. */
export const CWL_DEPTH = 1000

/** `max_rel`: scale grades to [0, 1] by min(max(grade, 0), max_rel)/max_rel. */
export const MAX_REL = {
  type: 'int',
  range: { min: 1 },
  doc: 'graded gains min(max(grade,0),max_rel)/max_rel (without it, binary gains: grade >= rel)',
} as const satisfies ParamSpec

/** `rel` for the C/W/L measures: binary gains. */
export const CWL_REL = {
  type: 'int',
  doc: 'binary gains: grade >= rel counts 1 (default: the conventions’ relevance level); not with max_rel',
} as const satisfies ParamSpec

/** The gain of a grade: graded with `maxRel`, else binary at `rel`. */
export function cwlGain(grade: number, rel: number, maxRel: number | undefined): number {
  if (maxRel !== undefined) return Math.min(Math.max(grade, 0), maxRel) / maxRel
  return grade >= rel ? 1 : 0
}

/** The gain vector of a ranking, cut or padded to N items (unjudged docs gain 0). */
export function cwlGains(
  q: JudgedRanking,
  rel: number,
  maxRel: number | undefined,
  n = CWL_DEPTH,
): Float64Array {
  const g = new Float64Array(n)
  const m = Math.min(q.numRet, n)
  for (let i = 0; i < m; i++) g[i] = cwlGain(q.grades[i]!, rel, maxRel)
  return g
}

/**
 * Expected utility Σ W_i g_i of the user model `c` (c(i, gains, cumGain) = C_i, i from 1,
 * cumGain = Σ_{j≤i} g_j), with W_i = Π_{j<i} C_j / Σ_m Π_{j<m} C_j.
 */
export function expectedUtility(
  gains: Float64Array,
  c: (i: number, g: number, cumGain: number) => number,
): number {
  let prod = 1
  let sumW = 0
  let sumWG = 0
  let cum = 0
  for (let i = 0; i < gains.length; i++) {
    if (prod === 0) break
    const g = gains[i]!
    sumW += prod
    sumWG += prod * g
    cum += g
    prod *= c(i + 1, g, cum)
  }
  return sumWG / sumW
}

/** The rel/max_rel pair of a C/W/L measure. */
function gainsOf(
  q: JudgedRanking,
  values: { readonly rel: number | undefined; readonly max_rel: number | undefined },
  ctx: MeasureContext,
): Float64Array {
  return cwlGains(q, relOf(values.rel, ctx), values.max_rel)
}

/** INST's C_i. */
export function instC(T: number): (i: number, g: number, cum: number) => number {
  return (i, _g, cum) => {
    const ti = T - cum
    const r = (i + T + ti - 1) / (i + T + ti)
    return r * r
  }
}

/** INSQ's C_i (INST with T_i = T). */
export function insqC(T: number): (i: number) => number {
  return (i) => {
    const r = (i + 2 * T - 1) / (i + 2 * T)
    return r * r
  }
}

/** RBP's residual as cwl_eval computes it (see the file comment); `p` in [0, 1). */
export function rbpResidualCwl(q: JudgedRanking, p: number, n = CWL_DEPTH): number {
  const m = Math.min(q.numRet, n)
  let w = 1
  let unj = 0
  for (let i = 0; i < m; i++) {
    if (q.grades[i] === NOT_POOLED) unj += w
    w *= p
  }
  const pN = p ** n
  return ((1 - p) * unj + w - pN) / (1 - pN)
}

const T_PARAM = {
  type: 'float',
  default: 1,
  range: { min: 0, minOpen: true },
  doc: 'T: the number of relevant documents the user wants',
} as const satisfies ParamSpec
const GAINS = { rel: CWL_REL, max_rel: MAX_REL } as const
const EXCLUSIVE: readonly (readonly [string, string])[] = [['rel', 'max_rel']]
const cwlCommon = { aggregate: 'mean', needsRelevant: false, exclusive: EXCLUSIVE } as const

/** INST (ir_measures `INST`, cwl_eval `INST-T=t`). */
export const instMeasure = defineMeasure({
  name: 'INST',
  aliases: [],
  summary:
    'Adaptive C/W/L measure: the user wants T relevant documents (cwl_eval INST, 1000 items).',
  formula:
    'EU = sum_i W_i g_i, C_i = ((i + T + T_i - 1)/(i + T + T_i))^2, T_i = T - sum_{j<=i} g_j',
  params: { T: T_PARAM, ...GAINS },
  at: 'none',
  atRequired: false,
  ...cwlCommon,
  compute: (q, p, ctx) => expectedUtility(gainsOf(q, p.values, ctx), instC(p.values.T)),
})

/** INSQ (ir_measures `INSQ`, cwl_eval `INSQ-T=t`). */
export const insqMeasure = defineMeasure({
  name: 'INSQ',
  aliases: [],
  summary:
    'Non-adaptive INST: C/W/L measure with C_i = ((i + 2T - 1)/(i + 2T))^2 (cwl_eval, 1000 items).',
  formula: 'EU = sum_i W_i g_i, C_i = ((i + 2T - 1)/(i + 2T))^2',
  params: { T: T_PARAM, ...GAINS },
  at: 'none',
  atRequired: false,
  ...cwlCommon,
  compute: (q, p, ctx) => expectedUtility(gainsOf(q, p.values, ctx), insqC(p.values.T)),
})

/** Bejewelled player model, static (ir_measures `BPM`, cwl_eval `BPM-Static-T=t-K=k`). */
export const bpmMeasure = defineMeasure({
  name: 'BPM',
  aliases: [],
  summary:
    'Bejewelled player model (static): reads until T gain or K documents (cwl_eval BPM-Static).',
  formula: 'EU = sum_i W_i g_i, C_i = 1 if sum_{j<=i} g_j < T and i < K, else 0',
  params: { T: T_PARAM, ...GAINS },
  at: 'cutoff',
  atRequired: true,
  ...cwlCommon,
  compute: (q, p, ctx) => {
    const { T } = p.values
    const K = p.at!
    return expectedUtility(gainsOf(q, p.values, ctx), (i, _g, cum) => (cum < T && i < K ? 1 : 0))
  },
})

/** Scaled DCG (ir_measures `SDCG`, cwl_eval `NDCG-k@k`). */
export const sdcgMeasure = defineMeasure({
  name: 'SDCG',
  aliases: [],
  summary: 'DCG@k of the gains divided by the DCG@k of k documents of gain 1 (cwl_eval NDCG-k).',
  formula: 'SDCG@k = sum_{i<=k} g_i/log2(i+1) / sum_{i<=k} 1/log2(i+1)',
  params: { ...GAINS },
  at: 'cutoff',
  atRequired: true,
  ...cwlCommon,
  compute: (q, p, ctx) => {
    const k = p.at!
    return expectedUtility(gainsOf(q, p.values, ctx), (i) =>
      i < k ? Math.log2(i + 1) / Math.log2(i + 2) : 0,
    )
  },
})

/** NERR, equation 8 of Azzopardi et al. (ir_measures `NERR8`, cwl_eval `NERR-EQ8@k`). */
export const nerr8Measure = defineMeasure({
  name: 'NERR8',
  aliases: [],
  summary: 'C/W/L ERR, equation 8: C_i = 1 - g_i up to rank k (cwl_eval NERR-EQ8).',
  formula: 'EU = sum_i W_i g_i, C_i = 1 - g_i for i < k, 0 after',
  params: { ...GAINS },
  at: 'cutoff',
  atRequired: true,
  ...cwlCommon,
  compute: (q, p, ctx) => {
    const k = p.at!
    return expectedUtility(gainsOf(q, p.values, ctx), (i, g) => (i < k ? 1 - g : 0))
  },
})

/** NERR, equation 9 (ir_measures `NERR9`, cwl_eval `NERR-EQ9@k`). */
export const nerr9Measure = defineMeasure({
  name: 'NERR9',
  aliases: [],
  summary: 'C/W/L ERR, equation 9: C_i = (i/(i+1))(1 - g_i) up to rank k (cwl_eval NERR-EQ9).',
  formula: 'EU = sum_i W_i g_i, C_i = (i/(i+1)) * (1 - g_i) for i < k, 0 after',
  params: { ...GAINS },
  at: 'cutoff',
  atRequired: true,
  ...cwlCommon,
  compute: (q, p, ctx) => {
    const k = p.at!
    return expectedUtility(gainsOf(q, p.values, ctx), (i, g) =>
      i < k ? (i / (i + 1)) * (1 - g) : 0,
    )
  },
})

/** NERR, equation 10 (ir_measures `NERR10`, cwl_eval `NERR-EQ10@phi=p`). */
export const nerr10Measure = defineMeasure({
  name: 'NERR10',
  aliases: [],
  summary: 'C/W/L ERR, equation 10: C_i = p(1 - g_i) (cwl_eval NERR-EQ10, 1000 items).',
  formula: 'EU = sum_i W_i g_i, C_i = p * (1 - g_i)',
  params: {
    p: { type: 'float', default: 0.9, range: { min: 0, max: 1 }, doc: 'persistence' },
    ...GAINS,
  },
  at: 'none',
  atRequired: false,
  ...cwlCommon,
  compute: (q, p, ctx) => {
    const pp = p.values.p
    return expectedUtility(gainsOf(q, p.values, ctx), (_i, g) => pp * (1 - g))
  },
})

/** NERR, equation 11 (ir_measures `NERR11`, cwl_eval `NERR-EQ11@T=t`). */
export const nerr11Measure = defineMeasure({
  name: 'NERR11',
  aliases: [],
  summary:
    'C/W/L ERR, equation 11: C_i = ((i + 2T - 1)/(i + 2T))^2 (1 - g_i) (cwl_eval NERR-EQ11, 1000 items).',
  formula: 'EU = sum_i W_i g_i, C_i = ((i + 2T - 1)/(i + 2T))^2 * (1 - g_i)',
  params: { T: T_PARAM, ...GAINS },
  at: 'none',
  atRequired: false,
  ...cwlCommon,
  compute: (q, p, ctx) => {
    const sq = insqC(p.values.T)
    return expectedUtility(gainsOf(q, p.values, ctx), (i, g) => sq(i) * (1 - g))
  },
})

/** RBP's residual as cwl_eval reports it (`RBP@p` `ResEU` column with `-r`). */
export const rbpResidualMeasure = defineMeasure({
  name: 'RBP_resid',
  aliases: [],
  summary:
    "RBP residual (cwl_eval ResEU): what RBP would gain if every unjudged doc and every position past the run up to 1000 had gain 1; ties='average': trectools' residual.",
  formula:
    "RBP_resid = [(1-p) * sum_{i<=n, unjudged} p^(i-1) + p^n - p^1000] / (1 - p^1000); ties='average': sum_{unjudged} avg w_i + p^1000",
  params: {
    p: {
      type: 'float',
      default: 0.8,
      range: { min: 0, max: 1, maxOpen: true },
      doc: 'persistence',
    },
    rel: {
      type: 'int',
      doc: 'accepted for the RBP(p,rel) it goes with; judged docs cancel out of the residual',
    },
    max_rel: {
      type: 'int',
      range: { min: 1 },
      doc: 'accepted for the RBP(p,max_rel) it goes with; judged docs cancel out of the residual',
    },
    ties: {
      ...TIES,
      doc: "average: trectools 0.0.50's residual, the tie-averaged weights of the unjudged docs plus p^1000 (break: cwl_eval's)",
    },
  },
  at: 'none',
  atRequired: false,
  ...cwlCommon,
  docsWhen: (v) => v.ties === 'average',
  compute: (q, p, ctx) =>
    p.values.ties === 'average'
      ? rbpResidualAveraged(q, p.values.p, relOf(p.values.rel, ctx))
      : rbpResidualCwl(q, p.values.p),
})
