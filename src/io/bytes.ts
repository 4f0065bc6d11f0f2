/**
 * Byte-level helpers that reproduce the C library behaviour trec_eval relies on.
 *
 * Ids are kept as *binary strings*: one UTF-16 code unit per input byte (latin1 decoding), so
 * JavaScript string comparison is exactly C `strcmp` byte order and no byte sequence is ever
 * altered, normalised or hashed lossily. {@link decodeId} turns one into readable UTF-8 text.
 */

/** C `isspace` in the "C" locale: space, \t, \n, \v, \f, \r. Nothing else (no NBSP, no BOM). */
export const IS_SPACE: Uint8Array = (() => {
  const t = new Uint8Array(256)
  for (const c of [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]) t[c] = 1
  return t
})()

interface Latin1Slicer {
  latin1Slice(start: number, end: number): string
}

/**
 * `buf[start, end)` as a binary string (one char per byte). Calls Node's internal
 * `latin1Slice` directly: the same conversion as `buf.toString('latin1', start, end)` without
 * the encoding dispatch, which matters at millions of ids per second.
 */
export function latin1(buf: Buffer, start: number, end: number): string {
  return (buf as unknown as Latin1Slicer).latin1Slice(start, end)
}

// Looked up only where there is a Buffer: this module also loads in a browser (io/lines.ts).
const LATIN1_SLICE =
  typeof Buffer === 'function'
    ? (Buffer.prototype as unknown as Latin1Slicer).latin1Slice
    : undefined

/**
 * {@link latin1} for any `Uint8Array` (a `Buffer` or not): the line splitter hands on plain
 * `Uint8Array`s where it joins a line cut across chunks. Without Node, a plain loop.
 */
export function binaryString(buf: Uint8Array, start: number, end: number): string {
  if (LATIN1_SLICE !== undefined) return LATIN1_SLICE.call(buf, start, end)
  let s = ''
  for (let i = start; i < end; i += 4096)
    s += String.fromCharCode(...buf.subarray(i, Math.min(end, i + 4096)))
  return s
}

/** Decode a binary-string id (one char per byte) into the UTF-8 text it encodes. */
export function decodeId(id: string): string {
  // ASCII reads the same either way: the id itself, with no copy (a million ids, a million strings saved).
  for (let i = 0; i < id.length; i++)
    if (id.charCodeAt(i) > 0x7f)
      return typeof Buffer === 'function'
        ? Buffer.from(id, 'latin1').toString('utf8')
        : UTF8.decode(binaryBytes(id))
  return id
}

/** The bytes of a binary string (one char per byte), without Node's `Buffer` (this module also runs in a browser). */
export function binaryBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff
  return out
}

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** Encode UTF-8 text as a binary-string id (the inverse of {@link decodeId}). */
export function encodeId(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1')
}

const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
  1e18, 1e19, 1e20, 1e21, 1e22,
]

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 32 : c
}

function matchWord(buf: Uint8Array, i: number, end: number, word: string): boolean {
  if (end - i < word.length) return false
  for (let k = 0; k < word.length; k++) if (lower(buf[i + k]!) !== word.charCodeAt(k)) return false
  return true
}

/**
 * C `atof` (`strtod`) on the bytes `buf[start, end)`: the longest valid prefix is converted,
 * correctly rounded; trailing junk is ignored and an unparsable field gives 0. Accepts a sign,
 * decimal and scientific notation, `inf`/`infinity`, `nan`, and hex floats (`0x1p-20`).
 */
export function parseCDouble(buf: Uint8Array, start: number, end: number): number {
  let i = start
  while (i < end && IS_SPACE[buf[i]!]) i++
  let neg = false
  if (i < end && (buf[i] === 0x2b || buf[i] === 0x2d)) {
    neg = buf[i] === 0x2d
    i++
  }
  // Fast path: up to 15 significant digits, optional fraction, no exponent (Clinger's exact case).
  let mant = 0
  let digits = 0
  let frac = 0
  let j = i
  while (j < end && isDigit(buf[j]!)) {
    mant = mant * 10 + (buf[j]! - 0x30)
    digits++
    j++
  }
  let sawDigits = digits > 0
  if (j < end && buf[j] === 0x2e) {
    j++
    while (j < end && isDigit(buf[j]!)) {
      mant = mant * 10 + (buf[j]! - 0x30)
      digits++
      frac++
      j++
    }
    sawDigits = sawDigits || frac > 0
  }
  if (sawDigits && digits <= 15 && (j >= end || (buf[j] !== 0x65 && buf[j] !== 0x45))) {
    if (!(j < end && (buf[j] === 0x78 || buf[j] === 0x58) && j === i + 1 && buf[i] === 0x30)) {
      const v = frac === 0 ? mant : mant / POW10[frac]!
      return neg ? -v : v
    }
  }
  return slowParse(buf, start, end)
}

