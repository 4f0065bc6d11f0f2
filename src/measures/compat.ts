import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure } from './measure.js'

/**
 * Compatibility (ir_measures' `Compat` provider, 0.4.3; Clarke, Vtyurina & Smucker, "Assessing
 * top-k preferences", TOIS 2021): rank-biased overlap between the run and an ideal ranking.
 *
 *   R = the ranking (under the ordering convention; ir_measures: score descending, ties by docno
 *       ascending), I = the judged docs with grade > 0 by grade descending, equal grades by their
 *       run score descending (0 when not retrieved), then qrels file order;
 *   D = max(|R|, |I|),  RBO(R, I) = Σ_{i=1..D} p^(i−1) · |R_{1..i} ∩ I_{1..i}| / i  ÷  Σ_{i=1..D} p^(i−1)
 *   Compat = RBO(R, I) / RBO(I, I) with `normalize` (default), else RBO(R, I).
 *
 * p = 0.95 by default. A query without a relevant doc scores 0 (RBO against an empty ideal), as
 * ir_measures gives, or is undefined under `queriesWithoutRelevant: 'undefined'`. The ideal reads
 * the run scores and the qrels order, so the measure declares `needsDocs`; on a ranking without
 * them (hand-built) the scores are taken as descending by rank.
 */

/** The ideal ranking as positions: its length, and `idealOfRank[i]` = the ideal index of R's doc at rank i (or -1). */
interface Alignment {
  readonly idealLength: number
  readonly idealOfRank: Int32Array
}

function align(q: JudgedRanking): Alignment {
  const n = q.numRet
  const idealOfRank = new Int32Array(n).fill(-1)
  const docs = q.docs
  // Ideal docs: grade, score, file position, rank (-1 when not retrieved).
  const ideal: { g: number; s: number; f: number; r: number }[] = []
  if (docs) {
    const rankOf = new Map<string, number>()
    for (let i = 0; i < n; i++) if (!rankOf.has(docs.ids[i]!)) rankOf.set(docs.ids[i]!, i)
    let f = 0
    for (const [doc, g] of docs.judgments.grades) {
      f++
      if (g <= 0) continue
      const r = rankOf.get(doc) ?? -1
      ideal.push({ g, s: r >= 0 ? docs.scores[r]! : 0, f, r })
    }
  } else {
    // No docs: retrieved relevant docs by rank, then the unretrieved ones, grade by grade.
    const retrieved: number[] = []
    for (let i = 0; i < n; i++) {
      const g = q.grades[i]!
      if (g > 0) {
        ideal.push({ g, s: n - i, f: i, r: i })
        retrieved[g] = (retrieved[g] ?? 0) + 1
      }
    }
    q.relLevels.forEach((count, g) => {
      if (g <= 0) return
      for (let k = count - (retrieved[g] ?? 0); k > 0; k--) ideal.push({ g, s: 0, f: n + k, r: -1 })
    })
  }
  ideal.sort((a, b) => b.g - a.g || (a.s > b.s ? -1 : a.s < b.s ? 1 : a.f - b.f))
  ideal.forEach((d, j) => {
    if (d.r >= 0) idealOfRank[d.r] = j
  })
  // Later copies of a doc (duplicates kept) are the same doc: align them too.
  if (docs) {
    const first = new Map<string, number>()
    for (let i = 0; i < n; i++) {
      const f = first.get(docs.ids[i]!)
      if (f === undefined) first.set(docs.ids[i]!, i)
      else idealOfRank[i] = idealOfRank[f]!
    }
  }
  return { idealLength: ideal.length, idealOfRank }
}

/**
 * RBO of R against I to depth D: the overlap |R_{1..i} ∩ I_{1..i}| grows when R's doc at i is an
 * ideal doc already reached (ideal index < i) and when I's doc at i was already ranked (at ≤ i).
 */
function rbo(a: Alignment, lengthR: number, p: number, self: boolean): number {
  const m = a.idealLength
  const depth = Math.max(lengthR, m)
  const inR = new Uint8Array(m)
  let score = 0
  let normalizer = 0
  let weight = 1
  let overlap = 0
  for (let i = 0; i < depth; i++) {
    if (self) overlap = Math.min(i + 1, m)
    else {
      if (i < lengthR) {
        const j = a.idealOfRank[i]!
        if (j >= 0 && !inR[j]) {
          inR[j] = 1
          if (j < i) overlap++
        }
      }
      if (i < m && inR[i]) overlap++
    }
    score += (weight * overlap) / (i + 1)
    normalizer += weight
    weight *= p
  }
  return depth === 0 ? 0 : score / normalizer
}

/** Compat of a ranking (see the family comment). */
export function compat(q: JudgedRanking, p = 0.95, normalize = true): number {
  const a = align(q)
  const score = rbo(a, q.numRet, p, false)
  if (!normalize) return score
  const depthR = q.numRet
  const best = rbo(a, depthR, p, true)
  return best > 0 ? score / best : score
}

/** Compat (ir_measures' compat provider). */
export const compatMeasure = defineMeasure({
  name: 'Compat',
  aliases: [],
  summary:
    'Compatibility: rank-biased overlap with the ideal ranking (relevant docs by grade, then run score, then qrels order), ir_measures 0.4.3.',
  formula:
    'Compat = RBO(R, I) / RBO(I, I), RBO(R, I) = sum_{i<=D} p^(i-1) |R_1..i ∩ I_1..i| / i / sum_{i<=D} p^(i-1), D = max(|R|, |I|)',
  params: {
    p: {
      type: 'float',
      default: 0.95,
      range: { min: 0, max: 1, minOpen: true },
      doc: 'persistence of the rank-biased overlap',
    },
    normalize: {
      type: 'bool',
      default: true,
      doc: "divide by the ideal's overlap with itself (False: the raw RBO)",
    },
  },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  needsDocs: true,
  compute: (q, p) => compat(q, p.values.p, p.values.normalize),
})
