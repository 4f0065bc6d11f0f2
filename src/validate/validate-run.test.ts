import { isUtf8 } from 'node:buffer'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { RUN_SCAN_KERNEL } from '../io/run-scan.js'
import {
  hasWhere,
  RUN_PROBLEM_CODES,
  RUN_PROBLEM_SEVERITY,
  type RunProblem,
} from './run-problem.js'
import { firstInvalidUtf8 } from './utf8.js'
import {
  problemsOf,
  type RunValidationReport,
  RunValidator,
  type ValidateRunOptions,
  validateRun,
} from './validate-run.js'

/** Validate a run given as text (UTF-8) or raw bytes. */
function check(input: string | Buffer, options: ValidateRunOptions = {}): RunValidationReport {
  return validateRun(typeof input === 'string' ? Buffer.from(input, 'utf8') : input, options)
}

/** code, line and column of every listed problem, in report order. */
function where(report: RunValidationReport): [string, number | null, number | null][] {
  return report.problems.map((p) => [
    p.code,
    hasWhere(p) ? p.line : null,
    hasWhere(p) ? p.column : null,
  ])
}

const OK = [
  '301 Q0 d1 1 12.5 bm25',
  '301 Q0 d2 2 11 bm25',
  '302 Q0 d1 1 3.25 bm25',
  '302 Q0 d7 2 -1e-3 bm25',
  '',
].join('\n')

describe('validateRun: a good run', () => {
  it('reports no problem and counts lines, queries and tags', () => {
    const r = check(OK)
    expect(r.problems).toEqual([])
    expect(r.counts).toEqual([])
    expect(r).toMatchObject({
      ok: true,
      errors: 0,
      warnings: 0,
      queries: 2,
      lines: 4,
      runLines: 4,
      blankLines: 0,
      commentLines: 0,
      tags: ['bm25'],
    })
    expect(r.bytes).toBe(Buffer.byteLength(OK))
  })
  it('accepts any C isspace separators, blank and comment lines, no final newline', () => {
    const r = check(
      '  301\tQ0\v d1 \f1 1.5 bm25\n\n   \t\n# a comment\n  #another\n301 Q0 d2 2 1.25 bm25',
    )
    expect(r.problems).toEqual([])
    expect(r).toMatchObject({ lines: 6, runLines: 2, blankLines: 2, commentLines: 2, queries: 1 })
  })
  it('accepts every decimal spelling of a score', () => {
    const scores = ['1', '-2', '+3', '1.', '.5', '-.5', '1e5', '1E+5', '2.5e-3', '007', '0', '-0']
    const text = scores.map((s, i) => `1 Q0 d${i} ${i + 1} ${s} t\n`).join('')
    expect(problemsOf(check(text), 'score_not_a_number')).toEqual([])
    expect(problemsOf(check(text), 'score_not_finite')).toEqual([])
  })
})

describe('validateRun: file-level problems', () => {
  it('empty_file for zero bytes', () => {
    const r = check('')
    expect(where(r)).toEqual([['empty_file', null, null]])
    expect(r).toMatchObject({ ok: false, errors: 1, lines: 0 })
  })
  it('no_run_lines when every line is blank or a comment', () => {
    const r = check('\n# header\n   \n')
    expect(r.problems).toEqual([{ code: 'no_run_lines', blankLines: 2, commentLines: 1 }])
  })
  it('cannot_read after fail(), dropping an unfinished last line', () => {
    const v = new RunValidator({ file: 'x.gz' })
    v.feed(Buffer.from('301 Q0 d1 1 1 t\n301 Q0 d2 2'))
    v.fail('truncated gzip data (unexpected end of file)')
    v.feed(Buffer.from(' 0.5 t\n')) // ignored after a failure
    const r = v.end()
    expect(r.problems).toEqual([
      { code: 'cannot_read', reason: 'truncated gzip data (unexpected end of file)', afterLine: 1 },
    ])
    expect(r).toMatchObject({ errors: 1, lines: 1 })
  })
  it('cannot_read with nothing read is not also empty_file', () => {
    const v = new RunValidator()
    v.fail('no such file')
    expect(where(v.end())).toEqual([['cannot_read', null, null]])
  })
})

