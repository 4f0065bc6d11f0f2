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
