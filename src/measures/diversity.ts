import type { SubtopicJudgments } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure, type ParamSpec } from './measure.js'
import { cutOf } from './params.js'

/**
 * Diversity measures of the TREC Web track (ndeval 4.5, trec-web/trec-web-2014 `src/eval/ndeval.c`;
 * pyndeval 0.0.6 runs the same code). They need diversity qrels (`topic subtopic docno judgment`,
 * `--qrels-format diversity`): a judgment > 0 makes a doc relevant to a subtopic.
 *
 * Per query, S = the subtopics with a relevant doc, and the gain of the doc at rank i is
 *   gain_i = Σ_{s ∋ d_i} (1 − α)^{c_s(i)},  c_s(i) = earlier docs relevant to s.
 * The greedy ideal takes, at each rank, the judged doc of largest gain given those above it
 * (ties by docno descending, byte order, as ndeval).
 *
 *   alpha_DCG@k  = Σ_{i≤k} gain_i/log2(i+1) / Σ_{i≤k} S(1 − α)^{i−1}/log2(i+1)   ("ideal ideal")
 *   alpha_nDCG@k = Σ_{i≤k} gain_i/log2(i+1) of the run / the same of the greedy ideal
 *   ERR_IA@k     = Σ_{i≤k} gain_i/i / Σ_{i≤k} S(1 − α)^{i−1}/i
 *   nERR_IA@k    = Σ_{i≤k} gain_i/i of the run / the same of the greedy ideal
 *   NRBP         = (1 − (1 − α)β)/S · Σ_i gain_i β^{i−1}   (whole run)
 *   nNRBP        = NRBP / NRBP of the greedy ideal
 *   AP_IA        = (1/S) Σ_s (1/R_s) Σ_{i: d_i ∋ s} |{j ≤ i: d_j ∋ s}|/i,  R_s = relevant docs of s
 *   P_IA@k       = Σ_{i≤k} |{s ∋ d_i}| / (k·S)   (k stays the divisor for a shorter run)
 *   StRecall@k   = |{s: some d_i ∋ s, i ≤ k}| / S
 *
 * With S = 0 every measure is 0 but nNRBP, which is 0/0: NaN (ndeval prints -nan), reported as
 * undefined.
 */

const ALPHA = {
  type: 'float',
  default: 0.5,
  range: { min: 0, max: 1, maxOpen: true },
  doc: 'alpha: the chance that a relevant doc does not satisfy the user for its subtopic again',
} as const satisfies ParamSpec
const BETA = {
  type: 'float',
  default: 0.5,
  range: { min: 0, max: 1, minOpen: true, maxOpen: true },
  doc: 'beta: NRBP’s persistence',
} as const satisfies ParamSpec

const EMPTY: SubtopicJudgments = { count: 0, docs: new Map(), relevantPerSubtopic: [] }

function judgmentsOf(q: JudgedRanking): SubtopicJudgments {
  return q.diversity?.judgments ?? EMPTY
}

function rankedOf(q: JudgedRanking): readonly (readonly number[])[] {
  return q.diversity?.ranked ?? []
}

/** The novelty-discounted gains of a ranking of subtopic sets, first `k` ranks. */
export function alphaGains(
  ranked: readonly (readonly number[])[],
  S: number,
  alpha: number,
  k = Infinity,
): number[] {
  const seen = new Array<number>(S).fill(0)
  const n = Math.min(ranked.length, k)
  const out = new Array<number>(n)
  for (let i = 0; i < n; i++) {
    let g = 0
    for (const s of ranked[i]!) g += (1 - alpha) ** seen[s]!++
    out[i] = g
  }
  return out
}

/** Greedy ideal (ties by docno descending), cached per query and α. */
const IDEALS = new WeakMap<SubtopicJudgments, Map<number, readonly (readonly number[])[]>>()

/** The greedy ideal ranking of the judged docs: at each rank the doc of largest gain, ties by docno descending. */
export function greedyIdeal(j: SubtopicJudgments, alpha: number): readonly (readonly number[])[] {
  let byAlpha = IDEALS.get(j)
  const hit = byAlpha?.get(alpha)
  if (hit) return hit
  // Docs by docno descending, so the first of equal gain wins.
  const pool = [...j.docs.entries()]
    .sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0))
    .map((e) => e[1])
  const seen = new Array<number>(j.count).fill(0)
  const used = new Uint8Array(pool.length)
  const out: (readonly number[])[] = []
  for (let r = 0; r < pool.length; r++) {
    let best = -1
    let bestGain = -1
    for (let d = 0; d < pool.length; d++) {
      if (used[d]) continue
      let g = 0
      for (const s of pool[d]!) g += (1 - alpha) ** seen[s]!
      if (g > bestGain) {
        bestGain = g
        best = d
      }
    }
    used[best] = 1
    for (const s of pool[best]!) seen[s]!++
    out.push(pool[best]!)
  }
  if (!byAlpha) IDEALS.set(j, (byAlpha = new Map()))
  byAlpha.set(alpha, out)
  return out
}

