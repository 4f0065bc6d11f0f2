/**
 * loadBertScorer end to end on a tiny random BERT written into a temp folder at test time
 * (tiny-bert.ts): real tokenizer.json loading, real onnxruntime-node inference. Expected values
 * come from a plain float64 forward pass of the same weights and a naive BERTScore written out
 * in this file (not the library's), so the whole path is checked against an independent
 * computation.
 */

import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BertScorer, loadBertScorer } from '../../../src/entries/textsim.js'
import { formatIssue } from '../../../src/errors/format-issue.js'
import { InputError } from '../../../src/errors/trecscore-error.js'
import { openOnnxEncoder } from '../../../src/generation/bertscore/onnx-model.js'
import { createBertScoreTokenizer } from '../../../src/generation/bertscore/tokenizer.js'
import {
  type TinyBertWeights,
  tinyBertForward,
  WORDPIECE_VOCAB,
  wordPieceTokenizerJson,
  writeTinyBert,
} from './tiny-bert.js'

const root = mkdtempSync(join(tmpdir(), 'trecscore-bertscore-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const CLS = 2
const SEP = 3

/** Tokenize as bert_score would with the test vocabulary (strip, specials). */
const tokenizer = createBertScoreTokenizer({
  tokenizer: wordPieceTokenizerJson(),
  file: 'tokenizer.json',
})
const idsOf = (text: string) => tokenizer.encode(text).ids

/** Naive BERTScore, written independently of src/: cosines, maxima, weighted means. */
function naive(
  cand: number[][],
  candIds: readonly number[],
  ref: number[][],
  refIds: readonly number[],
  weight: (id: number) => number,
) {
  const cos = (a: number[], b: number[]) => {
    let d = 0
    let na = 0
    let nb = 0
    for (let k = 0; k < a.length; k++) {
      d += a[k]! * b[k]!
      na += a[k]! * a[k]!
      nb += b[k]! * b[k]!
    }
    return d / Math.sqrt(na * nb)
  }
  const p = cand.map((c) => Math.max(...ref.map((r) => cos(c, r))))
  const r = ref.map((rr) => Math.max(...cand.map((c) => cos(c, rr))))
  const wmean = (vals: number[], ids: readonly number[]) => {
    const w = ids.map(weight)
    return vals.reduce((a, v, i) => a + v * w[i]!, 0) / w.reduce((a, b) => a + b, 0)
  }
  const P = wmean(p, candIds)
  const R = wmean(r, refIds)
  return { precision: P, recall: R, f1: (2 * P * R) / (P + R) }
}

function expectClose(
  actual: { precision: number; recall: number; f1: number },
  expected: { precision: number; recall: number; f1: number },
  tol: number,
) {
  expect(Math.abs(actual.precision - expected.precision)).toBeLessThan(tol)
  expect(Math.abs(actual.recall - expected.recall)).toBeLessThan(tol)
  expect(Math.abs(actual.f1 - expected.f1)).toBeLessThan(tol)
}

const issuesOf = async (p: Promise<unknown>): Promise<string[]> => {
  try {
    await p
  } catch (e) {
    if (e instanceof InputError) return e.issues.map(formatIssue)
    throw e
  }
  throw new Error('expected an InputError')
}

describe('BERTScore on a tiny random BERT through onnxruntime-node', () => {
  const dir = join(root, 'wordpiece')
  let weights: TinyBertWeights
  let scorer: BertScorer
  beforeAll(async () => {
    weights = writeTinyBert(dir)
    scorer = await loadBertScorer({ modelDir: dir, threads: 1 })
  })
  afterAll(async () => {
    await scorer.close()
  })

  it('onnxruntime returns the embeddings of a float64 forward pass of the same weights (padded batch)', async () => {
    // Texts of different lengths in one batch: padding and the attention mask must not leak.
    const texts = [
      'the quick brown fox jumped over the lazy dog .',
      'a cat',
      'running dogs sat on the mat',
    ]
    const ids = texts.map(idsOf)
    expect(ids[1]).toEqual([CLS, 5, 6, SEP])
    expect(ids[2]).toEqual([CLS, 11, 12, 7, 13, 8, 9, 4, 10, SEP]) // run ##ning dog ##s
    const encoder = await openOnnxEncoder(join(dir, 'model.onnx'), { padId: 0, threads: 1 })
    try {
      for (const [output, layer] of [
        ['last_hidden_state', 2],
        ['hidden_states.0', 0],
        ['hidden_states.1', 1],
      ] as const) {
        const out = await encoder.embed(ids, output)
        expect(out.dim).toBe(8)
        ids.forEach((t, i) => {
          const ref = tinyBertForward(weights, t)[layer]!.flat()
          expect(out.vectors[i]!.length).toBe(ref.length)
          let worst = 0
          ref.forEach((v, k) => {
            worst = Math.max(worst, Math.abs(v - out.vectors[i]![k]!))
          })
          expect(worst).toBeLessThan(1e-4)
        })
      }
    } finally {
      await encoder.close()
    }
  })

  it('an identical candidate and reference give P = R = F = 1 (float32: within 1e-6)', async () => {
    const [s] = await scorer.score(['The cat sat on the mat.'], [['the cat sat on the mat .']])
    expectClose(s!, { precision: 1, recall: 1, f1: 1 }, 1e-6)
  })

  it('matches the float64 forward pass and the naive BERTScore, without and with idf', async () => {
    const preds = [
      'the cat sat on the mat',
      'a big red house in paris',
      'water boils at 100 degrees',
    ]
    const refs = [
      ['the dog sat on a mat'],
      ['the capital of france is paris', 'a small blue house'],
      ['water is hot'],
    ]
    const emb = (text: string) => tinyBertForward(weights, idsOf(text))[2]!
    const flatRefs = refs.flat()
    // No idf: weight 1, CLS/SEP 0.
    const plain = (id: number) => (id === CLS || id === SEP ? 0 : 1)
    // Idf by hand over the 4 reference texts: idf(w) = ln((M+1)/(df(w)+1)), specials 0.
    const M = flatRefs.length
    const df = new Map<number, number>()
    for (const r of flatRefs) for (const id of new Set(idsOf(r))) df.set(id, (df.get(id) ?? 0) + 1)
    const idf = (id: number) =>
      id === CLS || id === SEP ? 0 : Math.log((M + 1) / ((df.get(id) ?? 0) + 1))
    expect(idf(idsOf('paris')[1]!)).toBe(Math.log(5 / 2)) // paris is in 1 of the 4 references
    expect(idf(idsOf('zebra')[1]!)).toBe(Math.log(5)) // [UNK]: in none
    const expected = (weight: (id: number) => number) =>
      preds.map((p, i) => {
        const per = refs[i]!.map((r) => naive(emb(p), idsOf(p), emb(r), idsOf(r), weight))
        return {
          precision: Math.max(...per.map((s) => s.precision)),
          recall: Math.max(...per.map((s) => s.recall)),
          f1: Math.max(...per.map((s) => s.f1)),
        }
      })
    const got = await scorer.score(preds, refs)
    expected(plain).forEach((e, i) => expectClose(got[i]!, e, 1e-5))
    const withIdf = await loadBertScorer({ modelDir: dir, idf: true, threads: 1 })
    try {
      const gotIdf = await withIdf.score(preds, refs)
      expected(idf).forEach((e, i) => expectClose(gotIdf[i]!, e, 1e-5))
      // idf changes the values.
      expect(Math.abs(gotIdf[1]!.f1 - got[1]!.f1)).toBeGreaterThan(1e-3)
      expect(withIdf.describe()).toMatchObject({ idf: true, idfDocuments: 4 })
    } finally {
      await withIdf.close()
    }
  })

  it('random texts, several references, idf on and off: the naive computation agrees (fast-check)', async () => {
    const withIdf = await loadBertScorer({ modelDir: dir, idf: true, batchSize: 3, threads: 1 })
    const words = WORDPIECE_VOCAB.slice(4).concat(['zebra', 'running', 'jumped', ''])
    const textArb = fc
      .array(fc.constantFrom(...words), { minLength: 0, maxLength: 12 })
      .map((w) => w.join(' '))
    const pairArb = fc.tuple(
      textArb,
      fc.array(
        textArb.filter((t) => t.trim() !== ''),
        { minLength: 1, maxLength: 3 },
      ),
    )
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(pairArb, { minLength: 1, maxLength: 6 }), async (pairs) => {
          const preds = pairs.map((p) => p[0])
          const refs = pairs.map((p) => p[1])
          const emb = (text: string) => tinyBertForward(weights, idsOf(text))[2]!
          const M = refs.flat().length
          const df = new Map<number, number>()
          for (const r of refs.flat())
            for (const id of new Set(idsOf(r))) df.set(id, (df.get(id) ?? 0) + 1)
          const idfW = (id: number) =>
            id === CLS || id === SEP ? 0 : Math.log((M + 1) / ((df.get(id) ?? 0) + 1))
          const plainW = (id: number) => (id === CLS || id === SEP ? 0 : 1)
          const expected = (weight: (id: number) => number) =>
            preds.map((p, i) => {
              const per = refs[i]!.map((r) => {
                const v = naive(emb(p), idsOf(p), emb(r), idsOf(r), weight)
                // bert_score: an empty text ([CLS] [SEP]) has P = R = 0; F = NaN → 0.
                const empty = idsOf(p).length === 2 || idsOf(r).length === 2
                // F = 2PR/(P+R) is ill-conditioned when P+R is near 0 (random weights give negative
                // cosines): an error e in P and R moves F by up to e·2(P²+R²)/(P+R)² (the sum of
                // |∂F/∂P| and |∂F/∂R|), so F's bound is scaled by that factor, not fixed.
                const gainF =
                  empty || Number.isNaN(v.f1)
                    ? 1
                    : Math.max(
                        1,
                        (2 * (v.precision ** 2 + v.recall ** 2)) / (v.precision + v.recall) ** 2,
                      )
                return {
                  precision: empty ? 0 : v.precision,
                  recall: empty ? 0 : v.recall,
                  f1: Number.isNaN(v.f1) ? 0 : v.f1,
                  gainF,
                }
              })
              const mx = (k: 'precision' | 'recall' | 'f1') =>
                per.some((s) => Number.isNaN(s[k])) ? NaN : Math.max(...per.map((s) => s[k]))
              // max over references moves by at most the largest of their errors.
              return {
                precision: mx('precision'),
                recall: mx('recall'),
                f1: mx('f1'),
                gainF: Math.max(...per.map((s) => s.gainF)),
              }
            })
          const check = (
            got: { precision: number; recall: number; f1: number }[],
            want: ReturnType<typeof expected>,
          ) =>
            got.forEach((g, i) => {
              for (const k of ['precision', 'recall', 'f1'] as const) {
                if (Number.isNaN(want[i]![k])) expect(g[k]).toBeNaN()
                // ORT computes the embeddings in float32 (they agree with the float64 pass within
                // 1e-4, see above); a score is a weighted mean of cosines of those, so the same
                // bound holds for P and R. 1e-5 failed on rare inputs (1.8e-5 seen, seed 1985093272);
                // F with P+R near 0 failed a fixed 1e-4 (2.8e-3 off at F = 37.8, seed 1062686959).
                else
                  expect(Math.abs(g[k] - want[i]![k])).toBeLessThan(
                    k === 'f1' ? 1e-4 * want[i]!.gainF : 1e-4,
                  )
              }
            })
          check(await scorer.score(preds, refs), expected(plainW))
          check(await withIdf.score(preds, refs), expected(idfW))
        }),
        { numRuns: 30 },
      )
    } finally {
      await withIdf.close()
    }
  })

  it('is deterministic, and the batch size does not change the values beyond float32 noise', async () => {
    const preds = ['the quick brown fox', 'a slow fish', 'the bird jumped over the river', '']
    const refs = [
      ['the fox is quick'],
      ['fish and birds'],
      ['a bird', 'the river is cold'],
      ['a cat'],
    ]
    const a = await scorer.score(preds, refs)
    const b = await scorer.score(preds, refs)
    expect(b).toEqual(a)
    const one = await loadBertScorer({ modelDir: dir, batchSize: 1, threads: 1 })
    try {
      const c = await one.score(preds, refs)
      c.forEach((s, i) => expectClose(s, a[i]!, 1e-6))
    } finally {
      await one.close()
    }
  })

  it('takes the max of P, R and F separately over several references', async () => {
    const pred = 'the cat sat on the mat'
    const r1 = 'the cat'
    const r2 = 'a dog sat on a big red mat in the house'
    const [both] = await scorer.score([pred], [[r1, r2]])
    const [s1, s2] = await scorer.score([pred, pred], [[r1], [r2]])
    expect(both).toEqual({
      precision: Math.max(s1!.precision, s2!.precision),
      recall: Math.max(s1!.recall, s2!.recall),
      f1: Math.max(s1!.f1, s2!.f1),
    })
  })

  it('scores an empty (or blank) candidate 0, and counts it', async () => {
    const before = (scorer.describe()['counts'] as { emptyPredictions: number }).emptyPredictions
    const res = await scorer.score(['', ' \t\n'], [['a cat'], ['a dog']])
    expect(res).toEqual([
      { precision: 0, recall: 0, f1: 0 },
      { precision: 0, recall: 0, f1: 0 },
    ])
    expect((scorer.describe()['counts'] as { emptyPredictions: number }).emptyPredictions).toBe(
      before + 2,
    )
  })

  it('refuses an empty reference list and mismatched lengths with an InputError', async () => {
    expect(await issuesOf(scorer.score(['a', 'b', 'c'], [['a'], [], []]))).toEqual([
      'references: expected at least one reference per prediction (bert_score raises on an empty list), found "no reference for prediction(s) at index 1, 2"',
    ])
    await expect(scorer.score(['a'], [])).rejects.toBeInstanceOf(InputError)
  })

  it('describes the model, the layer and the options', () => {
    const d = scorer.describe()
    expect(d).toMatchObject({
      metric: 'bertscore',
      model: 'tiny-random-bert',
      layer: 2,
      output: 'last_hidden_state',
      idf: false,
      rescale: false,
      baseline: null,
    })
    expect(d['modelSha256']).toBe(
      createHash('sha256')
        .update(readFileSync(join(dir, 'model.onnx')))
        .digest('hex'),
    )
    expect(d['hash']).toMatch(
      /^tiny-random-bert_L2_no-idf_version=bert_score-0\.3\.13-compatible\(trecscore,onnxruntime-node=1\.30\.0,onnx-sha256=[0-9a-f]{12}\)$/,
    )
    expect(d['tokenizer']).toEqual({
      kind: 'wordpiece',
      addPrefixSpace: false,
      maxLength: 40,
      clsId: CLS,
      sepId: SEP,
      padId: 0,
    })
  })
})