function slowParse(buf: Uint8Array, start: number, end: number): number {
  let i = start
  while (i < end && IS_SPACE[buf[i]!]) i++
  let sign = 1
  if (i < end && (buf[i] === 0x2b || buf[i] === 0x2d)) {
    if (buf[i] === 0x2d) sign = -1
    i++
  }
  if (matchWord(buf, i, end, 'inf')) return sign * Infinity
  if (matchWord(buf, i, end, 'nan')) return NaN
  if (i + 1 < end && buf[i] === 0x30 && (buf[i + 1] === 0x78 || buf[i + 1] === 0x58)) {
    const hex = parseHexFloat(buf, i + 2, end)
    if (hex !== null) return sign * hex
    return sign * 0 // "0x" with no hex digits parses as the "0"
  }
  // Decimal: digits [. digits] [e [sign] digits]
  let j = i
  let nd = 0
  while (j < end && isDigit(buf[j]!)) {
    j++
    nd++
  }
  if (j < end && buf[j] === 0x2e) {
    j++
    while (j < end && isDigit(buf[j]!)) {
      j++
      nd++
    }
  }
  if (nd === 0) return sign * 0
  if (j < end && (buf[j] === 0x65 || buf[j] === 0x45)) {
    let k = j + 1
    if (k < end && (buf[k] === 0x2b || buf[k] === 0x2d)) k++
    if (k < end && isDigit(buf[k]!)) {
      while (k < end && isDigit(buf[k]!)) k++
      j = k
    }
  }
  let text = ''
  for (let k = i; k < j; k++) text += String.fromCharCode(buf[k]!)
  if (text.startsWith('.')) text = '0' + text
  return sign * Number(text)
}

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  const l = lower(c)
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10
  return -1
}

function parseHexFloat(buf: Uint8Array, i: number, end: number): number | null {
  let mant = 0n
  let exp = 0
  let any = false
  while (i < end && hexVal(buf[i]!) >= 0) {
    mant = mant * 16n + BigInt(hexVal(buf[i]!))
    any = true
    i++
  }
  if (i < end && buf[i] === 0x2e) {
    i++
    while (i < end && hexVal(buf[i]!) >= 0) {
      mant = mant * 16n + BigInt(hexVal(buf[i]!))
      exp -= 4
      any = true
      i++
    }
  }
  if (!any) return null
  if (i < end && (buf[i] === 0x70 || buf[i] === 0x50)) {
    let k = i + 1
    let esign = 1
    if (k < end && (buf[k] === 0x2b || buf[k] === 0x2d)) {
      if (buf[k] === 0x2d) esign = -1
      k++
    }
    if (k < end && isDigit(buf[k]!)) {
      let e = 0
      while (k < end && isDigit(buf[k]!)) {
        e = Math.min(e * 10 + (buf[k]! - 0x30), 1e6)
        k++
      }
      exp += esign * e
    }
  }
  if (mant === 0n) return 0
  // Scale exactly: fold the exponent into a power of two applied in two steps to avoid overflow.
  const m = Number(mant)
  const half = Math.trunc(exp / 2)
  return m * 2 ** half * 2 ** (exp - half)
}

/**
 * C `atol` on the bytes `buf[start, end)`: optional whitespace and sign, then decimal digits;
 * stops at the first other byte; no digits gives 0. (`"1.7"` gives 1, `"2x"` gives 2.)
 */
export function parseCLong(buf: Uint8Array, start: number, end: number): number {
  let i = start
  while (i < end && IS_SPACE[buf[i]!]) i++
  let neg = false
  if (i < end && (buf[i] === 0x2b || buf[i] === 0x2d)) {
    neg = buf[i] === 0x2d
    i++
  }
  let v = 0
  while (i < end && isDigit(buf[i]!)) {
    v = v * 10 + (buf[i]! - 0x30)
    i++
  }
  return neg ? -v : v
}

/** C `atol` on a JS string (used for command-line values such as `-l 2` or `-M100`). */
export function atol(text: string): number {
  return parseCLong(Buffer.from(text, 'latin1'), 0, text.length)
}

/** C `atof` on a JS string (used for command-line values such as `-m iprec_at_recall..10`). */
export function atof(text: string): number {
  return parseCDouble(Buffer.from(text, 'latin1'), 0, text.length)
}