/** Σ_{i≤k} gain_i · discount(i), i from 1. */
function discounted(gains: readonly number[], discount: (i: number) => number): number {
  let sum = 0
  for (let i = 0; i < gains.length; i++) sum += gains[i]! * discount(i + 1)
  return sum
}

/** Σ_{i≤k} S(1 − α)^{i−1} · discount(i): the "ideal ideal" of a doc relevant to every subtopic at every rank. */
function idealIdeal(S: number, alpha: number, k: number, discount: (i: number) => number): number {
  let sum = 0
  for (let i = 1; i <= k; i++) sum += S * (1 - alpha) ** (i - 1) * discount(i)
  return sum
}

const log2Discount = (i: number): number => 1 / Math.log2(i + 1)
const rankDiscount = (i: number): number => 1 / i

/** alpha-DCG@k (ndeval `alpha-DCG@k`), normalised by the ideal ideal. */
export function alphaDCG(
  q: JudgedRanking,
  alpha: number,
  k: number,
  normalise: 'ideal-ideal' | 'greedy',
  discount: (i: number) => number = log2Discount,
): number {
  const j = judgmentsOf(q)
  if (j.count === 0) return 0
  const run = discounted(alphaGains(rankedOf(q), j.count, alpha, k), discount)
  if (normalise === 'greedy')
    return run / discounted(alphaGains(greedyIdeal(j, alpha), j.count, alpha, k), discount)
  // The ideal ideal needs a depth: the cutoff, or the run's length without one (as the greedy ideal's sum).
  return (
    run /
    idealIdeal(j.count, alpha, Number.isFinite(k) ? k : Math.max(1, rankedOf(q).length), discount)
  )
}

/** NRBP (ndeval `NRBP`): (1 − (1 − α)β)/S · Σ_i gain_i β^{i−1}; 0 when S = 0. */
export function nrbp(
  ranked: readonly (readonly number[])[],
  S: number,
  alpha: number,
  beta: number,
): number {
  if (S === 0) return 0
  const gains = alphaGains(ranked, S, alpha)
  let sum = 0
  let w = 1
  for (const g of gains) {
    sum += g * w
    w *= beta
  }
  return ((1 - (1 - alpha) * beta) / S) * sum
}

/** AP-IA (ndeval `MAP-IA`): the mean over subtopics of each subtopic's AP. */
export function apIA(q: JudgedRanking): number {
  const j = judgmentsOf(q)
  const S = j.count
  if (S === 0) return 0
  const hits = new Array<number>(S).fill(0)
  const sums = new Array<number>(S).fill(0)
  rankedOf(q).forEach((subs, i) => {
    for (const s of subs) sums[s]! += ++hits[s]! / (i + 1)
  })
  let total = 0
  for (let s = 0; s < S; s++) total += sums[s]! / j.relevantPerSubtopic[s]!
  return total / S
}

/** P-IA@k (ndeval `P-IA@k`). */
export function pIA(q: JudgedRanking, k: number): number {
  const S = judgmentsOf(q).count
  if (S === 0) return 0
  let n = 0
  rankedOf(q)
    .slice(0, k)
    .forEach((subs) => {
      n += subs.length
    })
  return n / (k * S)
}

/** Subtopic recall at k (ndeval `strec@k`). */
export function subtopicRecall(q: JudgedRanking, k: number): number {
  const S = judgmentsOf(q).count
  if (S === 0) return 0
  const found = new Set<number>()
  for (const subs of rankedOf(q).slice(0, k)) for (const s of subs) found.add(s)
  return found.size / S
}

const common = {
  aliases: [],
  aggregate: 'mean',
  needsRelevant: false,
  needsSubtopics: true,
} as const

/** alpha-DCG (ndeval `alpha-DCG@k`). */
export const alphaDCGMeasure = defineMeasure({
  ...common,
  name: 'alpha_DCG',
  summary:
    "alpha-DCG over the 'ideal ideal' (S subtopics at every rank), ndeval 4.5; diversity qrels.",
  formula:
    'alpha_DCG@k = sum_{i<=k} gain_i/log2(i+1) / sum_{i<=k} S(1-alpha)^(i-1)/log2(i+1), gain_i = sum_{s in d_i} (1-alpha)^(earlier docs of s)',
  params: { alpha: ALPHA },
  at: 'cutoff',
  atRequired: true,
  compute: (q, p) => alphaDCG(q, p.values.alpha, cutOf(p.at), 'ideal-ideal'),
})

