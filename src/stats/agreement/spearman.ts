import type { StatValue } from './cohen-kappa.js'
import { averageRanks } from './ranks.js'

/**
 * Spearman's rho: the Pearson correlation of average ranks, as `scipy.stats.spearmanr` (SciPy
 * 1.10.1, via `numpy.corrcoef`, NumPy 1.24) computes it in float64:
 *
 *   rx, ry = average ranks;  Sxy = Σ (rx − mean)(ry − mean), Sxx, Syy likewise (exact here)
 *   cxy = Sxy·(1/(n−1)), cxx = Sxx·(1/(n−1)), cyy = Syy·(1/(n−1))
 *   rho = (cxy / √cyy) / √cxx, clipped to [−1, 1]
 *
 * so perfectly monotone data can give 0.9999999999999999, as scipy does. NaN when either side is
 * constant (scipy's ConstantInputWarning) or n < 2.
 */
export function spearmanRho(x: readonly number[], y: readonly number[]): StatValue {
  if (x.length !== y.length) throw new RangeError(`spearmanRho: ${x.length} and ${y.length} values`)
  const n = x.length
  if (n < 2) return { value: null, status: 'nan' }
  const rx = averageRanks(x)
  const ry = averageRanks(y)
  const mean = (n + 1) / 2 // the ranks always sum to n(n+1)/2
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean
    const dy = ry[i]! - mean
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  if (sxx === 0 || syy === 0) return { value: null, status: 'nan' }
  const fact = 1 / (n - 1)
  const cxy = sxy * fact
  const cxx = sxx * fact
  const cyy = syy * fact
  const rho = cxy / Math.sqrt(cyy) / Math.sqrt(cxx)
  return { value: Math.min(1, Math.max(-1, rho)), status: 'ok' }
}

/**
 * Spearman's rho from a k×k contingency table of categorical ratings (rows x, columns y,
 * categories ascending). The average rank of a category is the ranks it spans averaged; the
 * centred sums are exact (quarter-integers), so the result has the same bits as {@link spearmanRho}.
 */
export function spearmanRhoFromTable(table: ArrayLike<number>, k: number): StatValue {
  const rows = new Array<number>(k).fill(0)
  const cols = new Array<number>(k).fill(0)
  let n = 0
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const c = table[i * k + j]!
      rows[i]! += c
      cols[j]! += c
      n += c
    }
  }
  if (n < 2) return { value: null, status: 'nan' }
  const mean = (n + 1) / 2
  const centred = (m: readonly number[]): number[] => {
    let before = 0
    return m.map((t) => {
      const r = before + (t + 1) / 2
      before += t
      return r - mean
    })
  }
  const dx = centred(rows)
  const dy = centred(cols)
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < k; i++) {
    sxx += rows[i]! * dx[i]! * dx[i]!
    syy += cols[i]! * dy[i]! * dy[i]!
    for (let j = 0; j < k; j++) sxy += table[i * k + j]! * dx[i]! * dy[j]!
  }
  if (sxx === 0 || syy === 0) return { value: null, status: 'nan' }
  const fact = 1 / (n - 1)
  const rho = (sxy * fact) / Math.sqrt(syy * fact) / Math.sqrt(sxx * fact)
  return { value: Math.min(1, Math.max(-1, rho)), status: 'ok' }
}
