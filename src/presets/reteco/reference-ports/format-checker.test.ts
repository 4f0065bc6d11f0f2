import { describe, expect, it } from 'vitest'
import { FormatChecker, renderFormatCheckerOutput } from './format-checker.js'

function check(
  text: string,
  options: ConstructorParameters<typeof FormatChecker>[0] = {},
): ReturnType<FormatChecker['end']> {
  const c = new FormatChecker(options)
  // Feed byte by byte in two pieces to exercise the carry.
  const bytes = Buffer.from(text, 'utf8')
  c.feed(bytes.subarray(0, 7))
  c.feed(bytes.subarray(7))
  return c.end()
}

describe('FormatChecker (format_checker.py port)', () => {
  it('accepts an empty file and a file of blank lines', () => {
    expect(renderFormatCheckerOutput(check(''))).toBe(
      'lines: 0  topics: 0  errors: 0  warnings: 0\nRESULT: VALID\n',
    )
    expect(check('\n  \n\t\n').valid).toBe(true)
  })
  it('reads scores and ranks as Python float() and int() do', () => {
    const r = check(
      'q Q0 a 1 nan t\nq Q0 b 2 -inf t\nq Q0 c 1_0 1_5 t\nq Q0 d +4 .5 t\nq Q0 e 3.0 1 t\nq Q0 f 0 1 t\nq Q0 g 5 1,5 t\n',
    )
    expect(r.errors.map((e) => `${e.line}:${e.kind}`)).toEqual(['5:rank', '6:rank', '7:score'])
  })
  it('checks duplicates of any rank int() reads, even 0 or negative, and skips lines whose score fails', () => {
    const r = check('q Q0 a 0 1 t\nq Q0 b 0 1 t\nq Q0 c 3 x t\nq Q0 d 3 1 t\n')
    expect(r.errors.map((e) => `${e.line}:${e.kind}`)).toEqual([
      '1:rank',
      '2:rank',
      '2:duplicate_rank',
      '3:score',
    ])
    expect(r.topics).toBe(1)
  })
  it('warns when a score rises over the previous line of its topic by more than 1e-9 (file order)', () => {
    const r = check('q Q0 a 2 1.0 t\np Q0 x 1 9 t\nq Q0 b 1 1.0000000001 t\nq Q0 c 3 1.5 t\n')
    expect(r.warnings).toEqual([
      {
        kind: 'score_increases',
        line: 4,
        queryId: 'q',
        score: '1.5',
        previousScore: '1.0000000001',
        previousLine: 3,
      },
    ])
  })
  it('splits on Python whitespace (NBSP included) and prints ids as text', () => {
    const r = check('q\u00a0Q0 a 1 1 t extra\n', { topics: new Set(['x']) })
    expect(renderFormatCheckerOutput(r)).toBe(
      'lines: 1  topics: 0  errors: 1  warnings: 0\n  ERROR   L1: expected 6 columns, got 7\nRESULT: INVALID\n',
    )
    const u = check('é Q0 d 1 1 t\n', { topics: new Set(), docs: new Set() })
    expect(renderFormatCheckerOutput(u)).toContain(
      "L1: topic 'é' not in qrels\n  warn    L1: docid 'd' not in corpus\n",
    )
  })
  it('prints the first 50 errors and 20 warnings, counts all', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `q Q0 d${i} x ${i} t\n`).join('')
    const r = check(lines)
    expect([r.errorCount, r.errors.length, r.warningCount, r.warnings.length]).toEqual([
      60, 50, 59, 20,
    ])
    expect(r.kinds).toMatchObject({ rank: 60, score_increases: 59 })
    const out = renderFormatCheckerOutput(r).split('\n')
    expect(out[0]).toBe('lines: 60  topics: 1  errors: 60  warnings: 59')
    expect(out.length).toBe(1 + 50 + 20 + 2)
  })
  it('crashes like Python on invalid UTF-8 (nothing on stdout)', () => {
    const c = new FormatChecker()
    c.feed(Buffer.from([0x71, 0x20, 0xe9, 0x0a]))
    const r = c.end()
    expect(r.valid).toBe(false)
    expect(r.crashed).toMatch(/UnicodeDecodeError/)
    expect(renderFormatCheckerOutput(r)).toBe('')
  })
})
