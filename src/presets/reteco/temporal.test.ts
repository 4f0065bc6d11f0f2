import { describe, expect, it } from 'vitest'
import {
  temporalCoverage,
  temporalPrecisionReteco,
  temporalPrecisionTempo,
  temporalRelevance,
} from './temporal.js'

const b = (s: string): boolean[] => s.split(' ').map((c) => c === '1')

describe('temporal diagnostics (worked vectors of notes/tempo-recor.md §1.1)', () => {
  const cases: [string, number, number, number, number][] = [
    ['1 0 0 0 0', 5, 1.0, 0.33916, 0.2],
    ['0 0 0 0 1', 5, 0.2, 0.131205, 0.2],
    ['1 1 0 0 0', 5, 1.0, 0.553146, 0.4],
    ['0 1 0 1 0 0 0 0 0 0', 10, 0.5, 0.233651, 0.2],
    ['1 0 1 0 1 0 0 0 0 0', 10, 0.755556, 0.415281, 0.3],
  ]
  for (const [labels, k, tempo, reteco, tr] of cases) {
    it(`${labels} @${k}`, () => {
      expect(temporalPrecisionTempo(b(labels), k)).toBeCloseTo(tempo, 6)
      expect(temporalPrecisionReteco(b(labels), k)).toBeCloseTo(reteco, 6)
      expect(temporalRelevance(b(labels), k)).toBeCloseTo(tr, 12)
    })
  }
  it('empty rankings score 0; TR divides by the retrieved count below k', () => {
    expect(temporalPrecisionReteco([], 10)).toBe(0)
    expect(temporalPrecisionTempo([], 10)).toBe(0)
    expect(temporalRelevance([], 10)).toBe(0)
    expect(temporalRelevance([true, false], 10)).toBe(0.5)
    expect(temporalPrecisionReteco([true, true], 10)).toBe(1)
  })
  it('TC: covered required periods in the top k; null without periods', () => {
    expect(temporalCoverage(null, [['a']], 10)).toBeNull()
    expect(temporalCoverage([], [['a']], 10)).toBeNull()
    expect(temporalCoverage(['a', 'b', 'c'], [['a'], [], ['a', 'x']], 10)).toBeCloseTo(1 / 3, 15)
    expect(temporalCoverage(['a', 'b'], [['a'], ['b']], 1)).toBe(0.5)
    expect(temporalCoverage(['a'], [], 10)).toBe(0)
  })
})
