import { NOT_POOLED, UNJUDGED } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'

/**
 * Unjudged at k (trec_eval `unj.k`): the share of the top k that is absent from the qrels or has
 * a negative judgment, dividing by k even when fewer docs were retrieved.
 * Judged@k (ir_measures) is computed the same way over judged docs: 1 − unj@k when k ≤ n.
 */
export function unjudgedAt(q: JudgedRanking, cutoffs: readonly number[]): number[] {
  const out = new Array<number>(cutoffs.length)
  let unjudged = 0
  let i = 0
  for (const [k, at] of cutoffs.map((k, j) => [k, j] as const).sort((a, b) => a[0] - b[0])) {
    for (const limit = Math.min(k, q.numRet); i < limit; i++) if (q.grades[i]! < 0) unjudged++
    out[at] = unjudged / k
  }
  return out
}

/**
 * Judged at k (ir_measures `Judged@k`): judged docs in the top k divided by min(k, n);
 * 0 when nothing was retrieved.
 */
export function judgedAt(q: JudgedRanking, cutoffs: readonly number[]): number[] {
  const pc = new Int32Array(q.numRet + 1)
  let c = 0
  for (let i = 0; i < q.numRet; i++) {
    if (q.grades[i]! >= 0) c++
    pc[i + 1] = c
  }
  return cutoffs.map((k) => {
    const n = Math.min(k, q.numRet)
    return n ? pc[n]! / n : 0
  })
}

/**
 * Relevance string (trec_eval `relstring.N`): one character per top-N doc: the grade digit,
 * `>` above 9, `-` not in the qrels, `.` negative judgment.
 */
export function relString(q: JudgedRanking, length: number): string {
  const n = Math.max(0, Math.min(length, q.numRet))
  let s = ''
  for (let i = 0; i < n; i++) {
    const v = q.grades[i]!
    s += v > 9 ? '>' : v >= 0 ? String.fromCharCode(48 + v) : v === NOT_POOLED ? '-' : v === UNJUDGED ? '.' : '<'
  }
  return s
}
