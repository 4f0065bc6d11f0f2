import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { appendQueryLines, queryLinePlan } from './output.js'
import { QueryLineWriter } from './query-lines.js'
import { TREC_EVAL_MEASURES } from './table.js'
import { collectBytes as written } from './test-helpers.js'
import type { ActiveMeasure, TeAnyMeasure } from './types.js'

/** An active measure with the given print kind and printed names (labels as the drop-in pads them). */
function measure(perQuery: TeAnyMeasure['perQuery'], names: readonly string[]): ActiveMeasure {
  const def = TREC_EVAL_MEASURES.find((m) => m.perQuery === perQuery)!
  const labels = names.map((n) => `${n.padEnd(22)}\t`)
  return {
    def,
    params: { kind: 'none' },
    names,
    labels,
    labelBytes: labels.map((l) => Buffer.from(l, 'latin1')),
  }
}

const special = [0, -0, 1, 0.5, 1 / 32, 0.00005, 0.00015, 0.99995, 9.99995, 99999.99995, 1e5]
special.push(1e9, 1e15, 1e21, -1, -0.5, NaN, Infinity, -Infinity, Number.MIN_VALUE)

describe('QueryLineWriter', () => {
  it('writes the bytes appendQueryLines writes (values on and off its fast path, texts, long ids)', () => {
    const kind = fc.constantFrom('double', 'long', 'string', 'none') as fc.Arbitrary<
      TeAnyMeasure['perQuery']
    >
    const name = fc.stringMatching(/^[a-z_]{1,30}$/)
    const active = fc.array(
      fc.tuple(kind, name, fc.integer({ min: 1, max: 4 })).map(([k, n, count]) =>
        measure(
          k,
          Array.from({ length: k === 'double' ? count : 1 }, (_, i) => `${n}_${i}`),
        ),
      ),
      { minLength: 1, maxLength: 12 },
    )
    const value = fc.oneof(
      fc.constantFrom(...special),
      fc.double({ min: 0, max: 2 }),
      fc.integer({ min: 0, max: 100_000 }),
      fc.integer({ min: 0, max: 99_999 }).map((n) => n / 10_000 + 0.00005),
    )
    const qid = fc.oneof(
      fc.stringMatching(/^[0-9a-zA-Z_.-]{1,20}$/),
      fc.constant('q'.repeat(70_000)),
    )
    fc.assert(
      fc.property(
        active,
        fc.array(value, { minLength: 60, maxLength: 60 }),
        fc.array(fc.option(fc.stringMatching(/^[0-9-]{0,12}$/)), { minLength: 12, maxLength: 12 }),
        fc.array(qid, { minLength: 1, maxLength: 4 }),
        (measures, vals, texts, qids) => {
          const plan = queryLinePlan(measures)
          const writer = QueryLineWriter.create(plan)
          expect(writer).not.toBeNull()
          const values = Float64Array.from(vals)
          const expected = written((out) => {
            for (const q of qids) appendQueryLines(out, plan, q, values, texts, false)
          })
          expect(written((out) => qids.forEach((q) => writer!.write(out, q, values, texts)))).toBe(
            expected,
          )
        },
      ),
      { numRuns: 300 },
    )
  })

  it('writes the all_trec lines of a query with a relstring text and values off the fast path', () => {
    const measures = [
      measure('long', ['num_ret']),
      measure('double', ['P_5', 'P_10']),
      measure('string', ['relstring']),
      measure('double', ['map']),
    ]
    const writer = QueryLineWriter.create(queryLinePlan(measures))!
    const values = Float64Array.from([1000, 0.2, 1 / 32, 0, NaN])
    const texts = [null, null, '10-0', null]
    const text = written((out) => writer.write(out, '1044', values, texts))
    expect(text).toBe(
      [
        'num_ret               \t1044\t1000',
        'P_5                   \t1044\t0.2000',
        'P_10                  \t1044\t0.0312',
        "relstring             \t1044\t'10-0'",
        'map                   \t1044\t  -nan',
        '',
      ].join('\n'),
    )
  })
})
