import { IS_SPACE } from './bytes.js'
import { DEFAULT_INPUT_LIMITS } from './limits.js'

/** Default longest line accepted, in bytes (documented in the README; see `io/limits.ts`). */
export const DEFAULT_MAX_LINE_BYTES = DEFAULT_INPUT_LIMITS.maxLineBytes

/** Field boundaries of a line split on C `isspace`: `[s0, e0, s1, e1, …]`; returns the count. */
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

/** Does `buf[start, end)` hold a CR that is not the line's last byte (old Mac line endings)? */
export function hasBareCr(buf: Uint8Array, start: number, end: number): boolean {
  const last = end > start && buf[end - 1] === 0x0d ? end - 1 : end
  for (let i = start; i < last; i++) if (buf[i] === 0x0d) return true
  return false
}

/**
 * Receives each line of a {@link LineSplitter}: `buf[start, end)` without its `\n`, and its
 * physical 1-based number. The bytes are valid only during the call. Return `false` to stop.
 */
export type LineHandler = (buf: Buffer, start: number, end: number, line: number) => boolean | void

/**
 * Splits a byte stream into lines on `\n`, in memory bounded by `maxLineBytes`: the line
 * convention of every line reader (the run parser fuses the same splitting into its scanner).
 * Lines are physical and 1-based; a last line without `\n` is a line, the empty rest after a
 * final `\n` is not (so `a\nb\n` and `a\nb` both have two lines). A line longer than
 * `maxLineBytes` (without its `\n`) stops the splitter: `tooLongLine` is its number.
 */
export class LineSplitter {
  /** Lines handed on so far. */
  line = 0
  /** The number of the line that exceeded the limit, once one did. */
  tooLongLine: number | undefined
  /** Set once the handler asked to stop or a line was too long. */
  stopped = false
  private parts: Buffer[] = []
  private partBytes = 0

  constructor(
    private readonly onLine: LineHandler,
    readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
  ) {}

  /** Hand on the complete lines of `chunk`; an unfinished last line waits for more. */
  feed(chunk: Buffer): void {
    if (this.stopped) return
    let pos = 0
    if (this.partBytes > 0 || this.parts.length > 0) {
      const nl = chunk.indexOf(0x0a)
      if (nl < 0) {
        this.keep(Buffer.from(chunk))
        return
      }
      if (this.partBytes + nl > this.maxLineBytes) return this.tooLong()
      const joined = Buffer.concat([...this.parts, chunk.subarray(0, nl)], this.partBytes + nl)
      this.parts = []
      this.partBytes = 0
      if (!this.emit(joined, 0, joined.length)) return
      pos = nl + 1
    }
    const n = chunk.length
    while (pos < n) {
      const nl = chunk.indexOf(0x0a, pos)
      if (nl < 0) {
        this.keep(Buffer.from(chunk.subarray(pos)))
        return
      }
      if (nl - pos > this.maxLineBytes) return this.tooLong()
      if (!this.emit(chunk, pos, nl)) return
      pos = nl + 1
    }
  }

  /** Hand on a last line that has no `\n`. */
  end(): void {
    if (this.stopped || this.parts.length === 0) return
    const joined = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partBytes)
    this.parts = []
    this.partBytes = 0
    this.emit(joined, 0, joined.length)
  }

  private keep(part: Buffer): void {
    if (this.partBytes + part.length > this.maxLineBytes) return this.tooLong()
    this.parts.push(part)
    this.partBytes += part.length
  }

  private emit(buf: Buffer, start: number, end: number): boolean {
    if (this.onLine(buf, start, end, ++this.line) === false) this.stopped = true
    return !this.stopped
  }

  private tooLong(): void {
    this.tooLongLine = this.line + 1
    this.stopped = true
    this.parts = []
    this.partBytes = 0
  }
}
