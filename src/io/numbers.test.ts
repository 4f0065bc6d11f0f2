import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readInteger, readScore } from './numbers.js'

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
