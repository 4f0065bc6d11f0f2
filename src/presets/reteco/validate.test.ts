import { describe, expect, it } from 'vitest'
import { type RetecoFileContext, RetecoFileValidator } from './validate.js'

const ctx: RetecoFileContext = {
  subtrack: '1a',
  split: 'dev',
  domain: 'law',
  topics: new Map([
    ['q1', 'law'],
    ['q2', 'law'],
  ]),
  corpora: new Map([['law', new Set(['d1', 'd2', 'd3'])]]),
  index: new Map([['q1_step1', [{ kind: '1b', split: 'dev', domain: 'law' }]]]),
  allTopics: new Map([
    ['q1', ['law']],
    ['q2', ['law']],
    ['h1', ['history']],
  ]),
}

function run(text: string): ReturnType<RetecoFileValidator['end']> {
  const v = new RetecoFileValidator('law.trec', ctx, { maxListed: Infinity })
  v.feed(Buffer.from(text))
  return v.end()
}

const codes = (r: ReturnType<typeof run>): string[] =>
  r.report.problems.map((p) => ('line' in p ? `${p.line}:${p.code}` : p.code))

describe('RetecoFileValidator', () => {
  it('a clean run: no problems, the checker agrees', () => {
    const r = run('q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 5 t\n')
    expect(codes(r)).toEqual([])
    expect(r.agrees).toBe(true)
  })
  it('nan and inf scores fail here but pass format_checker.py: the difference says why', () => {
    const r = run('q1 Q0 d1 1 nan t\nq2 Q0 d3 1 inf t\n')
    expect(codes(r)).toEqual(['1:score_not_finite', '2:score_not_finite'])
    expect(r.checker.valid).toBe(true)
    expect(r.agrees).toBe(false)
    expect(r.differences).toEqual([
      {
        code: 'score_not_finite',
        count: 2,
        reason: expect.stringMatching(/Python float\(\) accepts nan and inf/),
      },
    ])
  })
  it('checker rules: 7 columns, rank 0, # lines, a rising score', () => {
    const r = run('# comment\nq1 Q0 d1 0 1 t x\nq1 Q0 d2 1 1 t\nq1 Q0 d3 2 3 t\nq2 Q0 d1 -1 1 t\n')
    expect(codes(r)).toEqual([
      '1:comment_line',
      '2:rank_order_differs',
      '2:extra_fields',
      '4:score_rises',
      '5:rank_not_positive',
    ])
    expect(r.agrees).toBe(true)
  })
  it('plan rules: duplicates dropped, unknown docs, topics elsewhere, missing topics', () => {
    const r = run(
      'q1 Q0 d1 1 2 t\nq1 Q0 d1 2 1 t\nq1 Q0 zz 3 0.5 t\nq1_step1 Q0 d1 1 1 t\nh1 Q0 d1 1 1 t\n',
    )
    expect(codes(r)).toEqual([
      '2:duplicate_doc_dropped',
      '3:doc_not_in_corpus',
      '4:not_a_topic',
      '5:not_a_topic',
      'missing_topic',
    ])
    const hints = r.report.problems.flatMap((p) =>
      p.code === 'not_a_topic' ? [[p.hint, p.suggestion]] : [],
    )
    expect(hints).toEqual([
      ['step_id', 'q1'],
      ['other_domain', 'history'],
    ])
    expect(r.report.errors).toBe(0)
  })
  it('the rank column against the scores, once per topic', () => {
    const r = run('q1 Q0 d1 1 1 t\nq1 Q0 d2 2 1 t\nq2 Q0 d3 1 1 t\n')
    // Equal scores: pytrec_eval orders d2 before d1 (doc id descending), the rank column d1 first;
    // the problem points at the topic's first line.
    expect(codes(r)).toEqual(['1:rank_order_differs'])
    const p = r.report.problems[0]!
    expect(p.code === 'rank_order_differs' && [p.position, p.byRank, p.byScore]).toEqual([
      1,
      'd1',
      'd2',
    ])
  })
  it('invalid UTF-8: a warning here, a UnicodeDecodeError traceback in format_checker.py', () => {
    const v = new RetecoFileValidator('law.trec', ctx, { maxListed: Infinity })
    v.feed(
      Buffer.concat([
        Buffer.from('q1 Q0 d'),
        Buffer.from([0xe9]),
        Buffer.from(' 1 1 t\nq2 Q0 d1 1 1 t\n'),
      ]),
    )
    const r = v.end()
    expect(r.report.errors).toBe(0)
    expect(r.report.problems.map((p) => p.code)).toEqual(['doc_not_in_corpus', 'invalid_utf8'])
    expect(r.checker.crashed).toMatch(/UnicodeDecodeError: invalid UTF-8 on line 1/)
    expect(r.agrees).toBe(false)
    expect(r.differences).toEqual([
      { code: 'invalid_utf8', count: 1, reason: expect.stringMatching(/stops with a traceback/) },
    ])
  })
  it('an empty file: our error, the checker says VALID', () => {
    const r = run('')
    expect(codes(r)).toEqual(['empty_file', 'missing_topic', 'missing_topic'])
    expect(r.differences.map((d) => d.code)).toEqual(['empty_file'])
  })
})
