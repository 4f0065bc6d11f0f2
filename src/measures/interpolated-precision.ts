import type { RecallRounding } from '../conventions/conventions.js'
import { type JudgedRanking, relevantEnd } from '../rank/judged-ranking.js'
import { zeros } from './cutoffs.js'
import { defineMeasure, single, teValues } from './measure.js'
import { TREC_EVAL_RECALL_POINTS } from './trec-eval-defaults.js'

function recallCutoff(p: number, R: number, rounding: RecallRounding): number {
  // C lround rounds half away from zero; trec_eval 9.0.8 adds 0.9 and truncates.
  const x = p * R
  return rounding === 'lround' ? (x < 0 ? -Math.round(-x) : Math.round(x)) : Math.trunc(x + 0.9)
}

/**
 * Interpolated precision at recall points (trec_eval `iprec_at_recall`): for recall p, with
 * c = lround(p·R) relevant docs (trec_eval 10; (long)(p·R + 0.9) under `plus-0.9`, trec_eval 9.0.8), the highest precision at any rank from the c-th relevant retrieved
 * doc to the end; 0 when fewer than c relevant docs were retrieved. `points` must be ascending.
 */
export function interpolatedPrecision(
  q: JudgedRanking,
  points: readonly number[],
  rounding: RecallRounding = 'lround',
): number[] {
  const n = points.length
  const out = zeros(n)
  const R = q.numRel
  const relRet = q.numRelRet
  const cutoffs = new Float64Array(n)
  for (let k = 0; k < n; k++) cutoffs[k] = recallCutoff(points[k]!, R, rounding)
  let cur = points.length - 1
  while (cur >= 0 && cutoffs[cur]! > relRet) cur--
  let precis = relRet / q.numRet
  let intPrecis = precis
  let relSoFar = relRet
  const g = q.grades
  // Below the last relevant doc relSoFar/i only shrinks as i grows: the walk up starts there.
  for (let i = relevantEnd(q, q.relevanceLevel); i > 0 && relSoFar > 0; i--) {
    precis = relSoFar / i
    if (intPrecis < precis) intPrecis = precis
    if (g[i - 1]! >= q.relevanceLevel) {
      while (cur >= 0 && relSoFar === cutoffs[cur]) out[cur--] = intPrecis
      relSoFar--
    }
  }
  while (cur >= 0) out[cur--] = intPrecis
  return out
}

/** 11-point average (trec_eval `11pt_avg`): mean of interpolated precision over its recall points. */
export function elevenPointAverage(
  q: JudgedRanking,
  points: readonly number[],
  rounding: RecallRounding = 'lround',
): number {
  const v = interpolatedPrecision(q, points, rounding)
  // Summed in trec_eval's order: from the highest recall point down.
  let sum = 0
  for (let i = v.length - 1; i >= 0; i--) sum += v[i]!
  return sum / points.length
}

/** Interpolated precision at a recall level (ir_measures `IPrec@r`, trec_eval `iprec_at_recall.r`). */
export const interpolatedPrecisionMeasure = defineMeasure({
  name: 'IPrec',
  aliases: [],
  summary: 'Interpolated precision at a recall level.',
  formula:
    'IPrec@r = max precision at any rank from the c-th relevant retrieved document on; c = lround(r*R) (trec_eval 10) or (long)(r*R + 0.9) (trec_eval 9.0.8), as the conventions say',
  params: {},
  at: 'recall',
  atRequired: true,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    {
      name: 'iprec_at_recall',
      params: 'double-cutoffs',
      defaults: TREC_EVAL_RECALL_POINTS,
      compute: (q, p, ctx) => interpolatedPrecision(q, teValues(p), ctx.recallRounding),
    },
  ],
  compute: (q, p, ctx) =>
    q.numRet === 0 ? 0 : interpolatedPrecision(q, [p.at!], ctx.conventions.recallRounding)[0]!,
})

/**
 * 11-point average (trec_eval `11pt_avg`): the mean of IPrec@r over r = 0, 0.1, …, 1. `evaluate`
 * takes the bare name only; the drop-in also reads other points (`-m 11pt_avg.0.2,0.8`).
 * 0 for an empty ranking. Reference: trec_eval 10 `m_11pt_avg.c`.
 */
export const elevenPointAverageMeasure = defineMeasure({
  name: 'IPrecAvg',
  aliases: [],
  summary: '11-point average: interpolated precision averaged over recall 0, 0.1, ..., 1.',
  formula: 'IPrecAvg = (1/11) * sum over r in {0, 0.1, ..., 1} of IPrec@r',
  params: {},
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    {
      name: '11pt_avg',
      params: 'double-params',
      defaults: TREC_EVAL_RECALL_POINTS,
      compute: single((q, p, ctx) => elevenPointAverage(q, teValues(p), ctx.recallRounding)),
    },
  ],
  compute: (q, _p, ctx) =>
    q.numRet === 0
      ? 0
      : elevenPointAverage(q, TREC_EVAL_RECALL_POINTS, ctx.conventions.recallRounding),
})