describe('layers and rescaling', () => {
  const dir = join(root, 'layers')
  let weights: TinyBertWeights
  beforeAll(() => {
    weights = writeTinyBert(dir)
  })

  it('layer L reads the hidden_states.L output', async () => {
    const s = await loadBertScorer({ modelDir: dir, layer: 1, threads: 1 })
    try {
      expect(s.describe()).toMatchObject({ layer: 1, output: 'hidden_states.1' })
      const [got] = await s.score(['the cat sat'], [['a dog sat on the mat']])
      const e = (t: string) => tinyBertForward(weights, idsOf(t))[1]!
      expectClose(
        got!,
        naive(
          e('the cat sat'),
          idsOf('the cat sat'),
          e('a dog sat on the mat'),
          idsOf('a dog sat on the mat'),
          (id) => (id === CLS || id === SEP ? 0 : 1),
        ),
        1e-5,
      )
    } finally {
      await s.close()
    }
  })

  it('rescales P, R and F with the baseline row of the layer: (x − b)/(1 − b)', async () => {
    const tsv = join(dir, 'baseline.tsv')
    writeFileSync(tsv, 'LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.5,0.6,0.7\n2,0.81,0.82,0.83\n')
    const raw = await loadBertScorer({ modelDir: dir, threads: 1 })
    const scaled = await loadBertScorer({ modelDir: dir, baselineFile: tsv, threads: 1 })
    try {
      const preds = ['the cat sat on the mat', 'the cat sat on the mat']
      const refs = [['a dog sat on a mat'], ['the cat sat on the mat']]
      const r = await raw.score(preds, refs)
      const s = await scaled.score(preds, refs)
      expect(s[0]!.precision).toBeCloseTo((r[0]!.precision - 0.81) / (1 - 0.81), 12)
      expect(s[0]!.recall).toBeCloseTo((r[0]!.recall - 0.82) / (1 - 0.82), 12)
      expect(s[0]!.f1).toBeCloseTo((r[0]!.f1 - 0.83) / (1 - 0.83), 12)
      expectClose(s[1]!, { precision: 1, recall: 1, f1: 1 }, 1e-5) // 1 stays 1 (float32 slack / (1 − b))
      expect(scaled.describe()).toMatchObject({
        rescale: true,
        baseline: { file: tsv, layer: 2, precision: 0.81, recall: 0.82, f1: 0.83 },
      })
      expect(String(scaled.describe()['hash'])).toMatch(/-rescaled$/)
    } finally {
      await raw.close()
      await scaled.close()
    }
  })

  it('refuses a layer the model does not expose, rescaling without a baseline, a baseline without the row', async () => {
    expect(await issuesOf(loadBertScorer({ modelDir: dir, layer: 5 }))).toEqual([
      `layer: expected 2: ${join(dir, 'model.onnx')}'s last_hidden_state is layer 2 (config.json num_hidden_layers); export the encoder cut to 5 layers, or with hidden_states.5 outputs, found "5"`,
    ])
    expect(await issuesOf(loadBertScorer({ modelDir: dir, rescale: true }))).toEqual([
      'rescale: expected a baseline file (bert_score\'s rescale_baseline/<lang>/<model>.tsv) to rescale with, found "true"',
    ])
    const short = join(dir, 'short.tsv')
    writeFileSync(short, 'LAYER,P,R,F\n0,0.1,0.2,0.3\n')
    expect(await issuesOf(loadBertScorer({ modelDir: dir, baselineFile: short }))).toEqual([
      `layer: expected a layer with a row in ${short} (0..0), found "2"`,
    ])
    expect(await issuesOf(loadBertScorer({ modelDir: dir, layer: -1, batchSize: 0 }))).toHaveLength(
      2,
    )
  })

  it('a graph with only last_hidden_state: the layer is checked against config.json', async () => {
    const only = join(root, 'last-only')
    writeTinyBert(only, { hiddenStateOutputs: false })
    const s = await loadBertScorer({ modelDir: only, layer: 2, threads: 1 })
    expect(s.describe()).toMatchObject({
      layer: 2,
      output: 'last_hidden_state',
      layerSource: 'output last_hidden_state = layer 2 (config.json num_hidden_layers)',
    })
    await s.close()
    expect(await issuesOf(loadBertScorer({ modelDir: only, layer: 1 }))).toHaveLength(1)
  })
})

