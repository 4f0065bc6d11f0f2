/**
 * The one line convention of trecscore's readers, and the one streaming splitter that applies it.
 * Pure and free of Node APIs (bytes are `Uint8Array`), so the validators can run in a browser.
 *
 * - Lines end at `\n` (0x0A). Numbers are PHYSICAL and 1-based: blank, comment and bad lines
 *   count, so a number always points at the line an editor shows. A last line without `\n` is a
 *   line; the empty rest after a final `\n` is not (`a\nb\n` and `a\nb` both have two lines, and
 *   empty input has none).
 * - Length: a line of more than `maxLineBytes` bytes (without its `\n`) is never buffered whole.
 *   With `tooLong: 'stop'` (the default) the splitter stops there; with `'skip'` it hands the
 *   line's first bytes and length to `onTooLong` and goes on with the next line.
 * - BOM: with `bom: 'strip'`, one UTF-8 BOM (EF BB BF) starting line 1 is dropped; the
 *   {@link LINE_BOM} flag says it was there either way.
 * - CR: with `crlf: 'strip'`, one CR ending a line (before its `\n`, or at the end of the input) is
 *   dropped; the {@link LINE_CR} flag says it was there either way. With `bareCr: 'report'`, a CR
 *   anywhere else in the line (old Mac line endings) sets {@link LINE_BARE_CR}.
 * Fields are split on C `isspace` by {@link splitFields}; numbers are read by `io/numbers.ts`.
 * The hot run parser (`io/trec-run.ts`) fuses the same splitting into its scanner.
 */
import { IS_SPACE } from './bytes.js'
import { DEFAULT_INPUT_LIMITS } from './limits.js'

/** Default longest line accepted, in bytes (documented in the README; see `io/limits.ts`). */
export const DEFAULT_MAX_LINE_BYTES = DEFAULT_INPUT_LIMITS.maxLineBytes

/** Flag of a line: it was ended by `\n` (not by the end of the input). */
export const LINE_LF = 1
/** Flag of a line: its last byte (before the `\n`) was a CR, dropped with `crlf: 'strip'`. */
export const LINE_CR = 2
/** Flag of a line (with `bareCr: 'report'`): it holds a CR that does not end it. */
export const LINE_BARE_CR = 4
/** Flag of line 1: it started with a UTF-8 BOM, dropped with `bom: 'strip'`. */
export const LINE_BOM = 8

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
 * Receives each line of a {@link LineSplitter}: `buf[start, end)` without its `\n` (and without
 * what the BOM and CR options drop), its physical 1-based number and its `LINE_*` flags. The
 * bytes are valid only during the call. Return `false` to stop.
 */
export type LineHandler = (
  buf: Uint8Array,
  start: number,
  end: number,
  line: number,
  flags: number,
) => boolean | void

/**
 * Receives a line longer than the limit: its first bytes (at most `headBytes`, a copy), its
 * length in bytes (the whole line with `tooLong: 'skip'`; with `'stop'`, what was read of it,
 * more than the limit), its number and its flags ({@link LINE_LF}, and {@link LINE_CR} when its
 * last byte is a CR, which `lineBytes` counts whatever `crlf` says). Return `false` to stop.
 */
export type TooLongHandler = (
  head: Uint8Array,
  lineBytes: number,
  line: number,
  flags: number,
) => boolean | void

/** What a {@link BulkLineHandler} took: `lines` whole lines, ending just before `end`. */
export interface LinesTaken {
  readonly lines: number
  readonly end: number
}

/**
 * Takes whole lines at once, for a reader with a fused scanner of its own (the run validator's
 * WebAssembly kernel): `buf[start, end)` are complete lines (`end - 1` is a newline), the first
 * numbered `line`. It may take any number of them from `start`, as if each had been handed on,
 * and says how many; the splitter hands the next line on as usual, then offers the rest again.
 * The bytes are raw: the lines it takes skip the `bom`, `crlf`, `bareCr` and length options, so
 * the handler applies whichever it needs. The bytes are valid only during the call.
 */
export type BulkLineHandler = (
  buf: Uint8Array,
  start: number,
  end: number,
  line: number,
) => LinesTaken

