import { describe, expect, it } from 'vitest'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import { evaluate } from './evaluate.js'

// q1's corpus knows a and b (x is unknown); q2 has no corpus of its own; q3 is judged, not run.
const qrels = parseQrels(Buffer.from('q1 0 a 1\nq1 0 b 1\nq2 0 c 1\nq2 0 y 1\nq3 0 z 1\n')).value
const run = parseRun(
  Buffer.from('q1 Q0 a 1 3 t\nq1 Q0 x 2 2 t\nq1 Q0 b 3 1 t\nq2 Q0 c 1 2 t\nq2 Q0 y 2 1 t\n'),
).value
const conventions = { unknownDocs: 'discard', missingQueries: 'zero' } as const

describe('evaluate options for grouped benchmarks', () => {
  it('corpusOf: each query is cleaned against its own corpus (none: nothing discarded)', () => {
    const corpora: Record<string, ReadonlySet<string>> = { q1: new Set(['a', 'b']) }
    const r = evaluate(qrels, run, ['P@2'], conventions, { corpusOf: (q) => corpora[q] })
    // q1: x discarded, a b relevant → 1; q2: c y kept → 1; q3 zero-filled → 0.
    expect(r.perQuery.map((q) => q.values[0])).toEqual([1, 1, 0])
    expect(r.counts.unknownDiscarded).toBe(1)
    // One corpus for all would discard q2's c and y as well.
    const global = evaluate(qrels, run, ['P@2'], conventions, { corpus: new Set(['a', 'b']) })
    expect(global.perQuery.map((q) => q.values[0])).toEqual([1, 0, 0])
  })
  it("onPrepared: each query's counts and prepared ranking, zero-filled ones included", () => {
    const seen: [string, number, number, readonly string[] | undefined][] = []
    evaluate(qrels, run, ['P@2'], conventions, {
      corpusOf: (q) => (q === 'q1' ? new Set(['a', 'b']) : undefined),
      onPrepared: (q, c, ranking) =>
        seen.push([q, c.unknownDiscarded, ranking.numRet, ranking.docIds]),
    })
    // No measure needs labels, so rankings carry no doc ids.
    expect(seen).toEqual([
      ['q1', 1, 2, undefined],
      ['q2', 0, 2, undefined],
      ['q3', 0, 0, undefined],
    ])
  })
})
