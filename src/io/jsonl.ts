/**
 * JSON Lines: the one JSONL reader of trecscore, pure (bytes in, one classified line at a time
 * out; no I/O). Lines are split by the one splitter, `io/lines.ts` ({@link LineSplitter}): whole
 * buffers through {@link jsonlLines}, streams through {@link JsonlSplitter} or
 * {@link jsonlStream} (memory bounded by `maxLineBytes`); {@link jsonlLine} classifies one line.
 *
 * Conventions:
 * - Lines are split on "\n" (0x0A). Line numbers are PHYSICAL and 1-based: blank and bad lines
 *   count, so a number always points at the line an editor shows. A last line without "\n"
 *   is a line; the empty rest after a final "\n" is not (so `a\nb\n` and `a\nb` both have 2
 *   lines, and empty input has none).
 * - CRLF: one "\r" right before the "\n" (or before the end) is dropped; other "\r" stay.
 * - Length: a line (without its "\n" and dropped "\r") of more than `maxLineBytes` bytes is
 *   `too_long` and is neither decoded nor parsed (default: no limit for whole buffers, the
 *   documented 16 MiB for streams). A stream keeps only its first bytes (`bytes`) and its length
 *   (`lineBytes`), and reading goes on with the next line.
 * - Encoding: each line is decoded as strict UTF-8; a line that is not is `invalid_utf8` (its
 *   `text` is a lenient decoding, U+FFFD for bad bytes, for display only).
 * - BOM: one U+FEFF at the start of a line is dropped. Line 1 is where editors put a BOM; one
 *   starting a later line (files joined with `cat`) is dropped as well, as a `TextDecoder`
 *   decoding line by line always did for the readers ported onto this helper.
 * - Blank: a line whose text is empty after `String.prototype.trim` (ASCII and Unicode white
 *   space) is `blank`: skipped by readers, but counted.
 * - Otherwise the text is `JSON.parse`d: `value`, or `invalid_json` with the parser's message.
 * - Depth: a value nested more than `maxDepth` arrays/objects deep (default
 *   {@link MAX_JSON_DEPTH}) is `invalid_json` ("nested deeper than N levels"): `JSON.parse`
 *   itself copes, but every recursive consumer (`JSON.stringify`, hashing, printing) would
 *   overflow the stack on it.
 * Arbitrary bytes never make {@link jsonlLines} throw.
 */
import { DEFAULT_MAX_LINE_BYTES, LINE_CR, LineSplitter } from './lines.js'

/** What one physical line turned out to be. */
export type JsonlLineKind = 'value' | 'blank' | 'invalid_utf8' | 'invalid_json' | 'too_long'

interface JsonlLineBase {
  /** Physical 1-based line number. */
  readonly line: number
  /** The line's bytes, without "\n" and a dropped "\r" (a BOM is still there). A view, not a copy. */
  readonly bytes: Uint8Array
}

/** One physical line, classified. */
export type JsonlLine =
  | (JsonlLineBase & { readonly kind: 'value'; readonly text: string; readonly value: unknown })
  | (JsonlLineBase & {
      readonly kind: 'invalid_json'
      readonly text: string
      readonly error: string
    })
  | (JsonlLineBase & { readonly kind: 'blank'; readonly text: string })
  /** `text`: a lenient decoding (U+FFFD for bad bytes), for display only. */
  | (JsonlLineBase & { readonly kind: 'invalid_utf8'; readonly text: string })
  /** Not decoded: `text` is ''; `bytes` may be only the line's start, `lineBytes` is its length. */
  | (JsonlLineBase & {
      readonly kind: 'too_long'
      readonly text: string
      readonly lineBytes: number
    })

/** Options of {@link jsonlLines} and {@link jsonlLine}. */
export interface JsonlOptions {
  /**
   * Longest line parsed, in bytes; longer lines are `too_long`. Default: no limit in
   * {@link jsonlLines} and {@link jsonlLine}, 16 MiB in a stream.
   */
  readonly maxLineBytes?: number
  /** Deepest nesting of arrays and objects accepted. @default MAX_JSON_DEPTH */
  readonly maxDepth?: number
}

/** Default deepest nesting of a JSON value read from a line (real data stays far below it). */
export const MAX_JSON_DEPTH = 1000

/**
 * True when `value` nests arrays/objects more than `max` levels deep (a scalar has depth 0,
 * `[]` depth 1). Iterative, so it never overflows the stack; it stops at the first path past
 * `max`.
 */
