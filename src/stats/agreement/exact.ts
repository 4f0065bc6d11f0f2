/**
 * Exact rational arithmetic on BigInt, and the correctly rounded conversion of a rational to a
 * double. Used where a statistic has no float reference to emulate (Krippendorff's alpha), so
 * the result is the exact value rounded once.
 */

/** A reduced fraction num/den with den > 0. */
export interface Rational {
  readonly num: bigint
  readonly den: bigint
}

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a
  if (b < 0n) b = -b
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

/** num/den reduced, den made positive. Throws on den = 0. */
export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new RangeError('rational: zero denominator')
  if (den < 0n) {
    num = -num
    den = -den
  }
  const g = gcd(num, den)
  return g > 1n ? { num: num / g, den: den / g } : { num, den }
}

export function add(a: Rational, b: Rational): Rational {
  return a.den === b.den
    ? rational(a.num + b.num, a.den)
    : rational(a.num * b.den + b.num * a.den, a.den * b.den)
}

export function sub(a: Rational, b: Rational): Rational {
  return add(a, { num: -b.num, den: b.den })
}

export function mul(a: Rational, b: Rational): Rational {
  return rational(a.num * b.num, a.den * b.den)
}

export function div(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den, a.den * b.num)
}

/** "p/q" as the conformance fixtures write exact values. */
export function formatRational(r: Rational): string {
  return `${r.num}/${r.den}`
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length
}

/**
 * num/den correctly rounded to the nearest double (ties to even). The quotient is taken with
 * at least 66 significant bits plus a sticky bit, and `Number(bigint)` rounds that once.
 */
export function toDouble(r: Rational): number {
  if (r.num === 0n) return 0
  const negative = r.num < 0n
  const num = negative ? -r.num : r.num
  const den = r.den
  // choose shift s so that floor(num * 2^s / den) has >= 66 bits
  let s = 66 - (bitLength(num) - bitLength(den))
  if (s < 0) s = 0
  const scaled = num << BigInt(s)
  let q = scaled / den
  if (q * den !== scaled) q |= 1n // sticky: the dropped part is not zero
  // Number(q) rounds ties to even; q has > 54 bits so the sticky bit decides true ties correctly
  let value = Number(q)
  // divide by 2^s in steps that stay exact for normal results
  while (s > 0) {
    const step = Math.min(s, 1000)
    value /= 2 ** step
    s -= step
  }
  return negative ? -value : value
}
