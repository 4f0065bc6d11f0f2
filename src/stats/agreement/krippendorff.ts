import { add, div, formatRational, mul, type Rational, rational, sub, toDouble } from './exact.js'

/**
 * Krippendorff's alpha for a reliability matrix (coders × units, `null` = missing), computed in
 * exact rationals through the coincidence matrix and rounded once to a double:
 *
 *   units with fewer than 2 values are dropped (they are not pairable)
 *   o_ck = Σ_u (number of ordered pairs (c, k) of values from different coders in u) / (m_u − 1)
 *   n_c = Σ_k o_ck,  n = Σ_c n_c
 *   α = 1 − (n − 1) · Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck
 *
 * with the metric δ²_ck:
 *   nominal  [c ≠ k]
 *   ordinal  (Σ_{g between c and k} n_g − (n_c + n_k)/2)²  (g runs over the observed values)
 *   interval (c − k)²
 *   ratio    ((c − k)/(c + k))²                             (values must be ≥ 0)
 *
 * α is undefined when no unit is pairable or the expected disagreement is 0 (a single value
 * overall). Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability".
 */

export type AlphaLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio'

export interface AlphaResult {
  readonly value: number | null
  readonly status: 'ok' | 'undefined'
  /** The exact value as "p/q" (null when undefined). */
  readonly exact: string | null
  /** Why α is undefined. */
  readonly reason?: string
  /** Pairable values n (values in units with at least 2 values). */
  readonly pairable: number
}

/** A finite double v as m · 2^e exactly (m a BigInt integer). */
function decompose(v: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, v)
  const bits = view.getBigUint64(0)
  const sign = bits >> 63n ? -1n : 1n
  const exponent = Number((bits >> 52n) & 0x7ffn)
  const fraction = bits & 0xfffffffffffffn
  return exponent === 0
    ? { m: sign * fraction, e: -1074 }
    : { m: sign * (fraction | 0x10000000000000n), e: exponent - 1075 }
}

/** Finite doubles as exact integers with one common scale 2^s (differences and ratios are unchanged up to that scale). */
function toScaledIntegers(values: readonly number[]): bigint[] {
  const parts = values.map(decompose)
  const low = parts.reduce((m, p) => Math.min(m, p.e), 0)
  return parts.map((p) => p.m << BigInt(p.e - low))
}

/** Krippendorff's alpha at the given level of measurement (exact, then correctly rounded). */
export function krippendorffAlpha(
  matrix: readonly (readonly (number | null)[])[],
  level: AlphaLevel,
): AlphaResult {
  const units = matrix.reduce((m, row) => Math.max(m, row.length), 0)
  // distinct values, sorted
  const seen = new Set<number>()
  for (const row of matrix) {
    for (const v of row) {
      if (v === null) continue
      if (!Number.isFinite(v)) throw new RangeError(`krippendorffAlpha: value ${v} is not finite`)
      seen.add(v)
    }
  }
  const values = [...seen].sort((a, b) => a - b)
  if (level === 'ratio' && values.some((v) => v < 0))
    throw new RangeError('krippendorffAlpha: ratio level needs values >= 0')
  const index = new Map(values.map((v, i) => [v, i]))
  const V = values.length
  // coincidence numerators grouped by m_u: pairs[m] holds Σ_{u: m_u = m} n_uc (n_uk − [c = k])
  const byM = new Map<number, number[]>()
  const counts = new Array<number>(V).fill(0)
  let pairable = 0
  for (let u = 0; u < units; u++) {
    counts.fill(0)
    let m = 0
    for (const row of matrix) {
      const v = row[u]
      if (v === null || v === undefined) continue
      counts[index.get(v)!]! += 1
      m++
    }
    if (m < 2) continue
    pairable += m
    let acc = byM.get(m)
    if (!acc) {
      acc = new Array<number>(V * V).fill(0)
      byM.set(m, acc)
    }
    for (let c = 0; c < V; c++) {
      const nc = counts[c]!
      if (nc === 0) continue
      for (let k = 0; k < V; k++) {
        const nk = counts[k]!
        if (nk === 0) continue
        acc[c * V + k]! += nc * (c === k ? nk - 1 : nk)
      }
    }
  }
  if (pairable === 0)
    return {
      value: null,
      status: 'undefined',
      exact: null,
      reason: 'no unit has 2 or more values',
      pairable,
    }
  // o_ck as rationals
  const o: Rational[] = new Array<Rational>(V * V).fill(rational(0n))
  for (const [m, acc] of byM) {
    const den = BigInt(m - 1)
    for (let i = 0; i < V * V; i++)
      if (acc[i]! !== 0) o[i] = add(o[i]!, rational(BigInt(acc[i]!), den))
  }
  return alphaFromCoincidence(o, values, level, pairable)
}

/**
 * Alpha from a V×V coincidence matrix o (row-major, over the sorted distinct `values`; rows
 * and columns of values that never occur may be all zero). `pairable` is reported as given.
 */
export function alphaFromCoincidence(
  o: readonly Rational[],
  values: readonly number[],
  level: AlphaLevel,
  pairable: number,
): AlphaResult {
  const V = values.length
  // n_c (always integers: every pairable value appears in m_u − 1 pairs weighted 1/(m_u − 1))
  const nc: Rational[] = values.map((_, c) => {
    let s = rational(0n)
    for (let k = 0; k < V; k++) s = add(s, o[c * V + k]!)
    return s
  })
  const n = nc.reduce((a, b) => add(a, b), rational(0n))
  if (n.num === 0n)
    return {
      value: null,
      status: 'undefined',
      exact: null,
      reason: 'no unit has 2 or more values',
      pairable,
    }
  const scaled = toScaledIntegers(values)
  const delta2 = (c: number, k: number): Rational => {
    if (c === k) return rational(0n)
    switch (level) {
      case 'nominal':
        return rational(1n)
      case 'interval': {
        const d = scaled[c]! - scaled[k]!
        return rational(d * d)
      }
      case 'ratio': {
        const d = scaled[c]! - scaled[k]!
        const s = scaled[c]! + scaled[k]!
        return rational(d * d, s * s)
      }
      case 'ordinal': {
        const lo = Math.min(c, k)
        const hi = Math.max(c, k)
        let s = rational(0n)
        for (let g = lo; g <= hi; g++) s = add(s, nc[g]!)
        const d = sub(s, div(add(nc[c]!, nc[k]!), rational(2n)))
        return mul(d, d)
      }
    }
  }
  let observed = rational(0n)
  let expected = rational(0n)
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) {
      if (c === k) continue
      const d = delta2(c, k)
      if (d.num === 0n) continue
      observed = add(observed, mul(o[c * V + k]!, d))
      expected = add(expected, mul(mul(nc[c]!, nc[k]!), d))
    }
  }
  if (expected.num === 0n)
    return {
      value: null,
      status: 'undefined',
      exact: null,
      reason: 'no expected disagreement (a single value overall)',
      pairable,
    }
  const alpha = sub(rational(1n), div(mul(sub(n, rational(1n)), observed), expected))
  return { value: toDouble(alpha), status: 'ok', exact: formatRational(alpha), pairable }
}

/** Alpha for two raters who rated the same items (every unit complete): the human-vs-judge case. */
export function krippendorffAlphaPaired(
  human: readonly number[],
  judge: readonly number[],
  level: AlphaLevel,
): AlphaResult {
  if (human.length !== judge.length)
    throw new RangeError(
      `krippendorffAlpha: ${human.length} human ratings but ${judge.length} judge ratings`,
    )
  return krippendorffAlpha([human, judge], level)
}
