/**
 * ROUGE-1 / ROUGE-2 against the copied rouge_n.jsonl (rouge-score 0.1.2 output, see
 * shared/conformance/generation/README.md): every per-reference and score_multi value, with and
 * without the stemmer, compared with ===; hand-computed cases and invariants.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rougeNTokens, rougePair, rougeScores } from '../../../src/entries/textsim.js'
import { FIXTURES } from './fixtures.js'

interface Prf {
  precision: number
  recall: number
  fmeasure: number
}
type NTypes = { rouge1: Prf; rouge2: Prf }
interface RougeNRecord {
  id: string
  prediction: string
  references: string[]
  scores: Record<'nostem' | 'stem', { per_reference: NTypes[]; multi: NTypes }>
}

const RECORDS: RougeNRecord[] = readFileSync(join(FIXTURES, 'rouge_n.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as RougeNRecord)

describe('rouge_n.jsonl conformance', () => {
  it('has the 309 records', () => expect(RECORDS.length).toBe(309))

  for (const mode of ['nostem', 'stem'] as const) {
    it(`reproduces every rouge1/rouge2 per-reference and score_multi value exactly (${mode})`, () => {
      let compared = 0
      for (const r of RECORDS) {
        const want = r.scores[mode]
        const got = rougeScores(r.prediction, r.references, { stemmer: mode === 'stem' })
        want.per_reference.forEach((pr, k) => {
          for (const t of ['rouge1', 'rouge2'] as const) {
            for (const f of ['precision', 'recall', 'fmeasure'] as const) {
              expect(got.perReference[k]![t][f], `${r.id} ${mode} ref ${k} ${t} ${f}`).toBe(
                pr[t][f],
              )
              compared++
            }
          }
        })
        for (const t of ['rouge1', 'rouge2'] as const) {
          for (const f of ['precision', 'recall', 'fmeasure'] as const) {
            expect(got.best[t][f], `${r.id} ${mode} multi ${t} ${f}`).toBe(want.multi[t][f])
            compared++
          }
        }
      }
      expect(compared).toBeGreaterThan(3700)
    })
  }
})

describe('rouge-N by hand', () => {
  it('counts clipped n-gram overlaps', () => {
    // target "a a b", prediction "a b b": unigrams overlap min(2,1)+min(1,2) = 2 of 3 and 3
    expect(rougeNTokens(['a', 'a', 'b'], ['a', 'b', 'b'], 1)).toEqual({
      precision: 2 / 3,
      recall: 2 / 3,
      fmeasure: 0.6666666666666666,
    })
    // bigrams: target {aa, ab}, prediction {ab, bb}: overlap 1 of 2 each
    expect(rougeNTokens(['a', 'a', 'b'], ['a', 'b', 'b'], 2)).toEqual({
      precision: 0.5,
      recall: 0.5,
      fmeasure: 0.5,
    })
  })

  it('is 0 when a side has fewer than n tokens (rouge-score divides by max(count, 1))', () => {
    expect(rougeNTokens(['a'], ['a'], 2)).toEqual({ precision: 0, recall: 0, fmeasure: 0 })
    expect(rougeNTokens([], ['a'], 1)).toEqual({ precision: 0, recall: 0, fmeasure: 0 })
  })

  it('word order matters for rouge2 only', () => {
    const p = rougePair('one two three four five', 'five four three two one')
    expect(p.rouge1).toEqual({ precision: 1, recall: 1, fmeasure: 1 })
    expect(p.rouge2).toEqual({ precision: 0, recall: 0, fmeasure: 0 })
  })

  it('is symmetric in P and R when target and prediction are swapped', () => {
    const tok = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 })
    fc.assert(
      fc.property(tok, tok, fc.constantFrom(1, 2), (t, p, n) => {
        const x = rougeNTokens(t, p, n)
        const y = rougeNTokens(p, t, n)
        expect(x.precision).toBe(y.recall)
        expect(x.recall).toBe(y.precision)
        expect(x.fmeasure).toBeGreaterThanOrEqual(0)
        expect(x.fmeasure).toBeLessThanOrEqual(1)
      }),
    )
  })
})
