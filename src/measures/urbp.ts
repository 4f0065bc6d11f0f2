import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure, type ParamSpec } from './measure.js'
import { REL, relOf } from './params.js'
import { averagedRbpWeights, rbpWeights, TIES_AVERAGE } from './ties.js'

/**
 * Understandability-biased RBP (trectools 0.0.50 `get_urbp` and `get_alpha_urbp`; Zuccon,
 * "Understandability biased evaluation for information retrieval", ECIR 2016; alpha-uRBP: Palotti,
 * Goeuriot, Zuccon & Hanbury, "Ranking health web pages with relevance and understandability",
 * SIGIR 2016). Each relevant retrieved doc that has an auxiliary value u
 * (`--aux-qrels`, e.g. understandability 0..100) contributes its RBP weight times u:
 *   uRBP = Σ_{i: grade ≥ rel, u_i known} w̄_i · u_i · factor
 *   alpha_uRBP = the same with u replaced by 100 · exp(−(u − goal)² / (2 sd²))
 *     (trectools: norm.pdf(u, goal, sd) · 100 / norm.pdf(goal, goal, sd); it calls sd the "var")
 * with w̄ the rank weights (1 − p)·p^(i−1) averaged over runs of equal scores (`ties='average'`,
 * trectools' default; see `ties.ts`). Docs without a value contribute nothing (trectools' inner
 * join), so do unjudged docs. trectools reads relevance as grade > 0 (rel = 1).
 */

const P = {
  type: 'float',
  default: 0.8,
  range: { min: 0, max: 1, maxOpen: true },
  doc: 'persistence: the chance of looking at the next document',
} as const satisfies ParamSpec

const FACTOR = {
  type: 'float',
  default: 1,
  range: { min: 0 },
  doc: "multiplies each auxiliary value (trectools' normalization_factor; 0.01 maps 0..100 to 0..1)",
} as const satisfies ParamSpec

/** Σ over relevant ranked docs with an auxiliary value of weight · f(u) · factor. */
function urbpSum(
  q: JudgedRanking,
  p: number,
  rel: number,
  factor: number,
  average: boolean,
  f: (u: number) => number,
): number {
  const aux = q.docs?.aux
  if (!aux) return 0
  const w = average ? averagedRbpWeights(q, p) : rbpWeights(q.numRet, p)
  let sum = 0
  for (let i = 0; i < q.numRet; i++) {
    const u = aux[i]!
    if (q.grades[i]! >= rel && !Number.isNaN(u)) sum += w[i]! * f(u) * factor
  }
  return sum
}

/** uRBP of a ranking whose docs carry auxiliary values. */
export function urbp(q: JudgedRanking, p: number, rel: number, factor = 1, average = true): number {
  return urbpSum(q, p, rel, factor, average, (u) => u)
}

/** alpha-uRBP: uRBP with u mapped to 100 · exp(−(u − goal)²/(2 sd²)). */
export function alphaUrbp(
  q: JudgedRanking,
  p: number,
  rel: number,
  goal: number,
  sd: number,
  factor = 1,
  average = true,
): number {
  return urbpSum(q, p, rel, factor, average, (u) => {
    const z = (u - goal) / sd
    return 100 * Math.exp(-(z * z) / 2)
  })
}

/** uRBP (trectools `get_urbp`). */
export const urbpMeasure = defineMeasure({
  name: 'uRBP',
  aliases: [],
  summary:
    'Understandability-biased RBP: RBP weights (ties averaged) times the auxiliary value of each relevant doc (trectools 0.0.50; --aux-qrels).',
  formula: 'uRBP = sum_{relevant i with u_i} avg w_i * u_i * factor, w_i = (1-p) p^(i-1)',
  params: { p: P, factor: FACTOR, rel: REL, ties: TIES_AVERAGE },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: false,
  needsAux: true,
  compute: (q, p, ctx) =>
    urbp(q, p.values.p, relOf(p.values.rel, ctx), p.values.factor, p.values.ties === 'average'),
})

/** alpha-uRBP (trectools `get_alpha_urbp`). */
export const alphaUrbpMeasure = defineMeasure({
  name: 'alpha_uRBP',
  aliases: [],
  summary:
    'uRBP with each auxiliary value u mapped to 100·exp(-(u-goal)^2/(2 sd^2)): a reader profile centred on goal (trectools 0.0.50; --aux-qrels).',
  formula:
    'alpha_uRBP = sum_{relevant i with u_i} avg w_i * 100 exp(-(u_i-goal)^2/(2 sd^2)) * factor',
  params: {
    p: P,
    goal: { type: 'float', doc: 'the auxiliary value the reader wants (trectools: goals[q][0])' },
    sd: {
      type: 'float',
      range: { min: 0, minOpen: true },
      doc: "the spread of the profile, a standard deviation (trectools' goals[q][1], the scale of norm.pdf)",
    },
    factor: FACTOR,
    rel: REL,
    ties: TIES_AVERAGE,
  },
  required: ['goal', 'sd'],
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: false,
  needsAux: true,
  compute: (q, p, ctx) =>
    alphaUrbp(
      q,
      p.values.p,
      relOf(p.values.rel, ctx),
      p.values.goal!,
      p.values.sd!,
      p.values.factor,
      p.values.ties === 'average',
    ),
})