describe('validateRun: line-level errors', () => {
  it('field_count: fewer than 6 fields, column just after the last field', () => {
    const r = check('301 Q0 d1 1 2.5\n301 Q0\n301 Q0 d1 1 2.5 t\n')
    expect(where(r)).toEqual([
      ['field_count', 1, 16],
      ['field_count', 2, 7],
    ])
    expect(problemsOf(r, 'field_count').map((p) => p.found)).toEqual([5, 2])
    expect(problemsOf(r, 'field_count')[0]).toMatchObject({
      text: '301 Q0 d1 1 2.5',
      lineBytes: 15,
    })
  })
  it('score_not_a_number: junk, trailing junk, hex floats, lone signs or dots', () => {
    const bad = ['abc', '1.5x', '0x1p3', '.', '-', '1e', '1e+', '--1', '1..2', '1,5']
    const r = check(bad.map((s, i) => `7 Q0 ${'abcdefghij'[i]} ${i} ${s} t\n`).join(''))
    expect(where(r)).toEqual(bad.map((_, i) => ['score_not_a_number', i + 1, 10]))
    expect(problemsOf(r, 'score_not_a_number').map((p) => p.found)).toEqual(bad)
  })
  it('score_not_finite: nan, inf and overflow', () => {
    const bad = ['nan', 'NaN', '-inf', 'Infinity', '+INF', '1e999', '-2e308']
    const r = check(bad.map((s, i) => `7 Q0 ${'abcdefghij'[i]} ${i} ${s} t\n`).join(''))
    expect(where(r)).toEqual(bad.map((_, i) => ['score_not_finite', i + 1, 10]))
    expect(problemsOf(r, 'score_not_finite').map((p) => p.found)).toEqual(bad)
  })
  it('rank_not_an_integer', () => {
    const r = check('7 Q0 a 1.0 1 t\n7 Q0 b x 1 t\n7 Q0 c 1e2 1 t\n7 Q0 d -3 1 t\n')
    expect(where(r)).toEqual([
      ['rank_not_an_integer', 1, 8],
      ['rank_not_an_integer', 2, 8],
      ['rank_not_an_integer', 3, 8],
    ])
  })
  it('duplicate_rank within a topic, with the first line, even across split blocks', () => {
    const r = check('1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 02 1 t\n2 Q0 a 1 1 t\n1 Q0 d 1 0 t\n')
    expect(where(r).filter(([c]) => c === 'duplicate_rank')).toEqual([
      ['duplicate_rank', 3, 8],
      ['duplicate_rank', 5, 8],
    ])
    expect(problemsOf(r, 'duplicate_rank').map((p) => [p.queryId, p.rank, p.firstLine])).toEqual([
      ['1', '02', 2],
      ['1', '1', 1],
    ])
  })
  it('duplicate_doc within a topic, with the first line, even across split blocks', () => {
    const r = check(
      '1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 a 3 1 t\n2 Q0 a 1 1 t\n3 Q0 x 1 1 t\n1 Q0 b 4 0 t\n2 Q0 a 2 0 t\n',
    )
    expect(where(r)).toEqual([
      ['duplicate_doc', 3, 6],
      ['duplicate_doc', 6, 6],
      ['duplicate_doc', 7, 6],
    ])
    expect(problemsOf(r, 'duplicate_doc').map((p) => [p.queryId, p.docId, p.firstLine])).toEqual([
      ['1', 'a', 1],
      ['1', 'b', 2],
      ['2', 'a', 4],
    ])
  })
  it('too_deep: once per topic, at the first line beyond the limit, with the total', () => {
    const lines = [
      '1 Q0 a 1 4 t',
      '1 Q0 b 2 3 t',
      '2 Q0 a 1 1 t',
      '1 Q0 c 3 2 t',
      '1 Q0 d 4 1 t',
      '2 Q0 b 2 0 t',
    ]
    const r = check(lines.join('\n'), { maxDepth: 2 })
    expect(where(r)).toEqual([['too_deep', 4, 1]])
    expect(problemsOf(r, 'too_deep')[0]).toMatchObject({ queryId: '1', limit: 2, count: 4 })
    expect(check(lines.join('\n'), { maxDepth: 4 }).problems).toEqual([])
  })
  it('nul_byte: column of the first NUL; the line is not checked further', () => {
    const r = check(Buffer.from('301 Q0 d1 1 1 t\nab\0c\0\n301 Q0 d\x002 2 nan t\n', 'latin1'))
    expect(where(r)).toEqual([
      ['nul_byte', 2, 3],
      ['nul_byte', 3, 9],
    ])
    expect(r.errors).toBe(2)
  })
  it('bare_cr: a CR not followed by LF (old Mac line endings), also at the end of the file', () => {
    const r = check('1 Q0 a 1 3 t\r1 Q0 b 2 2 t\r1 Q0 c 3 1 t\n')
    expect(where(r)).toEqual([['bare_cr', 1, 13]])
    expect(r).toMatchObject({ lines: 1, runLines: 1, queries: 1 })
    expect(where(check('1 Q0 a 1 3 t\r'))).toEqual([['bare_cr', 1, 13]])
  })
  it('utf16: a UTF-16 byte order mark', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('1 Q0 a 1 1 t\n', 'utf16le'),
    ])
    const r = check(bytes)
    expect(r.problems[0]).toMatchObject({ code: 'utf16', line: 1, column: 1, encoding: 'UTF-16LE' })
    expect(check(Buffer.from([0xfe, 0xff, 0, 0x31])).problems[0]).toMatchObject({
      code: 'utf16',
      encoding: 'UTF-16BE',
    })
  })
})

