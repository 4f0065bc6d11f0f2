/**
 * METEOR against the copied meteor.jsonl (NLTK 3.8 + WordNet 3.0 output, see
 * shared/conformance/generation/README.md): every per-reference score, alignment and chunk count,
 * and every max-over-references value, bit for bit, for the `split` variant end to end (text →
 * tokens → score) and for the `word_tokenize` variant from its recorded tokens; the worked
 * examples M1–M12 of shared/notes/generation.md §2.5.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  countChunks,
  loadWordNet,
  meteorScore,
  meteorScoreTokens,
  meteorSplitTokenize,
  pythonSplit,
  singleMeteor,
  TextsimItemError,
  type WordNet,
} from '../../../src/entries/textsim.js'
import { METEOR_RECORDS } from './fixtures.js'

let wordnet: WordNet
beforeAll(async () => {
  wordnet = await loadWordNet()
})

describe('meteor.jsonl conformance', () => {
  it('has the 310 records', () => expect(METEOR_RECORDS.length).toBe(310))

  it('split: tokenizes as text.lower().split() and reproduces every value from the text', () => {
    let compared = 0
    for (const r of METEOR_RECORDS) {
      const v = r.variants.split
      expect(meteorSplitTokenize(r.prediction), r.id).toEqual(v.hypothesis_tokens)
      r.references.forEach((ref, k) =>
        expect(meteorSplitTokenize(ref), `${r.id} ref ${k}`).toEqual(v.reference_tokens[k]),
      )
      if (v.meteor === null) {
        expect(v.meteor_error, r.id).toMatch(/ValueError/)
        expect(
          () => meteorScore(r.prediction, r.references, { wordnet, params: r.params }),
          r.id,
        ).toThrow(TextsimItemError)
        continue
      }
      const got = meteorScore(r.prediction, r.references, { wordnet, params: r.params })
      expect(got.score, r.id).toBe(v.meteor)
      v.per_reference.forEach((want, k) => {
        const g = got.perReference[k]!
        expect(g.score, `${r.id} ref ${k}`).toBe(want.score)
        expect([g.hypLen, g.refLen, g.chunks], `${r.id} ref ${k}`).toEqual([
          want.hyp_len,
          want.ref_len,
          want.chunks,
        ])
        expect(g.matches, `${r.id} ref ${k}`).toEqual(want.matches)
        compared++
      })
    }
    expect(compared).toBeGreaterThan(350)
  })

  it('word_tokenize: reproduces every value from the recorded NLTK tokens', () => {
    let compared = 0
    for (const r of METEOR_RECORDS) {
      const v = r.variants.word_tokenize
      if (v.meteor === null) {
        expect(
          () =>
            meteorScoreTokens(v.hypothesis_tokens, v.reference_tokens, {
              wordnet,
              params: r.params,
            }),
          r.id,
        ).toThrow(TextsimItemError)
        continue
      }
      const got = meteorScoreTokens(v.hypothesis_tokens, v.reference_tokens, {
        wordnet,
        params: r.params,
      })
      expect(got.score, r.id).toBe(v.meteor)
      v.per_reference.forEach((want, k) => {
        const g = got.perReference[k]!
        expect(g.score, `${r.id} ref ${k}`).toBe(want.score)
        expect(g.matches, `${r.id} ref ${k}`).toEqual(want.matches)
        expect(g.chunks, `${r.id} ref ${k}`).toBe(want.chunks)
        compared++
      })
    }
    expect(compared).toBeGreaterThan(350)
  })

  it('covers non-default parameters, including a non-integer beta', () => {
    const betas = new Set(METEOR_RECORDS.map((r) => r.params.beta))
    expect([...betas].sort()).toEqual([0.2, 1, 2, 3])
  })
})

describe('worked examples (shared/notes/generation.md §2.5, reference first)', () => {
  const s = (ref: string, hyp: string, params = {}) =>
    singleMeteor(ref.split(' '), hyp.split(' '), { wordnet, params })
  it('M1–M8', () => {
    expect(s('the cat was on the mat', 'the cat sat on the mat').score).toBe(0.8066666666666668)
    expect(s('date cherry banana apple', 'apple banana cherry date').score).toBe(0.5)
    expect(s('one two three four', 'one two three four').score).toBe(0.9921875)
    const m4 = s('the cat is run', 'the cats are running')
    expect(m4.score).toBe(0.6388888888888888)
    expect(m4.matches).toEqual([
      [0, 0],
      [1, 1],
      [3, 3],
    ])
    expect(s('the large hound', 'the big dog').score).toBe(0.3333333333333333)
    expect(s('the great dog', 'the big dog').score).toBe(0.9814814814814815)
    expect(s('The Party', 'the party').score).toBe(0.9375)
    expect(s('the cat', 'cat the cat').matches).toEqual([
      [1, 0],
      [2, 1],
    ])
    expect(s('the cat', 'cat the cat').score).toBe(0.8928571428571429)
  })
  it('M9: no match, empty sides', () => {
    expect(s('a b', 'c d').score).toBe(0)
    expect(singleMeteor([], ['a'], { wordnet }).score).toBe(0)
    expect(singleMeteor(['a'], [], { wordnet }).score).toBe(0)
    expect(singleMeteor(['a'], [], { wordnet }).chunks).toBe(0)
  })
  it('M10–M12', () => {
    const ref =
      'It is a guide to action that ensures that the military will forever heed Party commands'
    const hyp =
      'It is a guide to action which ensures that the military always obeys the commands of the party'
    expect(meteorScore(hyp, [ref], { wordnet }).score).toBe(0.6944444444444445)
    const m11 = meteorScore('the cat sat down', ['the cat sat', 'a cat sat down'], { wordnet })
    expect(m11.perReference.map((d) => d.score)).toEqual([0.9498207885304659, 0.7361111111111112])
    expect(m11.score).toBe(0.9498207885304659)
    expect(m11.reference).toBe(0)
    expect(
      s('the cat was on the mat', 'the cat sat on the mat', { alpha: 0.5, beta: 2, gamma: 0.25 })
        .score,
    ).toBe(0.8)
  })
  it('WordNet 3.0, not 3.1 (research note §2.4)', () => {
    expect(s('you can count on it', 'you can bank on it').score).toBe(0.7500000000000001)
    expect(s('in money we trust', 'in money we bank').score).toBe(0.9921875)
  })
  it('refuses an alignment over the limit instead of running away', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `w${i}`)
    expect(() => singleMeteor(many, many, { wordnet, maxAlignCells: 1_000_000 })).toThrow(
      /METEOR alignment of 2000 × 2000 tokens exceeds/,
    )
    expect(singleMeteor(many, many, { wordnet, maxAlignCells: 4_000_000 }).score).toBe(
      1 - 0.5 / 2000 ** 3,
    )
  })
  it('a zero Fmean denominator gives 0, as NLTK catches ZeroDivisionError', () => {
    // reference [a], hypothesis [a, b]: P = 1/2, R = 1.
    // α = 2: 2·0.5 + (1 − 2)·1 = 0 → ZeroDivisionError in Python → 0.0
    expect(singleMeteor(['a'], ['a', 'b'], { wordnet, params: { alpha: 2 } }).score).toBe(0)
    // α = 10: 10·0.5 − 9·1 = −4 → Fmean = 0.5/−4 = −0.125, penalty 0.5·1 → −0.0625 (no error in Python)
    expect(singleMeteor(['a'], ['a', 'b'], { wordnet, params: { alpha: 10 } }).score).toBe(-0.0625)
  })
  it('no reference is an error, as in NLTK', () => {
    expect(() => meteorScore('a', [], { wordnet })).toThrow(/no references/)
  })
})

describe('pieces', () => {
  it('countChunks', () => {
    expect(countChunks([])).toBe(1)
    expect(
      countChunks([
        [0, 0],
        [1, 1],
        [3, 3],
      ]),
    ).toBe(2)
    expect(
      countChunks([
        [0, 1],
        [1, 0],
      ]),
    ).toBe(2)
  })
  it("pythonSplit splits on CPython's whitespace, not JavaScript's", () => {
    expect(pythonSplit('a\x1cb\x1fc\x85d')).toEqual(['a', 'b', 'c', 'd'])
    expect(pythonSplit('a\ufeffb a\u200bb')).toEqual(['a\ufeffb', 'a\u200bb'])
    expect(pythonSplit('  a\u3000b\u00a0c  ')).toEqual(['a', 'b', 'c'])
    expect(pythonSplit('')).toEqual([])
  })
})
