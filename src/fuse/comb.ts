/**
 * The Comb family (Fox and Shaw, TREC-2 1994; Lee, SIGIR 1997) over the (normalised) scores
 * s_r(d) of the runs R(d) that retrieved d. A run that did not retrieve d is absent: it adds no
 * term and is not counted (it is not a zero score).
 *
 *   CombSUM(d) = Σ_{r ∈ R(d)} s_r(d)
 *   CombMNZ(d) = |R(d)| · CombSUM(d)
 *   CombANZ(d) = CombSUM(d) / |R(d)|
 *   CombMAX(d) = max_{r ∈ R(d)} s_r(d)
 *   CombMIN(d) = min_{r ∈ R(d)} s_r(d)
 *   CombMED(d) = median_{r ∈ R(d)} s_r(d)   (even |R(d)|: mean of the two middle values)
 */
import { contributions, stableSum } from './contributions.js'
import type { QueryLists } from './types.js'

/** The Comb methods. */
export type CombMethod = 'combsum' | 'combmnz' | 'combanz' | 'combmax' | 'combmin' | 'combmed'

function combine(method: CombMethod, values: readonly number[]): number {
  switch (method) {
    case 'combsum':
      return stableSum(values)
    case 'combmnz':
      return values.length * stableSum(values)
    case 'combanz':
      return stableSum(values) / values.length
    case 'combmax':
      return Math.max(...values)
    case 'combmin':
      return Math.min(...values)
    case 'combmed': {
      const v = values.slice().sort((a, b) => a - b)
      const m = v.length >> 1
      return v.length % 2 === 1 ? v[m]! : (v[m - 1]! + v[m]!) / 2
    }
  }
}

/** Comb scores of every document of one query. */
export function combFusion(lists: QueryLists, method: CombMethod): Map<string, number> {
  const out = new Map<string, number>()
  for (const [doc, cs] of contributions(lists))
    out.set(
      doc,
      combine(
        method,
        cs.map((c) => c.score),
      ),
    )
  return out
}