describe('a folder without config.json', () => {
  it('takes the layer as given (and says it is unchecked), and needs it to rescale', async () => {
    const dir = join(root, 'no-config')
    writeTinyBert(dir, { withConfig: false, hiddenStateOutputs: false })
    const tsv = join(dir, 'baseline.tsv')
    writeFileSync(tsv, 'LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.5,0.6,0.7\n2,0.81,0.82,0.83\n')
    expect(await issuesOf(loadBertScorer({ modelDir: dir, baselineFile: tsv }))).toEqual([
      'layer: expected the layer number, to pick the baseline row (config.json has no num_hidden_layers), found "(none)"',
    ])
    const s = await loadBertScorer({ modelDir: dir, layer: 2, baselineFile: tsv })
    try {
      expect(s.describe()).toMatchObject({
        model: 'no-config',
        layer: 2,
        layerSource:
          'output last_hidden_state, taken as layer 2 as given (not checked: no num_hidden_layers in config.json)',
        baseline: { layer: 2 },
      })
      const [same] = await s.score(['a red bird'], [['a red bird']])
      expectClose(same!, { precision: 1, recall: 1, f1: 1 }, 1e-5)
    } finally {
      await s.close()
    }
    const unknown = await loadBertScorer({ modelDir: dir })
    expect(unknown.describe()).toMatchObject({ layer: null })
    expect(String(unknown.describe()['hash'])).toMatch(/^no-config_L\?_no-idf_/)
    await unknown.close()
  })
})