/** alpha-nDCG (ndeval `alpha-nDCG@k`). */
export const alphaNDCGMeasure = defineMeasure({
  ...common,
  name: 'alpha_nDCG',
  summary:
    'alpha-nDCG: alpha-DCG over that of the greedy ideal ranking (ndeval 4.5); diversity qrels.',
  formula:
    'alpha_nDCG@k = sum_{i<=k} gain_i/log2(i+1) / the same for the greedy ideal (ties by docno descending)',
  params: { alpha: ALPHA },
  at: 'cutoff',
  atRequired: true,
  compute: (q, p) => alphaDCG(q, p.values.alpha, cutOf(p.at), 'greedy'),
})

/** ERR-IA (ndeval `ERR-IA@k`). */
export const errIAMeasure = defineMeasure({
  ...common,
  name: 'ERR_IA',
  summary:
    "Intent-aware ERR as ndeval 4.5 computes it (rank discount, 'ideal ideal' normaliser); diversity qrels.",
  formula: 'ERR_IA@k = sum_{i<=k} gain_i/i / sum_{i<=k} S(1-alpha)^(i-1)/i',
  params: { alpha: ALPHA },
  at: 'cutoff',
  atRequired: true,
  compute: (q, p) => alphaDCG(q, p.values.alpha, cutOf(p.at), 'ideal-ideal', rankDiscount),
})

/** nERR-IA (ndeval `nERR-IA@k`). */
export const nERRIAMeasure = defineMeasure({
  ...common,
  name: 'nERR_IA',
  summary: 'ERR-IA over that of the greedy ideal ranking (ndeval 4.5); diversity qrels.',
  formula: 'nERR_IA@k = sum_{i<=k} gain_i/i / the same for the greedy ideal',
  params: { alpha: ALPHA },
  at: 'cutoff',
  atRequired: true,
  compute: (q, p) => alphaDCG(q, p.values.alpha, cutOf(p.at), 'greedy', rankDiscount),
})

/** NRBP (ndeval `NRBP`). */
export const nrbpMeasure = defineMeasure({
  ...common,
  name: 'NRBP',
  summary: 'Novelty- and rank-biased precision over the whole run (ndeval 4.5); diversity qrels.',
  formula: 'NRBP = (1 - (1-alpha)*beta)/S * sum_i gain_i * beta^(i-1)',
  params: { alpha: ALPHA, beta: BETA },
  at: 'none',
  atRequired: false,
  compute: (q, p) => nrbp(rankedOf(q), judgmentsOf(q).count, p.values.alpha, p.values.beta),
})

/** nNRBP (ndeval `nNRBP`). */
export const nNRBPMeasure = defineMeasure({
  ...common,
  name: 'nNRBP',
  summary:
    'NRBP over the NRBP of the greedy ideal (ndeval 4.5); undefined (0/0) without relevant docs; diversity qrels.',
  formula: 'nNRBP = NRBP / NRBP(greedy ideal)',
  params: { alpha: ALPHA, beta: BETA },
  at: 'none',
  atRequired: false,
  compute: (q, p) => {
    const j = judgmentsOf(q)
    if (j.count === 0) return Number.NaN
    const { alpha, beta } = p.values
    return (
      nrbp(rankedOf(q), j.count, alpha, beta) / nrbp(greedyIdeal(j, alpha), j.count, alpha, beta)
    )
  },
})

/** MAP-IA (ndeval `MAP-IA`). */
export const apIAMeasure = defineMeasure({
  ...common,
  name: 'AP_IA',
  summary:
    'Intent-aware AP: the mean over subtopics of each subtopic’s AP (ndeval 4.5 MAP-IA); diversity qrels.',
  formula: 'AP_IA = (1/S) sum_s (1/R_s) sum_{i: d_i relevant to s} (docs relevant to s in top i)/i',
  params: {},
  at: 'none',
  atRequired: false,
  compute: (q) => apIA(q),
})

/** P-IA (ndeval `P-IA@k`). */
export const pIAMeasure = defineMeasure({
  ...common,
  name: 'P_IA',
  summary: 'Intent-aware precision at k (ndeval 4.5 P-IA); diversity qrels.',
  formula: 'P_IA@k = sum_{i<=k} (subtopics of d_i) / (k * S)',
  params: {},
  at: 'cutoff',
  atRequired: true,
  compute: (q, p) => pIA(q, p.at!),
})

/** Subtopic recall (ndeval `strec@k`). */
export const stRecallMeasure = defineMeasure({
  ...common,
  name: 'StRecall',
  summary:
    'Subtopic recall at k: subtopics covered by the top k over S (ndeval 4.5 strec); diversity qrels.',
  formula: 'StRecall@k = |subtopics with a relevant doc in the top k| / S',
  params: {},
  at: 'cutoff',
  atRequired: true,
  compute: (q, p) => subtopicRecall(q, p.at!),
})