describe('validateRun: warnings', () => {
  it('crlf: once for the file, at the first CR LF line, counting every CR LF line', () => {
    const r = check('1 Q0 a 1 3 t\n1 Q0 b 2 2 t\r\n1 Q0 c 3 1 t\r\n\r\n1 Q0 d 4 0 t')
    expect(where(r)).toEqual([['crlf', 2, 13]])
    expect(problemsOf(r, 'crlf')[0]!.count).toBe(3)
    expect(r).toMatchObject({ errors: 0, warnings: 1, ok: true, tags: ['t'], blankLines: 1 })
  })
  it('bom: a UTF-8 byte order mark at the start, which becomes part of the first qid', () => {
    const r = check('\ufeff301 Q0 d1 1 2 t\n301 Q0 d2 2 1 t\n', { topics: new Set(['301']) })
    expect(where(r)).toEqual([
      ['bom', 1, 1],
      ['unknown_topic', 1, 1],
    ])
    expect(problemsOf(r, 'unknown_topic')[0]!.queryId).toBe('\xef\xbb\xbf301')
    expect(r.queries).toBe(2)
  })
  it('invalid_utf8: Latin-1 bytes, overlongs, surrogates, truncated sequences; valid UTF-8 passes', () => {
    const lines = [
      Buffer.from('1 Q0 caf\xe9 1 3 t', 'latin1'),
      Buffer.from('1 Q0 café 2 2 t', 'utf8'),
      Buffer.from('1 Q0 \xc0\x80 3 1 t', 'latin1'),
      Buffer.from('1 Q0 \xed\xa0\x80 4 0 t', 'latin1'),
      Buffer.from('1 Q0 x 5 -1 t\xe2\x82', 'latin1'),
      Buffer.from('1 Q0 日本 6 -2 t', 'utf8'),
    ]
    const r = check(Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])))
    expect(where(r).filter(([c]) => c === 'invalid_utf8')).toEqual([
      ['invalid_utf8', 1, 9],
      ['invalid_utf8', 3, 6],
      ['invalid_utf8', 4, 6],
      ['invalid_utf8', 5, 14],
    ])
    expect(problemsOf(r, 'invalid_utf8').map((p) => p.byte)).toEqual([0xe9, 0xc0, 0xed, 0xe2])
    expect(r.errors).toBe(0)
  })
  it('rank_score_order: a score that rises with the rank, against the previous line of the topic', () => {
    const r = check(
      '1 Q0 a 1 3 t\n1 Q0 b 2 3 t\n1 Q0 c 3 4 t\n2 Q0 a 1 9 t\n1 Q0 d 5 1 t\n1 Q0 e 4 0.5 t\n1 Q0 f 6 nan t\n1 Q0 g 7 0.1 t\n',
    )
    expect(where(r).filter(([c]) => c === 'rank_score_order')).toEqual([
      ['rank_score_order', 3, 10],
      ['rank_score_order', 6, 10],
    ])
    expect(
      problemsOf(r, 'rank_score_order').map((p) => [
        p.rank,
        p.score,
        p.previousLine,
        p.previousRank,
        p.previousScore,
      ]),
    ).toEqual([
      [3, 4, 2, 2, 3],
      [4, 0.5, 5, 5, 1],
    ])
  })
  it('mixed_tags: once per extra tag', () => {
    const r = check(
      '1 Q0 a 1 3 bm25\n1 Q0 b 2 2 dense\n1 Q0 c 3 1 bm25\n2 Q0 a 1 1 dense\n2 Q0 b 2 0 rrf\n',
    )
    expect(where(r)).toEqual([
      ['mixed_tags', 2, 12],
      ['mixed_tags', 5, 12],
    ])
    expect(problemsOf(r, 'mixed_tags').map((p) => [p.tag, p.firstTag, p.firstLine])).toEqual([
      ['dense', 'bm25', 1],
      ['rrf', 'bm25', 1],
    ])
    expect(r.tags).toEqual(['bm25', 'dense', 'rrf'])
  })
  it('unknown_topic: once per topic not in the known topics; nothing without them', () => {
    const text = '1 Q0 a 1 3 t\n9 Q0 a 1 3 t\n9 Q0 b 2 2 t\n1 Q0 b 2 2 t\n8 Q0 a 1 1 t\n'
    const r = check(text, { topics: new Set(['1', '2']) })
    expect(where(r)).toEqual([
      ['unknown_topic', 2, 1],
      ['unknown_topic', 5, 1],
    ])
    expect(check(text).problems).toEqual([])
  })
  it('unknown_doc: every line whose document is not in the corpus', () => {
    const r = check('1 Q0 a 1 3 t\n1 Q0 zz 2 2 t\n2 Q0 zz 1 1 t\n', { docs: new Set(['a', 'b']) })
    expect(where(r)).toEqual([
      ['unknown_doc', 2, 6],
      ['unknown_doc', 3, 6],
    ])
    expect(problemsOf(r, 'unknown_doc').map((p) => [p.queryId, p.docId])).toEqual([
      ['1', 'zz'],
      ['2', 'zz'],
    ])
  })
  it('warnings keep ok true unless strict', () => {
    const text = '1 Q0 a 1 3 x\n1 Q0 b 2 2 y\n'
    expect(check(text)).toMatchObject({ ok: true, errors: 0, warnings: 1, strict: false })
    expect(check(text, { strict: true })).toMatchObject({
      ok: false,
      errors: 0,
      warnings: 1,
      strict: true,
    })
    expect(check(OK, { strict: true }).ok).toBe(true)
  })
})