export function jsonDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [v, d] = stack.pop()!
    if (d > max) return true
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, d + 1])
  }
  return false
}

/** Every physical line of `bytes`, classified as described in the module comment. */
export function* jsonlLines(bytes: Uint8Array, options: JsonlOptions = {}): Generator<JsonlLine> {
  const out: JsonlLine[] = []
  const lines = new JsonlSplitter((l) => void out.push(l), {
    ...options,
    maxLineBytes: options.maxLineBytes ?? Number.POSITIVE_INFINITY,
  })
  // In slices, so that a big buffer is classified lazily, as it is consumed.
  const SLICE = 1 << 20
  for (let at = 0; at < bytes.length; at += SLICE) {
    lines.feed(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length)
    yield* out
    out.length = 0
  }
}

/** Streaming JSONL: {@link feed} chunks in order, then {@link end}; every line goes to `onLine`. */
export class JsonlSplitter {
  private readonly lines: LineSplitter

  constructor(
    onLine: (line: JsonlLine) => boolean | void,
    options: JsonlOptions & { readonly headBytes?: number } = {},
  ) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
    this.lines = new LineSplitter(
      (buf, start, end, line) => onLine(jsonlLine(buf.subarray(start, end), line, options)),
      {
        // one more byte than the limit: the limit applies after a final CR is dropped
        maxLineBytes: max + 1,
        tooLong: 'skip',
        headBytes: options.headBytes ?? 1024,
        onTooLong: (head, lineBytes, line, flags) => {
          // as jsonlLine: the length (and, when whole, the bytes) without a final CR
          const n = flags & LINE_CR ? lineBytes - 1 : lineBytes
          return onLine({
            line,
            kind: 'too_long',
            bytes: head.length > n ? head.subarray(0, n) : head,
            text: '',
            lineBytes: n,
          })
        },
      },
    )
  }

  /** Classify the complete lines of `chunk` (with `last`, the unfinished one too). */
  feed(chunk: Uint8Array, last = false): void {
    this.lines.feed(chunk, last)
  }

  /** Classify a last line without "\n". */
  end(): void {
    this.lines.end()
  }

  /** Set once `onLine` returned `false`. */
  get stopped(): boolean {
    return this.lines.stopped
  }
}

/**
 * Every line of a stream of chunks (`readChunks` of `io/source.ts`), classified; memory holds
 * one line at a time (at most `maxLineBytes`, 16 MiB by default). The `bytes` of a line are a
 * view into its chunk: valid while the source does not reuse its chunks (`readChunks` does not).
 */
export async function* jsonlStream(
  chunks: AsyncIterable<Uint8Array>,
  options: JsonlOptions = {},
): AsyncGenerator<JsonlLine> {
  const out: JsonlLine[] = []
  const lines = new JsonlSplitter((l) => void out.push(l), options)
  for await (const chunk of chunks) {
    lines.feed(chunk)
    yield* out
    out.length = 0
  }
  lines.end()
  yield* out
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const lenient = new TextDecoder('utf-8')

/**
 * Classifies one line: `raw` holds its bytes without the "\n" (a final "\r" is dropped here),
 * `line` is its physical number. For readers that split a stream into lines themselves
 * (bounded memory) and want the same conventions as {@link jsonlLines}.
 */
export function jsonlLine(raw: Uint8Array, line: number, options: JsonlOptions = {}): JsonlLine {
  const bytes =
    raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw
  if (bytes.length > (options.maxLineBytes ?? Number.POSITIVE_INFINITY))
    return { line, kind: 'too_long', bytes, text: '', lineBytes: bytes.length }
  let text: string
  try {
    text = strict.decode(bytes)
  } catch {
    return { line, kind: 'invalid_utf8', bytes, text: lenient.decode(bytes) }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  if (text.trim() === '') return { line, kind: 'blank', bytes, text }
  let value: unknown
  try {
    value = JSON.parse(text) as unknown
  } catch (e) {
    return {
      line,
      kind: 'invalid_json',
      bytes,
      text,
      error: e instanceof Error ? e.message : String(e),
    }
  }
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH
  // Depth d takes at least 2d characters: short lines need no walk.
  if (text.length > 2 * maxDepth && jsonDeeperThan(value, maxDepth))
    return {
      line,
      kind: 'invalid_json',
      bytes,
      text,
      error: `nested deeper than ${maxDepth} levels`,
    }
  return { line, kind: 'value', bytes, text, value }
}
