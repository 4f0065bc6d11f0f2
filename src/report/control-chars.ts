/**
 * Ids and run labels shown to people: control characters (C0, DEL, C1) and the Unicode
 * bidirectional overrides are written as `\xNN` / `\u{NNNN}`, so an id cannot move the cursor,
 * clear the screen or reorder a table on a terminal. Machine formats keep ids exact.
 */

// eslint-disable-next-line no-control-regex
const CONTROL =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu

/** `s` with every control character escaped (see the module comment); other text unchanged. */
export function escapeControlChars(s: string): string {
  return s.replace(CONTROL, (c) => {
    const code = c.codePointAt(0)!
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`
  })
}
