import type { StatValue } from './cohen-kappa.js'

/**
 * Kendall's tau-b, as `scipy.stats.kendalltau(x, y)` (SciPy 1.10.1, default variant 'b'):
 *
 *   n0 = n(n−1)/2, n1 = Σ t(t−1)/2 over tie groups in x, n2 likewise in y
 *   P, Q = concordant and discordant pairs (pairs tied in x or y are neither)
 *   tau_b = (P − Q) / √(n0 − n1) / √(n0 − n2)      (two separate square roots), clipped to [−1, 1]
 *
 * NaN (with no warning, as scipy) when x or y is constant, or n < 2.
 */
export interface KendallCounts {
  readonly concordant: number
  readonly discordant: number
  readonly n0: number
  readonly tiesX: number
  readonly tiesY: number
}

/** Concordant and discordant pairs from a dx×dy contingency table (row-major; rows x, columns y, both ascending). */
export function pairsFromTable(
  table: ArrayLike<number>,
  dx: number,
  dy: number,
): { concordant: number; discordant: number } {
  // below[i][j] = Σ table[a][b] for a < i, b < j ; above-left for discordance: a < i, b > j
  let concordant = 0
  let discordant = 0
  const lowerLeft = new Float64Array(dy + 1) // running column prefix over rows a < i: count with b < j
  const colTotals = new Float64Array(dy) // Σ over rows a < i of table[a][b]
  for (let i = 0; i < dx; i++) {
    // prefix sums of colTotals
    lowerLeft[0] = 0
    for (let j = 0; j < dy; j++) lowerLeft[j + 1] = lowerLeft[j]! + colTotals[j]!
    const totalBefore = lowerLeft[dy]!
    for (let j = 0; j < dy; j++) {
      const c = table[i * dy + j]!
      if (c === 0) continue
      concordant += c * lowerLeft[j]!
      discordant += c * (totalBefore - lowerLeft[j + 1]!)
    }
    for (let j = 0; j < dy; j++) colTotals[j]! += table[i * dy + j]!
  }
  return { concordant, discordant }
}

/** The pair counts behind tau-b, from the contingency table of distinct values (exact integers). */
export function kendallCounts(x: readonly number[], y: readonly number[]): KendallCounts {
  if (x.length !== y.length) throw new RangeError(`kendallTauB: ${x.length} and ${y.length} values`)
  const n = x.length
  const xs = [...new Set(x)].sort((a, b) => a - b)
  const ys = [...new Set(y)].sort((a, b) => a - b)
  const xi = new Map(xs.map((v, i) => [v, i]))
  const yi = new Map(ys.map((v, i) => [v, i]))
  const dx = xs.length
  const dy = ys.length
  const table = new Float64Array(dx * dy)
  for (let t = 0; t < n; t++) table[xi.get(x[t]!)! * dy + yi.get(y[t]!)!]! += 1
  const { concordant, discordant } = pairsFromTable(table, dx, dy)
  const ties = (values: readonly number[]): number => {
    const counts = new Map<number, number>()
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
    let s = 0
    for (const t of counts.values()) s += (t * (t - 1)) / 2
    return s
  }
  return { concordant, discordant, n0: (n * (n - 1)) / 2, tiesX: ties(x), tiesY: ties(y) }
}

/** Kendall's tau-b (scipy 1.10.1 float64 arithmetic, reproduced exactly). */
export function kendallTauB(
  x: readonly number[],
  y: readonly number[],
): StatValue & { readonly counts: KendallCounts } {
  const counts = kendallCounts(x, y)
  const { concordant, discordant, n0, tiesX, tiesY } = counts
  if (x.length < 2 || tiesX === n0 || tiesY === n0) return { value: null, status: 'nan', counts }
  const tau = (concordant - discordant) / Math.sqrt(n0 - tiesX) / Math.sqrt(n0 - tiesY)
  return { value: Math.min(1, Math.max(-1, tau)), status: 'ok', counts }
}

/** Kendall's tau-b from a k×k contingency table (rows x, columns y, categories ascending); same arithmetic as {@link kendallTauB}. */
export function kendallTauBFromTable(table: ArrayLike<number>, k: number): StatValue {
  let n = 0
  const rows = new Array<number>(k).fill(0)
  const cols = new Array<number>(k).fill(0)
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const c = table[i * k + j]!
      n += c
      rows[i]! += c
      cols[j]! += c
    }
  }
  const n0 = (n * (n - 1)) / 2
  const ties = (m: readonly number[]): number => m.reduce((s, t) => s + (t * (t - 1)) / 2, 0)
  const tiesX = ties(rows)
  const tiesY = ties(cols)
  if (n < 2 || tiesX === n0 || tiesY === n0) return { value: null, status: 'nan' }
  const { concordant, discordant } = pairsFromTable(table, k, k)
  const tau = (concordant - discordant) / Math.sqrt(n0 - tiesX) / Math.sqrt(n0 - tiesY)
  return { value: Math.min(1, Math.max(-1, tau)), status: 'ok' }
}