describe('validateRun: overlong lines in bounded memory', () => {
  it('line_too_long: over the limit only; the next lines are still checked', () => {
    const r = check('1 Q0 a 1 3 t\n1 Q0 bbbbbbbbbbbb 2 2 t\n1 Q0 c 3 nan t\n', { maxLineBytes: 20 })
    expect(where(r)).toEqual([
      ['line_too_long', 2, 21],
      ['score_not_finite', 3, 10],
    ])
    expect(problemsOf(r, 'line_too_long')[0]).toMatchObject({
      limit: 20,
      lineBytes: 23,
      text: '1 Q0 bbbbbbbbbbbb 2 2 t',
    })
    expect(check('1 Q0 bbbbbbbbbbbbbbb 2 2 t\n', { maxLineBytes: 26 }).problems).toEqual([])
  })
  it('counts the exact length of a long line split over many chunks, and of a last line', () => {
    const v = new RunValidator({ maxLineBytes: 100 })
    v.feed(Buffer.from('1 Q0 a 1 1 t\n' + 'x'.repeat(60)))
    for (let i = 0; i < 10; i++) v.feed(Buffer.from('y'.repeat(50)))
    v.feed(Buffer.from('z\n1 Q0 b 2 0 t\n' + 'w'.repeat(150)))
    const r = v.end()
    expect(where(r)).toEqual([
      ['line_too_long', 2, 101],
      ['line_too_long', 4, 101],
    ])
    expect(problemsOf(r, 'line_too_long').map((p) => p.lineBytes)).toEqual([561, 150])
    expect(r).toMatchObject({ lines: 4, queries: 1, runLines: 4 })
  })
  it('streams 4 GiB without a newline through a reused 1 MiB chunk', () => {
    const chunk = Buffer.alloc(1 << 20, 0x41)
    const v = new RunValidator({ maxLineBytes: 1 << 24 })
    const before = process.memoryUsage().arrayBuffers
    for (let i = 0; i < 4096; i++) v.feed(chunk)
    const r = v.end()
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20)
    expect(r.lines).toBe(1)
    expect(r.bytes).toBe(2 ** 32)
    expect(problemsOf(r, 'line_too_long')[0]).toMatchObject({ line: 1, lineBytes: 2 ** 32 })
    expect(problemsOf(r, 'line_too_long')[0]!.text).toHaveLength(400)
  })
  it('checks a 10 MB line under the default limit in one pass', () => {
    const r = check(`1 Q0 ${'d'.repeat(10_000_000)} 1 1 t\n1 Q0 ${'e'.repeat(10_000_000)}\n`)
    expect(where(r)).toEqual([['field_count', 2, 10_000_006]])
    expect(problemsOf(r, 'field_count')[0]!.text).toHaveLength(400)
  })
})

