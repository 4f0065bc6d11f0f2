import { type JudgedRanking, numRelRetAt } from '../rank/judged-ranking.js'

/**
 * The indices of `values` in ascending order of value, ties in index order: the measures that
 * take several cutoffs walk the ranking once, cutoff by cutoff. Indices rather than
 * (value, index) pairs: the arrays made here are arrays of small integers whatever the values
 * (counts, fractions, Infinity), so the compiled code that reads them never meets a new array
 * shape mid-run (V8 recompiled each such measure once or twice per run when a pair first held a
 * fraction).
 */
export function ascendingOrder(values: ArrayLike<number>): number[] {
  const n = values.length
  const order = new Array<number>(n)
  for (let i = 0; i < n; i++) order[i] = i
  if (n > 16) return order.sort((a, b) => values[a]! - values[b]! || a - b)
  // Cutoff lists are short: an insertion sort, stable.
  for (let i = 1; i < n; i++) {
    const x = order[i]!
    const v = values[x]!
    let j = i - 1
    while (j >= 0 && values[order[j]!]! > v) {
      order[j + 1] = order[j]!
      j--
    }
    order[j + 1] = x
  }
  return order
}

/** `n` zeros in an array of doubles, so that storing a fraction later keeps its shape. */
export function zeros(n: number): number[] {
  const out = new Array<number>(n).fill(0.5)
  return out.fill(0)
}

/**
 * For each cutoff k (any order), the number of docs with grade ≥ `rel` among the top
 * min(k, numRet). One pass over the ranking that stops once every relevant retrieved doc has
 * been seen, so sparse judgments (one relevant doc in a thousand) cost little.
 */
export function relevantInTop(q: JudgedRanking, cutoffs: readonly number[], rel: number): number[] {
  // Below level 0, unjudged docs count as relevant in rank loops (trec_eval): no early stop.
  const total = rel >= 0 ? numRelRetAt(q, rel) : Infinity
  const g = q.grades
  const order = ascendingOrder(cutoffs)
  const out = new Array<number>(cutoffs.length)
  let seen = 0
  let i = 0
  for (const at of order) {
    const limit = Math.min(cutoffs[at]!, q.numRet)
    while (i < limit && seen < total) {
      if (g[i]! >= rel) seen++
      i++
    }
    out[at] = seen
  }
  return out
}
