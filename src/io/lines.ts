import { IS_SPACE } from './bytes.js'

/** A line of input: `buf[start, end)` without its `\n`; `line` is the physical 1-based number. */
export interface LineRef {
  buf: Buffer
  start: number
  end: number
  line: number
}

/** Default longest line accepted, in bytes (documented in the README; `--max-line-bytes`). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024

/** Thrown through the line reader when a line exceeds the limit (reported as an issue). */
export class LineTooLong extends Error {
  override name = 'LineTooLong'
  constructor(readonly line: number, readonly limit: number) {
    super(`line ${line} longer than ${limit} bytes`)
  }
}

/**
 * Split byte chunks into lines on `\n` only (a `\r` stays in the line; trec_eval treats it as
 * whitespace). A final line without newline is returned too. Lines longer than `maxLineBytes`
 * throw {@link LineTooLong} instead of exhausting memory.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<LineRef> {
  let carry: Buffer | null = null
  let line = 0
  const ref: LineRef = { buf: Buffer.alloc(0), start: 0, end: 0, line: 0 }
  for await (let chunk of chunks) {
    let pos = 0
    if (carry) {
      const nl = chunk.indexOf(0x0a)
      if (nl < 0) {
        if (carry.length + chunk.length > maxLineBytes) throw new LineTooLong(line + 1, maxLineBytes)
        carry = Buffer.concat([carry, chunk])
        continue
      }
      const joined: Buffer = Buffer.concat([carry, chunk.subarray(0, nl)])
      carry = null
      if (joined.length > maxLineBytes) throw new LineTooLong(line + 1, maxLineBytes)
      ref.buf = joined
      ref.start = 0
      ref.end = joined.length
      ref.line = ++line
      yield ref
      pos = nl + 1
    }
    for (;;) {
      const nl = chunk.indexOf(0x0a, pos)
      if (nl < 0) break
      if (nl - pos > maxLineBytes) throw new LineTooLong(line + 1, maxLineBytes)
      ref.buf = chunk
      ref.start = pos
      ref.end = nl
      ref.line = ++line
      yield ref
      pos = nl + 1
    }
    if (pos < chunk.length) {
      if (chunk.length - pos > maxLineBytes) throw new LineTooLong(line + 1, maxLineBytes)
      carry = Buffer.from(chunk.subarray(pos))
    }
    chunk = Buffer.alloc(0)
  }
  if (carry && carry.length > 0) {
    ref.buf = carry
    ref.start = 0
    ref.end = carry.length
    ref.line = ++line
    yield ref
  }
}

/** Field boundaries of a line split on C `isspace`: `[s0, e0, s1, e1, …]`. */
export function splitFields(buf: Uint8Array, start: number, end: number, out: number[]): number {
  out.length = 0
  let i = start
  for (;;) {
    while (i < end && IS_SPACE[buf[i]!]) i++
    if (i >= end) break
    const s = i
    while (i < end && !IS_SPACE[buf[i]!]) i++
    out.push(s, i)
  }
  return out.length >> 1
}

/** The bytes of a line as a binary string (for ids and messages). */
export function lineText(ref: { buf: Buffer; start: number; end: number }, max = 400): string {
  return ref.buf.toString('latin1', ref.start, Math.min(ref.end, ref.start + max))
}
