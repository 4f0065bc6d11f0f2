/**
 * The textsim pair file and scorer (library level): line parsing with every problem reported,
 * scoring as score_multi / meteor_score on the copied fixtures, BERTScore wiring through a
 * scripted scorer, and the NLTK word_tokenize variant end to end (text → tokens → METEOR) with the
 * Punkt parameters from ../shared/datasets/nltk-punkt-english (skipped, with a warning, if absent).
 */

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  formatTextsimIssue,
  loadWordNet,
  meteorScore,
  parseTextsimLine,
  scoreTextsim,
  type TextsimBertScorer,
  type WordNet,
} from '../../../src/entries/textsim.js'
import { wordIssue } from '../../../src/errors/format-issue.js'
import { loadPunktParameters, wordTokenize } from '../../../src/generation/textsim/nltk/index.js'
import { METEOR_RECORDS, ROUGE_RECORDS } from './fixtures.js'

let wordnet: WordNet
beforeAll(async () => {
  wordnet = await loadWordNet()
})

describe('parseTextsimLine', () => {
  const bad = (text: string) => {
    const r = parseTextsimLine(text, 'p.jsonl', 7)
    if (r.ok) throw new Error('expected an issue')
    return r.issue
  }
  const problem = (text: string) => wordIssue('textsim', bad(text))
  it('reads a pair and ignores other fields (the conformance files are valid input)', () => {
    const r = parseTextsimLine(
      '{"id":"a","prediction":"x y","references":["x"],"note":"n"}',
      'p.jsonl',
      3,
    )
    expect(r).toEqual({
      ok: true,
      pair: { id: 'a', prediction: 'x y', references: ['x'] },
      file: 'p.jsonl',
      line: 3,
    })
  })
  it('reports invalid JSON and non-objects', () => {
    expect(problem('{"id":')).toMatch(/^invalid JSON/)
    expect(problem('[1,2]')).toMatch(/expected a JSON object.*found an array/)
    expect(problem('null')).toMatch(/found null/)
  })
  it('reports every field problem of a line at once, with the id when there is one', () => {
    const i = bad('{"id":"q1","prediction":3,"references":"x"}')
    expect(i.id).toBe('q1')
    expect(wordIssue('textsim', i)).toBe(
      '"prediction" must be a string, found a number; "references" must be an array of strings, found a string',
    )
    expect(problem('{}')).toBe('missing "id"; missing "prediction"; missing "references"')
    expect(problem('{"id":1,"prediction":"","references":["a",null]}')).toBe(
      '"id" must be a string, found a number; "references"[1] must be a string, found null',
    )
  })
  it('an empty reference list is an error of the line', () => {
    const i = bad('{"id":"g148","prediction":"answer","references":[]}')
    expect(i.id).toBe('g148')
    expect(wordIssue('textsim', i)).toMatch(/"references" is empty/)
    expect(formatTextsimIssue(i)).toMatch(/^p\.jsonl:7: id "g148": "references" is empty/)
  })
  it('never throws on any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        (s) => void parseTextsimLine(s, 'f', 1),
      ),
    )
  })
})

