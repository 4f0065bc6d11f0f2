/**
 * Seeded pseudo-random numbers for everything that resamples (bootstrap, permutation tests,
 * samples): mulberry32, a 32-bit generator that gives the same stream on every platform.
 */

/** A seeded stream of uniform numbers. */
export interface Rng {
  /** Uniform in [0, 1), 32 bits of resolution. */
  next(): number
  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^32 (rejection sampling, no modulo bias). */
  int(n: number): number
}

/** mulberry32 as a bare function: uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A seeded generator; the same seed gives the same stream on every platform. */
export function createRng(seed: number): Rng {
  const next = mulberry32(seed)
  return {
    next,
    int(n: number): number {
      if (!(n >= 1 && n <= 4294967296) || !Number.isInteger(n))
        throw new RangeError(`int(n): n must be an integer in [1, 2^32], got ${n}`)
      const limit = Math.floor(4294967296 / n) * n
      for (;;) {
        const x = next() * 4294967296
        if (x < limit) return x % n
      }
    },
  }
}