/** Options of a {@link LineSplitter} (see the module comment). */
export interface LineOptions {
  /** Longest line handed on, in bytes without the `\n`. @default 16 MiB (`io/limits.ts`) */
  readonly maxLineBytes?: number
  /** A longer line stops the splitter, or is skipped (handed to `onTooLong`). @default 'stop' */
  readonly tooLong?: 'stop' | 'skip'
  /** Told about a line longer than the limit. */
  readonly onTooLong?: TooLongHandler
  /** Bytes of an over-long line kept for `onTooLong`. @default 400 */
  readonly headBytes?: number
  /** Drop a UTF-8 BOM starting line 1. @default 'keep' */
  readonly bom?: 'strip' | 'keep'
  /** Drop one CR ending a line. @default 'keep' */
  readonly crlf?: 'strip' | 'keep'
  /** Look for CRs inside lines ({@link LINE_BARE_CR}). @default 'ignore' */
  readonly bareCr?: 'report' | 'ignore'
  /** Offered the complete lines of each chunk first (see {@link BulkLineHandler}). */
  readonly onLines?: BulkLineHandler
}

interface Skipping {
  readonly line: number
  head: Uint8Array
  bytes: number
  lastByte: number
}

/**
 * A copy of `a[from, end)`. Not `a.slice()`: on a Node `Buffer` that is a view, and a caller may
 * reuse its chunks (`readChunksPrefetched` alternates two buffers).
 */
