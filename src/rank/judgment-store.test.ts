import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hashId } from './id-hash.js'
import { JudgmentStoreBuilder } from './judgment-store.js'

/** The model: one Map per query, first judgment of a doc kept, every line counted in the levels. */
function model(rows: readonly (readonly [string, string, number])[]) {
  const out = new Map<
    string,
    {
      grades: Map<string, number>
      lines: Map<string, number>
      dups: Set<string>
      relLevels: number[]
      max: number
    }
  >()
  rows.forEach(([q, d, g], i) => {
    let m = out.get(q)
    if (!m)
      out.set(
        q,
        (m = {
          grades: new Map(),
          lines: new Map(),
          dups: new Set(),
          relLevels: [],
          max: -Infinity,
        }),
      )
    if (m.grades.has(d)) m.dups.add(d)
    else m.grades.set(d, g), m.lines.set(d, i + 1)
    m.max = Math.max(m.max, g)
    if (g >= 0) {
      while (m.relLevels.length <= g) m.relLevels.push(0)
      m.relLevels[g]!++
    }
  })
  return out
}

const rows = fc.array(
  fc.tuple(
    fc.constantFrom('q1', 'q2', 'q3', '10'),
    fc.stringMatching(/^[a-l]{1,2}$/),
    fc.integer({ min: -2, max: 4 }),
  ),
  { maxLength: 80 },
)

describe('JudgmentStore', () => {
  it('holds what one Map per query holds, grouped or not, with duplicates set apart', () => {
    fc.assert(
      fc.property(rows, (rs) => {
        const b = new JudgmentStoreBuilder()
        rs.forEach(([q, d, g], i) => b.add(q, d, g, i + 1))
        const store = b.finish()
        const want = model(rs)
        expect([...store.keys()]).toEqual([...want.keys()])
        expect(store.size).toBe(want.size)
        for (const [q, m] of want) {
          const j = store.get(q)!
          expect([...j.grades]).toEqual([...m.grades])
          expect([...j.lines]).toEqual([...m.lines])
          expect(j.duplicateDocs).toEqual([...m.dups].sort())
          expect(j.relLevels).toEqual(m.relLevels)
          expect(j.maxJudgment).toBe(m.max)
          for (const d of ['a', 'b', 'kl', 'zz']) expect(j.grades.get(d)).toBe(m.grades.get(d))
          // The hash lookup the evaluator uses (scan for small queries, a table past 8 docs).
          for (const [d, g] of m.grades)
            expect(
              j.table!.getDoc(
                { queryId: q, docIds: [d], scores: [1], ranks: null, lines: [1] },
                0,
                hashId(d),
              ),
            ).toBe(g)
          expect(
            j.table!.getDoc(
              { queryId: q, docIds: ['zz'], scores: [1], ranks: null, lines: [1] },
              0,
              hashId('zz'),
            ),
          ).toBeUndefined()
        }
        expect(store.get('nope')).toBeUndefined()
      }),
      { numRuns: 1500 },
    )
  })
})
