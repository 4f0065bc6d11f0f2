/**
 * A tiny random BERT for tests, built in pure Node at test time: seeded weights, an ONNX graph
 * (opset 17) written by `onnx-writer.ts`, a WordPiece (or byte-level BPE) `tokenizer.json`, and
 * a plain float64 JavaScript forward pass of the same weights, so a test can check that the
 * model onnxruntime ran is the model written here.
 *
 * Architecture (post-LayerNorm BERT): word + position + token-type embeddings, LayerNorm; then
 * per layer multi-head self-attention (Q/K/V MatMul+Add, Reshape/Transpose into heads,
 * QKᵀ/√d, additive mask bias (1 − mask)·(−10000), Softmax, output projection, residual,
 * LayerNorm) and a feed-forward block (GELU via Erf, residual, LayerNorm). Outputs:
 * `last_hidden_state` and `hidden_states.0 … hidden_states.L` (0 = the embedding output).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRng } from '../../../src/stats/random.js'
import { encodeModel, FLOAT, type GraphNode, INT64, type Initializer } from './onnx-writer.js'

export interface TinyBertConfig {
  readonly vocabSize: number
  readonly hidden: number
  readonly heads: number
  readonly intermediate: number
  readonly layers: number
  readonly positions: number
  readonly seed: number
}

export const DEFAULT_TINY_BERT: TinyBertConfig = {
  vocabSize: 64,
  hidden: 8,
  heads: 2,
  intermediate: 16,
  layers: 2,
  positions: 40,
  seed: 20261130,
}

/** Weights as float32 (what the ONNX file holds), shapes in comments. */
export interface TinyBertWeights {
  readonly config: TinyBertConfig
  readonly tensors: ReadonlyMap<string, { dims: number[]; data: Float32Array }>
}

/** Seeded weights: uniform(−a, a) matrices, LayerNorm gains near 1. */
export function tinyBertWeights(config: TinyBertConfig = DEFAULT_TINY_BERT): TinyBertWeights {
  const rng = createRng(config.seed)
  const tensors = new Map<string, { dims: number[]; data: Float32Array }>()
  const add = (name: string, dims: number[], gen: () => number) => {
    const n = dims.reduce((a, b) => a * b, 1)
    const data = new Float32Array(n)
    for (let i = 0; i < n; i++) data[i] = gen()
    tensors.set(name, { dims, data })
  }
  const u = (a: number) => () => (rng.next() * 2 - 1) * a
  const gain = () => 1 + (rng.next() * 2 - 1) * 0.2
  const { hidden: h, intermediate: m } = config
  add('word_emb', [config.vocabSize, h], u(1))
  add('pos_emb', [config.positions, h], u(0.3))
  add('type_emb', [2, h], u(0.1))
  add('ln0_g', [h], gain)
  add('ln0_b', [h], u(0.1))
  const wa = 1 / Math.sqrt(h)
  for (let l = 0; l < config.layers; l++) {
    for (const p of ['q', 'k', 'v', 'o']) {
      add(`l${l}_w${p}`, [h, h], u(wa * 1.5))
      add(`l${l}_b${p}`, [h], u(0.1))
    }
    add(`l${l}_ln1_g`, [h], gain)
    add(`l${l}_ln1_b`, [h], u(0.1))
    add(`l${l}_w1`, [h, m], u(wa * 1.5))
    add(`l${l}_b1`, [m], u(0.1))
    add(`l${l}_w2`, [m, h], u(1.5 / Math.sqrt(m)))
    add(`l${l}_b2`, [h], u(0.1))
    add(`l${l}_ln2_g`, [h], gain)
    add(`l${l}_ln2_b`, [h], u(0.1))
  }
  return { config, tensors }
}

const LN_EPS = 1e-12
const MASK_BIAS = -10000