describe('validateRun: reporting', () => {
  it('lists at most maxListed problems per code but counts them all', () => {
    const text =
      Array.from({ length: 50 }, (_, i) => `1 Q0 d${i} ${i + 1}\n`).join('') +
      '1 Q0 x 1 1 a\n1 Q0 y 2 0 b\n'
    const r = check(text, { maxListed: 20 })
    expect(r.counts).toEqual([
      { code: 'field_count', severity: 'error', count: 50, listed: 20 },
      { code: 'mixed_tags', severity: 'warning', count: 1, listed: 1 },
    ])
    expect(r.problems).toHaveLength(21)
    expect(r).toMatchObject({ errors: 50, warnings: 1 })
    expect(check(text, { maxListed: 0 }).problems).toEqual([])
  })
  it('sorts problems by line, then column, then code order', () => {
    const r = check('1 Q0 a x nan t\n1 Q0 a 1 1 u\n')
    expect(where(r)).toEqual([
      ['rank_not_an_integer', 1, 8],
      ['score_not_finite', 1, 10],
      ['duplicate_doc', 2, 6],
      ['mixed_tags', 2, 12],
    ])
  })
  it('documents errors before warnings', () => {
    const severities = RUN_PROBLEM_CODES.map((c) => RUN_PROBLEM_SEVERITY[c])
    expect(severities.indexOf('warning')).toBeGreaterThan(0)
    expect(severities.lastIndexOf('error')).toBeLessThan(severities.indexOf('warning'))
  })
})

/** `bytes` cut into chunks at the points `cuts` (modulo its length, in order, each once). */
function cutAt(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const chunks: Buffer[] = []
  let prev = 0
  for (const p of [...points, bytes.length]) {
    chunks.push(bytes.subarray(prev, p))
    prev = p
  }
  return chunks
}

/** A run-like text: lines from a small alphabet so that problems of every kind show up. */
const runText = fc
  .array(
    fc.tuple(
      fc.constantFrom('1', '2', '3', '\ufeff1'),
      fc.constantFrom(' ', '\t', '  '),
      fc.constantFrom('a', 'b', 'c', 'caf\xe9', 'd\0'),
      fc.constantFrom('1', '2', '3', 'x', '1.5'),
      fc.constantFrom('1', '0.5', '2', 'nan', 'abc', '-1e999'),
      fc.constantFrom('t', 'u', ''),
      fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\n# c\n'),
    ),
    { maxLength: 40 },
  )
  .map((lines) =>
    Buffer.from(
      lines.map(([q, s, d, r, sc, t, nl]) => [q, 'Q0', d, r, sc, t].join(s) + nl).join(''),
      'latin1',
    ),
  )

