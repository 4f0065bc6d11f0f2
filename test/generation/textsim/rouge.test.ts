/**
 * ROUGE-L / ROUGE-Lsum against the copied rouge.jsonl (rouge-score 0.1.2 output, see
 * shared/conformance/generation/README.md): every per-reference and score_multi value, both with and
 * without the stemmer, compared with ===; the research note's worked examples R1–R9; invariants.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  lcsIndices,
  lcsLength,
  porterStem,
  rougeLsumTokens,
  rougeLTokens,
  rougePair,
  rougeScores,
  rougeTokenize,
  TextsimItemError,
} from '../../../src/entries/textsim.js'
import { ROUGE_RECORDS } from './fixtures.js'

const MODES = ['nostem', 'stem'] as const

describe('rouge.jsonl conformance', () => {
  it('has the 310 records', () => expect(ROUGE_RECORDS.length).toBe(310))

  for (const mode of MODES) {
    it(`tokenizes every text as DefaultTokenizer (${mode})`, () => {
      const stem = mode === 'stem' ? porterStem : undefined
      for (const r of ROUGE_RECORDS) {
        expect(rougeTokenize(r.prediction, stem), r.id).toEqual(r.tokens[mode].prediction)
        r.references.forEach((ref, k) =>
          expect(rougeTokenize(ref, stem), `${r.id} ref ${k}`).toEqual(
            r.tokens[mode].references[k],
          ),
        )
      }
    })

    it(`reproduces every per-reference and score_multi value exactly (${mode})`, () => {
      let compared = 0
      for (const r of ROUGE_RECORDS) {
        const want = r.scores[mode]
        if (want.multi === null) {
          expect(want.multi_error, r.id).toMatch(/ValueError/)
          expect(
            () => rougeScores(r.prediction, r.references, { stemmer: mode === 'stem' }),
            r.id,
          ).toThrow(TextsimItemError)
          continue
        }
        const got = rougeScores(r.prediction, r.references, { stemmer: mode === 'stem' })
        want.per_reference.forEach((pr, k) => {
          for (const t of ['rougeL', 'rougeLsum'] as const) {
            for (const f of ['precision', 'recall', 'fmeasure'] as const) {
              expect(got.perReference[k]![t][f], `${r.id} ${mode} ref ${k} ${t} ${f}`).toBe(
                pr[t][f],
              )
              compared++
            }
          }
        })
        for (const t of ['rougeL', 'rougeLsum'] as const) {
          expect(got.best[t].reference, `${r.id} ${mode} ${t} multi_index`).toBe(
            want.multi_index![t],
          )
          for (const f of ['precision', 'recall', 'fmeasure'] as const) {
            expect(got.best[t][f], `${r.id} ${mode} multi ${t} ${f}`).toBe(want.multi[t][f])
            compared++
          }
        }
      }
      expect(compared).toBeGreaterThan(4000)
    })
  }

  it('the empty reference list is case g148', () => {
    const g148 = ROUGE_RECORDS.find((r) => r.id === 'g148')!
    expect(g148.references).toEqual([])
    expect(() => rougeScores(g148.prediction, [])).toThrow(/no references/)
  })
})

describe('worked examples (shared/notes/generation.md §1.6, reference first)', () => {
  const prf = (p: number, r: number, f: number) => ({ precision: p, recall: r, fmeasure: f })
  it('R1–R4', () => {
    expect(rougePair('The cat sat on the mat.', 'The cat is on the mat.').rougeL).toEqual(
      prf(0.8333333333333334, 0.8333333333333334, 0.8333333333333334),
    )
    expect(rougePair('one two three four five', 'five four three two one').rougeL).toEqual(
      prf(0.2, 0.2, 0.20000000000000004),
    )
    expect(
      rougePair(
        'The quick brown fox jumps over the lazy dog',
        'The quick brown dog jumps on the log.',
      ).rougeL,
    ).toEqual(prf(0.625, 0.5555555555555556, 0.5882352941176471))
    const t = 'The runners were running quickly. It was fast.'
    const p = 'A runner runs quick; it was a fast race.'
    expect(rougePair(t, p).rougeL).toEqual(prf(0.3333333333333333, 0.375, 0.35294117647058826))
    expect(rougePair(t, p, { stemmer: true }).rougeL).toEqual(
      prf(0.5555555555555556, 0.625, 0.5882352941176471),
    )
    expect(rougeTokenize(t, porterStem).join(' ')).toBe('the runner were run quickli it was fast')
  })
  it('R5–R7: rougeLsum, with the backtracking tie rule', () => {
    const r5 = rougePair('a b c\nd e f', 'd e f\na b c')
    expect(r5.rougeL).toEqual(prf(0.5, 0.5, 0.5))
    expect(r5.rougeLsum).toEqual(prf(1, 1, 1))
    expect(rougePair('w1 w2 w3 w4 w5', 'w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5').rougeLsum).toEqual(
      prf(0.4, 0.8, 0.5333333333333333),
    )
    expect(rougePair('a x a', 'a\na y').rougeLsum).toEqual(prf(2 / 3, 2 / 3, 0.6666666666666666))
    expect(lcsIndices(['a', 'x', 'a'], ['a'])).toEqual([2])
  })
  it('R8–R9: nothing to match', () => {
    expect(rougePair('', 'anything').rougeL).toEqual(prf(0, 0, 0))
    expect(rougePair('!!!', 'anything').rougeLsum).toEqual(prf(0, 0, 0))
    expect(rougeTokenize('Café naïve résumé')).toEqual(['caf', 'na', 've', 'r', 'sum'])
    expect(rougePair('Café naïve résumé', 'cafe naive resume').rougeL).toEqual(prf(0, 0, 0))
  })
  it('score_multi picks per type, the first reference on F ties', () => {
    const m = rougeScores('a b c d', ['d c b a', 'a b c x y'])
    expect(m.best.rougeL).toEqual({ ...prf(0.75, 0.6, 0.6666666666666665), reference: 1 })
    expect(rougeScores('a b', ['a', 'a b c d']).best.rougeL.reference).toBe(0)
    expect(rougeScores('a b', ['a b c d', 'a']).best.rougeL).toEqual({
      ...prf(1, 0.5, 0.6666666666666666),
      reference: 0,
    })
  })
  it('refuses an LCS table over the limit instead of running away', () => {
    const long = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ')
    expect(() => rougeScores(long, [long], { maxLcsCells: 1_000_000 })).toThrow(/exceeds the limit/)
  })
})

describe('invariants', () => {
  const tokens = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 25 })
  it('LCS ≤ min length, symmetric, and lcsIndices is a common subsequence of that length', () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const l = lcsLength(a, b)
        expect(l).toBeLessThanOrEqual(Math.min(a.length, b.length))
        expect(lcsLength(b, a)).toBe(l)
        const idx = lcsIndices(a, b)
        expect(idx.length).toBe(l)
        for (let k = 1; k < idx.length; k++) expect(idx[k]!).toBeGreaterThan(idx[k - 1]!)
        // the picked reference tokens occur in order in b
        let j = 0
        for (const i of idx) {
          while (j < b.length && b[j] !== a[i]) j++
          expect(j).toBeLessThan(b.length)
          j++
        }
      }),
    )
  })
  it('P, R, F in [0, 1]; rougeL F symmetric under swapping; identical texts score 1', () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const s = rougeLTokens(a, b)
        for (const v of [s.precision, s.recall, s.fmeasure]) expect(v >= 0 && v <= 1).toBe(true)
        const t = rougeLTokens(b, a)
        expect(t.fmeasure).toBe(s.fmeasure)
        expect(t.precision).toBe(s.recall)
        if (a.length > 0) expect(rougeLTokens(a, a).fmeasure).toBe(1)
        const sum = rougeLsumTokens([a, b], [b])
        for (const v of [sum.precision, sum.recall, sum.fmeasure])
          expect(v >= 0 && v <= 1).toBe(true)
      }),
    )
  })
  it('the tokenizer yields only [a-z0-9]+ tokens and never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        for (const t of rougeTokenize(s, porterStem)) expect(t).toMatch(/^[a-z0-9]+$/)
      }),
    )
  })
})
