/**
 * A measure's `rel` parameter acts exactly like the relevance level (`--rel-level`, trec_eval
 * `-l`) for that measure: M(rel=k) under the default conventions equals M under relevance level
 * k, per query, on random qrels and runs; and M(rel=k) does not depend on the level in force.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type EvaluateOptions, evaluate } from '../evaluate/evaluate.js'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import type { Qrels } from '../model/types.js'
import type { MeasureSpec } from './measure.js'
import { MEASURES } from './registry.js'
import { withRequired } from './test-helpers.js'

/**
 * RBP's `rel` is ir_measures' switch to binary gains (grade >= rel counts 1); without it RBP is
 * graded and ignores the relevance level, so RBP(rel=k) cannot equal RBP under level k.
 */
const REL_MEANS_SOMETHING_ELSE = new Set(['RBP'])

const withRel = [...MEASURES.values()].filter((s) => Object.hasOwn(s.params, 'rel'))

function nameOf(spec: MeasureSpec, rel: string): string {
  const at = spec.at === 'cutoff' ? '@5' : spec.at === 'recall' ? '@0.5' : ''
  return `${withRequired(spec, rel ? [rel] : [])}${at}`
}

/** Measures that read auxiliary values get the qrels themselves as such values. */
function optionsOf(spec: MeasureSpec, qrels: Qrels): EvaluateOptions {
  return spec.needsAux ? { auxQrels: qrels } : {}
}

const DOCS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
const arbQuery = fc.record({
  judged: fc.array(fc.tuple(fc.constantFrom(...DOCS), fc.integer({ min: 0, max: 3 })), {
    minLength: 1,
    maxLength: 8,
  }),
  ranked: fc.uniqueArray(fc.constantFrom(...DOCS), { maxLength: 8 }),
})
const arbData = fc.array(arbQuery, { minLength: 1, maxLength: 4 }).map((qs) => {
  let qrels = ''
  let run = ''
  qs.forEach((q, i) => {
    const seen = new Set<string>()
    for (const [d, g] of q.judged) if (!seen.has(d)) seen.add(d), (qrels += `q${i} 0 ${d} ${g}\n`)
    q.ranked.forEach((d, r) => (run += `q${i} Q0 ${d} ${r + 1} ${10 - r} t\n`))
  })
  return { qrels: parseQrels(Buffer.from(qrels)).value, run: parseRun(Buffer.from(run)).value }
})

describe('rel=k acts like relevance level k', () => {
  it('covers every measure with a rel parameter', () => {
    expect(withRel.length).toBeGreaterThan(10)
    expect(withRel.map((s) => s.name)).toEqual(
      expect.arrayContaining(['SetF', 'infAP', 'Bpref', 'AP', 'P']),
    )
  })
  for (const spec of withRel) {
    if (REL_MEANS_SOMETHING_ELSE.has(spec.name)) continue
    it(`${spec.name}(rel=k) under defaults = ${spec.name} under relevance level k`, () => {
      fc.assert(
        fc.property(arbData, fc.integer({ min: 0, max: 4 }), ({ qrels, run }, k) => {
          const o = optionsOf(spec, qrels)
          const a = evaluate(qrels, run, [nameOf(spec, `rel=${k}`)], {}, o)
          const b = evaluate(qrels, run, [nameOf(spec, '')], { relevanceLevel: k }, o)
          expect(a.perQuery.map((q) => q.values[0])).toEqual(b.perQuery.map((q) => q.values[0]))
        }),
        { numRuns: 150 },
      )
    })
  }
  for (const spec of withRel) {
    it(`${spec.name}(rel=k) does not depend on the relevance level in force`, () => {
      fc.assert(
        fc.property(
          arbData,
          fc.integer({ min: 0, max: 4 }),
          fc.integer({ min: 0, max: 4 }),
          ({ qrels, run }, k, level) => {
            const o = optionsOf(spec, qrels)
            const a = evaluate(qrels, run, [nameOf(spec, `rel=${k}`)], {}, o)
            const b = evaluate(qrels, run, [nameOf(spec, `rel=${k}`)], { relevanceLevel: level }, o)
            expect(a.perQuery.map((q) => q.values[0])).toEqual(b.perQuery.map((q) => q.values[0]))
          },
        ),
        { numRuns: 100 },
      )
    })
  }
})
