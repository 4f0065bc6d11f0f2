/**
 * trec_eval's output written as bytes into one reused buffer, handed to the writer in large
 * pieces as binary strings (one char per byte). `-q -m all_trec` prints about a hundred lines per
 * query; building them as bytes avoids a string per line and the joins that flatten them. The
 * pieces are small (32 KB): V8 makes strings of a megabyte or more external, which costs far more
 * per byte to create and to turn back into bytes.
 */
import { latin1 } from '../io/bytes.js'
import { printfFixed, roundScaledClearOfTie } from '../report/printf.js'
import type { ActiveMeasure } from './types.js'

const BLOCK = 1 << 15

/**
 * trec_eval's `%6.4f`. Every NaN it can print comes from 0/0 (or arithmetic on one), which
 * x86-64 produces with the sign bit set, so glibc prints `-nan`; JavaScript engines may
 * canonicalise the sign away, so NaN is always printed as trec_eval shows it.
 */
export function teFixed(v: number): string {
  return Number.isNaN(v) ? '  -nan' : printfFixed(v, 6, 4)
}

/** Bytes handed on at a time to a writer of bytes (no strings are made then). */
const BYTES_BLOCK = 1 << 18

/**
 * A byte buffer that is passed on to `write` whenever it fills up, and by {@link flush}. With
 * `writeBytes`, the bytes are handed on as they are (a buffer of their own) instead of as text.
 */
export class ByteOutput {
  private buf: Buffer
  private pos = 0
  constructor(
    private readonly write: (text: string) => void,
    private readonly writeBytes?: (bytes: Uint8Array) => void,
  ) {
    this.buf = Buffer.allocUnsafe(writeBytes ? BYTES_BLOCK : BLOCK)
  }

  /** Room for `n` more bytes. */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return
    this.flush()
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n)
  }

  /** Append a binary string (one char per byte). */
  text(s: string): void {
    this.room(s.length)
    this.pos += this.buf.write(s, this.pos, 'latin1')
  }

  /** Append bytes. */
  bytes(b: Uint8Array): void {
    this.room(b.length)
    this.buf.set(b, this.pos)
    this.pos += b.length
  }

  /** Append `%6.4f` of `v` (as {@link teFixed}), then `\n`. */
  fixedLine(v: number): void {
    // Common case: 0 <= v < 10^5 away from a rounding tie, printed as digits.digits (6+ chars).
    const n = v > 0 || (v === 0 && 1 / v > 0) ? roundScaledClearOfTie(v, 4) : -1
    if (n < 0 || n >= 1e9) {
      this.text(`${teFixed(v)}\n`)
      return
    }
    this.room(16)
    const ip = Math.floor(n / 10000)
    this.uint(ip)
    const buf = this.buf
    let f = n - ip * 10000
    const p = this.pos
    buf[p] = 0x2e
    buf[p + 4] = 0x30 + (f % 10)
    f = Math.floor(f / 10)
    buf[p + 3] = 0x30 + (f % 10)
    f = Math.floor(f / 10)
    buf[p + 2] = 0x30 + (f % 10)
    buf[p + 1] = 0x30 + Math.floor(f / 10)
    buf[p + 5] = 0x0a
    this.pos = p + 6
  }

  /** Append the decimal digits of `Math.trunc(v)` (C `%ld` of a long), then `\n`. */
  longLine(v: number): void {
    const t = Math.trunc(v)
    if (!(t >= 0 && t < 1e15)) {
      this.text(`${t}\n`)
      return
    }
    this.room(17)
    this.uint(t)
    this.buf[this.pos++] = 0x0a
  }

  /** Digits of a non-negative integer below 10^15 (room already made). */
  private uint(x: number): void {
    const buf = this.buf
    let len = 1
    for (let y = x; y >= 10; y = Math.floor(y / 10)) len++
    let p = this.pos + len
    this.pos = p
    do {
      const q = Math.floor(x / 10)
      buf[--p] = 0x30 + (x - q * 10)
      x = q
    } while (x > 0)
  }

  /** Pass everything written so far on. */
  flush(): void {
    if (this.pos === 0) return
    if (this.writeBytes) {
      const full = this.buf.subarray(0, this.pos)
      this.buf = Buffer.allocUnsafe(BYTES_BLOCK)
      this.pos = 0
      this.writeBytes(full)
      return
    }
    const text = latin1(this.buf, 0, this.pos)
    this.pos = 0
    this.write(text)
  }
}

/** How a `-q` line prints its value: `%6.4f`, `%ld` of the truncated value, or a quoted text. */
export const FIXED_LINE = 0
export const LONG_LINE = 1
export const TEXT_LINE = 2

/** One line of a query's `-q` output, in print order (see {@link queryLinePlan}). */
export interface QueryLine {
  /** {@link FIXED_LINE}, {@link LONG_LINE} or {@link TEXT_LINE}. */
  readonly kind: number
  /** Index of its value in the query's row of values. */
  readonly value: number
  /** Its measure's index in the active measures (its text's index, for a text line). */
  readonly measure: number
  /** Its name padded to 22 columns and a tab, as bytes. */
  readonly label: Buffer
}

/** The `-q` lines of `active`, in trec_eval's measure order; made once per evaluation. */
export function queryLinePlan(active: readonly ActiveMeasure[]): QueryLine[] {
  const plan: QueryLine[] = []
  let off = 0
  active.forEach((m, mi) => {
    const kind = m.def.perQuery
    if (kind === 'double')
      m.labelBytes.forEach((label, k) =>
        plan.push({ kind: FIXED_LINE, value: off + k, measure: mi, label }),
      )
    else if (kind === 'long')
      plan.push({ kind: LONG_LINE, value: off, measure: mi, label: m.labelBytes[0]! })
    else if (kind === 'string')
      plan.push({ kind: TEXT_LINE, value: off, measure: mi, label: m.labelBytes[0]! })
    off += m.names.length
  })
  return plan
}

/**
 * Write one `-q` line of query `qid` (`tail` is its bytes and a tab); with -Z (`z`) a `Z` prefix
 * and every number as `%6.4f` (texts have no prefix, as in trec_eval).
 */
export function writeQueryLine(
  out: ByteOutput,
  line: QueryLine,
  qid: string,
  tail: Buffer,
  values: Float64Array,
  texts: readonly (string | null)[],
  z: boolean,
): void {
  if (line.kind === TEXT_LINE) {
    out.bytes(line.label)
    out.text(`${qid}\t'${texts[line.measure] ?? ''}'\n`)
    return
  }
  if (z) out.text('Z')
  out.bytes(line.label)
  out.bytes(tail)
  if (line.kind === FIXED_LINE || z) out.fixedLine(values[line.value]!)
  else out.longLine(values[line.value]!)
}

/** Write the `-q` lines of one query to `out`, in trec_eval's layout (`Z` prefixes with -Z). */
export function appendQueryLines(
  out: ByteOutput,
  plan: readonly QueryLine[],
  qid: string,
  values: Float64Array,
  texts: readonly (string | null)[],
  z: boolean,
): void {
  const tail = Buffer.from(`${qid}\t`, 'latin1')
  for (const line of plan) writeQueryLine(out, line, qid, tail, values, texts, z)
}
