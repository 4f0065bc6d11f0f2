/**
 * BERTScore arithmetic on hand-computable 2-D embeddings (the synthetic example of
 * ../shared/notes/generation.md §3.1, whose values were computed there from bert_score 0.3.13's
 * formulas), plus baseline files and invariants.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  baselineForLayer,
  bertScoreFromEmbeddings,
  bestOverReferences,
  computeIdf,
  parseBaselineTable,
  ROBERTA_LARGE_L17_BASELINE,
  rescale,
  type TokenEmbeddings,
  uniformWeights,
} from '../../../src/entries/textsim.js'
import { InputError } from '../../../src/errors/trecscore-error.js'

const CLS = 101
const SEP = 102
const CAT = 7
const MAT = 8
const UNSEEN = 9
const SPECIALS = [CLS, SEP]

function emb(ids: number[], rows: number[][]): TokenEmbeddings {
  return { ids, dim: rows[0]!.length, vectors: rows.flat() }
}

// Candidate: [CLS] cat x x [SEP]; reference: [CLS] cat mat [SEP]. CLS/SEP vectors are (−1, 0).
const cand = emb(
  [CLS, CAT, UNSEEN, UNSEEN, SEP],
  [
    [-1, 0],
    [1, 0],
    [0, 1],
    [0, 1],
    [-1, 0],
  ],
)
const ref = emb(
  [CLS, CAT, MAT, SEP],
  [
    [-1, 0],
    [1, 0],
    [0.6, 0.8],
    [-1, 0],
  ],
)

describe('bertScoreFromEmbeddings: the 2-D example', () => {
  it('without idf: P = 13/15, R = 0.9, F = 234/265', () => {
    // Cosines (all vectors are unit): cat·cat = 1, cat·mat = 0.6, x·cat = 0, x·mat = 0.8,
    // CLS/SEP·cat = −1, CLS/SEP·mat = −0.6, CLS/SEP·x = 0.
    // Precision maxima of the weighted candidate tokens: cat → 1, x → 0.8, x → 0.8;
    //   P = (1 + 0.8 + 0.8)/3 = 13/15 (CLS/SEP weigh 0).
    // Recall maxima of the weighted reference tokens: cat → 1, mat → 0.8; R = 1.8/2 = 0.9.
    // F = 2·(13/15)·0.9/(13/15 + 0.9) = 23.4/26.5 = 234/265.
    const s = bertScoreFromEmbeddings(cand, ref, uniformWeights(SPECIALS))
    expect(s.precision).toBeCloseTo(13 / 15, 15)
    expect(s.recall).toBeCloseTo(0.9, 15)
    expect(s.f1).toBeCloseTo(234 / 265, 15)
    // The note's float64 values, bit for bit (same operation order as bert_score).
    expect(s).toEqual({ precision: 0.8666666666666667, recall: 0.9, f1: 0.8830188679245283 })
  })

  it('rescaled with the roberta-large layer-17 baselines: (x − b)/(1 − b)', () => {
    // (13/15 − 0.83150584)/(1 − 0.83150584), (0.9 − 0.8314941)/(1 − 0.8314941),
    // (234/265 − 0.83122575)/(1 − 0.83122575): the note's 0.20867682693967943,
    // 0.4065489695019582 and 0.30687808077670814.
    const s = rescale(
      bertScoreFromEmbeddings(cand, ref, uniformWeights(SPECIALS)),
      ROBERTA_LARGE_L17_BASELINE,
    )
    expect(s).toEqual({
      precision: 0.20867682693967943,
      recall: 0.4065489695019582,
      f1: 0.30687808077670814,
    })
    expect(rescale({ precision: 1, recall: 1, f1: 1 }, ROBERTA_LARGE_L17_BASELINE)).toEqual({
      precision: 1,
      recall: 1,
      f1: 1,
    })
  })

  it('with idf from M = 2 references: P = R = F = 0.8', () => {
    // References [CLS] cat mat [SEP] and [CLS] cat [SEP]: df(cat) = 2, df(mat) = 1, M = 2.
    // idf(cat) = ln(3/3) = 0, idf(mat) = ln(3/2), unseen x: ln 3, CLS/SEP: 0.
    // P = (0·1 + ln3·0.8 + ln3·0.8)/(2 ln3) = 0.8; R = (0·1 + ln1.5·0.8)/ln1.5 = 0.8; F = 0.8.
    const idf = computeIdf([ref.ids, [CLS, CAT, SEP]], SPECIALS)
    expect(idf.documents).toBe(2)
    expect(idf.weightOf(CAT)).toBe(0)
    expect(idf.weightOf(MAT)).toBe(Math.log(3 / 2))
    expect(idf.weightOf(UNSEEN)).toBe(Math.log(3))
    expect(idf.weightOf(CLS)).toBe(0)
    expect(idf.weightOf(SEP)).toBe(0)
    const s = bertScoreFromEmbeddings(cand, ref, idf)
    // The note: "P = R = F = 0.8. F prints as 0.8000000000000002".
    expect(s).toEqual({ precision: 0.8, recall: 0.8, f1: 0.8000000000000002 })
  })

  it('df counts a reference once however often an id occurs in it (set semantics)', () => {
    const idf = computeIdf(
      [
        [CLS, CAT, CAT, CAT, SEP],
        [CLS, MAT, SEP],
        [CLS, MAT, SEP],
      ],
      SPECIALS,
    )
    expect(idf.documentFrequency.get(CAT)).toBe(1)
    expect(idf.weightOf(CAT)).toBe(Math.log(4 / 2))
    expect(idf.weightOf(MAT)).toBe(Math.log(4 / 3))
  })

  it('special tokens take part in the max although they weigh 0', () => {
    // Candidate content token (−1, 0) matches the reference's SEP exactly: its precision is 1,
    // not cos((−1,0),(1,0)) = −1. P = 1; R: ref cat (1,0) best is −1 (from the candidate's CLS,
    // SEP and content token, all (−1,0)) → R = −1; F = 2·1·(−1)/0 = −∞.
    const c = emb(
      [CLS, UNSEEN, SEP],
      [
        [-1, 0],
        [-1, 0],
        [-1, 0],
      ],
    )
    const r = emb(
      [CLS, CAT, SEP],
      [
        [-1, 0],
        [1, 0],
        [-1, 0],
      ],
    )
    const s = bertScoreFromEmbeddings(c, r, uniformWeights(SPECIALS))
    expect(s.precision).toBe(1)
    expect(s.recall).toBe(-1)
    expect(s.f1).toBe(-Infinity)
  })

  it('vectors are L2-normalised: scaling a token vector changes nothing', () => {
    // cat scaled by 5, mat scaled by 0.5: the same cosines, so the same 13/15, 0.9.
    const r = emb(
      [CLS, CAT, MAT, SEP],
      [
        [-1, 0],
        [5, 0],
        [0.3, 0.4],
        [-2, 0],
      ],
    )
    const s = bertScoreFromEmbeddings(cand, r, uniformWeights(SPECIALS))
    expect(s.precision).toBeCloseTo(13 / 15, 15)
    expect(s.recall).toBeCloseTo(0.9, 15)
  })

  it('an empty candidate or reference ([CLS] [SEP] only) scores P = R = F = 0', () => {
    const empty = emb(
      [CLS, SEP],
      [
        [-1, 0],
        [-1, 0],
      ],
    )
    expect(bertScoreFromEmbeddings(empty, ref, uniformWeights(SPECIALS))).toEqual({
      precision: 0,
      recall: 0,
      f1: 0,
    })
    expect(bertScoreFromEmbeddings(cand, empty, uniformWeights(SPECIALS))).toEqual({
      precision: 0,
      recall: 0,
      f1: 0,
    })
    // Rescaled, an empty answer is strongly negative: −b/(1 − b) = −4.925… for roberta-large L17 F.
    const r = rescale({ precision: 0, recall: 0, f1: 0 }, ROBERTA_LARGE_L17_BASELINE)
    expect(r.f1).toBeCloseTo(-0.83122575 / (1 - 0.83122575), 15)
    expect(r.f1).toBeCloseTo(-4.925, 3)
  })

  it('idf weights that sum to 0 give NaN for P and R and F = 0, as bert_score', () => {
    // One reference identical to the candidate: every id has df = M = 1, idf = ln(2/2) = 0.
    const idf = computeIdf([ref.ids], SPECIALS)
    const s = bertScoreFromEmbeddings(ref, ref, idf)
    expect(Number.isNaN(s.precision)).toBe(true)
    expect(Number.isNaN(s.recall)).toBe(true)
    expect(s.f1).toBe(0)
  })
})

describe('bestOverReferences', () => {
  it('takes the max of P, R and F separately (they may come from different references)', () => {
    const a = { precision: 0.9, recall: 0.5, f1: 0.6428571428571429 }
    const b = { precision: 0.6, recall: 0.8, f1: 0.6857142857142857 }
    expect(bestOverReferences([a, b])).toEqual({
      precision: 0.9,
      recall: 0.8,
      f1: 0.6857142857142857,
    })
    expect(bestOverReferences([b])).toEqual(b)
  })
  it('propagates NaN as torch.max does, and refuses an empty list', () => {
    expect(
      Number.isNaN(
        bestOverReferences([
          { precision: NaN, recall: 0.5, f1: 0 },
          { precision: 0.9, recall: 0.1, f1: 0.2 },
        ]).precision,
      ),
    ).toBe(true)
    expect(() => bestOverReferences([])).toThrow(RangeError)
  })
})

describe('rescale baselines', () => {
  // The first rows and row 17 of bert_score 0.3.13's rescale_baseline/en/roberta-large.tsv layout.
  const rows = [
    'LAYER,P,R,F',
    '0,0.3712891,0.37132213,0.36826715',
    '1,0.67176163,0.6717439,0.6703483',
  ]
  for (let l = 2; l <= 16; l++) rows.push(`${l},0.8,0.8,0.8`)
  rows.push('17,0.83150584,0.8314941,0.83122575', '18,0.8314624,0.83146274,0.8311686')

  it('reads the LAYER,P,R,F file and picks the row of the layer (iloc[num_layers])', () => {
    const table = parseBaselineTable(`${rows.join('\r\n')}\r\n`, 'roberta-large.tsv')
    expect(table.rows).toHaveLength(19)
    expect(baselineForLayer(table, 17)).toEqual({ layer: 17, ...ROBERTA_LARGE_L17_BASELINE })
    expect(baselineForLayer(table, 0)).toEqual({
      layer: 0,
      precision: 0.3712891,
      recall: 0.37132213,
      f1: 0.36826715,
    })
    expect(() => baselineForLayer(table, 19)).toThrow(InputError)
  })

  it('reports every problem of a broken file at once, with line numbers', () => {
    const text = ['LAYER,P,R', '0,0.1,0.2,0.3', '1,0.1,x,0.3', '2,0.1,0.2', '5,0.1,0.2,0.3'].join(
      '\n',
    )
    try {
      parseBaselineTable(text, 'bad.tsv')
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(InputError)
      const issues = (e as InputError).issues
      expect(issues.map((i) => ('line' in i ? i.line : 'option' in i ? i.option : ''))).toEqual([
        1,
        'bad.tsv:3 (column R)',
        4,
        'bad.tsv:5 (column LAYER)',
      ])
    }
    expect(() => parseBaselineTable('', 'empty.tsv')).toThrow(InputError)
  })
})

describe('invariants (fast-check)', () => {
  const vec = fc
    .array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 3, maxLength: 3 })
    .filter((v) => Math.hypot(...v) > 1e-3)
  const text = fc.array(vec, { minLength: 3, maxLength: 8 })
  const ids = (n: number) => [CLS, ...Array.from({ length: n - 2 }, (_, i) => 200 + i), SEP]

  it('a text against itself scores 1, and P, R lie in [−1, 1]', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const ea = emb(ids(a.length), a)
        const eb = emb(ids(b.length), b)
        const self = bertScoreFromEmbeddings(ea, ea, uniformWeights(SPECIALS))
        expect(self.precision).toBeCloseTo(1, 12)
        expect(self.recall).toBeCloseTo(1, 12)
        expect(self.f1).toBeCloseTo(1, 12)
        const s = bertScoreFromEmbeddings(ea, eb, uniformWeights(SPECIALS))
        expect(Math.abs(s.precision)).toBeLessThanOrEqual(1 + 1e-12)
        expect(Math.abs(s.recall)).toBeLessThanOrEqual(1 + 1e-12)
      }),
    )
  })

  it('swapping candidate and reference swaps P and R (without idf)', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const ea = emb(ids(a.length), a)
        const eb = emb(ids(b.length), b)
        const ab = bertScoreFromEmbeddings(ea, eb, uniformWeights(SPECIALS))
        const ba = bertScoreFromEmbeddings(eb, ea, uniformWeights(SPECIALS))
        expect(ab.precision).toBe(ba.recall)
        expect(ab.recall).toBe(ba.precision)
      }),
    )
  })
})
