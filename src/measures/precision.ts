import { type JudgedRanking, numRelAt, numRelRetAt, relevantEnd } from '../rank/judged-ranking.js'
import { ascendingOrder, relevantInTop, zeros } from './cutoffs.js'
import { defineMeasure, type ParamSpec, single, teValues } from './measure.js'
import { cutOf, JUDGED_ONLY, judgedView, REL, relOf } from './params.js'
import { TIES, tieAveragedSum } from './ties.js'
import { TREC_EVAL_CUTOFFS, TREC_EVAL_RPREC_MULTIPLES } from './trec-eval-defaults.js'

/**
 * Precision at k:  P@k = |{d in top k : grade(d) ≥ rel}| / k
 *
 * Divides by k even when fewer than k docs were retrieved (trec_eval `P.k`).
 * With `ties='average'` (McSherry & Najork, ECIR 2008) a relevant doc counts the share of its run
 * of equal scores that lies in the top k: P@k = Σ_i w̄_i · [grade(d_i) ≥ rel] / k, w_i = 1 for
 * i ≤ k, else 0, averaged over each run of equal scores (`ties.ts`): the mean of P@k over every
 * order of the tied docs.
 * Reference: C. J. van Rijsbergen, Information Retrieval, 1979.
 */
export function precision(
  q: JudgedRanking,
  cutoffs: readonly number[],
  rel = q.relevanceLevel,
): number[] {
  const hits = relevantInTop(q, cutoffs, rel)
  return cutoffs.map((k, i) => hits[i]! / k)
}

/**
 * Relative precision at k:  relative_P@k = |relevant in top k| / min(k, R); 0 when R = 0
 * (trec_eval `relative_P.k`).
 */
export function relativePrecision(
  q: JudgedRanking,
  cutoffs: readonly number[],
  rel = q.relevanceLevel,
): number[] {
  const R = numRelAt(q, rel)
  if (R === 0) return cutoffs.map(() => 0)
  const hits = relevantInTop(q, cutoffs, rel)
  return cutoffs.map((k, i) => hits[i]! / (k > R ? R : k))
}

/**
 * R-precision:  Rprec = |relevant in top min(R, n)| / R; 0 when R = 0 or nothing retrieved.
 * Reference: TREC: Experiment and Evaluation in IR, Voorhees & Harman (eds.), 2005.
 */
export function rPrecision(q: JudgedRanking, rel = q.relevanceLevel): number {
  const R = numRelAt(q, rel)
  const look = Math.min(q.numRet, R)
  if (look === 0) return 0
  let c = 0
  for (let i = 0; i < look; i++) if (q.grades[i]! >= rel) c++
  return c / R
}

/**
 * Precision at multiples of R:  Rprec_mult@x = P@c with c = ⌊x·R + 0.9⌋ (trec_eval's rounding,
 * kept in v10); past the end of the ranking it is num_rel_ret / c.
 */
export function rPrecisionMult(
  q: JudgedRanking,
  multiples: readonly number[],
  rel = q.relevanceLevel,
): number[] {
  const R = numRelAt(q, rel)
  const relRet = numRelRetAt(q, rel)
  // Walk up from the bottom as trec_eval does, so its counting at odd levels (-l -1) is kept.
  const n = multiples.length
  const cut = new Float64Array(n)
  for (let k = 0; k < n; k++) cut[k] = Math.trunc(multiples[k]! * R + 0.9)
  const order = ascendingOrder(cut)
  const out = zeros(n)
  let cur = n - 1
  // Past the end of the ranking, and below its last relevant doc, all num_rel_ret relevant docs
  // are above the cutoff: P@c = num_rel_ret / c, as the walk up would compute it.
  const end = relevantEnd(q, rel)
  while (cur >= 0 && cut[order[cur]!]! > end) {
    out[order[cur]!] = relRet / cut[order[cur]!]!
    cur--
  }
  let relSoFar = relRet
  for (let i = end; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i
    while (cur >= 0 && i === cut[order[cur]!]) out[order[cur--]!] = precis
    if (q.grades[i - 1]! >= rel) relSoFar--
  }
  return out
}

/** Set precision:  set_P = num_rel_ret / num_ret; 0 when nothing retrieved. */
export function setPrecision(q: JudgedRanking, rel = q.relevanceLevel): number {
  if (q.numRet === 0) return 0
  return numRelRetAt(q, rel) / q.numRet
}

/** Set relative precision:  set_relative_P = num_rel_ret / min(num_ret, R); 0 when either is 0. */
export function setRelativePrecision(q: JudgedRanking, rel = q.relevanceLevel): number {
  const R = numRelAt(q, rel)
  if (q.numRet === 0 || R === 0) return 0
  return numRelRetAt(q, rel) / Math.min(q.numRet, R)
}