describe('model folder problems', () => {
  it('reports a missing model.onnx and tokenizer.json together', async () => {
    const empty = join(root, 'empty')
    mkdirSync(empty, { recursive: true })
    expect(await issuesOf(loadBertScorer({ modelDir: empty }))).toEqual([
      `${join(empty, 'model.onnx')}: cannot read: missing: the model folder needs model.onnx (the encoder exported to ONNX; see the README, BERTScore)`,
      `${join(empty, 'tokenizer.json')}: cannot read: missing: the model folder needs the model's Hugging Face tokenizer.json`,
    ])
    expect(await issuesOf(loadBertScorer({ modelDir: join(root, 'nowhere') }))).toHaveLength(1)
  })

  it('reports junk model.onnx and invalid tokenizer.json as input errors, not crashes', async () => {
    const junk = join(root, 'junk')
    writeTinyBert(junk)
    writeFileSync(join(junk, 'tokenizer.json'), '{"model": ')
    expect((await issuesOf(loadBertScorer({ modelDir: junk })))[0]).toMatch(
      /tokenizer\.json: cannot read: not valid JSON/,
    )
    writeTinyBert(junk)
    writeFileSync(
      join(junk, 'model.onnx'),
      Buffer.from('\u0000\u00ff binary junk, not a protobuf'.repeat(50)),
    )
    expect((await issuesOf(loadBertScorer({ modelDir: junk })))[0]).toMatch(
      /model\.onnx: cannot read: onnxruntime cannot load it/,
    )
  })

  it('refuses a maximum length beyond the model positions; an ONNX failure while scoring is an input error', async () => {
    const dir = join(root, 'positions')
    writeTinyBert(dir)
    expect(await issuesOf(loadBertScorer({ modelDir: dir, maxLength: 41 }))).toEqual([
      'maxLength: expected at most 40, the positions the model has (config.json max_position_embeddings), found "41"',
    ])
    // Without config.json nothing tells the 40 positions: position 40 fails inside onnxruntime.
    const blind = join(root, 'positions-blind')
    writeTinyBert(blind, { withConfig: false, maxLength: 64 })
    const s = await loadBertScorer({ modelDir: blind, threads: 1 })
    try {
      expect((await issuesOf(s.score(['the cat '.repeat(30)], [['a cat']])))[0]).toMatch(
        /model\.onnx: cannot read: onnxruntime failed on a batch of 2 text\(s\) of up to 62 tokens: /,
      )
    } finally {
      await s.close()
    }
  })

  it('checks bertscore-manifest.json hashes and layer', async () => {
    const m = join(root, 'manifest')
    writeTinyBert(m)
    const sha = (f: string) =>
      createHash('sha256')
        .update(readFileSync(join(m, f)))
        .digest('hex')
    writeFileSync(
      join(m, 'bertscore-manifest.json'),
      JSON.stringify({
        model: 'tiny',
        revision: 'test',
        layer: 2,
        model_sha256: sha('model.onnx'),
        tokenizer_sha256: sha('tokenizer.json'),
      }),
    )
    const s = await loadBertScorer({ modelDir: m, threads: 1 })
    expect(s.describe()).toMatchObject({ model: 'tiny', layer: 2 })
    await s.close()
    writeFileSync(
      join(m, 'bertscore-manifest.json'),
      JSON.stringify({
        model: 'tiny',
        layer: 2,
        model_sha256: '0'.repeat(64),
        tokenizer_sha256: sha('tokenizer.json'),
      }),
    )
    const issues = await issuesOf(loadBertScorer({ modelDir: m, layer: 1 }))
    expect(issues).toHaveLength(2)
    expect(issues[0]).toMatch(/model_sha256: expected the manifest's 0{64}/)
  })
})

describe('truncation and byte-level BPE', () => {
  it('truncates texts longer than model_max_length and counts them', async () => {
    const dir = join(root, 'short-max')
    writeTinyBert(dir, { maxLength: 6 })
    const s = await loadBertScorer({ modelDir: dir, threads: 1 })
    try {
      // 6 = [CLS] + 4 word pieces + [SEP]: "the cat sat on the mat" is cut to "the cat sat on".
      const [long, cut] = await s.score(
        ['the cat sat on the mat', 'the cat sat on'],
        [['a dog'], ['a dog']],
      )
      expect(long).toEqual(cut)
      expect(s.describe()['counts']).toMatchObject({ truncatedTexts: 1 })
      // Hostile input: a very long text is truncated, not a crash.
      const [huge] = await s.score(['fish '.repeat(200_000)], [['fish fish fish fish']])
      expectClose(huge!, { precision: 1, recall: 1, f1: 1 }, 1e-6)
      expect(s.describe()['counts']).toMatchObject({ truncatedTexts: 2 })
    } finally {
      await s.close()
    }
  })

  it('a RoBERTa-style byte-level BPE tokenizer gets the leading space bert_score adds', async () => {
    const dir = join(root, 'bpe')
    writeTinyBert(dir, { tokenizer: 'bpe' })
    const s = await loadBertScorer({ modelDir: dir, threads: 1 })
    try {
      expect(s.describe()['tokenizer']).toMatchObject({
        kind: 'byte-level-bpe',
        addPrefixSpace: true,
        clsId: 0,
        sepId: 2,
        padId: 1,
      })
      // "cat sat" is encoded as " cat sat": Ġcat Ġsat, the same as " cat sat  " after strip.
      const [a] = await s.score(['cat sat'], [['  cat sat  ']])
      expectClose(a!, { precision: 1, recall: 1, f1: 1 }, 1e-6)
      const [b] = await s.score(['the cat sat'], [['the dog sat on the mat']])
      expect(b!.f1).toBeLessThan(0.999)
    } finally {
      await s.close()
    }
  })
})
