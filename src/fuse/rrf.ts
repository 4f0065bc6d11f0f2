/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009):
 *
 *   RRF(d) = Σ_{runs r that retrieved d} 1 / (k + rank_r(d))
 *
 * with rank_r(d) the 1-based position of d in run r after ordering (score descending, ties by doc
 * id descending) and deduplication; k defaults to 60. Scores are never read, so no normalisation
 * applies. A run that did not retrieve d adds nothing.
 */
import { contributions, stableSum } from './contributions.js'
import type { QueryLists } from './types.js'

/** RRF scores of every document of one query. */
export function reciprocalRankFusion(lists: QueryLists, k: number): Map<string, number> {
  const out = new Map<string, number>()
  for (const [doc, cs] of contributions(lists))
    out.set(doc, stableSum(cs.map((c) => 1 / (k + c.rank))))
  return out
}
