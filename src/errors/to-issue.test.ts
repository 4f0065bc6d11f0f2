import { describe, expect, expectTypeOf, it } from 'vitest'
import type { IssueKind, IssueKinds, IssueOf } from './issues.js'
import { ISSUE_SEVERITY, type SeverityTable, toIssue } from './to-issue.js'

describe('the one issue shape', () => {
  it('has one default severity per code of each module (checked by the compiler)', () => {
    expectTypeOf<keyof typeof ISSUE_SEVERITY>().toEqualTypeOf<IssueKind>()
    expectTypeOf<keyof typeof ISSUE_SEVERITY.run>().toEqualTypeOf<IssueKinds['run']['code']>()
    expectTypeOf<keyof typeof ISSUE_SEVERITY.config>().toEqualTypeOf<IssueKinds['config']['code']>()
    // @ts-expect-error: 'bom' has no severity
    const missing: SeverityTable<IssueKinds['run']> = { ...ISSUE_SEVERITY.run, bom: undefined }
    expect(missing.bom).toBeUndefined()
    expect(ISSUE_SEVERITY.run.bom).toBe('warning')
    expect(ISSUE_SEVERITY.run.field_count).toBe('error')
    expect(ISSUE_SEVERITY.answer.missing_turn).toBe('warning')
    expect(Object.keys(ISSUE_SEVERITY.run).slice(0, 3)).toEqual([
      'empty_file',
      'no_run_lines',
      'cannot_read',
    ])
  })

  it('an input issue: its module, code, severity, place and wording', () => {
    const detail = {
      code: 'not_a_number',
      file: 'run.txt',
      line: 4,
      field: 'score',
      found: 'x',
      text: 'q Q0 d 1 x t',
    } as const
    const issue = toIssue('input', detail)
    expectTypeOf(issue).toEqualTypeOf<IssueOf<'input'>>()
    expect(issue).toEqual({
      kind: 'input',
      code: 'not_a_number',
      severity: 'error',
      at: { file: 'run.txt', line: 4 },
      message: 'run.txt:4: score is not a number: "x" in "q Q0 d 1 x t"',
      detail,
    })
    expect(
      toIssue('input', { code: 'bad_argument', option: '--k', found: 'x', expected: 'a number' })
        .at,
    ).toBeNull()
  })

  it('a run problem takes its file from the context, its line and column from itself', () => {
    const issue = toIssue(
      'run',
      { code: 'bom', line: 1, column: 1, text: '\xef\xbb\xbf1 Q0 d 1 1 t', lineBytes: 16 },
      { file: 'r.run' },
    )
    expect(issue.severity).toBe('warning')
    expect(issue.at).toEqual({ file: 'r.run', line: 1, column: 1 })
    expect(issue.message).toMatch(/^UTF-8 byte order mark/)
    expect(toIssue('run', { code: 'empty_file' }).at).toBeNull()
    expect(toIssue('run', { code: 'empty_file' }, { file: 'r.run' }).at).toEqual({ file: 'r.run' })
    expect(
      toIssue('run', { code: 'stray_file', path: 'x/notes.txt', domains: ['finance'] }).at,
    ).toEqual({ file: 'x/notes.txt' })
  })

  it('a whole-file problem (line 0) has no line; the context may set the severity', () => {
    const plan = toIssue('retecoPlan', {
      code: 'columns',
      file: 'a.trec',
      line: 0,
      text: '',
      found: 3,
    })
    expect(plan.at).toEqual({ file: 'a.trec' })
    expect(plan.message).toBe('expected 6 columns, got 3')
    const finding = toIssue(
      'preset',
      { code: 'qrels_missing_grade', file: 'q.txt', note: 'no grade 3' },
      { severity: 'note' },
    )
    expect([finding.severity, finding.at, finding.message]).toEqual([
      'note',
      { file: 'q.txt' },
      'q.txt: no grade 3',
    ])
    const answer = toIssue('answer', { code: 'missing_turn', turnId: 't_turn_1' }, { file: 'a' })
    expect([answer.severity, answer.at]).toEqual(['warning', { file: 'a' }])
    const prepare = toIssue('prepare', {
      code: 'duplicate_doc',
      queryId: 'q',
      docId: 'd',
      line: 7,
      firstLine: 2,
    })
    expect([prepare.at, prepare.message]).toEqual([
      null,
      'query "q": document "d" retrieved more than once',
    ])
  })
})