/** `relative`: divide by the most relevant docs the cut could hold, not by its size. */
const RELATIVE = {
  type: 'bool',
  default: false,
  doc: 'divide by min(size, R) instead of the size: the best value the cut could reach is 1 (trec_eval relative_P, set_relative_P)',
} as const satisfies ParamSpec

/** Precision at k (ir_measures `P@k`, trec_eval `P.k`; `relative=True`: trec_eval `relative_P.k`). */
export const precisionMeasure = defineMeasure({
  name: 'P',
  aliases: ['Precision'],
  summary: 'Precision at k: share of the top k documents that are relevant.',
  formula:
    'P@k = |{d in top k : grade(d) >= rel}| / k  (divides by k even when fewer were retrieved); relative=True: / min(k, R), 0 when R = 0',
  params: { rel: REL, judged_only: JUDGED_ONLY, relative: RELATIVE, ties: TIES },
  exclusive: [
    ['ties', 'judged_only'],
    ['ties', 'relative'],
  ],
  docsWhen: (v) => v.ties === 'average',
  at: 'cutoff',
  atRequired: true,
  aggregate: 'mean',
  needsRelevant: false,
  trecEval: [
    {
      name: 'P',
      params: 'long-cutoffs',
      defaults: TREC_EVAL_CUTOFFS,
      compute: (q, p) => precision(q, teValues(p)),
    },
    {
      name: 'relative_P',
      params: 'long-cutoffs',
      defaults: TREC_EVAL_CUTOFFS,
      fixed: { relative: true },
      compute: (q, p) => relativePrecision(q, teValues(p)),
    },
  ],
  compute: (q, p, ctx) => {
    if (p.values.ties === 'average') {
      const rel = relOf(p.values.rel, ctx)
      const k = cutOf(p.at)
      return (
        tieAveragedSum(
          q,
          k,
          () => 1,
          (g) => (g >= rel ? 1 : 0),
        ) / k
      )
    }
    const f = p.values.relative ? relativePrecision : precision
    return f(judgedView(q, p.values.judged_only), [cutOf(p.at)], relOf(p.values.rel, ctx))[0]!
  },
})

/** R-precision (ir_measures `Rprec`, trec_eval `Rprec`; `mult=x`: trec_eval `Rprec_mult.x`). */
export const rPrecisionMeasure = defineMeasure({
  name: 'Rprec',
  aliases: ['RPrec'],
  summary: 'Precision at rank R, the number of relevant documents (or at a multiple of R).',
  formula:
    'Rprec = |relevant in top R| / R; mult=x: P@c with c = trunc(x*R + 0.9) (trec_eval Rprec_mult), num_rel_ret/c past the end',
  params: {
    rel: REL,
    judged_only: JUDGED_ONLY,
    mult: {
      type: 'float',
      default: 1,
      range: { min: 0, minOpen: true },
      doc: 'cut at x times R, as trec_eval Rprec_mult.x (1: R-precision itself)',
    },
  },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    { name: 'Rprec', compute: single((q) => rPrecision(q)) },
    {
      name: 'Rprec_mult',
      params: 'double-cutoffs',
      param: 'mult',
      defaults: TREC_EVAL_RPREC_MULTIPLES,
      compute: (q, p) => rPrecisionMult(q, teValues(p)),
    },
  ],
  compute: (q, p, ctx) => {
    const v = judgedView(q, p.values.judged_only)
    const rel = relOf(p.values.rel, ctx)
    return p.values.mult === 1 ? rPrecision(v, rel) : rPrecisionMult(v, [p.values.mult], rel)[0]!
  },
})

/**
 * Set precision (ir_measures `SetP`, trec_eval `set_P`); `relative=True` is trec_eval
 * `set_relative_P` (ir_measures `SetP(relative=True)`, alias `SetRelP`).
 */
export const setPrecisionMeasure = defineMeasure({
  name: 'SetP',
  aliases: [],
  summary: 'Precision of the whole retrieved set (relative=True: of its best possible value).',
  formula:
    'SetP = num_rel_ret / num_ret; relative=True: num_rel_ret / min(num_ret, R), 0 when either is 0',
  params: { rel: REL, relative: RELATIVE },
  presetAliases: [{ name: 'SetRelP', params: { relative: true } }],
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: false,
  trecEval: [
    { name: 'set_P', compute: single((q) => setPrecision(q)) },
    {
      name: 'set_relative_P',
      fixed: { relative: true },
      compute: single((q) => setRelativePrecision(q)),
    },
  ],
  compute: (q, p, ctx) =>
    (p.values.relative ? setRelativePrecision : setPrecision)(q, relOf(p.values.rel, ctx)),
})
