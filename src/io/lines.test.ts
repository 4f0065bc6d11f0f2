import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { binaryString } from './bytes.js'
import { jsonlLines } from './jsonl.js'
import {
  hasBareCr,
  LINE_BARE_CR,
  LINE_BOM,
  LINE_CR,
  LINE_LF,
  type LineOptions,
  LineSplitter,
  splitFields,
} from './lines.js'
import { TrecRunParser } from './trec-run.js'

function split(
  chunks: readonly Buffer[],
  max = 1 << 20,
): { lines: [number, string][]; tooLong: number | undefined } {
  const lines: [number, string][] = []
  const s = new LineSplitter(
    (buf, a, b, line) => void lines.push([line, binaryString(buf, a, b)]),
    max,
  )
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

const bytes = fc
  .array(fc.constantFrom(0x0a, 0x0d, 0x20, 0x61, 0x00, 0xff), { maxLength: 300 })
  .map((a) => Buffer.from(a))

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
      fc.property(
        bytes,
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 0, max: 20 }),
        (b, points, max) => {
          const whole = split([b], max)
          expect(split(cut(b, points), max)).toEqual(whole)
          const physical = b.toString('latin1').replace(/\n$/, '').split('\n')
          const first = b.length === 0 ? -1 : physical.findIndex((l) => l.length > max)
          expect(whole.tooLong).toBe(first < 0 ? undefined : first + 1)
          expect(whole.lines.length).toBe(
            first < 0 ? (b.length === 0 ? 0 : physical.length) : first,
          )
        },
      ),
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
  const s = new LineSplitter(
    (buf, a, b, line, flags) => void lines.push([binaryString(buf, a, b), line, flags]),
    {
      ...options,
      onTooLong: (head, n, line, flags) =>
        void long.push([binaryString(head, 0, head.length), n, line, flags]),
    },
  )
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
        expect(
          splitWith(cut(Buffer.from(bytes), points), {
            maxLineBytes: 10,
            tooLong: 'skip',
            headBytes: 4,
          }),
        ).toEqual(want)
      }),
    )
    // 'stop' (the default): the handler hears of the first long line, then nothing more
    const stop = splitWith([bytes], { maxLineBytes: 10, headBytes: 4 })
    expect(stop).toEqual({
      lines: [['ok', 1, LINE_LF]],
      long: [['xxxx', 31, 2, LINE_LF | LINE_CR]],
      tooLong: 2,
      stopped: true,
    })
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
  it('copies what it keeps: a caller may overwrite a Buffer chunk once feed returns', () => {
    // readChunksPrefetched reuses its buffers; Buffer#slice is a view, not a copy.
    const text = `one two\n${'z'.repeat(9)}end\nthree four\nfive`
    const want = splitWith([u8(text)], { maxLineBytes: 8, tooLong: 'skip', headBytes: 4 })
    expect([want.lines.map(([t]) => t), want.long.map(([t]) => t)]).toEqual([
      ['one two', 'five'],
      ['zzzz', 'thre'],
    ])
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (points) => {
        const reused = Buffer.alloc(text.length)
        const chunks = cut(Buffer.from(text, 'latin1'), points)
        const lines: string[] = []
        const long: string[] = []
        const s = new LineSplitter((buf, a, b) => void lines.push(binaryString(buf, a, b)), {
          maxLineBytes: 8,
          tooLong: 'skip',
          headBytes: 4,
          onTooLong: (head) => void long.push(binaryString(head, 0, head.length)),
        })
        for (const c of chunks) {
          const view = reused.subarray(0, c.length)
          c.copy(view)
          s.feed(view)
          reused.fill(0x3f)
        }
        s.end()
        expect(lines).toEqual(want.lines.map(([t]) => t))
        expect(long).toEqual(want.long.map(([t]) => t))
      }),
    )
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

