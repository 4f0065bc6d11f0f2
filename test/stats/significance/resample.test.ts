import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bootstrapTest, bootstrapTestAndEffect, pairedEffect } from '../../../src/entries/stats.js'
import { createRng } from '../../../src/stats/random.js'
import { resampledSums } from '../../../src/stats/significance/paired.js'

/** The definition: B resamples of n indices drawn by `createRng(seed).int(n)`, summed in draw order. */
function reference(columns: readonly Float64Array[], B: number, seed: number): Float64Array[] {
  const rng = createRng(seed)
  const n = columns[0]!.length
  const out = columns.map(() => new Float64Array(B))
  for (let k = 0; k < B; k++) {
    const acc = columns.map(() => 0)
    for (let i = 0; i < n; i++) {
      const j = rng.int(n)
      columns.forEach((c, ci) => (acc[ci]! += c[j]!))
    }
    acc.forEach((v, ci) => (out[ci]![k] = v))
  }
  return out
}

const sample = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), {
  minLength: 1,
  maxLength: 40,
})

describe('resampledSums: the inlined resampler is the Rng.int loop, bit for bit', () => {
  it('one, two and three columns; any seed (including ≥ 2^31) and n', () => {
    fc.assert(
      fc.property(
        sample,
        fc.integer({ min: 0, max: 4294967295 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 3 }),
        (x, seed, B, m) => {
          const cols = Array.from({ length: m }, (_, c) =>
            Float64Array.from(x, (v) => v * (c + 1) - c),
          )
          expect(resampledSums(cols, B, seed)).toEqual(reference(cols, B, seed))
        },
      ),
      { numRuns: 200 },
    )
  })

  it('n that does not divide 2^32 (rejection): n = 3, 7, 1000003', () => {
    for (const n of [3, 7, 1000003]) {
      const x = Float64Array.from({ length: n }, (_, i) => (i % 5) / 4)
      expect(resampledSums([x], n > 1000 ? 2 : 50, 42)).toEqual(
        reference([x], n > 1000 ? 2 : 50, 42),
      )
    }
  })

  it('refuses an empty sample and ragged columns', () => {
    expect(() => resampledSums([new Float64Array(0)], 5, 1)).toThrow(/empty sample/)
    expect(() => resampledSums([new Float64Array(2), new Float64Array(3)], 5, 1)).toThrow(
      /different lengths/,
    )
  })
})

describe('bootstrapTestAndEffect: one resampling for the test and the CI', () => {
  it('equals bootstrapTest and pairedEffect called apart, exactly', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          { minLength: 0, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 1000 }),
        (pairs, seed) => {
          const a = pairs.map((p) => p[0])
          const b = pairs.map((p) => p[1])
          const both = bootstrapTestAndEffect(a, b, { resamples: 200, seed })
          expect(both.test).toEqual(bootstrapTest(a, b, { resamples: 200, seed }))
          expect(both.effect).toEqual(pairedEffect(a, b, { resamples: 200, seed }))
        },
      ),
      { numRuns: 100 },
    )
  })
})
