/**
 * Property tests of the byte-level parsers: on arbitrary bytes they return issues instead of
 * throwing, their result does not depend on how input is cut into chunks, generated runs parse
 * back to what generated them, and the C number readers agree with JavaScript's own.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { docIdsOf } from '../model/run-query.js'
import type { RunQuery } from '../model/types.js'
import { hashId } from '../rank/id-hash.js'
import { IS_SPACE, parseCDouble, parseCLong } from './bytes.js'
import { RUN_SCAN_KERNEL } from './run-scan.js'
import { parseQrels } from './trec-qrels.js'
import { type RunParseOptions, TrecRunParser } from './trec-run.js'

/** Bytes biased towards what parsers branch on: C whitespace, digits, signs, '#', '.', 'e', NUL, high bytes. */
const hostileByte = fc.oneof(
  fc.constantFrom(0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c),
  fc.integer({ min: 0x30, max: 0x39 }),
  fc.constantFrom(0x23, 0x2b, 0x2d, 0x2e, 0x65, 0x45, 0x00, 0x51),
  fc.integer({ min: 0x80, max: 0xff }),
  fc.integer({ min: 0, max: 0xff }),
)
const hostileBytes = fc.array(hostileByte, { maxLength: 400 }).map((a) => Buffer.from(a))

/** Cut `bytes` at the given points (taken modulo its length). */
function cut(bytes: Buffer, points: readonly number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b)
  const chunks: Buffer[] = []
  let prev = 0
  for (const p of [...at, bytes.length]) {
    chunks.push(bytes.subarray(prev, p))
    prev = p
  }
  return chunks
}

/** Run the streaming parser over chunks; everything it reports, as plain data. */
function parseRunChunks(chunks: readonly Buffer[], options: RunParseOptions) {
  const groups: RunQuery[] = []
  const parser = new TrecRunParser((g) => groups.push(g), options)
  for (const c of chunks) parser.feed(c)
  parser.end()
  return {
    groups: groups.map((g) => ({
      queryId: g.queryId,
      docIds: g.docIds,
      scores: g.scores,
      ranks: g.ranks,
      lines: g.lines,
    })),
    issues: parser.issues,
    malformedLineNumber: parser.malformedLineNumber,
    contentLines: parser.contentLines,
    blankLines: parser.blankLines,
    commentLines: parser.commentLines,
    lastTag: parser.lastTag,
    tags: parser.tags,
    stopped: parser.stopped,
  }
}

const runOptions = fc.record(
  {
    comments: fc.boolean(),
    float32: fc.boolean(),
    keepRanks: fc.boolean(),
    stopAtFirstError: fc.boolean(),
    maxIssues: fc.integer({ min: 1, max: 60 }),
    maxLineBytes: fc.integer({ min: 1, max: 500 }),
  },
  { requiredKeys: [] },
)

describe('parsers never throw on arbitrary bytes', () => {
  it('parseQrels returns issues, and ok exactly when there are none', () => {
    fc.assert(
      fc.property(
        hostileBytes,
        fc.boolean(),
        fc.integer({ min: 1, max: 60 }),
        (bytes, comments, maxIssues) => {
          const r = parseQrels(bytes, { comments, maxIssues })
          expect(r.ok).toBe(r.issues.length === 0)
          const lines =
            bytes.length === 0
              ? 0
              : bytes.filter((b) => b === 0x0a).length + (bytes[bytes.length - 1] === 0x0a ? 0 : 1)
          for (const issue of r.issues)
            if ('line' in issue)
              expect(issue.line).toBeGreaterThanOrEqual(1),
                expect(issue.line).toBeLessThanOrEqual(lines)
          let judged = 0
          for (const q of r.value.queries.values()) judged += q.grades.size + q.duplicateDocs.length
          expect(judged).toBeLessThanOrEqual(r.value.judgmentLines)
        },
      ),
      { numRuns: 3000 },
    )
  })
  it('TrecRunParser returns issues, whatever the options and however the bytes are cut', () => {
    fc.assert(
      fc.property(
        hostileBytes,
        fc.array(fc.nat(), { maxLength: 8 }),
        runOptions,
        (bytes, points, options) => {
          const whole = parseRunChunks([bytes], options)
          expect(parseRunChunks(cut(bytes, points), options)).toEqual(whole)
          const docs = whole.groups.reduce((s, g) => s + g.docIds.length, 0)
          expect(docs).toBeLessThanOrEqual(whole.contentLines)
          if (whole.issues.length === 0) expect(docs).toBe(whole.contentLines)
        },
      ),
      { numRuns: 3000 },
    )
  })
})

