/** Streaming line reader shared by the RETECO loaders (bounded memory, physical line numbers). */
import { readChunks } from '../../io/source.js'

/**
 * Call `onLine(bytes, start, end, lineNo)` for every line of a file, streaming (bounded memory:
 * one chunk plus one unfinished line). `lineNo` is physical and 1-based.
 */
export async function forEachLine(file: string, onLine: (buf: Buffer, start: number, end: number, line: number) => void): Promise<void> {
  let carry: Buffer | null = null
  let line = 0
  for await (const chunk of readChunks(file)) {
    const buf = chunk
    let pos = 0
    if (carry) {
      const nl = chunk.indexOf(0x0a)
      if (nl < 0) {
        carry = Buffer.concat([carry, chunk])
        continue
      }
      const joined = Buffer.concat([carry, chunk.subarray(0, nl)])
      carry = null
      onLine(joined, 0, joined.length, ++line)
      pos = nl + 1
    }
    for (;;) {
      const nl = buf.indexOf(0x0a, pos)
      if (nl < 0) break
      onLine(buf, pos, nl, ++line)
      pos = nl + 1
    }
    if (pos < buf.length) carry = Buffer.from(buf.subarray(pos))
  }
  if (carry && carry.length) onLine(carry, 0, carry.length, ++line)
}

/** Whether `buf[start, end)` holds only ASCII whitespace (space, \t, \r, \v, \f). */
export function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i]!
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0b && c !== 0x0c) return false
  }
  return true
}

