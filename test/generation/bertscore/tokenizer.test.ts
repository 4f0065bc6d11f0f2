/**
 * bert_score's `sent_encode` rules on tokenizer.json files: strip, empty text, specials,
 * RoBERTa's prefix space, truncation (and the prefix shortcut for long texts).
 */
import { Tokenizer } from '@huggingface/tokenizers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatIssue } from '../../../src/errors/format-issue.js'
import { InputError } from '../../../src/errors/trecscore-error.js'
import {
  createBertScoreTokenizer,
  pythonStrip,
} from '../../../src/generation/bertscore/tokenizer.js'
import { byteLevelBpeTokenizerJson, WORDPIECE_VOCAB, wordPieceTokenizerJson } from './tiny-bert.js'

function issueOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    if (e instanceof InputError) return e.issues.map(formatIssue).join('\n')
    throw e
  }
  throw new Error('expected an InputError')
}

const id = (w: string) => WORDPIECE_VOCAB.indexOf(w)

describe('pythonStrip', () => {
  it("removes what Python's str.strip() removes, and nothing else", () => {
    expect(pythonStrip('\u3000\x1c a b \x85\u2029')).toBe('a b')
    expect(pythonStrip('\ufeffa\u200b')).toBe('\ufeffa\u200b') // not whitespace for Python
    expect(pythonStrip(' \t\n\r\x0b\x0c')).toBe('')
  })
})

describe('WordPiece (BERT)', () => {
  const tok = createBertScoreTokenizer({
    tokenizer: wordPieceTokenizerJson(),
    tokenizerConfig: { model_max_length: 10, cls_token: '[CLS]', sep_token: '[SEP]' },
    file: 't.json',
  })

  it('adds [CLS] … [SEP], lowercases, splits word pieces, no prefix space', () => {
    expect(tok).toMatchObject({
      kind: 'wordpiece',
      clsId: id('[CLS]'),
      sepId: id('[SEP]'),
      padId: id('[PAD]'),
      maxLength: 10,
      addPrefixSpace: false,
    })
    expect(tok.encode('  The running Dogs?  ')).toEqual({
      ids: [2, id('the'), id('run'), id('##ning'), id('dog'), id('##s'), id('?'), 3],
      truncated: false,
    })
    expect(tok.encode('zebra').ids).toEqual([2, id('[UNK]'), 3])
  })

  it('encodes an empty or blank text as [CLS] [SEP]', () => {
    expect(tok.encode('')).toEqual({ ids: [2, 3], truncated: false })
    expect(tok.encode(' \n\u3000')).toEqual({ ids: [2, 3], truncated: false })
  })

  it('truncates to model_max_length − 2 word pieces and says so', () => {
    // 10 = [CLS] + 8 + [SEP].
    expect(tok.encode('the cat sat on the mat and the dog sat on a mat')).toEqual({
      ids: [2, ...['the', 'cat', 'sat', 'on', 'the', 'mat', 'and', 'the'].map(id), 3],
      truncated: true,
    })
    expect(tok.encode('the cat sat on the mat and the').truncated).toBe(false)
  })

  it('long texts: the prefix shortcut gives exactly the full tokenization, truncated', () => {
    const full = new Tokenizer(wordPieceTokenizerJson(), {})
    const word = fc.constantFrom(
      'the',
      'cat',
      'running',
      'dogs',
      'zebra',
      '.',
      'Paris,',
      'x'.repeat(150),
      '',
      '\u200b',
    )
    const gap = fc.constantFrom(' ', '  ', '\n', '\t', ' \r\n')
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, gap), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 3000 }),
        (words, pad) => {
          // A run of blanks (tokens-free) first, so the cut points land in various places.
          const text =
            ' \u200b'.repeat(pad) +
            words
              .map(([w, g]) => w + g)
              .join('')
              .repeat(200)
          const expected = full.encode(pythonStrip(text), { add_special_tokens: false }).ids
          const got = tok.encode(text)
          expect(got.truncated).toBe(expected.length > 8)
          expect(got.ids).toEqual([2, ...expected.slice(0, 8), 3])
        },
      ),
      { numRuns: 25 },
    )
  })

  it('long texts: the shortcut never cuts inside a word', () => {
    // "dogsx" is one [UNK] (no ##x piece), but its prefix "dogs" is dog ##s: a cut at index
    // 4096 (between "s" and "x") would give 7 + 2 > 8 pieces and the wrong 8th piece.
    const text = `the${' '.repeat(4064)}${' the'.repeat(6)} dogsx${' cat'.repeat(20)}`
    expect(text.slice(4092, 4097)).toBe('dogsx')
    expect(tok.encode(text)).toEqual({
      ids: [2, ...Array(7).fill(id('the')), id('[UNK]'), 3],
      truncated: true,
    })
  })

  it('refuses a tokenizer.json without 2 specials around a text, or specials that disagree with tokenizer_config.json', () => {
    const noPost = { ...wordPieceTokenizerJson(), post_processor: null }
    expect(() => createBertScoreTokenizer({ tokenizer: noPost, file: 't.json' })).toThrow(
      InputError,
    )
    expect(
      issueOf(() =>
        createBertScoreTokenizer({
          tokenizer: wordPieceTokenizerJson(),
          tokenizerConfig: { cls_token: '[SEP]' },
          file: 't.json',
        }),
      ),
    ).toBe(
      `t.json: cannot read: tokenizer_config.json's cls_token "[SEP]" is id 3, but the post-processor adds id 2`,
    )
    expect(() => createBertScoreTokenizer({ tokenizer: { hello: 1 }, file: 't.json' })).toThrow(
      InputError,
    )
    expect(() =>
      createBertScoreTokenizer(
        { tokenizer: wordPieceTokenizerJson(), file: 't.json' },
        { maxLength: 2 },
      ),
    ).toThrow(InputError)
  })

  it('takes the maximum length from config.json when tokenizer_config.json has none (RoBERTa: positions − 2)', () => {
    expect(
      createBertScoreTokenizer({
        tokenizer: wordPieceTokenizerJson(),
        modelConfig: { model_type: 'bert', max_position_embeddings: 512 },
        file: 't',
      }).maxLength,
    ).toBe(512)
    expect(
      createBertScoreTokenizer({
        tokenizer: wordPieceTokenizerJson(),
        modelConfig: { model_type: 'roberta', max_position_embeddings: 514 },
        file: 't',
      }).maxLength,
    ).toBe(512)
    expect(
      createBertScoreTokenizer({
        tokenizer: wordPieceTokenizerJson(),
        tokenizerConfig: { model_max_length: 1e30 },
        file: 't',
      }).maxLength,
    ).toBe(512)
  })
})

