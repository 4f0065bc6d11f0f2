/**
 * Tokenization for BERTScore as bert_score 0.3.13's `sent_encode` does it, on a Hugging Face
 * `tokenizer.json` run by `@huggingface/tokenizers` (pure JS; no I/O here: the caller reads the
 * files and passes their parsed JSON).
 *
 * - The text is stripped (Python `str.strip()`: Unicode whitespace).
 * - An empty text encodes to the two special tokens only (`[CLS] [SEP]`, or `<s> </s>`).
 * - Byte-level BPE tokenizers (RoBERTa, GPT-2: a `ByteLevel` pre-tokenizer) get a leading space,
 *   as bert_score's `add_prefix_space=True` does, so the first word is tokenized like the others
 *   (`Ġcat`, not `cat`). WordPiece (BERT) tokenizers get nothing added.
 * - The special tokens are the post-processor's (`TemplateProcessing` `[CLS] $A [SEP]`, or
 *   `RobertaProcessing`); their ids are the ones bert_score weighs 0.
 * - Texts longer than the model's maximum length (`model_max_length`, 512 for roberta-large)
 *   are truncated to `maxLength − 2` content tokens plus the 2 specials, as
 *   `encode(..., max_length=model_max_length, truncation=True)` does; each truncation is
 *   reported (`truncated: true`), never silent.
 *
 * bert_score uses the "slow" Python tokenizers by default (`use_fast_tokenizer=False`); the
 * `tokenizer.json` pipeline is the "fast" one. They agree on ordinary text; rare differences on
 * unusual Unicode are possible and are not checked here.
 */
import { InputError } from '../../errors/trecscore-error.js'

/**
 * What this module uses of `@huggingface/tokenizers`, an optional package (`scorer.ts` imports this
 * module on first use, through `importOptional`). Its specifier is a variable, so the build needs
 * none of its types; checked against the real types in `optional-package-types.test.ts`.
 */
export interface TokenizersPackage {
  readonly Tokenizer: new (tokenizer: object, config: object) => HfTokenizer
}

/** A Hugging Face tokenizer, as far as this module uses it. */
export interface HfTokenizer {
  encode(
    text: string,
    options?: { add_special_tokens?: boolean },
  ): { readonly ids: readonly number[] }
  token_to_id(token: string): number | undefined
}

const TOKENIZERS: string = '@huggingface/tokenizers'
const { Tokenizer } = (await import(TOKENIZERS)) as TokenizersPackage

/** Python `str.isspace()` characters, which `str.strip()` removes. */
const PY_SPACE =
  '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const STRIP_RE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'gu')

/** Python's `str.strip()` with no argument. */
export function pythonStrip(text: string): string {
  return text.replace(STRIP_RE, '')
}

/** A tokenized text: ids with the specials, and whether it was cut to the maximum length. */
export interface EncodedText {
  readonly ids: readonly number[]
  readonly truncated: boolean
}

/** A BERTScore tokenizer: encodes like bert_score's `sent_encode`. */
export interface BertScoreTokenizer {
  /** `wordpiece`, `byte-level-bpe` or the `tokenizer.json` model type otherwise. */
  readonly kind: string
  readonly clsId: number
  readonly sepId: number
  readonly padId: number
  /** Maximum sequence length, specials included. */
  readonly maxLength: number
  /** Whether a space is put before the text (byte-level BPE, bert_score's `add_prefix_space`). */
  readonly addPrefixSpace: boolean
  encode(text: string): EncodedText
}

/** The parsed JSON files of a model folder that tokenization reads. */
export interface TokenizerFiles {
  /** Parsed `tokenizer.json`. */
  readonly tokenizer: unknown
  /** Parsed `tokenizer_config.json`, if the folder has one. */
  readonly tokenizerConfig?: unknown
  /** Parsed `config.json`, if the folder has one. */
  readonly modelConfig?: unknown
  /** Where `tokenizer.json` came from, for messages. */
  readonly file: string
}

type Json = Record<string, unknown>

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function tokenText(v: unknown): string | undefined {
  if (typeof v === 'string') return v
  if (isObject(v) && typeof v['content'] === 'string') return v['content']
  return undefined
}

/** The `ByteLevel` pre-tokenizer, alone or inside a `Sequence`, if there is one. */
function byteLevelOf(pre: unknown): Json | undefined {
  if (!isObject(pre)) return undefined
  if (pre['type'] === 'ByteLevel') return pre
  if (pre['type'] === 'Sequence' && Array.isArray(pre['pretokenizers'])) {
    for (const p of pre['pretokenizers']) {
      const found = byteLevelOf(p)
      if (found) return found
    }
  }
  return undefined
}

/** The last index ≤ `limit` (and > limit/2) holding a space, tab, CR or LF; −1 if none. */
function lastBreakBefore(s: string, limit: number): number {
  for (let i = limit; i > limit / 2; i--) {
    const c = s.charCodeAt(i)
    if (c === 32 || c === 9 || c === 10 || c === 13) return i
  }
  return -1
}

