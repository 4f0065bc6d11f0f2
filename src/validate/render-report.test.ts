import { describe, expect, it } from 'vitest'
import { describeRunProblemCode, formatRunProblem } from './format-run-problem.js'
import { displayLine, renderValidationJson, renderValidationText } from './render-report.js'
import { RUN_PROBLEM_CODES, type RunProblemCode, type RunProblemOf } from './run-problem.js'
import { validateRun } from './validate-run.js'

const at = { line: 3, column: 5, text: '1 Q0 d 1 x t', lineBytes: 12 }

/** One sample per code: a new code does not compile until it has a sample here. */
const SAMPLES: { readonly [C in RunProblemCode]: RunProblemOf<C> } = {
  empty_file: { code: 'empty_file' },
  no_run_lines: { code: 'no_run_lines', blankLines: 1, commentLines: 2 },
  cannot_read: { code: 'cannot_read', reason: 'no such file', afterLine: 0 },
  line_too_long: { ...at, code: 'line_too_long', limit: 10 },
  nul_byte: { ...at, code: 'nul_byte' },
  utf16: { ...at, code: 'utf16', encoding: 'UTF-16LE' },
  bare_cr: { ...at, code: 'bare_cr' },
  field_count: { ...at, code: 'field_count', found: 4 },
  score_not_a_number: { ...at, code: 'score_not_a_number', found: 'x' },
  score_not_finite: { ...at, code: 'score_not_finite', found: 'nan' },
  rank_not_an_integer: { ...at, code: 'rank_not_an_integer', found: '1.5' },
  duplicate_rank: { ...at, code: 'duplicate_rank', queryId: '1', rank: '2', firstLine: 1 },
  duplicate_doc: { ...at, code: 'duplicate_doc', queryId: '1', docId: 'd', firstLine: 1 },
  too_deep: { ...at, code: 'too_deep', queryId: '1', limit: 2, count: 5 },
  invalid_utf8: { ...at, code: 'invalid_utf8', byte: 0xe9 },
  bom: { ...at, code: 'bom' },
  crlf: { ...at, code: 'crlf', count: 7 },
  rank_score_order: {
    ...at,
    code: 'rank_score_order',
    queryId: '1',
    rank: 2,
    score: 3,
    previousLine: 2,
    previousRank: 1,
    previousScore: 2.5,
  },
  mixed_tags: { ...at, code: 'mixed_tags', tag: 'b', firstTag: 'a', firstLine: 1 },
  unknown_topic: { ...at, code: 'unknown_topic', queryId: '9' },
  unknown_doc: { ...at, code: 'unknown_doc', queryId: '9', docId: 'z' },
  extra_fields: { ...at, code: 'extra_fields', found: 7 },
  comment_line: { ...at, code: 'comment_line', found: 2 },
  rank_not_positive: { ...at, code: 'rank_not_positive', found: '0' },
  score_rises: {
    ...at,
    code: 'score_rises',
    queryId: '1',
    score: '3',
    previousScore: '2',
    previousLine: 2,
  },
  rank_order_differs: {
    ...at,
    code: 'rank_order_differs',
    queryId: '1',
    position: 1,
    byRank: 'a',
    byScore: 'b',
  },
  duplicate_doc_dropped: {
    ...at,
    code: 'duplicate_doc_dropped',
    queryId: '1',
    docId: 'd',
    firstLine: 1,
  },
  deeper_than_limit: { ...at, code: 'deeper_than_limit', queryId: '1', limit: 1000, count: 1001 },
  not_a_topic: {
    ...at,
    code: 'not_a_topic',
    queryId: '1_step1',
    subtrack: '1a',
    domain: 'law',
    hint: 'step_id',
    suggestion: '1',
  },
  doc_not_in_corpus: { ...at, code: 'doc_not_in_corpus', queryId: '1', docId: 'z', domain: 'law' },
  missing_topic: { code: 'missing_topic', queryId: '1', subtrack: '1a', domain: 'law' },
  missing_domain_file: { code: 'missing_domain_file', domain: 'law', topics: 9 },
  stray_file: { code: 'stray_file', path: 'run/notes.txt', domains: ['law'] },
  no_known_topics: { code: 'no_known_topics', subtrack: '1a', domain: 'law', topics: 3 },
}

