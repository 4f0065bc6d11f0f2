/**
 * `formatFixed` (glibc `%.Nf`) against an exact reference: the double is split into its integer
 * mantissa and power of two, scaled by 10^N in BigInt arithmetic and rounded half to even, so
 * the reference has no floating-point step at all.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatFixed } from './printf.js'

/** `x` = m * 2^e exactly, with the sign bit apart (so -0 is negative). */
function decompose(x: number): { negative: boolean; m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  const negative = bits >> 63n === 1n
  const exponent = Number((bits >> 52n) & 0x7ffn)
  const fraction = bits & ((1n << 52n) - 1n)
  return exponent === 0
    ? { negative, m: fraction, e: -1074 }
    : { negative, m: fraction | (1n << 52n), e: exponent - 1075 }
}

/** Exact `%.{digits}f` with round-half-even, for finite `x`. */
function referenceFixed(x: number, digits: number): string {
  const { negative, m, e } = decompose(x)
  const scaled = m * 10n ** BigInt(digits)
  let q: bigint
  if (e >= 0) {
    q = scaled << BigInt(e)
  } else {
    const den = 1n << BigInt(-e)
    q = scaled / den
    const twice = 2n * (scaled - q * den)
    if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n
  }
  let s = q.toString()
  if (digits > 0) {
    s = s.padStart(digits + 1, '0')
    s = `${s.slice(0, -digits)}.${s.slice(-digits)}`
  }
  return (negative ? '-' : '') + s
}

const digits = fc.integer({ min: 0, max: 20 })

/** Exact binary ties at the last printed digit: odd / 2^(digits+1), optionally scaled by 10^-k. */
const ties = fc
  .tuple(
    fc.bigInt({ min: 0n, max: (1n << 52n) - 1n }),
    fc.integer({ min: 0, max: 17 }),
    fc.boolean(),
  )
  .map(([k, d, neg]) => {
    const odd = Number(2n * k + 1n) // exact: below 2^53
    const x = odd / 2 ** (d + 1)
    return { x: neg ? -x : x, d }
  })

function nextAfter(x: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  view.setBigUint64(0, x === 0 ? 1n : x > 0 === up ? bits + 1n : bits - 1n)
  return view.getFloat64(0)
}

describe('formatFixed matches an exact round-half-even reference', () => {
  it('checks the reference itself on known glibc outputs', () => {
    expect(referenceFixed(1 / 32, 4)).toBe('0.0312')
    expect(referenceFixed(2.5, 0)).toBe('2')
    expect(referenceFixed(0.1, 20)).toBe('0.10000000000000000555')
    expect(referenceFixed(-0, 4)).toBe('-0.0000')
    expect(referenceFixed(1e21, 2)).toBe('1000000000000000000000.00')
  })
  it('rounds large exact ties to even (toFixed rounds them up; found by the properties below)', () => {
    expect(formatFixed(-707614456175633.25, 1)).toBe('-707614456175633.2')
    expect(formatFixed(2060403515244.90625, 4)).toBe('2060403515244.9062')
  })
  it('on random doubles of every magnitude', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), digits, (x, d) => {
        expect(formatFixed(x, d)).toBe(referenceFixed(x, d))
      }),
      { numRuns: 20_000 },
    )
  })
  it('on doubles of moderate size, where most printed digits are significant', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), digits, (x, d) => {
        expect(formatFixed(x, d)).toBe(referenceFixed(x, d))
      }),
      { numRuns: 20_000 },
    )
  })
  it('on exact ties at the last printed digit, and their neighbours', () => {
    fc.assert(
      fc.property(ties, ({ x, d }) => {
        for (const y of [x, nextAfter(x, true), nextAfter(x, false)])
          expect([y, d, formatFixed(y, d)]).toEqual([y, d, referenceFixed(y, d)])
      }),
      { numRuns: 20_000 },
    )
  })
})
