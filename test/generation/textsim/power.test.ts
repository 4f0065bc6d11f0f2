/**
 * Correctly rounded powers. Expected values: exact rational (Python `fractions`) or 100-digit
 * decimal evaluation, rounded to the nearest double; the property test checks the half-ulp
 * bound with exact BigInt arithmetic, independently of the implementation.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { powCorrectlyRounded, powInt, roundRational } from '../../../src/entries/textsim.js'

/** x as an exact fraction [num, den] (x > 0 finite). */
function exact(x: number): [bigint, bigint] {
  let den = 1n
  let v = x
  while (!Number.isInteger(v)) {
    v *= 2
    den *= 2n
  }
  return [BigInt(v), den]
}

function nextUp(x: number): number {
  const b = new DataView(new ArrayBuffer(8))
  b.setFloat64(0, x)
  b.setBigUint64(0, b.getBigUint64(0) + 1n)
  return b.getFloat64(0)
}
function nextDown(x: number): number {
  const b = new DataView(new ArrayBuffer(8))
  b.setFloat64(0, x)
  b.setBigUint64(0, b.getBigUint64(0) - 1n)
  return b.getFloat64(0)
}

/** |a − p/q| compared with |b − p/q|: negative when a is strictly nearer. */
function nearer(a: number, b: number, p: bigint, q: bigint): number {
  const [an, ad] = exact(a)
  const [bn, bd] = exact(b)
  const abs = (v: bigint) => (v < 0n ? -v : v)
  const da = abs(an * q - p * ad) * bd
  const db = abs(bn * q - p * bd) * ad
  return da < db ? -1 : da > db ? 1 : 0
}

describe('powInt', () => {
  it('matches exact values where Math.pow does not', () => {
    expect(powInt(0.2, 3)).toBe(0.008000000000000002) // 0.2**3 in CPython; exact value 0.0080000000000000013…
    expect(powInt(33 / 41, 2)).toBe(0.6478286734086853) // Fraction(33/41)**2 rounded; this glibc's pow gives …854
    expect(powInt(1 / 3, 3)).toBe(0.03703703703703703)
    expect(powInt(0.5, 3)).toBe(0.125)
    expect(powInt(7 / 22, -3)).toBe(31.04373177842566)
    expect(powInt(2, 1023)).toBe(2 ** 1023)
    expect(powInt(2, 1024)).toBe(Infinity)
    expect(powInt(0.5, 1074)).toBe(5e-324)
    expect(powInt(0.5, 1076)).toBe(0)
    expect(powInt(-0.5, 3)).toBe(-0.125)
    expect(powInt(5, 0)).toBe(1)
  })

  it('is within half an ulp of the exact cube and square (ties to even)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom(2, 3, 5),
        (c, m, n) => {
          const x = Math.min(c, m) / Math.max(c, m)
          const r = powInt(x, n)
          const [xn, xd] = exact(x)
          const p = xn ** BigInt(n)
          const q = xd ** BigInt(n)
          if (r !== 1) expect(nearer(r, nextUp(r), p, q)).toBeLessThanOrEqual(0)
          expect(nearer(r, nextDown(r), p, q)).toBeLessThanOrEqual(0)
        },
      ),
    )
  })

  it('roundRational rounds ties to even', () => {
    expect(roundRational(1n, 3n)).toBe(1 / 3)
    expect(roundRational(2n ** 53n + 1n, 1n)).toBe(2 ** 53) // tie → even
    expect(roundRational(2n ** 53n + 3n, 1n)).toBe(2 ** 53 + 4)
  })
})

describe('powCorrectlyRounded (non-integer exponents)', () => {
  it('rounds exp(y·ln x) correctly', () => {
    // 100-digit decimal: 0.76105611115865917654…; nearer to …592 than …591 (glibc's answer)
    expect(powCorrectlyRounded(0.2553191489361702, 0.2)).toBe(0.7610561111586592)
    expect(powCorrectlyRounded(0.25, 0.5)).toBe(0.5)
    expect(powCorrectlyRounded(2, 0.5)).toBe(Math.SQRT2)
    expect(powCorrectlyRounded(1, 0.2)).toBe(1)
    expect(powCorrectlyRounded(0.5, 2)).toBe(0.25)
  })
  it('agrees with Math.sqrt (correctly rounded by IEEE 754) for y = 0.5', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), (x) => {
        expect(powCorrectlyRounded(x, 0.5)).toBe(Math.sqrt(x))
      }),
      { numRuns: 200 },
    )
  })
})
