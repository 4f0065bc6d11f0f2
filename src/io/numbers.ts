/**
 * The one number syntax of trecscore's readers (outside the trec_eval drop-in) and of `validate`,
 * on bytes and on text (measure names, options, gain maps, data files read as text).
 *
 * - A score is a decimal: `[+-] digits [. digits] [(e|E) [+-] digits]` with at least one digit
 *   (`1`, `-0.5`, `.5`, `5.`, `1e-3`), and its value must be finite: `nan`, `inf` and `1e400`
 *   are refused, as are hex (`0x10`), `1_0`, `0,75` and non-ASCII digits.
 * - A grade or rank is an integer: `[+-] digits`.
 *
 * The drop-in instead reads numbers like C `atof`/`atol` (see `io/bytes.ts`), as trec_eval does:
 * the longest valid prefix counts and `abc` reads as 0.
 */
import { parseCDouble, parseCLong } from './bytes.js'

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

/** Is `buf[s, e)` a decimal number: `[+-] digits [. digits] [(e|E) [+-] digits]`, some digit? */
export function isDecimal(buf: Uint8Array, s: number, e: number): boolean {
  let i = s
  if (i < e && (buf[i] === 0x2b || buf[i] === 0x2d)) i++
  let digits = 0
  while (i < e && isDigit(buf[i]!)) i++, digits++
  if (i < e && buf[i] === 0x2e) {
    i++
    while (i < e && isDigit(buf[i]!)) i++, digits++
  }
  if (digits === 0) return false
  if (i < e && (buf[i] === 0x65 || buf[i] === 0x45)) {
    i++
    if (i < e && (buf[i] === 0x2b || buf[i] === 0x2d)) i++
    let exp = 0
    while (i < e && isDigit(buf[i]!)) i++, exp++
    if (exp === 0) return false
  }
  return i === e
}

/** Is `buf[s, e)` an integer: `[+-] digits`? */
export function isInteger(buf: Uint8Array, s: number, e: number): boolean {
  let i = s
  if (i < e && (buf[i] === 0x2b || buf[i] === 0x2d)) i++
  if (i >= e) return false
  for (; i < e; i++) if (!isDigit(buf[i]!)) return false
  return true
}

/**
 * The length of the longest prefix of `text` from `from` in the decimal syntax (as
 * {@link isDecimal}; an exponent only counts when complete: `1e` gives the `1`), 0 when none.
 * For numbers written in text: measure names, options, gain maps, data files.
 */
export function decimalPrefixLength(text: string, from = 0): number {
  const e = text.length
  let i = from
  const c = (k: number): number => text.charCodeAt(k)
  if (i < e && (c(i) === 0x2b || c(i) === 0x2d)) i++
  let digits = 0
  while (i < e && isDigit(c(i))) i++, digits++
  if (i < e && c(i) === 0x2e) {
    i++
    while (i < e && isDigit(c(i))) i++, digits++
  }
  // A lone '.' is no number; '5.' and '.5' are.
  if (digits === 0) return 0
  if (i < e && (c(i) === 0x65 || c(i) === 0x45)) {
    let j = i + 1
    if (j < e && (c(j) === 0x2b || c(j) === 0x2d)) j++
    const d0 = j
    while (j < e && isDigit(c(j))) j++
    if (j > d0) i = j
  }
  return i - from
}

/** Is `text` a decimal number in the syntax of {@link isDecimal}? (Its value may be infinite.) */
export function isDecimalText(text: string): boolean {
  return text.length > 0 && decimalPrefixLength(text) === text.length
}

/** Is `text` an integer: `[+-] digits`? */
export function isIntegerText(text: string): boolean {
  const e = text.length
  let i = 0
  if (i < e && (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d)) i++
  if (i >= e) return false
  for (; i < e; i++) if (!isDigit(text.charCodeAt(i))) return false
  return true
}

/** `nan`, `inf`, `infinity` in any case, with an optional sign (what C `strtod` also reads). */
export function isNanOrInf(text: string): boolean {
  return /^[+-]?(nan|inf|infinity)$/i.test(text)
}

/** What reading one score field gave: its value, or why it is not a score. */
export type ScoreReading =
  | { readonly ok: true; readonly value: number }
  | { readonly ok: false; readonly code: 'not_a_number' | 'not_finite' }

/** Read the score `buf[s, e)` in the strict syntax (see the module comment). */
export function readScore(buf: Uint8Array, s: number, e: number): ScoreReading {
  if (!isDecimal(buf, s, e)) {
    let text = ''
    for (let k = s; k < e && k < s + 16; k++) text += String.fromCharCode(buf[k]!)
    return { ok: false, code: isNanOrInf(text) ? 'not_finite' : 'not_a_number' }
  }
  const value = parseCDouble(buf, s, e)
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, code: 'not_finite' }
}

/** Read the integer `buf[s, e)` in the strict syntax; `null` when it is not one. */
export function readInteger(buf: Uint8Array, s: number, e: number): number | null {
  if (!isInteger(buf, s, e)) return null
  if (e - s <= 15) return parseCLong(buf, s, e)
  let text = ''
  for (let k = s; k < e; k++) text += String.fromCharCode(buf[k]!)
  return Number(text)
}
