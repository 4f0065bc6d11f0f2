import { IS_SPACE } from './bytes.js'

/** Default longest line accepted, in bytes (documented in the README; `--max-line-bytes`). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024

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
