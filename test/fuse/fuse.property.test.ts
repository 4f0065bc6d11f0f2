/**
 * Invariants of fusion on random runs (fast-check): input order does not change CombSUM, the
 * written run has no equal scores (unless ties are kept), every input doc appears up to the depth.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  FUSION_METHODS,
  type FusedRun,
  type FuseOptions,
  fuse,
  NORMALIZATIONS,
  RANK_METHODS,
} from '../../src/entries/fuse.js'
import type { Run, RunQuery } from '../../src/model/types.js'

/** A run from [query, doc, score] triples (duplicates and ties likely: small pools). */
function toRun(lines: readonly (readonly [string, string, number])[]): Run {
  const queries = new Map<string, RunQuery>()
  let n = 0
  for (const [q, d, s] of lines) {
    n++
    const prev = queries.get(q)
    if (prev) {
      prev.docIds.push(d)
      prev.scores.push(s)
      prev.lines.push(n)
    } else queries.set(q, { queryId: q, docIds: [d], scores: [s], ranks: null, lines: [n] })
  }
  return { queries, tag: 't', tags: ['t'], lineCount: n }
}

const line = fc.tuple(
  fc.constantFrom('q1', 'q2', 'q3'),
  fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
  fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -100, max: 100, noNaN: true })),
)
const runs = fc.array(fc.array(line, { minLength: 1, maxLength: 25 }).map(toRun), {
  minLength: 1,
  maxLength: 4,
})

function docsOf(f: FusedRun): Map<string, [string, number][]> {
  return new Map(
    [...f.queries].map(([q, docs]) => [q, docs.map((d): [string, number] => [d.docId, d.score])]),
  )
}

const options = fc.record({
  method: fc.constantFrom(...FUSION_METHODS),
  norm: fc.constantFrom(...NORMALIZATIONS),
  depth: fc.integer({ min: 1, max: 10 }),
})

function valid(o: {
  method: FuseOptions['method']
  norm: NonNullable<FuseOptions['norm']>
  depth: number
}): FuseOptions {
  return RANK_METHODS.includes(o.method) ? { method: o.method, depth: o.depth } : o
}

describe('fusion invariants', () => {
  it('permuting the input runs does not change CombSUM (scores summed in a fixed order)', () => {
    fc.assert(
      fc.property(runs, fc.constantFrom(...NORMALIZATIONS), (rs, norm) => {
        const forward = docsOf(fuse(rs, { method: 'combsum', norm }))
        const backward = docsOf(fuse([...rs].reverse(), { method: 'combsum', norm }))
        expect(backward).toEqual(forward)
      }),
    )
  })
  it('the written run has strictly decreasing scores, for every method and normalisation', () => {
    fc.assert(
      fc.property(runs, options, (rs, o) => {
        for (const docs of fuse(rs, valid(o)).queries.values())
          for (let i = 1; i < docs.length; i++)
            expect(docs[i]!.score).toBeLessThan(docs[i - 1]!.score)
      }),
    )
  })
  it('every document of the inputs appears once, up to the depth; the cut is counted', () => {
    fc.assert(
      fc.property(runs, options, (rs, o) => {
        const f = fuse(rs, valid(o))
        let cut = 0
        for (const [q, docs] of f.queries) {
          const all = new Set(rs.flatMap((r) => r.queries.get(q)?.docIds ?? []))
          const ids = docs.map((d) => d.docId)
          expect(new Set(ids).size).toBe(ids.length)
          expect(ids.length).toBe(Math.min(all.size, o.depth))
          for (const id of ids) expect(all.has(id)).toBe(true)
          cut += all.size - ids.length
        }
        expect(f.counts.cutByDepth).toBe(cut)
        expect([...f.queries.keys()]).toEqual(
          [...new Set(rs.flatMap((r) => [...r.queries.keys()]))].sort(),
        )
      }),
    )
  })
  it('keeping ties changes scores only, not the order', () => {
    fc.assert(
      fc.property(runs, options, (rs, o) => {
        const broken = fuse(rs, valid(o))
        const kept = fuse(rs, { ...valid(o), keepTies: true })
        for (const [q, docs] of broken.queries)
          expect(kept.queries.get(q)!.map((d) => d.docId)).toEqual(docs.map((d) => d.docId))
      }),
    )
  })
})
