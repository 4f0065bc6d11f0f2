import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  decimalPrefixLength,
  isDecimal,
  isDecimalText,
  isInteger,
  isIntegerText,
  readInteger,
  readScore,
} from './numbers.js'

const b = (s: string): Buffer => Buffer.from(s, 'utf8')
const score = (s: string) => readScore(b(s), 0, b(s).length)
const int = (s: string) => readInteger(b(s), 0, b(s).length)

describe('the one number syntax', () => {
  it('scores: decimals, finite', () => {
    expect(['1', '-0.5', '.5', '5.', '1e-3', '+2E+2'].map((s) => score(s))).toEqual(
      [1, -0.5, 0.5, 5, 0.001, 200].map((value) => ({ ok: true, value })),
    )
  })
  it('refuses abc, NaN, inf and 1e400, hex, 1_0, 0,75 and Arabic-Indic digits, naming why', () => {
    const codes = [
      'abc',
      'NaN',
      'nan',
      '-inf',
      'Infinity',
      '1e400',
      '0x10',
      '1_0',
      '0,75',
      '١٢',
      '',
      '1e',
      '.',
      '1.2.3',
    ].map((s) => {
      const r = score(s)
      return r.ok ? 'ok' : r.code
    })
    expect(codes).toEqual([
      'not_a_number',
      'not_finite',
      'not_finite',
      'not_finite',
      'not_finite',
      'not_finite',
      'not_a_number',
      'not_a_number',
      'not_a_number',
      'not_a_number',
      'not_a_number',
      'not_a_number',
      'not_a_number',
      'not_a_number',
    ])
  })
  it('grades: integers only', () => {
    expect(['0', '3', '-1', '+2', '1000001', '1.5', 'abc', '1e2', ''].map(int)).toEqual([
      0,
      3,
      -1,
      2,
      1000001,
      null,
      null,
      null,
      null,
    ])
  })
  it('every finite double JavaScript prints is read back exactly', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(score(String(x))).toEqual({ ok: true, value: Number(String(x)) })
      }),
      { numRuns: 5000 },
    )
  })
})

describe('the same syntax on text', () => {
  // The regular expressions the text readers used before (measure names, gain maps, baseline
  // files, RETECO runs): the reference for the text functions.
  const DECIMAL_PREFIX = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/
  const INTEGER = /^[+-]?\d+$/
  const piece = fc.constantFrom('', '+', '-', '.', 'e', 'E', '0', '7', '12', 'x', ' ', '_', ',')
  const arbText = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''))
  it('decimalPrefixLength, isDecimalText and isIntegerText agree with those expressions', () => {
    fc.assert(
      fc.property(arbText, fc.integer({ min: 0, max: 3 }), (text, from) => {
        const at = Math.min(from, text.length)
        const m = DECIMAL_PREFIX.exec(text.slice(at))
        expect(decimalPrefixLength(text, at)).toBe(m ? m[0].length : 0)
        const whole = DECIMAL_PREFIX.exec(text)
        expect(isDecimalText(text)).toBe(whole !== null && whole[0].length === text.length)
        expect(isIntegerText(text)).toBe(INTEGER.test(text))
      }),
      { numRuns: 5000 },
    )
  })
  it('and with the byte functions', () => {
    fc.assert(
      fc.property(arbText, (text) => {
        const bytes = Buffer.from(text, 'latin1')
        expect(isDecimalText(text)).toBe(isDecimal(bytes, 0, bytes.length))
        expect(isIntegerText(text)).toBe(isInteger(bytes, 0, bytes.length))
      }),
      { numRuns: 5000 },
    )
  })
  it('hand cases: an exponent counts only when complete', () => {
    expect(
      ['5.', '.5', '-1e-3', '1e', '1e+', '.', '+', '1.2.3'].map((t) => decimalPrefixLength(t)),
    ).toEqual([2, 2, 5, 1, 1, 0, 0, 3])
  })
})