/** The ONNX bytes of the model with these weights. */
export function tinyBertOnnx(w: TinyBertWeights, hiddenStateOutputs = true): Uint8Array {
  const { hidden: h, heads: nh, layers } = w.config
  const dh = h / nh
  const inits: Initializer[] = [...w.tensors].map(([name, t]) => ({
    name,
    dims: t.dims,
    data: t.data,
  }))
  const f = (name: string, values: number[], dims: number[] = []) =>
    inits.push({ name, dims, data: Float32Array.from(values) })
  const i64 = (name: string, values: number[], dims: number[] = [values.length]) =>
    inits.push({ name, dims, data: BigInt64Array.from(values.map(BigInt)) })
  i64('zero_i', [0], [])
  i64('one_i', [1], [])
  i64('axes_12', [1, 2])
  i64('shape_heads', [0, 0, nh, dh])
  i64('shape_merge', [0, 0, h])
  f('one_f', [1])
  f('half_f', [0.5])
  f('sqrt2_f', [Math.SQRT2])
  f('mask_bias_f', [MASK_BIAS])
  f('scale_f', [1 / Math.sqrt(dh)])
  const nodes: GraphNode[] = []
  const op = (
    o: string,
    inputs: string[],
    output: string,
    attrs?: GraphNode['attrs'],
    floats?: string[],
  ) =>
    nodes.push({
      op: o,
      inputs,
      outputs: [output],
      ...(attrs ? { attrs } : {}),
      ...(floats ? { floats } : {}),
    })
  const ln = (x: string, g: string, b: string, out: string) =>
    op('LayerNormalization', [x, g, b], out, { axis: -1, epsilon: LN_EPS }, ['epsilon'])
  // Embeddings.
  op('Gather', ['word_emb', 'input_ids'], 'we', { axis: 0 })
  op('Shape', ['input_ids'], 'ids_shape')
  op('Gather', ['ids_shape', 'one_i'], 'seq_len', { axis: 0 })
  op('Range', ['zero_i', 'seq_len', 'one_i'], 'pos_ids')
  op('Gather', ['pos_emb', 'pos_ids'], 'pe', { axis: 0 })
  op('Gather', ['type_emb', 'token_type_ids'], 'te', { axis: 0 })
  op('Add', ['we', 'pe'], 'e1')
  op('Add', ['e1', 'te'], 'e2')
  ln('e2', 'ln0_g', 'ln0_b', 'h0')
  // Attention mask bias [B,1,1,S].
  op('Cast', ['attention_mask'], 'mask_f', { to: FLOAT })
  op('Unsqueeze', ['mask_f', 'axes_12'], 'mask4')
  op('Sub', ['one_f', 'mask4'], 'inv_mask')
  op('Mul', ['inv_mask', 'mask_bias_f'], 'mask_bias')
  let x = 'h0'
  for (let l = 0; l < layers; l++) {
    const p = `l${l}_`
    for (const [name, perm] of [
      ['q', [0, 2, 1, 3]],
      ['k', [0, 2, 3, 1]],
      ['v', [0, 2, 1, 3]],
    ] as const) {
      op('MatMul', [x, `${p}w${name}`], `${p}${name}0`)
      op('Add', [`${p}${name}0`, `${p}b${name}`], `${p}${name}1`)
      op('Reshape', [`${p}${name}1`, 'shape_heads'], `${p}${name}2`)
      op('Transpose', [`${p}${name}2`], `${p}${name}h`, { perm: [...perm] })
    }
    op('MatMul', [`${p}qh`, `${p}kh`], `${p}s0`)
    op('Mul', [`${p}s0`, 'scale_f'], `${p}s1`)
    op('Add', [`${p}s1`, 'mask_bias'], `${p}s2`)
    op('Softmax', [`${p}s2`], `${p}pr`, { axis: -1 })
    op('MatMul', [`${p}pr`, `${p}vh`], `${p}c0`)
    op('Transpose', [`${p}c0`], `${p}c1`, { perm: [0, 2, 1, 3] })
    op('Reshape', [`${p}c1`, 'shape_merge'], `${p}ctx`)
    op('MatMul', [`${p}ctx`, `${p}wo`], `${p}a0`)
    op('Add', [`${p}a0`, `${p}bo`], `${p}a1`)
    op('Add', [`${p}a1`, x], `${p}r1`)
    ln(`${p}r1`, `${p}ln1_g`, `${p}ln1_b`, `${p}x1`)
    op('MatMul', [`${p}x1`, `${p}w1`], `${p}f0`)
    op('Add', [`${p}f0`, `${p}b1`], `${p}f1`)
    op('Div', [`${p}f1`, 'sqrt2_f'], `${p}g0`)
    op('Erf', [`${p}g0`], `${p}g1`)
    op('Add', [`${p}g1`, 'one_f'], `${p}g2`)
    op('Mul', [`${p}f1`, `${p}g2`], `${p}g3`)
    op('Mul', [`${p}g3`, 'half_f'], `${p}g4`)
    op('MatMul', [`${p}g4`, `${p}w2`], `${p}f2`)
    op('Add', [`${p}f2`, `${p}b2`], `${p}f3`)
    op('Add', [`${p}f3`, `${p}x1`], `${p}r2`)
    ln(`${p}r2`, `${p}ln2_g`, `${p}ln2_b`, `h${l + 1}`)
    x = `h${l + 1}`
  }
  op('Identity', [x], 'last_hidden_state')
  if (hiddenStateOutputs)
    for (let l = 0; l <= layers; l++) op('Identity', [`h${l}`], `hidden_states.${l}`)
  const idsInfo = (name: string) => ({ name, elemType: INT64, shape: ['batch', 'sequence'] })
  const outInfo = (name: string) => ({ name, elemType: FLOAT, shape: ['batch', 'sequence', h] })
  return encodeModel({
    name: 'tiny_random_bert',
    irVersion: 8,
    opset: 17,
    nodes,
    initializers: inits,
    inputs: [idsInfo('input_ids'), idsInfo('attention_mask'), idsInfo('token_type_ids')],
    outputs: [
      outInfo('last_hidden_state'),
      ...(hiddenStateOutputs
        ? Array.from({ length: layers + 1 }, (_, l) => outInfo(`hidden_states.${l}`))
        : []),
    ],
  })
}

