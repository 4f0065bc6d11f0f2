/**
 * JSON Lines, line by line, pure (bytes in, one classified line at a time out; no I/O).
 *
 * Conventions (one definition for the JSONL readers: whole buffers through {@link jsonlLines},
 * streams split by their reader through {@link jsonlLine}):
 * - Lines are split on "\n" (0x0A). Line numbers are PHYSICAL and 1-based: blank and bad lines
 *   count, so a number always points at the line an editor shows. A last line without "\n"
 *   is a line; the empty rest after a final "\n" is not (so `a\nb\n` and `a\nb` both have 2
 *   lines, and empty input has none).
 * - CRLF: one "\r" right before the "\n" (or before the end) is dropped; other "\r" stay.
 * - Length: a line (without its "\n" and dropped "\r") of more than `maxLineBytes` bytes is
 *   `too_long` and is neither decoded nor parsed (default: no limit).
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
  | (JsonlLineBase & { readonly kind: 'invalid_json'; readonly text: string; readonly error: string })
  | (JsonlLineBase & { readonly kind: 'blank'; readonly text: string })
  /** `text`: a lenient decoding (U+FFFD for bad bytes), for display only. */
  | (JsonlLineBase & { readonly kind: 'invalid_utf8'; readonly text: string })
  /** Not decoded: `text` is ''. */
  | (JsonlLineBase & { readonly kind: 'too_long'; readonly text: string })

/** Options of {@link jsonlLines} and {@link jsonlLine}. */
export interface JsonlOptions {
  /** Longest line parsed, in bytes; longer lines are `too_long`. Default: no limit. */
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
  let start = 0
  let line = 0
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start)
    if (end < 0) end = bytes.length
    yield jsonlLine(bytes.subarray(start, end), ++line, options)
    start = end + 1
  }
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const lenient = new TextDecoder('utf-8')

/**
 * Classifies one line: `raw` holds its bytes without the "\n" (a final "\r" is dropped here),
 * `line` is its physical number. For readers that split a stream into lines themselves
 * (bounded memory) and want the same conventions as {@link jsonlLines}.
 */
export function jsonlLine(raw: Uint8Array, line: number, options: JsonlOptions = {}): JsonlLine {
  const bytes = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw
  if (bytes.length > (options.maxLineBytes ?? Number.POSITIVE_INFINITY)) return { line, kind: 'too_long', bytes, text: '' }
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
    return { line, kind: 'invalid_json', bytes, text, error: e instanceof Error ? e.message : String(e) }
  }
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH
  // Depth d takes at least 2d characters: short lines need no walk.
  if (text.length > 2 * maxDepth && jsonDeeperThan(value, maxDepth)) return { line, kind: 'invalid_json', bytes, text, error: `nested deeper than ${maxDepth} levels` }
  return { line, kind: 'value', bytes, text, value }
}
