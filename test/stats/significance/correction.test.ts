import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { adjustPValues, type Correction } from '../../../src/entries/stats.js'

// Benjamini & Hochberg (1995), "Controlling the false discovery rate", JRSS B 57(1), §4.2: the 15
// p-values of the thrombolytic-treatment study (Neuhaus et al. 1992). At level 0.05 the
// Bonferroni-type procedures reject 3 hypotheses, the FDR (BH) procedure rejects 4.
const BH1995 = [
  0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719,
  0.6528, 0.759, 1.0,
]

describe('multiple-comparison corrections', () => {
  it('Benjamini & Hochberg (1995) example: BH rejects 4, Holm and Bonferroni reject 3 at 0.05', () => {
    const rejected = (m: Correction): number =>
      adjustPValues(BH1995, m).filter((p) => p! < 0.05).length
    expect(rejected('bh')).toBe(4)
    expect(rejected('holm')).toBe(3)
    expect(rejected('bonferroni')).toBe(3)
    expect(rejected('none')).toBe(9)
  })

  it('hand-computed adjusted values on the same example', () => {
    const bh = adjustPValues(BH1995, 'bh')
    // step-up: p̃_(i) = min_{j ≥ i} 15 p_(j) / j
    const expectedBh = [
      0.0015,
      0.003,
      0.0095,
      0.035625,
      0.0603,
      (0.0298 * 15) / 7,
      (0.0298 * 15) / 7,
      0.0645,
      0.0765,
      0.486,
      (0.4262 * 15) / 11,
      0.714875,
      (0.6528 * 15) / 13,
      (0.759 * 15) / 14,
      1,
    ]
    expectedBh.forEach((v, i) => expect(bh[i]).toBeCloseTo(v, 12))
    const holm = adjustPValues(BH1995, 'holm')
    // step-down: p̃_(i) = max_{j ≤ i} (15 − j + 1) p_(j), capped at 1
    const expectedHolm = [
      0.0015, 0.0056, 0.0247, 0.114, 0.2211, 0.278, 0.278, 0.278, 0.3213, 1, 1, 1, 1, 1, 1,
    ]
    expectedHolm.forEach((v, i) => expect(holm[i]).toBeCloseTo(v, 12))
    const bonf = adjustPValues(BH1995, 'bonferroni')
    expect(bonf.slice(0, 5).map((v) => Number(v!.toFixed(10)))).toEqual([
      0.0015, 0.006, 0.0285, 0.1425, 0.3015,
    ])
    expect(bonf[9]).toBe(1)
  })

  it('input order is kept and null entries are left out of the family', () => {
    expect(adjustPValues([0.04, null, 0.01], 'bonferroni')).toEqual([0.08, null, 0.02])
    expect(adjustPValues([0.04, null, 0.01], 'holm')).toEqual([0.04, null, 0.02])
    expect(adjustPValues([], 'bh')).toEqual([])
    expect(() => adjustPValues([1.5], 'holm')).toThrow(RangeError)
  })

  it('properties: adjusted ≥ raw, ≤ 1, and monotone in the raw p, for every method', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }),
        fc.constantFrom<Correction>('holm', 'bonferroni', 'bh', 'none'),
        (p, m) => {
          const adj = adjustPValues(p, m)
          p.forEach((raw, i) => {
            expect(adj[i]!).toBeGreaterThanOrEqual(raw)
            expect(adj[i]!).toBeLessThanOrEqual(1)
          })
          for (let i = 0; i < p.length; i++)
            for (let j = 0; j < p.length; j++)
              if (p[i]! <= p[j]!) expect(adj[i]!).toBeLessThanOrEqual(adj[j]!)
        },
      ),
    )
  })
})