/*
 * The run parser fuses line splitting into its scanner (one pass over the bytes); this proves it
 * splits exactly like the one splitter, `LineSplitter`, on generated runs mixing good lines,
 * blank and comment lines, CRLF, bare CRs, a BOM, garbage, very long lines and a last line
 * without `\n`, however the input is cut into chunks: the same physical line numbers for every
 * content line (a judgment or an issue), the same blank and comment counts, the same line
 * where an over-long line stops reading.
 */
const WS = [0x20, 0x09, 0x0b, 0x0c, 0x0d]
const ws = fc.array(fc.constantFrom(...WS), { minLength: 1, maxLength: 3 })
const word = fc.stringMatching(/^[a-z0-9.#-]{1,6}$/).map((s) => [...Buffer.from(s)])
const goodLine = fc
  .tuple(
    word,
    ws,
    word,
    ws,
    word,
    ws,
    fc.integer({ min: 1, max: 99 }),
    ws,
    fc.double({ min: -10, max: 10, noNaN: true }),
    ws,
    word,
  )
  .map((p) => {
    const [q, a, , b, d, c, r, e, s, f, t] = p
    return [
      ...q,
      ...a,
      0x51,
      0x30,
      ...b,
      ...d,
      ...c,
      ...Buffer.from(String(r)),
      ...e,
      ...Buffer.from(s.toFixed(3)),
      ...f,
      ...t,
    ]
  })
const lineBytes = fc.oneof(
  { weight: 6, arbitrary: goodLine },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...WS), { maxLength: 4 }) }, // blank
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.array(fc.constantFrom(0x20, 0x09), { maxLength: 2 }), word)
      .map(([w, x]) => [...w, 0x23, ...x]),
  }, // comment
  { weight: 1, arbitrary: goodLine.map((l) => [0xef, 0xbb, 0xbf, ...l]) }, // BOM
  { weight: 1, arbitrary: goodLine.map((l) => [...l, 0x0d, ...l]) }, // bare CR (old Mac line end)
  {
    weight: 1,
    arbitrary: fc.array(
      fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0a),
      { maxLength: 30 },
    ),
  }, // garbage
  {
    weight: 1,
    arbitrary: fc.integer({ min: 60, max: 200 }).map((n) => Array<number>(n).fill(0x61)),
  }, // long
)
const run = fc
  .tuple(fc.array(fc.tuple(lineBytes, fc.boolean()), { maxLength: 25 }), fc.boolean())
  .map(([lines, finalNl]) => {
    const out: number[] = []
    lines.forEach(([l, crlf], k) => {
      out.push(...l)
      if (crlf) out.push(0x0d)
      if (k < lines.length - 1 || finalNl) out.push(0x0a)
    })
    return Buffer.from(out)
  })

/** What the one splitter says: content line numbers, blank and comment counts, the too-long line. */
function bySplitter(chunks: readonly Buffer[], maxLineBytes: number, comments: boolean) {
  const content: number[] = []
  let blank = 0
  let comment = 0
  const f: number[] = []
  const s = new LineSplitter((buf, start, end, line) => {
    if (splitFields(buf, start, end, f) === 0) blank++
    else if (comments && buf[f[0]!] === 0x23) comment++
    else content.push(line)
  }, maxLineBytes)
  for (const c of chunks) s.feed(c)
  s.end()
  return { content, blank, comment, tooLong: s.tooLongLine }
}

function byParser(
  chunks: readonly Buffer[],
  maxLineBytes: number,
  comments: boolean,
  syntax: 'strict' | 'c',
) {
  const content: number[] = []
  const p = new TrecRunParser((g) => content.push(...g.lines), {
    maxLineBytes,
    comments,
    syntax,
    maxIssues: 1e9,
    keepRanks: true,
  })
  for (const c of chunks) p.feed(c)
  p.end()
  const tooLong = p.issues.find((i) => i.code === 'line_too_long')
  for (const i of p.issues)
    if (i.code !== 'line_too_long' && 'line' in i && i.line !== undefined) content.push(i.line)
  content.sort((a, b) => a - b)
  return {
    content,
    blank: p.blankLines,
    comment: p.commentLines,
    tooLong: tooLong && 'line' in tooLong ? tooLong.line : undefined,
    lines: p.contentLines,
  }
}