describe('wording', () => {
  it('has a message and a description for every code, with no holes', () => {
    for (const code of RUN_PROBLEM_CODES) {
      const message = formatRunProblem(SAMPLES[code])
      expect(message, code).toMatch(/^[a-zA-Z]/)
      expect(message, code).not.toMatch(/undefined|\[object|null/)
      expect(describeRunProblemCode(code), code).toMatch(/^[a-zA-Z]/)
    }
    expect(Object.keys(SAMPLES).sort()).toEqual([...RUN_PROBLEM_CODES].sort())
  })
  it('says what was found and what was expected', () => {
    expect(formatRunProblem(SAMPLES.field_count)).toBe(
      'expected at least 6 fields (qid iter docno rank score tag), found 4',
    )
    expect(formatRunProblem(SAMPLES.duplicate_doc)).toBe(
      'document "d" repeated for topic "1" (first at line 1); expected each document once per topic',
    )
    expect(formatRunProblem(SAMPLES.invalid_utf8)).toMatch(/^byte 0xE9 is not valid UTF-8/)
    expect(formatRunProblem(SAMPLES.no_run_lines)).toMatch(
      /^no run lines \(1 blank line, 2 comment lines\)/,
    )
  })
  it('decodes UTF-8 ids and clips long ones', () => {
    const p = { ...SAMPLES.unknown_doc, docId: Buffer.from('café', 'utf8').toString('latin1') }
    expect(formatRunProblem(p)).toContain('"café"')
    expect(formatRunProblem({ ...p, docId: 'x'.repeat(500) })).toContain(`"${'x'.repeat(80)}…"`)
  })
})

describe('displayLine', () => {
  it('escapes control characters, invalid UTF-8 and the BOM; keeps tabs and valid UTF-8', () => {
    const raw = Buffer.from([
      0xef, 0xbb, 0xbf, 0x31, 0x09, 0x00, 0x0d, 0x1b, 0xe9, 0x20, 0xc3, 0xa9, 0x7f,
    ]).toString('latin1')
    expect(displayLine(raw).text).toBe('\\uFEFF1\t\\0\\r\\x1B\\xE9 é\\x7F')
  })
  it('maps a byte column to an index in the displayed text', () => {
    const raw = Buffer.from('é\0x', 'utf8').toString('latin1') // c3 a9 00 78
    expect(displayLine(raw, 1).at).toBe(0)
    expect(displayLine(raw, 3).at).toBe(1)
    expect(displayLine(raw, 4).at).toBe(3)
    expect(displayLine(raw, 5).at).toBe(4)
  })
})

describe('renderValidationText', () => {
  it('prints file:line:col: severity: message, the raw line with a caret, then a summary', () => {
    const r = validateRun(Buffer.from('301 Q0 d1 1 2.5 bm25\n301\tQ0 d1 2 nan bm25\n'), {
      file: 'run.txt',
    })
    expect(renderValidationText(r)).toBe(
      [
        'run.txt:2:8: error: document "d1" repeated for topic "301" (first at line 1); expected each document once per topic',
        '    301\tQ0 d1 2 nan bm25',
        '       \t   ^',
        'run.txt:2:13: error: score "nan" is not finite; expected a finite decimal number (trec_eval sorts NaN and infinite scores unpredictably)',
        '    301\tQ0 d1 2 nan bm25',
        '       \t        ^',
        'run.txt: failed: 2 errors, 0 warnings in 2 lines, 1 query',
        '',
      ].join('\n'),
    )
  })
  it('says ok, notes listings that were cut, and marks a strict failure', () => {
    expect(renderValidationText(validateRun(Buffer.from('1 Q0 a 1 1 t\n'), { file: 'f' }))).toBe(
      'f: ok: 0 errors, 0 warnings in 1 line, 1 query\n',
    )
    const text = '1 Q0 a 1 1 t\n1 Q0 b 2 2 u\n1 Q0 c 3 3 v\n'
    const out = renderValidationText(
      validateRun(Buffer.from(text), { file: 'f', maxListed: 1, strict: true }),
    )
    expect(out.split('\n').slice(-4)).toEqual([
      'f: note: listed 1 of 2 rank_score_order warnings',
      'f: note: listed 1 of 2 mixed_tags warnings',
      'f: failed (--strict): 0 errors, 4 warnings in 3 lines, 1 query',
      '',
    ])
  })
  it('marks a cut line with its length and prints no caret past the shown text', () => {
    const r = validateRun(Buffer.from(`1 Q0 ${'x'.repeat(600)}\n`), { file: 'f' })
    const lines = renderValidationText(r).split('\n')
    expect(lines[0]).toBe(
      'f:1:606: error: expected at least 6 fields (qid iter docno rank score tag), found 3',
    )
    expect(lines[1]).toBe(`    1 Q0 ${'x'.repeat(395)}… (605 bytes)`)
    expect(lines[2]).toBe('f: failed: 1 error, 0 warnings in 1 line, 0 queries')
  })
  it('prints file-level problems without a position', () => {
    expect(renderValidationText(validateRun(Buffer.alloc(0), { file: 'e' }))).toBe(
      'e: error: the file is empty; expected lines of "qid iter docno rank score tag"\ne: failed: 1 error, 0 warnings in 0 lines, 0 queries\n',
    )
  })
})

describe('renderValidationJson', () => {
  it('has the documented layout, with decoded ids and exact counts', () => {
    const bytes = Buffer.concat([
      Buffer.from('301 Q0 caf'),
      Buffer.from([0xc3, 0xa9]),
      Buffer.from(' 1 1 t\n301 Q0 café 2 0 t\n'),
    ])
    const json = JSON.parse(
      renderValidationJson(validateRun(bytes, { file: 'r.txt', maxListed: 5 })),
    )
    expect(Object.keys(json)).toEqual([
      'schema',
      'file',
      'ok',
      'strict',
      'errors',
      'warnings',
      'queries',
      'lines',
      'runLines',
      'blankLines',
      'commentLines',
      'bytes',
      'tags',
      'counts',
      'problems',
    ])
    expect(json).toMatchObject({
      schema: 'trecscore.validate/1',
      file: 'r.txt',
      ok: false,
      strict: false,
      errors: 1,
      warnings: 0,
      queries: 1,
      lines: 2,
      tags: ['t'],
    })
    expect(json.counts).toEqual({ duplicate_doc: { severity: 'error', count: 1, listed: 1 } })
    expect(json.problems).toEqual([
      {
        severity: 'error',
        code: 'duplicate_doc',
        line: 2,
        column: 8,
        message:
          'document "café" repeated for topic "301" (first at line 1); expected each document once per topic',
        text: '301 Q0 café 2 0 t',
        lineBytes: 18,
        queryId: '301',
        docId: 'café',
        firstLine: 1,
      },
    ])
  })
  it('gives null positions for file-level problems', () => {
    const json = JSON.parse(renderValidationJson(validateRun(Buffer.alloc(0), { file: 'e' })))
    expect(json.problems).toEqual([
      {
        severity: 'error',
        code: 'empty_file',
        line: null,
        column: null,
        message: expect.any(String),
        text: null,
        lineBytes: null,
      },
    ])
  })
})
