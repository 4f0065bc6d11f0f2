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
  if (a.length !== b.length) throw new RangeError(`paired samples must have the same length, got ${a.length} and ${b.length}`)
  const d = new Array<number>(a.length)
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! - b[i]!
    if (!Number.isFinite(x)) throw new RangeError(`paired samples must be finite numbers (pair ${i}: ${a[i]}, ${b[i]})`)
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
 * Uniform integers in [0, n) from a seeded stream, by the same rejection rule as `Rng.int`
 * (32-bit draws below the largest multiple of n; no modulo bias), without its per-call checks:
 * the resampling loops draw millions of indices.
 */
export function indexSampler(next: () => number, n: number): () => number {
  const limit = Math.floor(4294967296 / n) * n
  return () => {
    for (;;) {
      const x = next() * 4294967296
      if (x < limit) return x % n
    }
  }
}