/** A byte that may appear inside a field: anything but C whitespace and NUL. */
const fieldByte = fc.integer({ min: 1, max: 0xff }).filter((b) => !IS_SPACE[b])
const field = fc.array(fieldByte, { minLength: 1, maxLength: 12 }).map((a) => Buffer.from(a))
/** A query id: a field that does not start with '#' (that would be a comment line). */
const queryId = field.filter((b) => b[0] !== 0x23)
/** One or more C isspace bytes other than '\n'. */
const separator = fc
  .array(fc.constantFrom(0x20, 0x09, 0x0b, 0x0c, 0x0d), { minLength: 1, maxLength: 3 })
  .map((a) => Buffer.from(a))
const optionalSpace = fc
  .array(fc.constantFrom(0x20, 0x09, 0x0b, 0x0c, 0x0d), { maxLength: 3 })
  .map((a) => Buffer.from(a))
const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true })

interface Rec {
  qid: Buffer
  doc: Buffer
  rank: number
  score: number
  tag: Buffer
}

const record = fc.record({
  qid: queryId,
  doc: field,
  rank: fc.integer({ min: -1000, max: 1_000_000 }),
  score: finiteDouble,
  tag: field,
})

/** Lines `qid iter docno rank score tag`, each field and line end spelled with random whitespace. */
const generatedRun = fc
  .array(
    fc.tuple(
      record,
      fc.array(separator, { minLength: 5, maxLength: 5 }),
      optionalSpace,
      optionalSpace,
      fc.constantFrom('\n', '\r\n'),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((lines) => ({
    records: lines.map(([r]) => r),
    bytes: Buffer.concat(
      lines.map(([r, sep, lead, trail, end]) => {
        const fields = [
          r.qid,
          Buffer.from('Q0'),
          r.doc,
          Buffer.from(String(r.rank)),
          Buffer.from(String(r.score)),
          r.tag,
        ]
        return Buffer.concat([
          lead,
          ...fields.flatMap((f, i) => (i < 5 ? [f, sep[i]!] : [f])),
          trail,
          Buffer.from(end),
        ])
      }),
    ),
  }))

describe('runs round-trip', () => {
  it('a generated run parses back to its ids, ranks and scores, in order, grouped by query', () => {
    fc.assert(
      fc.property(
        generatedRun,
        fc.array(fc.nat(), { maxLength: 5 }),
        ({ records, bytes }, points) => {
          const r = parseRunChunks(cut(bytes, points), { keepRanks: true })
          expect(r.issues).toEqual([])
          const flat = r.groups.flatMap((g) =>
            g.docIds.map((d, i) => ({
              qid: g.queryId,
              doc: d,
              rank: g.ranks![i],
              score: g.scores[i],
              line: g.lines[i],
            })),
          )
          expect(flat).toEqual(
            records.map((rec: Rec, i) => ({
              qid: rec.qid.toString('latin1'),
              doc: rec.doc.toString('latin1'),
              rank: rec.rank,
              score: Number(String(rec.score)),
              line: i + 1,
            })),
          )
          // Consecutive lines of one query form one group.
          for (let i = 1; i < r.groups.length; i++)
            expect(r.groups[i]!.queryId).not.toBe(r.groups[i - 1]!.queryId)
          expect(r.lastTag).toBe(records.at(-1)!.tag.toString('latin1'))
        },
      ),
      { numRuns: 1000 },
    )
  })
  it('compact ids (bytes in shared slabs) give the same groups as strings, with every hash equal to hashId', () => {
    // Blank and comment lines between the lines of one query exercise the listed line numbers;
    // ids of every length exercise the 4-byte copy and its 1-3 byte tail.
    const interrupted = generatedRun.chain(({ records, bytes }) =>
      fc.array(fc.constantFrom('\n', '  \t\n', '# note\n'), { maxLength: 3 }).chain((extra) =>
        fc.nat({ max: records.length }).map((at) => {
          let pos = 0
          for (let k = 0; k < at; k++) pos = bytes.indexOf(0x0a, pos) + 1
          return Buffer.concat([
            bytes.subarray(0, pos),
            Buffer.from(extra.join(''), 'latin1'),
            bytes.subarray(pos),
          ])
        }),
      ),
    )
    fc.assert(
      fc.property(interrupted, fc.array(fc.nat(), { maxLength: 6 }), (bytes, points) => {
        const plain: RunQuery[] = []
        const p1 = new TrecRunParser((g) => plain.push(g), {})
        p1.feed(bytes)
        p1.end()
        const compact: RunQuery[] = []
        const p2 = new TrecRunParser((g) => compact.push(g), { compactIds: true })
        for (const c of cut(bytes, points)) p2.feed(c)
        p2.end()
        expect(p2.issues).toEqual([])
        expect(p2.lastTag).toBe(p1.lastTag)
        expect(
          compact.map((g) => ({
            q: g.queryId,
            ids: docIdsOf(g),
            scores: g.scores,
            lines: g.lines,
          })),
        ).toEqual(
          plain.map((g) => ({ q: g.queryId, ids: g.docIds, scores: g.scores, lines: g.lines })),
        )
        for (const g of [...plain, ...compact]) expect(g.docHashes).toEqual(docIdsOf(g).map(hashId))
        // Each line number points at the physical line holding that query and doc.
        const physical = bytes.toString('latin1').split('\n')
        for (const g of compact) {
          const ids = docIdsOf(g)
          g.lines.forEach((line, i) =>
            expect(
              physical[line - 1]!.split(/[ \t\v\f\r]+/)
                .filter((f) => f !== '')
                .slice(0, 3),
            ).toEqual([g.queryId, 'Q0', ids[i]]),
          )
        }
      }),
      { numRuns: 1000 },
    )
  })
  it('the fast loop and the kernel read every line as the line-by-line reader does', () => {
    // Fed whole, the lines before the last newline go through the fast loop (falling back per
    // line on anything unusual); fed one byte at a time, every line is read by parseLine alone.
    // Runs in the usual shape, with plain decimal scores and some lines broken on purpose.
    const plainScore = fc
      .tuple(fc.nat({ max: 10 ** 9 }), fc.nat({ max: 9 }))
      .map(([m, f]) => (f === 0 ? String(m) : (m / 10 ** f).toFixed(f)))
    const damage = fc.constantFrom(
      '',
      '',
      '',
      'drop-field',
      'extra-field',
      'nul',
      'lead-space',
      'comment',
      'blank',
      'exp-score',
      'bad-score',
      'cr',
      'long-digits',
    )
    const lineOf = ([r, score, sep, dmg]: [Rec, string, Buffer[], string]): Buffer => {
      const fields: Buffer[] = [
        r.qid,
        Buffer.from('Q0'),
        r.doc,
        Buffer.from(String(r.rank)),
        Buffer.from(score),
        r.tag,
      ]
      if (dmg === 'drop-field') fields.splice(3, 1)
      if (dmg === 'extra-field') fields.push(Buffer.from('x'))
      if (dmg === 'nul') fields[2] = Buffer.concat([fields[2]!, Buffer.from([0])])
      if (dmg === 'exp-score') fields[4] = Buffer.from('1.5e-3')
      if (dmg === 'bad-score') fields[4] = Buffer.from('1.2.3')
      if (dmg === 'long-digits') fields[4] = Buffer.from('1234567890.1234567')
      if (dmg === 'blank') return Buffer.from(' \t\n')
      const body = Buffer.concat(fields.flatMap((f, i) => (i > 0 ? [sep[i % 5]!, f] : [f])))
      return Buffer.concat([
        dmg === 'lead-space' ? Buffer.from(' ') : Buffer.alloc(0),
        dmg === 'comment' ? Buffer.from('#') : Buffer.alloc(0),
        body,
        Buffer.from(dmg === 'cr' ? '\r\n' : '\n'),
      ])
    }
    const run = fc
      .array(
        fc.tuple(record, plainScore, fc.array(separator, { minLength: 5, maxLength: 5 }), damage),
        { minLength: 1, maxLength: 30 },
      )
      .map((lines) => Buffer.concat(lines.map(lineOf)))
    const options = fc.record(
      {
        comments: fc.boolean(),
        float32: fc.boolean(),
        stopAtFirstError: fc.boolean(),
        maxIssues: fc.integer({ min: 1, max: 60 }),
        maxLineBytes: fc.integer({ min: 20, max: 200 }),
        compactIds: fc.boolean(),
        syntax: fc.constantFrom('strict' as const, 'c' as const),
      },
      { requiredKeys: [] },
    )
    const read = (chunks: readonly Buffer[], o: RunParseOptions) => {
      const groups: RunQuery[] = []
      const parser = new TrecRunParser((g) => groups.push(g), o)
      for (const c of chunks) parser.feed(c)
      parser.end()
      const { issues, malformedLineNumber, contentLines, blankLines, commentLines } = parser
      return {
        groups: groups.map((g) => ({
          q: g.queryId,
          ids: docIdsOf(g),
          hashes: g.docHashes,
          scores: g.scores,
          lines: g.lines,
        })),
        issues,
        malformedLineNumber,
        contentLines,
        blankLines,
        commentLines,
        lastTag: parser.lastTag,
        stopped: parser.stopped,
      }
    }
    fc.assert(
      fc.property(run, options, fc.boolean(), (bytes, o, trailing) => {
        // Without its last newline the last line is left to the line-by-line reader.
        const input = trailing ? bytes : bytes.subarray(0, bytes.length - 1)
        const bytewise = [...input].map((b) => Buffer.from([b]))
        const expected = read(bytewise, o)
        expect(read([input], { ...o, kernel: false })).toEqual(expected)
        // The WebAssembly kernel, where this Node has it (it always has).
        expect(RUN_SCAN_KERNEL).not.toBeNull()
        expect(read([input], { ...o, kernel: true })).toEqual(expected)
      }),
      { numRuns: 2000 },
    )
  })
  it('float32 scores are the float32 rounding of the float64 ones', () => {
    fc.assert(
      fc.property(generatedRun, ({ records, bytes }) => {
        const r = parseRunChunks([bytes], { float32: true })
        expect(r.groups.flatMap((g) => g.scores)).toEqual(
          records.map((rec) => Math.fround(Number(String(rec.score)))),
        )
      }),
      { numRuns: 300 },
    )
  })
})

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1')
/** Leading C whitespace, which `atof`/`atol` skip. */
const leading = fc
  .array(fc.constantFrom(' ', '\t', '\n', '\v', '\f', '\r'), { maxLength: 3 })
  .map((a) => a.join(''))
/** Bytes that cannot continue a number. */
const junk = fc.constantFrom('', ' ', 'x', ',', ';', '\t1', '#', '%')

describe('parseCDouble agrees with Number', () => {
  it('on String(x) for random doubles, with leading whitespace and trailing junk', () => {
    fc.assert(
      fc.property(finiteDouble, leading, junk, (x, lead, tail) => {
        const text = String(x)
        expect(
          Object.is(
            parseCDouble(ascii(lead + text + tail), 0, lead.length + text.length + tail.length),
            Number(text),
          ),
        ).toBe(true)
      }),
      { numRuns: 20_000 },
    )
  })
  it('on toPrecision, toExponential and toFixed spellings', () => {
    fc.assert(
      fc.property(finiteDouble, fc.integer({ min: 1, max: 21 }), (x, p) => {
        for (const text of [
          x.toPrecision(p),
          x.toExponential(p - 1),
          Math.abs(x) < 1e21 ? x.toFixed(p - 1) : String(x),
        ]) {
          expect([text, parseCDouble(ascii(text), 0, text.length)]).toEqual([text, Number(text)])
        }
      }),
      { numRuns: 10_000 },
    )
  })
  it('on long digit strings, signs and leading zeros', () => {
    const digits = fc
      .array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 40 })
      .map((a) => a.join(''))
    fc.assert(
      fc.property(
        fc.constantFrom('', '+', '-'),
        digits,
        fc.option(digits),
        fc.option(fc.integer({ min: -400, max: 400 })),
        (sign, int, frac, exp) => {
          const text = `${sign}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : `e${exp}`}`
          expect([text, parseCDouble(ascii(text), 0, text.length)]).toEqual([text, Number(text)])
        },
      ),
      { numRuns: 10_000 },
    )
  })
})

describe('parseCLong agrees with parseInt', () => {
  it('on integers up to 15 digits, with whitespace, signs, leading zeros and trailing junk', () => {
    const digits = fc
      .array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 15 })
      .map((a) => a.join(''))
    fc.assert(
      fc.property(
        leading,
        fc.constantFrom('', '+', '-'),
        digits,
        fc.constantFrom('', '.7', 'x', ' 9', 'e5'),
        (lead, sign, d, tail) => {
          const text = lead + sign + d + tail
          expect([text, parseCLong(ascii(text), 0, text.length)]).toEqual([
            text,
            parseInt(text, 10),
          ])
        },
      ),
      { numRuns: 10_000 },
    )
  })
  it('on String(n) of random safe integers', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        const text = String(n)
        expect(parseCLong(ascii(text), 0, text.length)).toBe(parseInt(text, 10))
      }),
      { numRuns: 10_000 },
    )
  })
})
