/**
 * UTF-8 well-formedness, byte by byte, with the rules of `buffer.isUtf8` (WHATWG): no overlong
 * forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
 */

/** Length (1 to 4) of the well-formed UTF-8 sequence starting at `buf[i]` before `end`, or 0. */
export function utf8SequenceLength(buf: Uint8Array, i: number, end: number = buf.length): number {
  const c = buf[i]!
  if (c < 0x80) return 1
  let need: number
  let lo = 0x80
  let hi = 0xbf
  if (c >= 0xc2 && c <= 0xdf) need = 1
  else if (c === 0xe0) (need = 2), (lo = 0xa0)
  else if (c === 0xed) (need = 2), (hi = 0x9f)
  else if (c >= 0xe1 && c <= 0xef) need = 2
  else if (c === 0xf0) (need = 3), (lo = 0x90)
  else if (c === 0xf4) (need = 3), (hi = 0x8f)
  else if (c >= 0xf1 && c <= 0xf3) need = 3
  else return 0
  if (i + need >= end) return 0
  const b1 = buf[i + 1]!
  if (b1 < lo || b1 > hi) return 0
  for (let k = 2; k <= need; k++) {
    const b = buf[i + k]!
    if (b < 0x80 || b > 0xbf) return 0
  }
  return need + 1
}

/** Offset of the first byte of `buf[start, end)` that starts no well-formed sequence, or -1. */
export function firstInvalidUtf8(buf: Uint8Array, start: number, end: number): number {
  let i = start
  while (i < end) {
    if (buf[i]! < 0x80) {
      i++
      continue
    }
    const len = utf8SequenceLength(buf, i, end)
    if (len === 0) return i
    i += len
  }
  return -1
}