/** erf in float64: Maclaurin series for |x| < 5 (error far below 1e-9 there), ±1 beyond. */
export function erf(x: number): number {
  if (Math.abs(x) >= 5) return Math.sign(x)
  let term = x
  let sum = x
  for (let n = 1; n < 200; n++) {
    term *= (-x * x) / n
    const add = term / (2 * n + 1)
    sum += add
    if (Math.abs(add) < 1e-17 * Math.abs(sum)) break
  }
  return (2 / Math.sqrt(Math.PI)) * sum
}

/**
 * The float64 forward pass of the same weights for one unpadded sequence (token type 0):
 * returns hidden states 0..L, each `[seq][hidden]`.
 */
export function tinyBertForward(w: TinyBertWeights, ids: readonly number[]): number[][][] {
  const { hidden: h, heads: nh, layers } = w.config
  const dh = h / nh
  const t = (name: string) => w.tensors.get(name)!.data
  const s = ids.length
  const layerNorm = (rows: number[][], g: Float32Array, b: Float32Array) =>
    rows.map((r) => {
      const mean = r.reduce((a, v) => a + v, 0) / h
      const variance = r.reduce((a, v) => a + (v - mean) ** 2, 0) / h
      return r.map((v, k) => ((v - mean) / Math.sqrt(variance + LN_EPS)) * g[k]! + b[k]!)
    })
  const linear = (rows: number[][], wName: string, bName: string) => {
    const W = t(wName)
    const B = t(bName)
    const [n, m] = w.tensors.get(wName)!.dims as [number, number]
    return rows.map((r) =>
      Array.from({ length: m }, (_, j) => {
        let acc = 0
        for (let k = 0; k < n; k++) acc += r[k]! * W[k * m + j]!
        return acc + B[j]!
      }),
    )
  }
  const we = t('word_emb')
  const pe = t('pos_emb')
  const te = t('type_emb')
  let x = layerNorm(
    ids.map((id, p) =>
      Array.from({ length: h }, (_, k) => we[id * h + k]! + pe[p * h + k]! + te[k]!),
    ),
    t('ln0_g'),
    t('ln0_b'),
  )
  const states = [x]
  for (let l = 0; l < layers; l++) {
    const p = `l${l}_`
    const q = linear(x, `${p}wq`, `${p}bq`)
    const k = linear(x, `${p}wk`, `${p}bk`)
    const v = linear(x, `${p}wv`, `${p}bv`)
    const ctx = Array.from({ length: s }, () => new Array<number>(h).fill(0))
    for (let head = 0; head < nh; head++) {
      const o = head * dh
      for (let i = 0; i < s; i++) {
        const scores = Array.from({ length: s }, (_, j) => {
          let acc = 0
          for (let c = 0; c < dh; c++) acc += q[i]![o + c]! * k[j]![o + c]!
          return acc / Math.sqrt(dh)
        })
        const mx = Math.max(...scores)
        const e = scores.map((z) => Math.exp(z - mx))
        const z = e.reduce((a, b) => a + b, 0)
        for (let j = 0; j < s; j++)
          for (let c = 0; c < dh; c++) ctx[i]![o + c]! += (e[j]! / z) * v[j]![o + c]!
      }
    }
    const a = linear(ctx, `${p}wo`, `${p}bo`)
    const x1 = layerNorm(
      a.map((r, i) => r.map((val, c) => val + x[i]![c]!)),
      t(`${p}ln1_g`),
      t(`${p}ln1_b`),
    )
    const f = linear(x1, `${p}w1`, `${p}b1`).map((r) =>
      r.map((val) => 0.5 * val * (1 + erf(val / Math.SQRT2))),
    )
    const f2 = linear(f, `${p}w2`, `${p}b2`)
    x = layerNorm(
      f2.map((r, i) => r.map((val, c) => val + x1[i]![c]!)),
      t(`${p}ln2_g`),
      t(`${p}ln2_b`),
    )
    states.push(x)
  }
  return states
}

