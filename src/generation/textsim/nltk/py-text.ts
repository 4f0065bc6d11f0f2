/**
 * Python 3 `str` and `re` character semantics that NLTK's tokenizers rely on, for JavaScript.
 *
 * - Python whitespace (`str.isspace`, `str.split()`, `str.strip()`, regex `\s` on `str`):
 *   U+0009–U+000D, U+001C–U+001F, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028,
 *   U+2029, U+202F, U+205F, U+3000. JavaScript's `\s` lacks U+001C–U+001F and U+0085 and adds
 *   U+FEFF, so neither `\s` nor `String.prototype.trim` may be used.
 * - Python regex `\w` on `str`: `str.isalnum()` (letters L*, and characters with a numeric
 *   value: Nd, Nl, No) or `_`; combining marks are not word characters. `\d` is Nd.
 * - Python regex `\b` is Unicode-aware; JavaScript's is ASCII-only even with the `u` flag, so it
 *   is written as look-arounds on {@link PY_WORD_CLASS}.
 * - Python `re.IGNORECASE` compares simple lowercase mappings plus a few equivalences, so `i`
 *   also matches U+0130 and U+0131, `s` matches U+017F and `k` matches U+212A; {@link pyIgnoreCase}
 *   spells a literal out as such classes.
 */

/** The body of a character class holding Python's whitespace characters. */
export const PY_SPACE_CLASS =
  '\\t-\\r\\x1c- \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
/** Python `\s` (use with the `u` flag). */
export const PY_S = `[${PY_SPACE_CLASS}]`
/** Python `\S` (use with the `u` flag). */
export const PY_NS = `[^${PY_SPACE_CLASS}]`
/** The body of a character class holding Python's `\w` characters. */
export const PY_WORD_CLASS = '\\p{L}\\p{N}_'
/** Python `\w`. */
export const PY_W = `[${PY_WORD_CLASS}]`
/** Python `[^\W\d]`: word characters other than decimal digits. */
export const PY_W_NOT_DIGIT = '[\\p{L}\\p{Nl}\\p{No}_]'

const SPLIT_RE = new RegExp(`${PY_S}+`, 'u')

/** Python `ch.isspace()` for a UTF-16 code unit (every Python whitespace character is in the BMP). */
export function isPySpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)
  if (c < 0x85) return false
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  )
}

/** Python `ch.isspace()` for the first UTF-16 unit of `ch` (false for the empty string). */
export function isPySpace(ch: string): boolean {
  return ch.length > 0 && isPySpaceCode(ch.charCodeAt(0))
}

/** Python `s.split()` with no arguments: runs of Python whitespace separate, no empty strings. */
export function pySplit(s: string): string[] {
  return s.split(SPLIT_RE).filter((t) => t.length > 0)
}

/** Python `s.strip()` (a scan, not a regex: `\s+$` is quadratic on long runs of spaces). */
export function pyStrip(s: string): string {
  let a = 0
  const b = pyRstripLength(s)
  while (a < b && isPySpace(s[a]!)) a++
  return s.slice(a, b)
}

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  return s.slice(0, pyRstripLength(s))
}

/** `len(s.rstrip())` in UTF-16 units. */
export function pyRstripLength(s: string): number {
  let b = s.length
  while (b > 0 && isPySpace(s[b - 1]!)) b--
  return b
}

const UPPER_RE = /^\p{Uppercase}/u
const LOWER_RE = /^\p{Lowercase}/u

/** Python `s[0].isupper()` (the first code point, not the first UTF-16 unit). */
export function firstIsUpper(s: string): boolean {
  return UPPER_RE.test(s)
}

/** Python `s[0].islower()`. */
export function firstIsLower(s: string): boolean {
  return LOWER_RE.test(s)
}

const FOLD: Readonly<Record<string, string>> = {
  i: 'iI\\u0130\\u0131',
  s: 'sS\\u017f',
  k: 'kK\\u212a',
}

/**
 * A regex source matching `literal` the way Python's `(?i)` matches it (ASCII letters become
 * classes; other characters are escaped as needed). Only for ASCII literals.
 */
export function pyIgnoreCase(literal: string): string {
  let out = ''
  for (const ch of literal) {
    const lower = ch.toLowerCase()
    if (/[a-z]/.test(lower)) out += `[${FOLD[lower] ?? lower + lower.toUpperCase()}]`
    else out += ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')
  }
  return out
}