function copyOf(a: Uint8Array, from: number): Uint8Array {
  return new Uint8Array(a.subarray(from))
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(total)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * Splits a byte stream into lines on `\n`, in memory bounded by `maxLineBytes`, with the
 * conventions of the module comment. {@link feed} chunks in order (the caller may reuse a chunk
 * afterwards), then {@link end}; or hand a whole buffer to `feed(bytes, true)`, which keeps every
 * line in place (offsets index `bytes`).
 */
export class LineSplitter {
  /** Lines handed on (or skipped) so far. */
  line = 0
  /** The number of the line that exceeded the limit, once one did (the first one with `'skip'`). */
  tooLongLine: number | undefined
  /** Set once the handler asked to stop, a line was too long (`'stop'`) or {@link stop} was called. */
  stopped = false
  readonly maxLineBytes: number
  private readonly skipLong: boolean
  private readonly onTooLong: TooLongHandler | undefined
  private readonly headBytes: number
  private readonly stripBom: boolean
  private readonly stripCr: boolean
  private readonly reportBareCr: boolean
  private readonly onLines: BulkLineHandler | undefined
  private parts: Uint8Array[] = []
  private partBytes = 0
  private skipping: Skipping | null = null

  constructor(
    private readonly onLine: LineHandler,
    options: LineOptions | number = {},
  ) {
    const o: LineOptions = typeof options === 'number' ? { maxLineBytes: options } : options
    this.maxLineBytes = o.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
    this.skipLong = o.tooLong === 'skip'
    this.onTooLong = o.onTooLong
    this.headBytes = Math.max(1, o.headBytes ?? 400)
    this.stripBom = o.bom === 'strip'
    this.stripCr = o.crlf === 'strip'
    this.reportBareCr = o.bareCr === 'report'
    this.onLines = o.onLines
  }

  /**
   * Hand on the complete lines of `chunk`; an unfinished last line waits for more, or, when
   * `last`, is handed on in place (then {@link end} has nothing left to do).
   */
  feed(chunk: Uint8Array, last = false): void {
    if (this.stopped) return
    const n = chunk.length
    let pos = 0
    if (this.skipping !== null) {
      const nl = chunk.indexOf(0x0a)
      this.skipMore(chunk, 0, nl < 0 ? n : nl)
      if (nl < 0) {
        if (last) this.endSkip(false)
        return
      }
      if (!this.endSkip(true)) return
      pos = nl + 1
    } else if (this.partBytes > 0 || this.parts.length > 0) {
      const nl = chunk.indexOf(0x0a)
      const more = nl < 0 ? n : nl
      if (this.partBytes + more > this.maxLineBytes) {
        const parts = this.parts
        this.parts = []
        this.partBytes = 0
        if (!this.startSkip(parts, chunk, 0, more, nl >= 0 ? true : last ? false : null)) return
        if (nl < 0) return
      } else if (nl < 0 && !last) {
        this.keep(copyOf(chunk, 0))
        return
      } else {
        const joined = concat([...this.parts, chunk.subarray(0, more)], this.partBytes + more)
        this.parts = []
        this.partBytes = 0
        if (!this.emit(joined, 0, joined.length, nl >= 0)) return
        if (nl < 0) return
      }
      pos = nl + 1
    }
    const max = this.maxLineBytes
    const bulk = this.onLines
    const bulkEnd = bulk === undefined ? 0 : chunk.lastIndexOf(0x0a) + 1
    while (pos < n) {
      if (pos < bulkEnd) {
        const taken = bulk!(chunk, pos, bulkEnd, this.line + 1)
        if (taken.lines > 0) {
          this.line += taken.lines
          pos = taken.end
          continue
        }
      }
      const nl = chunk.indexOf(0x0a, pos)
      if (nl < 0) {
        if (n - pos > max) this.startSkip([], chunk, pos, n, last ? false : null)
        else if (last) this.emit(chunk, pos, n, false)
        else this.keep(copyOf(chunk, pos))
        return
      }
      if (nl - pos > max) {
        if (!this.startSkip([], chunk, pos, nl, true)) return
      } else if (!this.emit(chunk, pos, nl, true)) return
      pos = nl + 1
    }
  }

  /** Hand on a last line that has no `\n`. */
  end(): void {
    if (this.stopped) return
    if (this.skipping !== null) {
      this.endSkip(false)
      return
    }
    if (this.parts.length === 0) return
    const joined = concat(this.parts, this.partBytes)
    this.parts = []
    this.partBytes = 0
    this.emit(joined, 0, joined.length, false)
  }

  /** Stop now, dropping an unfinished line (for a reader whose input failed). */
  stop(): void {
    this.stopped = true
    this.parts = []
    this.partBytes = 0
    this.skipping = null
  }

  private keep(part: Uint8Array): void {
    this.parts.push(part)
    this.partBytes += part.length
  }

  private emit(buf: Uint8Array, start: number, end: number, lf: boolean): boolean {
    const line = ++this.line
    let flags = lf ? LINE_LF : 0
    let s = start
    let e = end
    if (line === 1 && e - s >= 3 && buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf) {
      flags |= LINE_BOM
      if (this.stripBom) s += 3
    }
    let last = e
    if (e > s && buf[e - 1] === 0x0d) {
      flags |= LINE_CR
      last = e - 1
      if (this.stripCr) e = last
    }
    if (this.reportBareCr) {
      for (let i = s; i < last; i++) {
        if (buf[i] === 0x0d) {
          flags |= LINE_BARE_CR
          break
        }
      }
    }
    if (this.onLine(buf, s, e, line, flags) === false) this.stopped = true
    return !this.stopped
  }

  /**
   * A line over the limit begins with `parts` then `chunk[start, end)`; `lf`: it ends there with
   * (true) or without (false) a `\n`, or goes on (null).
   */
  private startSkip(
    parts: readonly Uint8Array[],
    chunk: Uint8Array,
    start: number,
    end: number,
    lf: boolean | null,
  ): boolean {
    const line = this.line + 1
    this.tooLongLine ??= line
    const head: Uint8Array[] = []
    let room = this.headBytes
    for (const p of [...parts, chunk.subarray(start, end)]) {
      if (room <= 0) break
      const take = p.subarray(0, room)
      head.push(take)
      room -= take.length
    }
    const bytes = end - start + parts.reduce((a, p) => a + p.length, 0)
    const lastPart = end > start ? chunk.subarray(start, end) : parts[parts.length - 1]
    const lastByte =
      lastPart === undefined || lastPart.length === 0 ? -1 : lastPart[lastPart.length - 1]!
    this.skipping = { line, head: copyOf(concat(head, this.headBytes - room), 0), bytes, lastByte }
    if (!this.skipLong) {
      const s = this.skipping
      this.stop()
      this.onTooLong?.(s.head, s.bytes, line, lf === null ? 0 : this.endFlags(s, lf))
      return false
    }
    return lf === null ? true : this.endSkip(lf)
  }

  /** The skipped line goes on with `chunk[start, end)`. */
  private skipMore(chunk: Uint8Array, start: number, end: number): void {
    const s = this.skipping!
    s.bytes += end - start
    if (end > start) s.lastByte = chunk[end - 1]!
    if (s.head.length < this.headBytes) {
      const more = chunk.subarray(start, Math.min(end, start + this.headBytes - s.head.length))
      s.head = concat([s.head, more], s.head.length + more.length)
    }
  }

  private endSkip(lf: boolean): boolean {
    const s = this.skipping!
    this.skipping = null
    this.line = s.line
    if (this.onTooLong?.(s.head, s.bytes, s.line, this.endFlags(s, lf)) === false)
      this.stopped = true
    return !this.stopped
  }

  private endFlags(s: Skipping, lf: boolean): number {
    return (lf ? LINE_LF : 0) | (s.lastByte === 0x0d ? LINE_CR : 0)
  }
}
