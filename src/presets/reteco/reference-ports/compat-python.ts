/**
 * The Python text semantics the RETECO organizers' scripts read their inputs with, so that the
 * compatibility convention sets (`scorer-py`, `official-baseline`) see exactly the fields,
 * numbers and errors those scripts see:
 *
 * - `open(path)` in text mode: UTF-8 (strict; a byte-order mark is kept as a character),
 *   universal newlines (`\n`, `\r\n` and a lone `\r` all end a line);
 * - `ln.strip()` / `ln.split()`: Unicode whitespace, not only ASCII;
 * - `int(s)` / `float(s)`: Python's accepted syntax (signs, `_` between digits, `inf`, `nan`,
 *   Unicode decimal digits) and its exact `ValueError` messages;
 * - the last line of the traceback a crash prints (`ValueError: …`), via {@link PythonError}.
 *
 * Strings here are decoded text (Python `str`), not trecscore's binary ids.
 */

/** Python `str.isspace()` characters: what `split()` and `strip()` treat as whitespace. */
const PY_SPACE =
  '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const SPLIT_RE = new RegExp(`[${PY_SPACE}]+`, 'u')
const BLANK_RE = new RegExp(`^[${PY_SPACE}]*$`, 'u')
const STRIP_RE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'gu')

/**
 * An exception as a Python script would raise it; `message` is the last line of its traceback
 * (`ValueError: not enough values to unpack (expected 6, got 5)`).
 */
export class PythonError extends Error {
  override readonly name = 'PythonError'
  /** Python exception class name, e.g. `ValueError`. */
  readonly type: string
  /** Exception text after the class name. */
  readonly detail: string
  constructor(type: string, detail: string) {
    super(`${type}: ${detail}`)
    this.type = type
    this.detail = detail
  }
}

/** One line of a text file as Python iterates it, with its 1-based physical line number. */
export interface PythonLine {
  readonly text: string
  readonly line: number
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function describeBadUtf8(bytes: Uint8Array, at: number): string {
  const b = bytes[at]!
  const hex = `0x${b.toString(16).padStart(2, '0')}`
  const need =
    b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
  if (need === 0) return `can't decode byte ${hex} in position ${at}: invalid start byte`
  // The second byte's valid range is narrower after E0, ED, F0 and F4 (no overlongs, surrogates
  // or code points above U+10FFFF); later continuation bytes are 80..BF.
  const lo2 = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80
  const hi2 = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf
  for (let k = 1; k < need; k++) {
    if (at + k >= bytes.length) {
      const where =
        at + k - 1 > at ? `bytes in position ${at}-${at + k - 1}` : `byte ${hex} in position ${at}`
      return `can't decode ${where}: unexpected end of data`
    }
    const c = bytes[at + k]!
    if (k === 1 ? c < lo2 || c > hi2 : c < 0x80 || c > 0xbf)
      return `can't decode byte ${hex} in position ${at}: invalid continuation byte`
  }
  return `can't decode byte ${hex} in position ${at}: invalid start byte`
}

function firstBadUtf8(bytes: Uint8Array): number {
  // Decode growing prefixes would be quadratic; find the first offending lead byte by scanning.
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    const n =
      b < 0x80
        ? 1
        : b >= 0xc2 && b <= 0xdf
          ? 2
          : b >= 0xe0 && b <= 0xef
            ? 3
            : b >= 0xf0 && b <= 0xf4
              ? 4
              : 0
    if (n === 0) return i
    try {
      UTF8.decode(bytes.subarray(i, i + n))
    } catch {
      return i
    }
    i += n
  }
  return bytes.length
}

/**
 * Decode a whole file as Python's `open(path)` does (UTF-8, strict) and split it into the lines
 * `for ln in f` yields, line endings removed. Throws {@link PythonError} `UnicodeDecodeError` on
 * invalid UTF-8. The reported position is the byte offset in the file (Python's counts from the
 * start of its 8 KiB read buffer, so it agrees for files under 8 KiB).
 */
export function pythonTextLines(bytes: Uint8Array): PythonLine[] {
  let text: string
  try {
    text = UTF8.decode(bytes)
  } catch {
    throw new PythonError(
      'UnicodeDecodeError',
      `'utf-8' codec ${describeBadUtf8(bytes, firstBadUtf8(bytes))}`,
    )
  }
  const out: PythonLine[] = []
  let line = 0
  let start = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c !== 0x0a && c !== 0x0d) continue
    out.push({ text: text.slice(start, i), line: ++line })
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++
    start = i + 1
  }
  if (start < n) out.push({ text: text.slice(start), line: ++line })
  return out
}

/** Python `s.split()` with no argument: split on runs of Unicode whitespace, no empty fields. */
export function pythonSplit(s: string): string[] {
  const t = s.replace(STRIP_RE, '')
  return t === '' ? [] : t.split(SPLIT_RE)
}

/** Python `not s.strip()`: the line is empty or whitespace only. */
export function pythonIsBlank(s: string): boolean {
  return BLANK_RE.test(s)
}

