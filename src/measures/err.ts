import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure } from './measure.js'
import { cutOf } from './params.js'

/**
 * Expected reciprocal rank at k, as gdeval.pl computes it (`err@k`):
 *   ERR@k = Σ_{i ≤ min(k, n)} R_i / i · Π_{j < i} (1 − R_j),  R_i = (2^g_i − 1) / 2^g_max
 * with g_i the grade of the doc at rank i when positive, else 0 (negative, zero and unjudged
 * alike), and g_max = 4, the largest grade gdeval accepts (so R = (2^g − 1)/16). gdeval refuses
 * grades above 4; here a query whose top grade is higher uses it as g_max, so R stays ≤ 1.
 * Reference: Chapelle, Metzler, Zhang & Grinspan, Expected reciprocal rank for graded relevance,
 * CIKM 2009; gdeval.pl 1.3 (trec-web/trec-web-2014 src/eval/gdeval.pl) and ir_measures' `ERR@k`.
 */
export function err(q: JudgedRanking, k: number): number {
  const gmax = Math.max(4, q.numRelLevels - 1)
  const scale = 2 ** gmax
  const n = Math.min(k, q.numRet)
  let sum = 0
  let stay = 1
  for (let i = 0; i < n; i++) {
    const g = q.grades[i]!
    if (g <= 0) continue
    const r = (2 ** g - 1) / scale
    sum += (stay * r) / (i + 1)
    stay *= 1 - r
  }
  return sum
}

/** ERR (ir_measures `ERR@k`, gdeval.pl `err@k`; not in trec_eval). */
export const errMeasure = defineMeasure({
  name: 'ERR',
  aliases: [],
  summary: 'Expected reciprocal rank with gdeval’s gains (2^g − 1)/16 (at k when given).',
  formula:
    'ERR@k = sum_{i<=k} R_i/i * prod_{j<i} (1 - R_j), R = (2^g - 1)/16 for grade g > 0, else 0',
  params: {},
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  compute: (q, p) => err(q, cutOf(p.at)),
})
