/**
 * What each input run says about each document of one query: the shared first step of every
 * fusion method. Sums are taken over values sorted ascending, so a fused score does not depend
 * on the order the runs were given in.
 */
import type { QueryLists } from './types.js'

/** One run's evidence for a document. */
export interface Contribution {
  /** Index of the input run. */
  readonly run: number
  /** 1-based rank of the doc in that run's (deduplicated) list. */
  readonly rank: number
  /** The (normalised) score. */
  readonly score: number
}

/** Every document retrieved by at least one run, with the evidence of each run that retrieved it. */
export function contributions(lists: QueryLists): Map<string, Contribution[]> {
  const out = new Map<string, Contribution[]>()
  lists.forEach((list, run) => {
    if (!list) return
    list.docIds.forEach((docId, i) => {
      const c: Contribution = { run, rank: i + 1, score: list.scores[i]! }
      const prev = out.get(docId)
      if (prev) prev.push(c)
      else out.set(docId, [c])
    })
  })
  return out
}

/** Σ values, added in ascending order (order-independent to the last bit). */
export function stableSum(values: readonly number[]): number {
  const v = values.slice().sort((a, b) => a - b)
  let s = 0
  for (const x of v) s += x
  return s
}
