import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonlLines } from './jsonl.js'
import { binaryString } from './bytes.js'
import { hasBareCr, LineSplitter } from './lines.js'

function split(chunks: readonly Buffer[], max = 1 << 20): { lines: [number, string][]; tooLong: number | undefined } {
  const lines: [number, string][] = []
  const s = new LineSplitter((buf, a, b, line) => void lines.push([line, binaryString(buf, a, b)]), max)
  for (const c of chunks) s.feed(c)
  s.end()
  return { lines, tooLong: s.tooLongLine }
}

function cut(bytes: Buffer, points: readonly number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b)
  const out: Buffer[] = []
  let prev = 0
  for (const p of [...at, bytes.length]) out.push(bytes.subarray(prev, p)), (prev = p)
  return out
}

const bytes = fc.array(fc.constantFrom(0x0a, 0x0d, 0x20, 0x61, 0x00, 0xff), { maxLength: 300 }).map((a) => Buffer.from(a))

describe('LineSplitter', () => {
  it('splits like jsonlLines (the documented convention) however the stream is cut', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 10 }), (b, points) => {
        // jsonlLines drops one final CR per line; compare the line numbers and raw lengths.
        const expected = [...jsonlLines(b)].map((l) => l.line)
        const got = split(cut(b, points))
        expect(got.lines.map(([n]) => n)).toEqual(expected)
        expect(got.lines.map(([, t]) => t).join('\n')).toBe(b.toString('latin1').replace(/\n$/, ''))
      }),
      { numRuns: 2000 },
    )
  })
  it('stops at the first line over the limit, with its number, however the stream is cut', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 10 }), fc.integer({ min: 0, max: 20 }), (b, points, max) => {
        const whole = split([b], max)
        expect(split(cut(b, points), max)).toEqual(whole)
        const physical = b.toString('latin1').replace(/\n$/, '').split('\n')
        const first = b.length === 0 ? -1 : physical.findIndex((l) => l.length > max)
        expect(whole.tooLong).toBe(first < 0 ? undefined : first + 1)
        expect(whole.lines.length).toBe(first < 0 ? (b.length === 0 ? 0 : physical.length) : first)
      }),
      { numRuns: 2000 },
    )
  })
  it('keeps no more than the limit while a line has no end (a stream of zeros)', () => {
    const s = new LineSplitter(() => {}, 1000)
    for (let k = 0; k < 100; k++) s.feed(Buffer.alloc(64))
    expect(s.tooLongLine).toBe(1)
    expect(s.stopped).toBe(true)
  })
  it('hasBareCr: a CR inside a line, not a CRLF ending', () => {
    const t = (s: string): boolean => hasBareCr(Buffer.from(s), 0, s.length)
    expect([t('a b\r'), t('a\rb'), t('a b'), t('\r\r')]).toEqual([false, true, false, true])
  })
})
