/**
 * Ordering and tie-breaking of a fused query. Documents are sorted by fused score descending,
 * equal scores by doc id descending (byte order): the order trec_eval itself gives equal scores,
 * so a run written with ties kept (`keepTies`) evaluates exactly like one with ties broken.
 *
 * Breaking ties: walking down the list, each written score is min(fused, nextDown(previous
 * written score)), so scores become strictly decreasing while moving by the fewest units in the
 * last place; only tied documents (and, rarely, a doc within a few ulps below a tie) change.
 */
import type { FusedDoc } from './types.js'

/** Documents in fused order (score descending, then doc id descending). */
export function orderFused(scores: ReadonlyMap<string, number>): [string, number][] {
  return [...scores].sort((a, b) =>
    a[1] > b[1] ? -1 : a[1] < b[1] ? 1 : a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0,
  )
}

/** Written scores for an ordered list, with the number of documents whose score was lowered. */
export function breakTies(
  ordered: readonly (readonly [string, number])[],
  keepTies: boolean,
): { docs: FusedDoc[]; broken: number } {
  const docs: FusedDoc[] = []
  let broken = 0
  let prev = Infinity
  for (const [docId, fused] of ordered) {
    let score = fused
    if (!keepTies && docs.length > 0 && score >= prev) {
      score = nextDown(prev)
      broken++
    }
    docs.push({ docId, score, fused })
    prev = score
  }
  return { docs, broken }
}

const view = new DataView(new ArrayBuffer(8))

/** The largest double below x (x finite). */
export function nextDown(x: number): number {
  if (x === 0) return -Number.MIN_VALUE
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  view.setBigUint64(0, x > 0 ? bits - 1n : bits + 1n)
  return view.getFloat64(0)
}