describe('byte-level BPE (RoBERTa)', () => {
  const json = byteLevelBpeTokenizerJson() as { model: { vocab: Record<string, number> } }
  const v = (piece: string) => json.model.vocab[piece]!
  const tok = createBertScoreTokenizer({
    tokenizer: json,
    tokenizerConfig: { pad_token: '<pad>' },
    file: 't.json',
  })

  it("adds <s> … </s> and bert_score's leading space (add_prefix_space=True)", () => {
    expect(tok).toMatchObject({
      kind: 'byte-level-bpe',
      clsId: 0,
      sepId: 2,
      padId: 1,
      addPrefixSpace: true,
    })
    // "cat sat" → " cat sat" → Ġcat Ġsat; without the space the first word would be c·at.
    expect(tok.encode('cat sat').ids).toEqual([0, v('Ġcat'), v('Ġsat'), 2])
    expect(tok.encode('\n cat sat \t').ids).toEqual([0, v('Ġcat'), v('Ġsat'), 2])
    expect(tok.encode('').ids).toEqual([0, 2])
  })

  it('does not add a second space when the ByteLevel pre-tokenizer adds one itself', () => {
    const own = {
      ...json,
      pre_tokenizer: {
        type: 'ByteLevel',
        add_prefix_space: true,
        trim_offsets: true,
        use_regex: true,
      },
    }
    const t = createBertScoreTokenizer({ tokenizer: own, file: 't.json' })
    expect(t.addPrefixSpace).toBe(false)
    expect(t.encode('cat sat').ids).toEqual([0, v('Ġcat'), v('Ġsat'), 2])
  })
})
