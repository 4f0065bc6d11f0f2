import type { PrefCounts, PrefScope } from './pref-counts.js'

/**
 * Preference ratio per doc pair, averaged over pairs (`prefs_pair`, `_ret`, `_imp`):
 *
 *   prefs_pair = (1 / |P|) Σ_{(A,B) ∈ P, A ranked above B} n(A > B) / (n(A > B) + n(B > A))
 *
 * where n(A > B) is the number of judgment groups preferring A to B and P the doc pairs with any
 * preference. If 3 of 5 groups prefer A and A ranks above B, the pair scores 3/5. "Ranked above"
 * includes A retrieved and B not. Pairs with neither doc retrieved score 0 but count in |P|
 * (`all`); `ret` keeps only pairs of retrieved docs, `imp` pairs with at least one retrieved.
 * 0 when P is empty.
 */
export function prefsPair(c: PrefCounts, scope: PrefScope): number {
  const n = c.numJudged
  const r = c.numJudgedRet
  const k = c.counts
  let sum = 0
  let pairs = 0
  const add = (i: number, j: number): void => {
    const ij = k[i * n + j]!
    const ji = k[j * n + i]!
    if (ij || ji) {
      pairs++
      sum += ij / (ij + ji)
    }
  }
  for (let i = 0; i < r; i++) for (let j = i + 1; j < r; j++) add(i, j)
  if (scope !== 'ret') for (let i = 0; i < r; i++) for (let j = r; j < n; j++) add(i, j)
  if (scope === 'all')
    for (let i = r; i < n; i++)
      for (let j = i + 1; j < n; j++) if (k[i * n + j] || k[j * n + i]) pairs++
  return pairs ? sum / pairs : 0
}
