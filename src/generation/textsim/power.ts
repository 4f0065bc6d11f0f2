/**
 * Correctly rounded powers x^y of doubles (round to nearest, ties to even). CPython's `**` calls
 * glibc's `pow`, which is correctly rounded in nearly all cases (documented bound 0.52 ulp; e.g.
 * it gives 0.6478286734086854 for (33/41)**2.0, one ulp above the exact value's rounding);
 * V8's `Math.pow` is off far more often (`Math.pow(c/m, 3)` is 1 ulp off for 126 of the 1,770
 * pairs 2 ≤ c ≤ m ≤ 60). Correct rounding reproduces every METEOR value of the fixtures.
 *
 * - Integer y: x = M·2^E exactly, so x^y = M^y·2^(E·y) is an exact rational; it is rounded once.
 * - Other y (finite, x > 0): y is the dyadic rational of its double; x^y = exp(y·ln x) is evaluated
 *   in binary fixed point with at least 256 bits (ln by the atanh series, exp by Taylor after
 *   reduction by ln 2) and rounded once; when the approximation is too close to a rounding
 *   boundary to decide, the precision is doubled (x^y is never exactly a midpoint for non-integer
 *   y, so this ends).
 */

const TWO52 = 2n ** 52n

/** x = mantissa·2^exponent with an integer mantissa (x finite, non-zero). */
function decompose(x: number): { mantissa: bigint; exponent: number; negative: boolean } {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const hi = view.getUint32(0)
  const lo = view.getUint32(4)
  const negative = hi >>> 31 === 1
  const biased = (hi >>> 20) & 0x7ff
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  if (biased === 0) return { mantissa: frac, exponent: -1074, negative }
  return { mantissa: frac | TWO52, exponent: biased - 1075, negative }
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length
}

function ldexp(q: bigint, e: number): number {
  // q ≤ 2^53 is exact as a Number; scale in steps so that 2^e never overflows or underflows early.
  let v = Number(q)
  while (e > 1000) {
    v *= 2 ** 1000
    e -= 1000
  }
  while (e < -1000) {
    if (v === 0) return 0
    const step = Math.max(e, -1000)
    // Exact while v stays normal; the final step does the (single) rounding-free scaling.
    v *= 2 ** step
    e -= step
  }
  return v * 2 ** e
}

/**
 * The double nearest to num/den·2^shift (num ≥ 0, den > 0), ties to even; subnormals and
 * overflow (Infinity) as IEEE 754 binary64.
 */
export function roundRational(num: bigint, den: bigint, shift = 0): number {
  if (num === 0n) return 0
  // Choose e so that q = floor(num·2^(shift−e)/den) has 53 bits (or fewer for subnormals).
  let e = bitLength(num) - bitLength(den) + shift - 53
  const scaled = (k: number): [bigint, bigint] => {
    const s = shift - k
    return s >= 0 ? [num << BigInt(s), den] : [num, den << BigInt(-s)]
  }
  let [a, b] = scaled(e)
  let q = a / b
  while (q >= 2n ** 53n) {
    e += 1
    ;[a, b] = scaled(e)
    q = a / b
  }
  while (q < 2n ** 52n) {
    e -= 1
    ;[a, b] = scaled(e)
    q = a / b
  }
  if (e < -1074) {
    e = -1074
    ;[a, b] = scaled(e)
    q = a / b
  }
  const r = a - q * b
  const twice = 2n * r
  if (twice > b || (twice === b && (q & 1n) === 1n)) q += 1n
  if (e > 971 || (e === 971 && q >= 2n ** 53n)) return Infinity
  return ldexp(q, e)
}

/** x^n for an integer n, correctly rounded (exact rational arithmetic). */
export function powInt(x: number, n: number): number {
  if (!Number.isInteger(n)) throw new RangeError(`powInt: ${n} is not an integer`)
  if (n === 0 || x === 1) return 1
  if (Number.isNaN(x)) return NaN
  if (x === 0 || !Number.isFinite(x)) return Math.pow(x, n)
  if (!Number.isSafeInteger(n) || Math.abs(n) > 1e6) return Math.pow(x, n)
  const { mantissa, exponent, negative } = decompose(x)
  const sign = negative && n % 2 !== 0 ? -1 : 1
  const k = Math.abs(n)
  const mk = mantissa ** BigInt(k)
  const v = n > 0 ? roundRational(mk, 1n, exponent * k) : roundRational(1n, mk, -exponent * k)
  return sign * v
}

/** Fixed point with `p` fraction bits. */
function atanhSeries(num: bigint, den: bigint, p: number): bigint {
  // atanh(z) = z + z^3/3 + z^5/5 + …, z = num/den (0 ≤ z ≤ 1/3).
  const one = 1n << BigInt(p)
  let term = (num * one) / den
  const z2n = num * num
  const z2d = den * den
  let sum = 0n
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k
    term = (term * z2n) / z2d
  }
  return sum
}

function ln2Fixed(p: number): bigint {
  return 2n * atanhSeries(1n, 3n, p)
}

/** ln(x) in fixed point (x > 0 finite). */
function lnFixed(x: number, p: number): bigint {
  const { mantissa, exponent } = decompose(x)
  // x = m·2^k with m = mantissa/2^(L−1) in [1, 2).
  const L = bitLength(mantissa)
  const k = exponent + L - 1
  const den = 1n << BigInt(L - 1)
  // ln m = 2·atanh((m−1)/(m+1)) = 2·atanh((mantissa−den)/(mantissa+den))
  const lnm = 2n * atanhSeries(mantissa - den, mantissa + den, p)
  return lnm + BigInt(k) * ln2Fixed(p)
}

/** exp(t) for fixed-point t, as [fixed-point value in [1/√2, √2], power of two n]. */
function expFixed(t: bigint, p: number): [bigint, number] {
  const one = 1n << BigInt(p)
  const ln2 = ln2Fixed(p)
  // n = round(t / ln2); r = t − n·ln2, |r| ≤ ln2/2.
  let n = t / ln2
  let r = t - n * ln2
  if (2n * r > ln2) {
    n += 1n
    r -= ln2
  } else if (2n * r < -ln2) {
    n -= 1n
    r += ln2
  }
  let sum = one
  let term = one
  for (let k = 1n; term !== 0n; k++) {
    term = (term * r) / (one * k)
    sum += term
  }
  return [sum, Number(n)]
}

/**
 * x^y correctly rounded, for x > 0 and finite y (see the module comment); the other cases follow
 * IEEE 754 `pow` via `Math.pow`, which is exact for them.
 */
export function powCorrectlyRounded(x: number, y: number): number {
  if (Number.isInteger(y)) return powInt(x, y)
  if (!(x > 0) || !Number.isFinite(x) || !Number.isFinite(y) || x === 1) return Math.pow(x, y)
  const { mantissa: ym, exponent: ye, negative: yneg } = decompose(y)
  for (let p = 256; p <= 4096; p *= 2) {
    const lnx = lnFixed(x, p)
    // t = y·ln x, y = ±ym·2^ye exactly.
    let t = lnx * ym
    t = ye >= 0 ? t << BigInt(ye) : t >> BigInt(-ye)
    if (yneg) t = -t
    const [v, n] = expFixed(t, p)
    // Error of v is far below 2^(64−p) relative; decide the rounding of v·2^n on both ends.
    const slack = 1n << 64n
    const lo = roundRational(v - slack, 1n << BigInt(p), n)
    const hi = roundRational(v + slack, 1n << BigInt(p), n)
    if (lo === hi) return lo
  }
  return Math.pow(x, y)
}
