import { cohenKappaFromConfusion, type StatValue } from './cohen-kappa.js'
import { type Rational, rational } from './exact.js'
import { kendallTauBFromTable } from './kendall.js'
import { alphaFromCoincidence } from './krippendorff.js'
import { spearmanRhoFromTable } from './spearman.js'

/**
 * Every paired agreement statistic from one k×k table of counts C (rows human, columns judge,
 * over the fixed categories). Each statistic depends on the pairs only through C, so this gives
 * the same doubles as the per-pair functions, and a bootstrap resample costs a sum of tables:
 *
 *   kappa: C itself (cohen-kappa.ts);  alpha: coincidences o_ck = C_ck + C_kc (two coders, each
 *   unit complete, weight 1/(2−1));  rho, tau-b: ranks and pairs from C;  exact agreement
 *   Σ_i C_ii / n;  within-1 Σ_{|i−j|≤1} C_ij / n;  mean bias Σ C_ij (c_j − c_i) / n.
 */
export interface PairedStatistics {
  readonly qwk: StatValue
  readonly alphaOrdinal: StatValue
  readonly alphaInterval: StatValue
  readonly spearman: StatValue
  readonly kendallTauB: StatValue
  readonly exactAgreement: StatValue
  readonly within1Agreement: StatValue
  readonly meanBias: StatValue
}

/** The table of (human, judge) rating pairs; a rating outside `categories` is a RangeError. */
export function pairedTable(
  human: readonly number[],
  judge: readonly number[],
  categories: readonly number[],
): Float64Array {
  const k = categories.length
  const index = new Map(categories.map((c, i) => [c, i]))
  const table = new Float64Array(k * k)
  for (let t = 0; t < human.length; t++) {
    const i = index.get(human[t]!)
    const j = index.get(judge[t]!)
    if (i === undefined || j === undefined)
      throw new RangeError(
        `rating ${i === undefined ? human[t] : judge[t]} is not one of the categories ${categories.join(',')}`,
      )
    table[i * k + j]! += 1
  }
  return table
}

const UNDEFINED: StatValue = { value: null, status: 'undefined' }

/** All statistics from a table over `categories` (sorted ascending). */
export function pairedStatistics(
  table: ArrayLike<number>,
  categories: readonly number[],
): PairedStatistics {
  const k = categories.length
  let n = 0
  let same = 0
  let near = 0
  let bias = 0
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const c = table[i * k + j]!
      if (c === 0) continue
      n += c
      if (i === j) same += c
      if (Math.abs(categories[i]! - categories[j]!) <= 1) near += c
      bias += c * (categories[j]! - categories[i]!)
    }
  }
  if (n === 0) {
    return {
      qwk: UNDEFINED,
      alphaOrdinal: UNDEFINED,
      alphaInterval: UNDEFINED,
      spearman: UNDEFINED,
      kendallTauB: UNDEFINED,
      exactAgreement: UNDEFINED,
      within1Agreement: UNDEFINED,
      meanBias: UNDEFINED,
    }
  }
  const o: Rational[] = new Array<Rational>(k * k)
  for (let c = 0; c < k; c++)
    for (let d = 0; d < k; d++)
      o[c * k + d] = rational(BigInt(table[c * k + d]! + table[d * k + c]!))
  const alpha = (level: 'ordinal' | 'interval'): StatValue => {
    const a = alphaFromCoincidence(o, categories, level, 2 * n)
    return { value: a.value, status: a.status }
  }
  return {
    qwk: cohenKappaFromConfusion(table, k, 'quadratic'),
    alphaOrdinal: alpha('ordinal'),
    alphaInterval: alpha('interval'),
    spearman: spearmanRhoFromTable(table, k),
    kendallTauB: kendallTauBFromTable(table, k),
    exactAgreement: { value: same / n, status: 'ok' },
    within1Agreement: { value: near / n, status: 'ok' },
    meanBias: { value: bias / n, status: 'ok' },
  }
}