describe('validateRun: properties', () => {
  it('the report does not depend on how the bytes are cut into chunks', () => {
    fc.assert(
      fc.property(
        runText,
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 8, max: 64 }),
        (bytes, cuts, maxLineBytes) => {
          const options = {
            maxDepth: 3,
            topics: new Set(['1', '2']),
            docs: new Set(['a', 'b']),
            maxLineBytes,
            maxListed: 1000,
          }
          const whole = validateRun(bytes, options)
          expect(validateRun(cutAt(bytes, cuts), options)).toEqual(whole)
        },
      ),
      { numRuns: 300 },
    )
  })
  it('never throws on arbitrary bytes, and its counts add up', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        (bytes, maxLineBytes) => {
          const r = validateRun(bytes, {
            maxLineBytes,
            maxDepth: 2,
            maxListed: 3,
            topics: new Set(),
            docs: new Set(),
          })
          const total = r.counts.reduce((s, c) => s + c.count, 0)
          expect(r.errors + r.warnings).toBe(total)
          expect(r.problems.length).toBe(r.counts.reduce((s, c) => s + c.listed, 0))
          expect(r.lines).toBe(
            bytes.length === 0
              ? 0
              : bytes.filter((b) => b === 0x0a).length + (bytes[bytes.length - 1] === 0x0a ? 0 : 1),
          )
          for (const p of r.problems as RunProblem[])
            if (hasWhere(p)) expect(p.line).toBeGreaterThanOrEqual(1)
        },
      ),
      { numRuns: 500 },
    )
  })
  it('firstInvalidUtf8 agrees with buffer.isUtf8', () => {
    const bytes = fc.array(
      fc.oneof(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0x80, max: 0xbf }),
        fc.constantFrom(0xe0, 0xed, 0xf0, 0xf4, 0xc2),
      ),
      { maxLength: 12 },
    )
    fc.assert(
      fc.property(bytes, (arr) => {
        const b = Uint8Array.from(arr)
        expect(firstInvalidUtf8(b, 0, b.length) < 0).toBe(isUtf8(b))
      }),
      { numRuns: 5000 },
    )
  })
})

describe('extra fields', () => {
  it('a line of more than 6 fields is an error (evaluate refuses it), unless left to the caller', () => {
    const text = Buffer.from('q1 Q0 d1 1 2.5 t extra\nq1 Q0 d2 2 2.1 t\n')
    const r = validateRun(text)
    expect(r.ok).toBe(false)
    expect(r.problems.map((p) => [p.code, 'line' in p ? p.line : 0])).toEqual([['extra_fields', 1]])
    expect(validateRun(text, { extraFields: false }).ok).toBe(true)
  })
})

