import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IdIndex, ValueRows } from './id-index.js'

describe('IdIndex', () => {
  it('gives each distinct id the next index, as a Map of first occurrences does', () => {
    // Binary ids (what parsers make), ids with chars above 0xff (library callers), and the empty id.
    const id = fc.oneof(
      fc.stringMatching(/^[a-c]{0,3}$/),
      fc.string({ unit: 'binary-ascii', maxLength: 6 }),
      fc.constantFrom('ā', 'aā', '\u{1F600}'),
    )
    fc.assert(
      fc.property(
        fc.array(id, { maxLength: 300 }),
        fc.array(id, { maxLength: 20 }),
        (ids, probes) => {
          const index = new IdIndex()
          const model = new Map<string, number>()
          for (const s of ids) {
            if (!model.has(s)) model.set(s, model.size)
            expect(index.add(s)).toBe(model.get(s))
          }
          expect(index.size).toBe(model.size)
          for (const [s, k] of model) {
            expect(index.indexOf(s)).toBe(k)
            expect(index.idAt(k)).toBe(s)
          }
          for (const s of probes) expect(index.indexOf(s)).toBe(model.get(s) ?? -1)
        },
      ),
    )
  })
  it('keeps ids apart that differ only in length or in one byte, across table growth', () => {
    const index = new IdIndex()
    const ids = Array.from({ length: 5000 }, (_, i) => `q${i}`)
    ids.forEach((s, i) => expect(index.add(s)).toBe(i))
    expect(index.add('q1')).toBe(1)
    expect(index.indexOf('q')).toBe(-1)
    expect(index.indexOf('q49999')).toBe(-1)
    expect(index.indexOf('q4999')).toBe(4999)
    expect(index.idAt(4321)).toBe('q4321')
    expect(index.size).toBe(5000)
  })
})

describe('ValueRows', () => {
  it('stores each row once (bit for bit) and reads back exactly what was stored', () => {
    const value = fc.oneof(fc.constant(null), fc.constantFrom(0, -0, 1, 0.2, NaN), fc.double())
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(value, { minLength: 4, maxLength: 4 }), { maxLength: 200 }),
        (width, raw) => {
          const rows = new ValueRows(width)
          const list = raw.map((r) => r.slice(0, width))
          const got = list.map((r) => rows.intern(r))
          list.forEach((r, i) => {
            expect(rows.row(got[i]!)).toEqual(r) // toEqual tells 0 from -0 and matches NaN
            list.forEach((s, j) => {
              const same = r.every((v, k) => Object.is(v, s[k]))
              expect(got[i] === got[j]).toBe(same)
            })
          })
          expect(rows.size).toBe(new Set(got).size)
        },
      ),
    )
  })
  it('reads undefined values as 0 in floats() and keeps null apart from 0 in row()', () => {
    const rows = new ValueRows(3)
    const a = rows.intern([0.5, null, 3])
    const b = rows.intern([0.5, 0, 3])
    expect(a).not.toBe(b)
    expect(rows.row(a)).toEqual([0.5, null, 3])
    expect([...rows.floats(a)]).toEqual([0.5, 0, 3])
    const into = new Float64Array([9, 9, 9])
    expect(rows.floatsInto(rows.intern([1, 2, null]), into)).toBe(into)
    expect([...into]).toEqual([1, 2, 0])
    expect(rows.get(a, 1)).toBeNull()
    expect(rows.get(b, 1)).toBe(0)
    expect(rows.intern(new Float64Array([0.5, 0, 3]))).toBe(b)
  })
})
