/** Shared shapes of the paired tests: the result type and the difference vector d_i = a_i − b_i. */

/** Outcome of one paired test. */
export interface PairedTestResult {
  /** The test statistic; `null` when the test cannot run (too few pairs). */
  readonly statistic: number | null
  /** Two-sided p-value in [0, 1]; `null` when the test cannot run. */
  readonly p: number | null
  /** How p was obtained, in words (distribution, exact or sampled, conventions). */
  readonly method: string
}

/** d_i = a_i − b_i; throws when the samples are not paired (different lengths) or not finite. */
export function differences(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length)
    throw new RangeError(
      `paired samples must have the same length, got ${a.length} and ${b.length}`,
    )
  const d = new Array<number>(a.length)
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! - b[i]!
    if (!Number.isFinite(x))
      throw new RangeError(`paired samples must be finite numbers (pair ${i}: ${a[i]}, ${b[i]})`)
    d[i] = x
  }
  return d
}

/** Arithmetic mean (left-to-right sum / n); NaN for an empty sample. */
export function mean(x: readonly number[]): number {
  let s = 0
  for (const v of x) s += v
  return s / x.length
}

/** Sample standard deviation with n − 1 in the denominator (two-pass); NaN for n < 2. */
export function sampleSd(x: readonly number[]): number {
  const n = x.length
  if (n < 2) return NaN
  const m = mean(x)
  let ss = 0
  for (const v of x) ss += (v - m) * (v - m)
  return Math.sqrt(ss / (n - 1))
}

/**
 * Whether |x| ≥ |y| up to rounding: resampled statistics are sums in other orders, so an
 * arrangement equal to the observed one may differ in the last bits; a relative slack of 1e-9
 * keeps it counted (the permutation and bootstrap tests count "as or more extreme").
 */
export function atLeastAsExtreme(x: number, y: number): boolean {
  return Math.abs(x) >= Math.abs(y) * (1 - 1e-9) - 1e-300
}

/**
 * Bootstrap resampling, shared by the bootstrap test and the bootstrap CI: B resamples of n
 * indices, each drawn as `createRng(seed).int(n)` does (mulberry32, 32-bit draws below the
 * largest multiple of n, no modulo bias), and per resample the sum of every column over the drawn
 * indices: `sums[c][b] = Σ_{i<n} columns[c][idx_b,i]`, summed in draw order.
 *
 * One pass draws each index once for every column (the test and the CI of a pair share their
 * draws), with mulberry32 inlined over typed arrays and `u mod n` as `u − ⌊u/n⌋·n` (exact for
 * u, n < 2^32, and twice as fast as a double `%`): O(B·n) time, O(B) memory per column. The
 * stream and the sums are bitwise those of the plain `Rng.int` loop.
 */
export function resampledSums(
  columns: readonly Float64Array[],
  resamples: number,
  seed: number,
): Float64Array[] {
  const n = columns[0]?.length ?? 0
  if (n === 0) throw new RangeError('resampledSums: empty sample')
  for (const c of columns)
    if (c.length !== n) throw new RangeError('resampledSums: columns of different lengths')
  const limit = Math.floor(4294967296 / n) * n
  const out = columns.map(() => new Float64Array(resamples))
  let a = seed | 0 // int32 state: the same bits as mulberry32's uint32, without heap numbers
  const x = columns[0]!
  const y = columns[1]
  const ox = out[0]!
  if (columns.length === 1 || columns.length === 2) {
    const oy = out[1]
    for (let k = 0; k < resamples; k++) {
      let sx = 0
      let sy = 0
      for (let i = 0; i < n; i++) {
        let u: number
        do {
          a = (a + 0x6d2b79f5) | 0
          let t = Math.imul(a ^ (a >>> 15), a | 1)
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
          u = (t ^ (t >>> 14)) >>> 0
        } while (u >= limit)
        const j = u - Math.floor(u / n) * n // u mod n, exact: u, n < 2^32
        sx += x[j]!
        if (y) sy += y[j]!
      }
      ox[k] = sx
      if (oy) oy[k] = sy
    }
    return out
  }
  const m = columns.length
  const acc = new Float64Array(m)
  for (let k = 0; k < resamples; k++) {
    acc.fill(0)
    for (let i = 0; i < n; i++) {
      let u: number
      do {
        a = (a + 0x6d2b79f5) | 0
        let t = Math.imul(a ^ (a >>> 15), a | 1)
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
        u = (t ^ (t >>> 14)) >>> 0
      } while (u >= limit)
      const j = u - Math.floor(u / n) * n
      for (let c = 0; c < m; c++) acc[c]! += columns[c]![j]!
    }
    for (let c = 0; c < m; c++) out[c]![k] = acc[c]!
  }
  return out
}
