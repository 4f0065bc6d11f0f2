/**
 * Multiple-comparison corrections: adjusted p-values of a family of m tests (compare each
 * adjusted p with α; rejections are those of the step procedure at level α). Order of the input
 * is kept; `null` entries (tests that could not run) are left out of the family and stay `null`.
 * Let p_(1) ≤ … ≤ p_(m) be the sorted p-values.
 *
 * - Bonferroni:  p̃_i = min(1, m · p_i).
 * - Holm (1979, step-down):  p̃_(i) = min(1, max_{j ≤ i} (m − j + 1) · p_(j)).
 *   Holm, "A simple sequentially rejective multiple test procedure", Scand. J. Statist. 6(2).
 * - Benjamini–Hochberg (1995, step-up, false discovery rate):
 *   p̃_(i) = min(1, min_{j ≥ i} (m / j) · p_(j)).
 *   Benjamini & Hochberg, "Controlling the false discovery rate", JRSS B 57(1).
 * - none: p̃_i = p_i.
 *
 * The same definitions as R's `p.adjust`. Every adjusted p is ≥ its raw p, ≤ 1, and monotone
 * in the raw p (ties in p get the same adjusted value).
 */

/** The corrections. */
export type Correction = 'holm' | 'bonferroni' | 'bh' | 'none'

/** Adjusted p-values for one family (same order as `p`; `null` stays `null` and is not counted in m). */
export function adjustPValues(
  p: readonly (number | null)[],
  method: Correction,
): (number | null)[] {
  const idx: number[] = []
  for (let i = 0; i < p.length; i++) {
    const v = p[i]
    if (v === null || v === undefined) continue
    if (!(v >= 0 && v <= 1)) throw new RangeError(`p-values must lie in [0, 1], got ${v}`)
    idx.push(i)
  }
  const out: (number | null)[] = p.map(() => null)
  const m = idx.length
  if (m === 0) return out
  // Stable sort by p (ties keep input order; the cumulative max/min below makes tied p equal).
  const sorted = [...idx].sort((x, y) => p[x]! - p[y]! || x - y)
  switch (method) {
    case 'none':
      for (const i of idx) out[i] = p[i]!
      break
    case 'bonferroni':
      for (const i of idx) out[i] = Math.min(1, m * p[i]!)
      break
    case 'holm': {
      let running = 0
      sorted.forEach((i, k) => {
        running = Math.max(running, Math.min(1, (m - k) * p[i]!))
        out[i] = running
      })
      break
    }
    case 'bh': {
      let running = 1
      for (let k = m - 1; k >= 0; k--) {
        const i = sorted[k]!
        running = Math.min(running, (m / (k + 1)) * p[i]!)
        out[i] = Math.min(1, running)
      }
      break
    }
  }
  return out
}