/** HF writes `model_max_length` as 1e30 when the model has none. */
const NO_LIMIT = 1e12

function defaultMaxLength(files: TokenizerFiles): number {
  const tc = files.tokenizerConfig
  if (
    isObject(tc) &&
    typeof tc['model_max_length'] === 'number' &&
    tc['model_max_length'] < NO_LIMIT
  )
    return tc['model_max_length']
  const mc = files.modelConfig
  if (isObject(mc) && typeof mc['max_position_embeddings'] === 'number') {
    // RoBERTa-style models reserve padding_idx + 1 positions (514 positions, 512 tokens).
    const offset = ['roberta', 'xlm-roberta', 'camembert'].includes(String(mc['model_type']))
      ? 2
      : 0
    return mc['max_position_embeddings'] - offset
  }
  return 512
}

/**
 * Builds the tokenizer from a model folder's parsed files. Throws {@link InputError} when the
 * `tokenizer.json` cannot be used (not an object, no model, no 2 special tokens around a text).
 */
export function createBertScoreTokenizer(
  files: TokenizerFiles,
  options: { maxLength?: number } = {},
): BertScoreTokenizer {
  const tj = files.tokenizer
  if (!isObject(tj) || !isObject(tj['model'])) {
    throw new InputError([
      {
        code: 'cannot_read',
        file: files.file,
        reason: 'not a Hugging Face tokenizer.json (no "model" object)',
      },
    ])
  }
  const config = isObject(files.tokenizerConfig) ? files.tokenizerConfig : {}
  let tok: HfTokenizer
  try {
    tok = new Tokenizer(tj, config)
  } catch (e) {
    throw new InputError([
      {
        code: 'cannot_read',
        file: files.file,
        reason: `the tokenizer cannot be built from it: ${(e as Error).message}`,
      },
    ])
  }
  const empty = tok.encode('').ids
  if (empty.length !== 2) {
    throw new InputError([
      {
        code: 'cannot_read',
        file: files.file,
        reason: `its post-processor puts ${empty.length} special token(s) around a text; BERTScore expects 2 ([CLS] … [SEP] or <s> … </s>)`,
      },
    ])
  }
  const [clsId, sepId] = empty as [number, number]
  for (const [name, id] of [
    ['cls_token', clsId],
    ['sep_token', sepId],
  ] as const) {
    const text = tokenText(config[name])
    const want = text === undefined ? undefined : tok.token_to_id(text)
    if (want !== undefined && want !== id) {
      throw new InputError([
        {
          code: 'cannot_read',
          file: files.file,
          reason: `tokenizer_config.json's ${name} ${JSON.stringify(text)} is id ${want}, but the post-processor adds id ${id}`,
        },
      ])
    }
  }
  const padding = tj['padding']
  const padText = tokenText(config['pad_token'])
  const padId =
    (isObject(padding) && typeof padding['pad_id'] === 'number' ? padding['pad_id'] : undefined) ??
    (padText === undefined ? undefined : tok.token_to_id(padText)) ??
    tok.token_to_id('[PAD]') ??
    tok.token_to_id('<pad>') ??
    0
  const maxLength = options.maxLength ?? defaultMaxLength(files)
  if (!Number.isInteger(maxLength) || maxLength < 3) {
    throw new InputError([
      {
        code: 'bad_argument',
        option: 'maxLength',
        found: String(maxLength),
        expected: 'an integer of at least 3 (2 special tokens and 1 word piece)',
      },
    ])
  }
  const modelType = String((tj['model'] as Json)['type'])
  const byteLevel = byteLevelOf(tj['pre_tokenizer'])
  // A ByteLevel pre-tokenizer that adds the space itself must not get a second one.
  const addPrefixSpace = byteLevel !== undefined && byteLevel['add_prefix_space'] !== true
  const kind =
    modelType === 'WordPiece'
      ? 'wordpiece'
      : modelType === 'BPE' && byteLevel
        ? 'byte-level-bpe'
        : modelType
  const room = maxLength - 2
  return {
    kind,
    clsId,
    sepId,
    padId,
    maxLength,
    addPrefixSpace,
    encode(text) {
      const s = pythonStrip(text)
      if (s === '') return { ids: [clsId, sepId], truncated: false }
      const pieces = (t: string) =>
        tok.encode(addPrefixSpace ? ` ${t}` : t, { add_special_tokens: false }).ids
      // A long text is encoded by prefixes cut just before an ASCII space, tab or newline, so no
      // word is split: once a prefix gives more than `room` pieces, its first `room` pieces are
      // those of the whole text. This keeps a huge text from costing its full tokenization.
      for (let limit = Math.max(4096, room * 32); limit < s.length; limit *= 4) {
        const cut = lastBreakBefore(s, limit)
        if (cut <= 0) continue
        const content = pieces(s.slice(0, cut))
        if (content.length > room)
          return { ids: [clsId, ...content.slice(0, room), sepId], truncated: true }
      }
      const content = pieces(s)
      const truncated = content.length > room
      return { ids: [clsId, ...(truncated ? content.slice(0, room) : content), sepId], truncated }
    },
  }
}
