import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonChunks } from './json-chunks.js'

const replacer = (_k: string, v: unknown) =>
  typeof v === 'number' && !Number.isFinite(v) ? String(v) : v
const text = (v: unknown, chunkSize?: number) =>
  [...jsonChunks(v, { nonFinite: (x) => String(x), ...(chunkSize ? { chunkSize } : {}) })].join('')

describe('jsonChunks', () => {
  it('writes what JSON.stringify(v, replacer, 2) writes, for any JSON-like value (fast-check)', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(
        fc.double(),
        fc.integer(),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.constantFrom(Number.NaN, Infinity, -Infinity, -0),
      ),
      node: fc.oneof(
        { depthSize: 'small' },
        tie('leaf'),
        fc.array(tie('node'), { maxLength: 5 }),
        fc.dictionary(fc.string(), tie('node'), { maxKeys: 5 }),
      ),
    })).node
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 64 }), (v, size) => {
        const want = JSON.stringify(v, replacer, 2)
        expect(text(v, size)).toBe(want ?? 'null')
      }),
      { numRuns: 500 },
    )
  })

  it('handles toJSON, empty containers, typed arrays and dates as JSON.stringify does', () => {
    const v = {
      d: new Date(0),
      e: [],
      o: {},
      f: () => 1,
      t: new Float64Array([1.5, 2]),
      nested: { toJSON: () => ({ x: [1, undefined] }) },
    }
    expect(text(v)).toBe(JSON.stringify(v, replacer, 2))
  })

  it('yields chunks of about the chunk size, never the whole text at once', () => {
    const big = { values: Array.from({ length: 100_000 }, (_, i) => i / 7) }
    const chunks = [...jsonChunks(big, { chunkSize: 4096 })]
    expect(chunks.length).toBeGreaterThan(100)
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(4096 + 64)
    expect(chunks.join('')).toBe(JSON.stringify(big, null, 2))
  })
})