describe('validateRun: the WebAssembly kernel', () => {
  /** Lines in the kernel's shape, with the problems it must still find. */
  const kernelText = fc
    .array(
      fc.tuple(
        fc.constantFrom('1', '2', '3', 'q'.repeat(70)),
        fc.constantFrom(' ', '\t', ' \v'),
        fc.constantFrom('a', 'b', 'c', 'doc-0001', 'caf\xe9'),
        fc.constantFrom('1', '2', '3', '007', '0', '1234567890123456'),
        fc.constantFrom('1', '0.5', '2', '1.', '.25', '12345678901234567', '-1'),
        fc.constantFrom('t', 't', 't', 'u', 'x'.repeat(5000)),
        fc.constantFrom('\n', '\n', '\n', '\r\n', '\n# c\n', ' \n', '\n\n'),
      ),
      { maxLength: 60 },
    )
    .map((lines) =>
      Buffer.from(
        lines.map(([q, s, d, r, sc, t, nl]) => [q, 'Q0', d, r, sc, t].join(s) + nl).join(''),
        'latin1',
      ),
    )

  it('gives the same report as the JS line checks, however the bytes are cut', () => {
    fc.assert(
      fc.property(
        kernelText,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.constantFrom(2, 5, Infinity),
        fc.constantFrom(30, 100, 1 << 20),
        (bytes, cuts, maxDepth, maxLineBytes) => {
          const options = {
            maxDepth,
            maxLineBytes,
            topics: new Set(['1', '2']),
            docs: new Set(['a', 'b', 'doc-0001']),
            maxListed: 1000,
          }
          const js = validateRun(bytes, { ...options, kernel: false })
          expect(validateRun(bytes, { ...options, kernel: true })).toEqual(js)
          expect(validateRun(cutAt(bytes, cuts), { ...options, kernel: true })).toEqual(js)
        },
      ),
      { numRuns: 400 },
    )
  })

  /** A run of `topics` × `depth` lines with problems sprinkled in at fixed places. */
  function bigRun(topics: number, depth: number): Buffer {
    const lines: string[] = []
    for (let q = 0; q < topics; q++) {
      for (let r = 1; r <= depth; r++) {
        const i = q * depth + r
        const doc = i % 997 === 0 ? `D${q}-${r - 1}` : `D${q}-${r}` // duplicate doc
        const rank = i % 1499 === 0 ? r - 1 : r // duplicate rank
        const score = i % 2003 === 0 ? 1000 : 1000 - r / 8 // score out of order
        const tag = i % 5003 === 0 ? 'other' : 'run1'
        const nl = i % 7001 === 0 ? '\r\n' : i % 3001 === 0 ? '\n#c\n' : '\n'
        const doc2 = i % 9001 === 0 ? `${doc}\xff` : doc
        lines.push(`${q + 1} Q0 ${doc2} ${rank} ${score} ${tag}${nl}`)
      }
    }
    return Buffer.from(lines.join(''), 'latin1')
  }

  it('finds every problem of a 2 MB run at the same line and column, over window edges', () => {
    const bytes = bigRun(120, 600)
    expect(bytes.length).toBeGreaterThan(2_000_000)
    const options = {
      maxDepth: 500,
      topics: new Set(Array.from({ length: 110 }, (_, q) => String(q + 1))),
      docs: new Set(Array.from({ length: 600 }, (_, r) => `D7-${r}`)),
      maxListed: 100_000,
    }
    const js = validateRun(bytes, { ...options, kernel: false })
    const codes = new Set(js.problems.map((p) => p.code))
    for (const c of [
      'duplicate_doc',
      'duplicate_rank',
      'rank_score_order',
      'mixed_tags',
      'too_deep',
      'unknown_topic',
      'unknown_doc',
      'crlf',
      'invalid_utf8',
    ])
      expect(codes).toContain(c)
    for (const size of [bytes.length, 1 << 20, 65_537, 4099]) {
      const chunks: Buffer[] = []
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size))
      expect(validateRun(chunks, { ...options, kernel: true })).toEqual(js)
      expect(validateRun(chunks, { ...options, kernel: 'auto' })).toEqual(js)
    }
  })

  it('takes the lines of the usual shape, and words their problems exactly', () => {
    const k = RUN_SCAN_KERNEL
    if (k === null) throw new Error('the kernel did not load')
    const check = vi.spyOn(k, 'check')
    const lines = Array.from({ length: 400 }, (_, i) => `7 Q0 d${i % 300} ${i + 1} ${400 - i} t\n`)
    const r = validateRun(Buffer.from(lines.join('')), { kernel: true, maxListed: 1000 })
    const taken = check.mock.results.reduce((s, x) => s + (x.value as number), 0)
    check.mockRestore()
    expect(taken).toBeGreaterThan(390)
    expect(r.lines).toBe(400)
    expect(problemsOf(r, 'duplicate_doc')).toHaveLength(100)
    expect(problemsOf(r, 'duplicate_doc')[0]).toEqual({
      code: 'duplicate_doc',
      line: 301,
      column: 6,
      text: '7 Q0 d0 301 100 t',
      lineBytes: 17,
      queryId: '7',
      docId: 'd0',
      firstLine: 1,
    })
  })
})