/** The WordPiece vocabulary: specials first, then words and `##` pieces (ids are positions). */
export const WORDPIECE_VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'the',
  'a',
  'cat',
  'dog',
  'sat',
  'on',
  'mat',
  'run',
  '##ning',
  '##s',
  'is',
  'was',
  'and',
  'of',
  'in',
  'to',
  'big',
  'small',
  'red',
  'blue',
  'house',
  'tree',
  'river',
  'city',
  'paris',
  'france',
  'capital',
  'answer',
  'question',
  'water',
  'boils',
  'at',
  '100',
  'degrees',
  'hot',
  'cold',
  'fast',
  'slow',
  'bird',
  'fish',
  'jump',
  '##ed',
  'over',
  'lazy',
  'brown',
  'fox',
  'quick',
  '.',
  ',',
  '?',
]

/** A Hugging Face `tokenizer.json` for {@link WORDPIECE_VOCAB}: lowercasing BERT normaliser, `[CLS] $A [SEP]`. */
export function wordPieceTokenizerJson(): object {
  const vocab = Object.fromEntries(WORDPIECE_VOCAB.map((w, i) => [w, i]))
  const special = (content: string) => ({
    id: vocab[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  })
  const tok = (id: string, typeId: number) => ({ SpecialToken: { id, type_id: typeId } })
  const seq = (id: string, typeId: number) => ({ Sequence: { id, type_id: typeId } })
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [tok('[CLS]', 0), seq('A', 0), tok('[SEP]', 0)],
      pair: [tok('[CLS]', 0), seq('A', 0), tok('[SEP]', 0), seq('B', 1), tok('[SEP]', 1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  }
}

/** Byte-level BPE pieces (RoBERTa style, `Ġ` = a space before the word): specials, letters, merges. */
const BPE_SPECIALS = ['<s>', '<pad>', '</s>', '<unk>']
const BPE_MERGES = [
  'Ġ c',
  'a t',
  'Ġc at',
  'Ġ s',
  'Ġs at',
  'Ġ o',
  'Ġo n',
  'Ġ m',
  'Ġm at',
  'Ġ d',
  'o g',
  'Ġd og',
  'Ġ t',
  'h e',
  'Ġt he',
]

/** A RoBERTa-like byte-level BPE `tokenizer.json` (no normaliser, `<s> $A </s>`). */
export function byteLevelBpeTokenizerJson(): object {
  const vocab: Record<string, number> = {}
  for (const t of [...BPE_SPECIALS, 'Ġ', ...'abcdefghijklmnopqrstuvwxyz.,'])
    vocab[t] = Object.keys(vocab).length
  for (const m of BPE_MERGES) {
    const piece = m.replace(' ', '')
    if (!(piece in vocab)) vocab[piece] = Object.keys(vocab).length
  }
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: BPE_SPECIALS.map((content) => ({
      id: vocab[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: null,
    pre_tokenizer: {
      type: 'ByteLevel',
      add_prefix_space: false,
      trim_offsets: true,
      use_regex: true,
    },
    post_processor: {
      type: 'RobertaProcessing',
      sep: ['</s>', vocab['</s>']],
      cls: ['<s>', vocab['<s>']],
      trim_offsets: true,
      add_prefix_space: false,
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges: BPE_MERGES,
    },
  }
}

export interface WriteTinyBertOptions {
  readonly config?: TinyBertConfig
  readonly tokenizer?: 'wordpiece' | 'bpe'
  /** `model_max_length` in tokenizer_config.json (default: the model's positions). */
  readonly maxLength?: number
  /** Write config.json (default true). */
  readonly withConfig?: boolean
  /** Add the `hidden_states.<l>` outputs (default true); without them only `last_hidden_state`. */
  readonly hiddenStateOutputs?: boolean
}

/** Writes model.onnx, tokenizer.json, tokenizer_config.json and config.json into `dir`. */
export function writeTinyBert(dir: string, options: WriteTinyBertOptions = {}): TinyBertWeights {
  const w = tinyBertWeights(options.config ?? DEFAULT_TINY_BERT)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'model.onnx'), tinyBertOnnx(w, options.hiddenStateOutputs ?? true))
  const bpe = options.tokenizer === 'bpe'
  writeFileSync(
    join(dir, 'tokenizer.json'),
    JSON.stringify(bpe ? byteLevelBpeTokenizerJson() : wordPieceTokenizerJson()),
  )
  const maxLength = options.maxLength ?? w.config.positions
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify(
      bpe
        ? {
            tokenizer_class: 'RobertaTokenizer',
            model_max_length: maxLength,
            bos_token: '<s>',
            eos_token: '</s>',
            cls_token: '<s>',
            sep_token: '</s>',
            pad_token: '<pad>',
            unk_token: '<unk>',
          }
        : {
            tokenizer_class: 'BertTokenizer',
            model_max_length: maxLength,
            do_lower_case: true,
            cls_token: '[CLS]',
            sep_token: '[SEP]',
            pad_token: '[PAD]',
            unk_token: '[UNK]',
          },
    ),
  )
  if (options.withConfig ?? true) {
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        _name_or_path: 'tiny-random-bert',
        model_type: 'bert',
        num_hidden_layers: w.config.layers,
        hidden_size: w.config.hidden,
        num_attention_heads: w.config.heads,
        intermediate_size: w.config.intermediate,
        max_position_embeddings: w.config.positions,
        vocab_size: w.config.vocabSize,
      }),
    )
  }
  return w
}