describe('scoreTextsim', () => {
  it('gives score_multi ROUGE (with the stemmer) and METEOR max for every fixture record', async () => {
    const pairs = ROUGE_RECORDS.filter((r) => r.references.length > 0).map((r) => ({
      id: r.id,
      prediction: r.prediction,
      references: r.references,
    }))
    const meteorById = new Map(METEOR_RECORDS.map((r) => [r.id, r]))
    // the default parameter records only: scoreTextsim takes one parameter set
    const defaults = pairs.filter(
      (p) =>
        meteorById.get(p.id)!.params.beta === 3 &&
        meteorById.get(p.id)!.params.alpha === 0.9 &&
        meteorById.get(p.id)!.params.gamma === 0.5,
    )
    const { rows, issues } = await scoreTextsim(defaults, {
      metrics: ['rougeL', 'rougeLsum', 'meteor'],
      stemmer: true,
      wordnet,
    })
    expect(issues).toEqual([])
    expect(rows.length).toBe(defaults.length)
    expect(rows.length).toBeGreaterThan(290)
    const rougeById = new Map(ROUGE_RECORDS.map((r) => [r.id, r]))
    for (const row of rows) {
      const want = rougeById.get(row.id)!.scores.stem
      expect({ ...row.rougeL, reference: undefined }, row.id).toEqual({
        ...want.multi!.rougeL,
        reference: undefined,
      })
      expect(row.rougeL!.reference).toBe(want.multi_index!.rougeL)
      expect(row.rougeLsum!.fmeasure).toBe(want.multi!.rougeLsum.fmeasure)
      expect(row.meteor!.score, row.id).toBe(meteorById.get(row.id)!.variants.split.meteor)
    }
  })

  it('turns an unscoreable pair into an issue and scores the rest', async () => {
    const long = Array.from({ length: 6000 }, (_, i) => `w${i}`).join(' ')
    const { rows, issues } = await scoreTextsim(
      [
        { id: 'a', prediction: 'x', references: ['x'] },
        { id: 'big', prediction: long, references: [long] },
      ],
      { metrics: ['rougeL'], stemmer: false },
      (_p, i) => ({ file: 'f.jsonl', line: i + 10 }),
    )
    expect(rows.map((r) => r.id)).toEqual(['a'])
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatchObject({
      file: 'f.jsonl',
      line: 11,
      id: 'big',
      code: 'cannot_score',
      problem: { code: 'lcs_too_large', rows: 6000, columns: 6000, limit: 25_000_000 },
    })
    expect(formatTextsimIssue(issues[0]!)).toMatch(
      /^f\.jsonl:11: id "big": LCS table of 6000 × 6000 tokens exceeds the limit of 25000000 cells: "w0 w1/,
    )
  })

  it('hands BERTScore every reference of every scored pair in one call', async () => {
    const calls: [string[], string[][]][] = []
    const scorer: TextsimBertScorer = {
      score: async (p, r) => {
        calls.push([p, r])
        return p.map((_x, i) => ({ precision: i, recall: 2 * i, f1: 3 * i }))
      },
    }
    const { rows } = await scoreTextsim(
      [
        { id: 'a', prediction: 'pa', references: ['r1', 'r2'] },
        { id: 'b', prediction: 'pb', references: ['r3'] },
      ],
      { metrics: ['bertscore'], stemmer: false, bertScorer: scorer },
    )
    expect(calls).toEqual([
      [
        ['pa', 'pb'],
        [['r1', 'r2'], ['r3']],
      ],
    ])
    expect(rows).toEqual([
      { id: 'a', bertscore: { precision: 0, recall: 0, f1: 0 } },
      { id: 'b', bertscore: { precision: 1, recall: 2, f1: 3 } },
    ])
  })
})

const PUNKT = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'shared',
  'datasets',
  'nltk-punkt-english',
)
const havePunkt = existsSync(join(PUNKT, 'ortho_context.tab'))
if (!havePunkt)
  console.warn(
    `textsim.test.ts: ${PUNKT} missing; skipping the word_tokenize end-to-end METEOR test`,
  )
describe.skipIf(!havePunkt)(
  'METEOR word_tokenize variant end to end (NLTK Punkt parameters from ../shared)',
  () => {
    it('reproduces every word_tokenize value of meteor.jsonl from the texts', async () => {
      const params = await loadPunktParameters(PUNKT)
      const tokenize = (t: string) => wordTokenize(t, params)
      let compared = 0
      for (const r of METEOR_RECORDS) {
        const v = r.variants.word_tokenize
        if (v.meteor === null) continue
        const got = meteorScore(r.prediction, r.references, { wordnet, params: r.params, tokenize })
        expect(got.score, r.id).toBe(v.meteor)
        got.perReference.forEach((d, k) =>
          expect(d.score, `${r.id} ref ${k}`).toBe(v.per_reference[k]!.score),
        )
        compared++
      }
      expect(compared).toBe(309)
    })
  },
)
