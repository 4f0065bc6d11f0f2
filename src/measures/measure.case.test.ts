/**
 * Invariants checked for every measure in the registry on random rankings (fast-check):
 * canonical names round-trip, values are finite and in range, a perfect ranking scores 1 where
 * that holds, and cutoff monotonicity where it holds.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import type { Measure, MeasureSpec } from './measure.js'
import { measureParams, parseMeasure } from './name.js'
import { MEASURES } from './registry.js'
import { ranking, withRequired } from './test-helpers.js'

const ctx = { conventions: trecEvalV10 }
/** Names that exercise a family: with `@` (10, or recall 0.5) when it takes one, and bare when `@` is optional. */
function examples(spec: MeasureSpec): string[] {
  const name = withRequired(spec)
  if (spec.at === 'none') return [name]
  const withAt = `${name}@${spec.at === 'recall' ? '0.5' : '10'}`
  return spec.atRequired ? [withAt] : [withAt, name]
}
const value = (m: Measure, q: ReturnType<typeof ranking>) =>
  m.spec.compute(q, { at: m.at, values: measureParams(m) }, ctx)

const arbRanking = fc
  .record({
    ranked: fc.array(fc.integer({ min: -2, max: 3 }), { maxLength: 40 }),
    unretrieved: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 10 }),
  })
  .map(({ ranked, unretrieved }) => ranking(ranked, unretrieved))

describe('every registered measure', () => {
  for (const [family, spec] of MEASURES)
    for (const example of examples(spec)) {
      const m = parseMeasure(example)[0]!
      describe(example, () => {
        it('is the family it names', () => expect(m.spec.name).toBe(family))
        it('has a summary and formula, and its name round-trips', () => {
          expect(m.spec.summary.length).toBeGreaterThan(10)
          expect(m.spec.formula.length).toBeGreaterThan(3)
          expect(parseMeasure(m.name)[0]!.name).toBe(m.name)
        })
        it('gives finite values in its declared range (null only where documented)', () => {
          fc.assert(
            fc.property(arbRanking, (q) => {
              const v = value(m, q)
              // TC and nDCG_FC are undefined without labels (no required periods).
              if (v === null) {
                expect(m.spec.undefinedWhen ?? m.spec.needsLabels).toBeTruthy()
                return
              }
              // nNRBP is 0/0 (undefined) without subtopics, as ndeval.
              if (m.spec.needsSubtopics && Number.isNaN(v)) return
              expect(Number.isFinite(v)).toBe(true)
              const range =
                m.spec.valueRange ?? (m.spec.aggregate === 'sum' ? 'nonnegative' : 'unit')
              if (range === 'nonnegative') expect(v).toBeGreaterThanOrEqual(0)
              else if (range === 'unit') {
                expect(v).toBeGreaterThanOrEqual(0)
                expect(v).toBeLessThanOrEqual(1 + 1e-12)
              }
            }),
            { numRuns: 200 },
          )
        })
      })
    }
  it('a perfect ranking scores 1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 30 }),
        (grades) => {
          const sorted = [...grades].sort((a, b) => b - a)
          const q = ranking(sorted)
          for (const name of [
            'AP',
            'nDCG@10',
            'nDCG',
            'RR',
            'Rprec',
            'Bpref',
            'R@1000',
            'Success@1',
            'SetP',
            'SetR',
            'SetF',
            'IPrec@1',
            'Completeness@1000',
            'Judged@5',
          ]) {
            expect([name, value(parseMeasure(name)[0]!, q)]).toEqual([name, 1])
          }
        },
      ),
    )
  })
  it('is monotone in k where it should be (R, AP@k, Success, Completeness, NumRet-like counts)', () => {
    fc.assert(
      fc.property(
        arbRanking,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        (q, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a]
          for (const fam of ['R', 'AP', 'Success', 'Completeness']) {
            const vlo = value(parseMeasure(`${fam}@${lo}`)[0]!, q)!
            const vhi = value(parseMeasure(`${fam}@${hi}`)[0]!, q)!
            expect(vhi).toBeGreaterThanOrEqual(vlo)
          }
        },
      ),
    )
  })
})