describe('the fused run scanner splits lines exactly like LineSplitter', () => {
  it('same line numbers, blank and comment lines, CR, BOM, last line, long lines, any chunking', () => {
    fc.assert(
      fc.property(
        run,
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 40, max: 300 }),
        fc.boolean(),
        fc.constantFrom('strict' as const, 'c' as const),
        (bytes, points, max, comments, syntax) => {
          const chunks = cut(bytes, points)
          const want = bySplitter(chunks, max, comments)
          const got = byParser(chunks, max, comments, syntax)
          expect(got.tooLong).toBe(want.tooLong)
          expect(got.content).toEqual(want.content)
          expect(got.lines).toBe(want.content.length)
          expect([got.blank, got.comment]).toEqual([want.blank, want.comment])
        },
      ),
      { numRuns: 1500 },
    )
  })

  it('a very long line (longer than every chunk) stops both at its number', () => {
    const bytes = Buffer.concat([
      Buffer.from('1 Q0 d 1 1 t\n\n'),
      Buffer.alloc(5000, 0x61),
      Buffer.from('\n1 Q0 e 2 1 t\n'),
    ])
    const chunks = cut(bytes, [10, 100, 1000, 2000, 3000, 4000])
    expect(bySplitter(chunks, 4096, true)).toEqual({
      content: [1],
      blank: 1,
      comment: 0,
      tooLong: 3,
    })
    expect(byParser(chunks, 4096, true, 'strict')).toMatchObject({
      content: [1],
      blank: 1,
      comment: 0,
      tooLong: 3,
    })
  })
})

describe('LineSplitter onLines (a bulk handler)', () => {
  /** Lines seen by either handler; the bulk one takes up to `take` lines that start with 'k'. */
  function bulkSplit(chunks: readonly Buffer[], take: number) {
    const seen: [number, string, 'bulk' | 'line'][] = []
    const s = new LineSplitter(
      (buf, a, b, line) => void seen.push([line, binaryString(buf, a, b), 'line']),
      {
        onLines: (buf, start, end, line) => {
          expect(buf[end - 1]).toBe(0x0a)
          let pos = start
          let n = 0
          while (n < take && pos < end && buf[pos] === 0x6b) {
            const nl = buf.indexOf(0x0a, pos)
            seen.push([line + n, binaryString(buf, pos, nl), 'bulk'])
            n++
            pos = nl + 1
          }
          return { lines: n, end: pos }
        },
      },
    )
    for (const c of chunks) s.feed(c)
    s.end()
    return seen
  }
  const text = fc
    .array(fc.constantFrom('k1', 'k22', 'x', '', 'k'), { maxLength: 30 })
    .map((ls) => Buffer.from(ls.join('\n')))

  it('numbers and hands on every line exactly once, whoever takes it, however the stream is cut', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), fc.nat(4), (b, points, take) => {
        const seen = bulkSplit(cut(b, points), take)
        expect(seen.map(([n, t]) => [n, t])).toEqual(split([b]).lines)
        // Nothing but complete lines starting with 'k' goes to the bulk handler.
        for (const [, t, by] of seen) if (by === 'bulk') expect(t.startsWith('k')).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
  it('offers the complete lines of a chunk, and the rest again after a line it does not take', () => {
    const seen = bulkSplit([Buffer.from('k1\nk2\nx\nk3\nk4')], 9)
    expect(seen).toEqual([
      [1, 'k1', 'bulk'],
      [2, 'k2', 'bulk'],
      [3, 'x', 'line'],
      [4, 'k3', 'bulk'],
      [5, 'k4', 'line'],
    ])
  })
})
