import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonlLines } from './jsonl.js'
import { binaryString } from './bytes.js'
import { hasBareCr, LINE_BARE_CR, LINE_BOM, LINE_CR, LINE_LF, LineSplitter, type LineOptions } from './lines.js'

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

/** Every line (text, number, flags) and every skipped line (head, length, number, flags). */
function splitWith(chunks: readonly Uint8Array[], options: LineOptions) {
  const lines: [string, number, number][] = []
  const long: [string, number, number, number][] = []
  const s = new LineSplitter((buf, a, b, line, flags) => void lines.push([binaryString(buf, a, b), line, flags]), {
    ...options,
    onTooLong: (head, n, line, flags) => void long.push([binaryString(head, 0, head.length), n, line, flags]),
  })
  for (const c of chunks) s.feed(c)
  s.end()
  return { lines, long, tooLong: s.tooLongLine, stopped: s.stopped }
}

describe('LineSplitter options', () => {
  const u8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'))
  it('bom: strip drops one UTF-8 BOM starting line 1 only; the flag says it was there', () => {
    const bytes = u8('\xef\xbb\xbfa\n\xef\xbb\xbfb\n')
    expect(splitWith([bytes], { bom: 'strip' }).lines).toEqual([
      ['a', 1, LINE_LF | LINE_BOM],
      ['\xef\xbb\xbfb', 2, LINE_LF],
    ])
    expect(splitWith([bytes], {}).lines[0]).toEqual(['\xef\xbb\xbfa', 1, LINE_LF | LINE_BOM])
  })
  it('crlf: strip drops one CR ending a line (before LF or at the end); bareCr: report flags the others', () => {
    const bytes = u8('a\r\nb\rc\r\r\n\r\nd\r')
    expect(splitWith([bytes], { crlf: 'strip', bareCr: 'report' }).lines).toEqual([
      ['a', 1, LINE_LF | LINE_CR],
      ['b\rc\r', 2, LINE_LF | LINE_CR | LINE_BARE_CR],
      ['', 3, LINE_LF | LINE_CR],
      ['d', 4, LINE_CR],
    ])
    expect(splitWith([bytes], {}).lines.map(([t, , f]) => [t, f])).toEqual([
      ['a\r', LINE_LF | LINE_CR],
      ['b\rc\r\r', LINE_LF | LINE_CR],
      ['\r', LINE_LF | LINE_CR],
      ['d\r', LINE_CR],
    ])
  })
  it("tooLong: 'skip' reports each long line (head, length, number, CR) and goes on, however the stream is cut", () => {
    const bytes = u8(`ok\n${'x'.repeat(30)}\r\nfine\n${'y'.repeat(12)}`)
    const want = {
      lines: [
        ['ok', 1, LINE_LF],
        ['fine', 3, LINE_LF],
      ],
      long: [
        ['xxxx', 31, 2, LINE_LF | LINE_CR],
        ['yyyy', 12, 4, 0],
      ],
      tooLong: 2,
      stopped: false,
    }
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (points) => {
        expect(splitWith(cut(Buffer.from(bytes), points), { maxLineBytes: 10, tooLong: 'skip', headBytes: 4 })).toEqual(want)
      }),
    )
    // 'stop' (the default): the handler hears of the first long line, then nothing more
    const stop = splitWith([bytes], { maxLineBytes: 10, headBytes: 4 })
    expect(stop).toEqual({ lines: [['ok', 1, LINE_LF]], long: [['xxxx', 31, 2, LINE_LF | LINE_CR]], tooLong: 2, stopped: true })
  })
  it('feed(bytes, true) keeps every line in place, the last one too (offsets index the buffer)', () => {
    const bytes = u8('ab\ncd')
    const seen: [boolean, number, number][] = []
    const s = new LineSplitter((buf, a, b) => void seen.push([buf === bytes, a, b]))
    s.feed(bytes, true)
    s.end()
    expect(seen).toEqual([
      [true, 0, 2],
      [true, 3, 5],
    ])
  })
  it('takes plain Uint8Arrays (no Buffer), joining lines cut across chunks', () => {
    const enc = new TextEncoder()
    const got = splitWith([enc.encode('h\u00e9'), enc.encode('llo\nw'), enc.encode('orld')], {})
    expect(got.lines.map(([t, n]) => [Buffer.from(t, 'latin1').toString('utf8'), n])).toEqual([
      ['h\u00e9llo', 1],
      ['world', 2],
    ])
  })
})
