import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type CorrectionName, compareTable, type PerQueryTable } from '../../src/internal.js'

describe('compareTable invariants (fast-check)', () => {
  it('letters agree with the pairs, adjusted p ≥ raw p, wins + ties + losses = n, swapping run order mirrors the result', () => {
    const values = fc.integer({ min: 2, max: 12 }).chain((n) =>
      fc.array(fc.array(fc.integer({ min: 0, max: 10 }), { minLength: n, maxLength: n }), {
        minLength: 2,
        maxLength: 4,
      }),
    )
    fc.assert(
      fc.property(
        values,
        fc.constantFrom<CorrectionName>('holm', 'bonferroni', 'bh', 'none'),
        (runs, correction) => {
          const table = (order: readonly number[]): PerQueryTable => ({
            source: 'generated',
            measures: ['m'],
            queries: runs[0]!.map((_, i) => ({ id: `q${i}`, groups: {} })),
            groupings: [],
            runs: order.map((k) => ({
              name: `r${k}`,
              tag: '',
              zeroFilledQueries: [],
              values: [runs[k]!.map((v) => v / 10)],
            })),
            notes: [],
          })
          const order = runs.map((_, i) => i)
          const r = compareTable(table(order), {
            correction,
            tests: ['t', 'permutation', 'wilcoxon'],
            permutations: 64,
            bootstrap: 50,
          })
          const m = r.overall[0]!
          for (const p of m.pairs) {
            expect(p.wins + p.ties + p.losses).toBe(p.n)
            for (const t of p.tests)
              if (t.p !== null) expect(t.pAdjusted!).toBeGreaterThanOrEqual(t.p)
            const aBeats = m.beats[p.a]!.includes(p.b)
            const bBeats = m.beats[p.b]!.includes(p.a)
            expect(aBeats).toBe(p.better === 'a')
            expect(bBeats).toBe(p.better === 'b')
            if (p.better) expect(p.tests[0]!.significant).toBe(true)
            if (p.better === 'a') expect(p.meanA).toBeGreaterThan(p.meanB)
          }
          // Reversed run order: the same pairs with A and B swapped give the same p-values (two-sided tests).
          const rev = compareTable(table([...order].reverse()), {
            correction,
            tests: ['t', 'permutation', 'wilcoxon'],
            permutations: 64,
            bootstrap: 50,
          })
          const k = runs.length
          for (const p of m.pairs) {
            const q = rev.overall[0]!.pairs.find((x) => x.a === k - 1 - p.b && x.b === k - 1 - p.a)!
            p.tests.forEach((t, i) => {
              if (t.p === null) expect(q.tests[i]!.p).toBeNull()
              else expect(q.tests[i]!.p).toBeCloseTo(t.p, 12)
            })
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
