/**
 * The run parser fuses line splitting into its scanner (one pass over the bytes); this proves it
 * splits exactly like the one splitter, `LineSplitter`, on generated runs mixing good lines,
 * blank and comment lines, CRLF, bare CRs, a BOM, garbage, very long lines and a last line
 * without `\n`, however the input is cut into chunks: the same physical line numbers for every
 * content line (a judgment or an issue), the same blank and comment counts, the same line
 * where an over-long line stops reading.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LineSplitter, splitFields } from './lines.js'
import { TrecRunParser } from './trec-run.js'

const WS = [0x20, 0x09, 0x0b, 0x0c, 0x0d]
const ws = fc.array(fc.constantFrom(...WS), { minLength: 1, maxLength: 3 })
const word = fc.stringMatching(/^[a-z0-9.#-]{1,6}$/).map((s) => [...Buffer.from(s)])
const goodLine = fc.tuple(word, ws, word, ws, word, ws, fc.integer({ min: 1, max: 99 }), ws, fc.double({ min: -10, max: 10, noNaN: true }), ws, word).map((p) => {
  const [q, a, , b, d, c, r, e, s, f, t] = p
  return [...q, ...a, 0x51, 0x30, ...b, ...d, ...c, ...Buffer.from(String(r)), ...e, ...Buffer.from(s.toFixed(3)), ...f, ...t]
})
const lineBytes = fc.oneof(
  { weight: 6, arbitrary: goodLine },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...WS), { maxLength: 4 }) }, // blank
  { weight: 2, arbitrary: fc.tuple(fc.array(fc.constantFrom(0x20, 0x09), { maxLength: 2 }), word).map(([w, x]) => [...w, 0x23, ...x]) }, // comment
  { weight: 1, arbitrary: goodLine.map((l) => [0xef, 0xbb, 0xbf, ...l]) }, // BOM
  { weight: 1, arbitrary: goodLine.map((l) => [...l, 0x0d, ...l]) }, // bare CR (old Mac line end)
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0a), { maxLength: 30 }) }, // garbage
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 200 }).map((n) => Array<number>(n).fill(0x61)) }, // long
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

function cut(bytes: Buffer, points: readonly number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b)
  const out: Buffer[] = []
  let prev = 0
  for (const p of [...at, bytes.length]) out.push(bytes.subarray(prev, p)), (prev = p)
  return out
}

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

function byParser(chunks: readonly Buffer[], maxLineBytes: number, comments: boolean, syntax: 'strict' | 'c') {
  const content: number[] = []
  const p = new TrecRunParser((g) => content.push(...g.lines), { maxLineBytes, comments, syntax, maxIssues: 1e9, keepRanks: true })
  for (const c of chunks) p.feed(c)
  p.end()
  const tooLong = p.issues.find((i) => i.code === 'line_too_long')
  for (const i of p.issues) if (i.code !== 'line_too_long' && 'line' in i && i.line !== undefined) content.push(i.line)
  content.sort((a, b) => a - b)
  return { content, blank: p.blankLines, comment: p.commentLines, tooLong: tooLong && 'line' in tooLong ? tooLong.line : undefined, lines: p.contentLines }
}

describe('the fused run scanner splits lines exactly like LineSplitter', () => {
  it('same line numbers, blank and comment lines, CR, BOM, last line, long lines, any chunking', () => {
    fc.assert(
      fc.property(run, fc.array(fc.nat(), { maxLength: 8 }), fc.integer({ min: 40, max: 300 }), fc.boolean(), fc.constantFrom('strict' as const, 'c' as const), (bytes, points, max, comments, syntax) => {
        const chunks = cut(bytes, points)
        const want = bySplitter(chunks, max, comments)
        const got = byParser(chunks, max, comments, syntax)
        expect(got.tooLong).toBe(want.tooLong)
        expect(got.content).toEqual(want.content)
        expect(got.lines).toBe(want.content.length)
        expect([got.blank, got.comment]).toEqual([want.blank, want.comment])
      }),
      { numRuns: 1500 },
    )
  })

  it('a very long line (longer than every chunk) stops both at its number', () => {
    const bytes = Buffer.concat([Buffer.from('1 Q0 d 1 1 t\n\n'), Buffer.alloc(5000, 0x61), Buffer.from('\n1 Q0 e 2 1 t\n')])
    const chunks = cut(bytes, [10, 100, 1000, 2000, 3000, 4000])
    expect(bySplitter(chunks, 4096, true)).toEqual({ content: [1], blank: 1, comment: 0, tooLong: 3 })
    expect(byParser(chunks, 4096, true, 'strict')).toMatchObject({ content: [1], blank: 1, comment: 0, tooLong: 3 })
  })
})