/**
 * Python's `a, b, … = fields` with `expected` targets: throws the `ValueError` Python raises
 * when the count differs (3.11 wording: `not enough values to unpack (expected 6, got 5)`,
 * `too many values to unpack (expected 6)`).
 */
export function pythonUnpack(fields: readonly string[], expected: number): void {
  if (fields.length < expected)
    throw new PythonError(
      'ValueError',
      `not enough values to unpack (expected ${expected}, got ${fields.length})`,
    )
  if (fields.length > expected)
    throw new PythonError('ValueError', `too many values to unpack (expected ${expected})`)
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u

/**
 * Python's `repr(s)` of a str: single quotes unless the text has a `'` and no `"`; `\\`, the
 * quote, `\t`, `\n`, `\r` escaped; other non-printable characters as `\xhh`, `\uhhhh` or
 * `\Uhhhhhhhh`; printable non-ASCII kept as is.
 */
export function pythonStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'"
  let out = quote
  for (const ch of s) {
    const cp = ch.codePointAt(0)!
    if (ch === quote || ch === '\\') out += '\\' + ch
    else if (ch === '\t') out += '\\t'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0')
    else if (cp < 0x7f || ch === ' ') out += ch
    else if (NON_PRINTABLE.test(ch)) {
      if (cp < 0x100) out += '\\x' + cp.toString(16).padStart(2, '0')
      else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0')
      else out += '\\U' + cp.toString(16).padStart(8, '0')
    } else out += ch
  }
  return out + quote
}

const ND = /\p{Nd}/u

/**
 * Unicode decimal digits to ASCII, as Python's `int()` / `float()` do first. Unicode encodes
 * every decimal digit set as a contiguous run 0..9, so a digit's value is its distance from the
 * start of its run of `Nd` characters, modulo 10. Returns null if nothing needed changing.
 */
function asciiDigits(s: string): string | null {
  if (/^[\x00-\x7f]*$/.test(s)) return null
  let out = ''
  for (const ch of s) {
    if (ch.charCodeAt(0) < 0x80 || !ND.test(ch)) {
      out += ch
      continue
    }
    let cp = ch.codePointAt(0)!
    let k = 0
    while (ND.test(String.fromCodePoint(cp - 1))) {
      cp--
      k++
    }
    out += String(k % 10)
  }
  return out
}

const INT_RE = /^[+-]?[0-9](?:_?[0-9])*$/
/** CPython's default limit on digits converted by `int(str)` (3.11+). */
const INT_MAX_STR_DIGITS = 4300

/**
 * Python `int(s)` (base 10): optional sign, ASCII or Unicode decimal digits, single `_` between
 * digits, surrounding whitespace ignored. Returns a number when exactly representable, else a
 * bigint (compare either with `<` / `>`). Throws Python's `ValueError: invalid literal for int()
 * with base 10: '…'` (the repr cut at 200 characters, as CPython's `%.200R`).
 */
export function pythonInt(s: string): number | bigint {
  const t0 = s.replace(STRIP_RE, '')
  const t = asciiDigits(t0) ?? t0
  if (!INT_RE.test(t))
    throw new PythonError(
      'ValueError',
      `invalid literal for int() with base 10: ${pythonStrRepr(s).slice(0, 200)}`,
    )
  const clean = t.replace(/_/g, '')
  const digits = clean.replace(/^[+-]/, '').length
  if (digits > INT_MAX_STR_DIGITS) {
    throw new PythonError(
      'ValueError',
      `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
    )
  }
  if (digits <= 15) return Number(clean)
  const big = BigInt(clean)
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(big)
    : big
}

const FLOAT_RE =
  /^[+-]?(?:(?:[0-9](?:_?[0-9])*)?\.[0-9](?:_?[0-9])*|[0-9](?:_?[0-9])*\.?)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/
const SPECIAL_RE = /^([+-]?)(inf|infinity|nan)$/i

/**
 * Python `float(s)`: decimal or scientific notation with `_` between digits, `inf`,
 * `infinity`, `nan` (any case, signed), Unicode digits, surrounding whitespace ignored;
 * correctly rounded. Throws `ValueError: could not convert string to float: '…'`.
 */
export function pythonFloat(s: string): number {
  const t0 = s.replace(STRIP_RE, '')
  const t = asciiDigits(t0) ?? t0
  const special = SPECIAL_RE.exec(t)
  if (special) {
    if (special[2]!.toLowerCase() === 'nan') return NaN
    return special[1] === '-' ? -Infinity : Infinity
  }
  if (!FLOAT_RE.test(t))
    throw new PythonError('ValueError', `could not convert string to float: ${pythonStrRepr(s)}`)
  return Number(t.replace(/_/g, ''))
}

/** Python's `sorted()` order of str: by code point (not UTF-16 code unit, as JS `sort()`). */
export function comparePythonStr(a: string, b: string): number {
  const ia = a[Symbol.iterator]()
  const ib = b[Symbol.iterator]()
  for (;;) {
    const x = ia.next()
    const y = ib.next()
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1
    const cx = x.value.codePointAt(0)!
    const cy = y.value.codePointAt(0)!
    if (cx !== cy) return cx - cy
  }
}
