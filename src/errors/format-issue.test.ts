import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { AgreementIssue } from './agreement-issues.js'
import type { AnswerIssue } from './answer-issues.js'
import type { ConfigProblem } from './config-issues.js'
import {
  formatIssue,
  formatPrepareFailure,
  formatRunProblem,
  ISSUE_WORDING,
  type Wording,
  wordIssue,
} from './format-issue.js'
import type { InputIssue, IssueKind, IssueKinds, ModuleIssue } from './issues.js'
import type { JudgeIssue } from './judge-issues.js'
import type { PresetFinding } from './preset-issues.js'
import type { RetecoRunProblem as RetecoPlanProblem } from './reteco-plan-issues.js'
import type { RunProblem } from './run-issues.js'
import type { TextsimIssue } from './textsim-issues.js'

describe('the one wording table', () => {
  it('has exactly one entry per code of each module (checked by the compiler)', () => {
    expectTypeOf(ISSUE_WORDING).toEqualTypeOf<{
      readonly [K in IssueKind]: Wording<IssueKinds[K]>
    }>()
    expectTypeOf<keyof typeof ISSUE_WORDING.input>().toEqualTypeOf<InputIssue['code']>()
    expectTypeOf<keyof typeof ISSUE_WORDING.run>().toEqualTypeOf<RunProblem['code']>()
    expectTypeOf<InputIssue>().toMatchTypeOf<ModuleIssue>()
    expectTypeOf<RunProblem>().toMatchTypeOf<ModuleIssue>()
    expectTypeOf<AnswerIssue>().toMatchTypeOf<ModuleIssue>()
    expectTypeOf<TextsimIssue>().toMatchTypeOf<ModuleIssue>()
    expectTypeOf<keyof typeof ISSUE_WORDING.textsim>().toEqualTypeOf<TextsimIssue['code']>()
    expectTypeOf<keyof typeof ISSUE_WORDING.answer>().toEqualTypeOf<AnswerIssue['code']>()
    expectTypeOf<keyof typeof ISSUE_WORDING.preset>().toEqualTypeOf<PresetFinding['code']>()
    expectTypeOf<keyof typeof ISSUE_WORDING.agreement>().toEqualTypeOf<AgreementIssue['code']>()
    expectTypeOf<keyof typeof ISSUE_WORDING.config>().toEqualTypeOf<ConfigProblem['code']>()
    expectTypeOf<keyof typeof ISSUE_WORDING.retecoPlan>().toEqualTypeOf<RetecoPlanProblem['code']>()
    expectTypeOf<keyof typeof ISSUE_WORDING.judge>().toEqualTypeOf<JudgeIssue['code']>()
    // a missing or an extra code does not compile
    // @ts-expect-error: 'bad_argument' has no wording
    const missing: Wording<InputIssue> = { ...ISSUE_WORDING.input, bad_argument: undefined }
    const extra: Wording<Pick<InputIssue, 'code'> & { code: 'empty_file' }> = {
      empty_file: () => '',
      // @ts-expect-error: no such code
      no_such_code: () => '',
    }
    expect([missing, extra]).toHaveLength(2)
  })

  it('words an input issue (file:line first)', () => {
    expect(
      formatIssue({
        code: 'field_count',
        file: 'r.txt',
        line: 3,
        expected: '6',
        found: 5,
        text: 'a b',
      }),
    ).toBe('r.txt:3: expected 6, found 5 field(s): "a b"')
    expect(
      formatIssue({ code: 'unknown_measure', found: 'ndgc', position: 0, suggestions: ['ndcg'] }),
    ).toBe('unknown measure "ndgc" at character 1; did you mean "ndcg"?')
    expect(formatIssue({ code: 'cannot_read', file: 'q', reason: 'ENOENT' })).toBe(
      'q: cannot read: ENOENT',
    )
  })

  it('words a run problem (no file or line: renderers add them)', () => {
    const where = { line: 7, column: 1, text: 'q1 Q0 d 1 x t', lineBytes: 13 }
    expect(formatRunProblem({ ...where, code: 'score_not_finite', found: 'inf' })).toBe(
      'score "inf" is not finite; expected a finite decimal number (trec_eval sorts NaN and infinite scores unpredictably)',
    )
    expect(
      wordIssue('run', {
        ...where,
        code: 'not_a_topic',
        queryId: 'q1#2',
        subtrack: '1a',
        domain: null,
        hint: 'pilot_turn',
        suggestion: 'q1_turn_2',
      }),
    ).toBe(
      'topic "q1#2" is not a 1a topic; it uses the pilot\'s "#turn" spelling: write "q1_turn_2"; it will not be scored',
    )
  })

  it('words an answer-file problem', () => {
    expect(
      wordIssue('answer', { code: 'unknown_turn', turnId: 'c1#2', elsewhere: 'a dev turn' }),
    ).toBe('turn "c1#2" is not a target turn (not of the form <conv>_turn_<t>); it is a dev turn')
    expect(wordIssue('answer', { code: 'wrong_type', field: 'answer', found: 'null' })).toBe(
      '"answer" is null; expected a string',
    )
  })

  it('words a textsim pair-line problem, every field problem at once', () => {
    const at = { file: 'p.jsonl', line: 2, text: '{}' }
    expect(
      wordIssue('textsim', {
        ...at,
        code: 'bad_fields',
        problems: [
          { code: 'missing', field: 'id' },
          { code: 'wrong_type', field: 'references', found: 'a string' },
          { code: 'reference_not_a_string', index: 1, found: 'null' },
        ],
      }),
    ).toBe(
      'missing "id"; "references" must be an array of strings, found a string; "references"[1] must be a string, found null',
    )
    expect(wordIssue('textsim', { ...at, code: 'duplicate_id', firstLine: 1 })).toBe(
      'duplicate id (first at line 1)',
    )
  })

  it('words a query the engine cannot prepare, the same in every command', () => {
    expect(
      formatPrepareFailure('q1', { code: 'duplicate_doc', docId: 'd7', line: 9, firstLine: 2 }),
    ).toBe('query "q1": document "d7" retrieved more than once')
    expect(wordIssue('prepare', { code: 'no_judgments', queryId: '254' })).toBe(
      'query "254": only negative (unjudged) judgments',
    )
  })

  it('formatting any issue never throws and gives one line', () => {
    const text = fc.string({ unit: 'binary', maxLength: 300 })
    const n = fc.nat(10_000)
    const input: fc.Arbitrary<InputIssue> = fc.oneof(
      fc.record({
        code: fc.constant('field_count' as const),
        file: text,
        line: n,
        expected: fc.constantFrom('6', 'at least 4'),
        found: n,
        text,
      }),
      fc.record({
        code: fc.constant('not_a_number' as const),
        file: text,
        line: n,
        field: fc.constantFrom('rank' as const, 'score' as const, 'grade' as const),
        found: text,
        text,
      }),
      fc.record({ code: fc.constant('nul_byte' as const), file: text, line: n, text }),
      fc.record({ code: fc.constant('bare_cr' as const), file: text, line: n, text }),
      fc.record({
        code: fc.constant('duplicate_doc' as const),
        file: text,
        line: n,
        queryId: text,
        docId: text,
        firstLine: n,
      }),
      fc.record({
        code: fc.constant('unknown_measure' as const),
        found: text,
        position: n,
        suggestions: fc.array(text, { maxLength: 3 }),
      }),
      fc.record({
        code: fc.constant('bad_argument' as const),
        option: fc.string(),
        found: text,
        expected: fc.string(),
      }),
    )
    const where = fc.record({ line: n, column: n, text, lineBytes: n })
    const run: fc.Arbitrary<RunProblem> = fc.oneof(
      fc.record({ code: fc.constant('no_run_lines' as const), blankLines: n, commentLines: n }),
      where.chain((w) =>
        fc
          .record({ code: fc.constant('invalid_utf8' as const), byte: fc.nat(255) })
          .map((p) => ({ ...w, ...p })),
      ),
      where.chain((w) =>
        fc
          .record({
            code: fc.constant('mixed_tags' as const),
            tag: text,
            firstTag: text,
            firstLine: n,
          })
          .map((p) => ({ ...w, ...p })),
      ),
      where.chain((w) =>
        fc
          .record({
            code: fc.constant('not_a_topic' as const),
            queryId: text,
            subtrack: fc.constantFrom('1a', '1b'),
            domain: fc.option(fc.constantFrom('cooking', 'travel')),
            hint: fc.option(
              fc.constantFrom(
                'step_id' as const,
                'pilot_turn' as const,
                'other_split' as const,
                'unknown_turn' as const,
              ),
            ),
            // quoted for the id hints; for the others a split, domain or step list from the data
            suggestion: fc.option(fc.stringMatching(/^[\w, #-]{0,20}$/)),
          })
          .map((p) => ({ ...w, ...p })),
      ),
      fc.record({
        code: fc.constant('stray_file' as const),
        path: text,
        domains: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 5 }),
      }),
    )
    const answer: fc.Arbitrary<AnswerIssue> = fc.oneof(
      fc.record({
        code: fc.constant('invalid_json' as const),
        error: fc.constantFrom('Unexpected token', 'x'),
      }),
      fc.record({ code: fc.constant('extra_field' as const), field: fc.string() }),
      fc.record(
        { code: fc.constant('unknown_turn' as const), turnId: fc.string() },
        { requiredKeys: ['code', 'turnId'] },
      ),
      fc.record({
        code: fc.constant('duplicate_turn' as const),
        turnId: fc.string(),
        firstLine: n,
      }),
      fc.record({ code: fc.constant('missing_turn' as const), turnId: fc.string() }),
    )
    // a file name or option given by a person may hold a newline: only ids and texts are quoted
    const oneLine = (s: string) => !s.includes('\n')
    fc.assert(
      fc.property(input, (i) => {
        const file = 'file' in i ? i.file : ''
        const option = 'option' in i ? i.option + i.expected : ''
        const m = formatIssue(i)
        expect(typeof m).toBe('string')
        if (oneLine(file) && oneLine(option)) expect(m).not.toContain('\n')
      }),
    )
    fc.assert(
      fc.property(run, (p) => {
        const m = formatRunProblem(p)
        const free = 'subtrack' in p ? p.subtrack : 'domains' in p ? p.domains.join('') : ''
        if (oneLine(free)) expect(m).not.toContain('\n')
      }),
    )
    fc.assert(
      fc.property(answer, (a) => {
        expect(wordIssue('answer', a)).not.toContain('\n')
      }),
    )
  })

  it('words a preset finding (file first), as the checks printed it', () => {
    expect(
      wordIssue('preset', {
        code: 'candidate_count',
        file: 'run.txt',
        candidatesFile: 'cand.txt',
        topic: null,
        absent: ['3'],
      }),
    ).toBe(
      'run.txt: 1 topic(s) of cand.txt are absent from the run (0 documents, fewer than their candidate list): 3',
    )
    expect(
      wordIssue('preset', {
        code: 'rank_restarts',
        file: 'm.txt',
        topic: '1',
        lines: [3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
      }),
    ).toBe(
      'm.txt: topic 1: rank 1 again at lines 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, … (11 in all) (the rank restarts, as in per-language lists concatenated); an MLIR run is one ranked list per topic',
    )
    expect(
      wordIssue('preset', {
        code: 'forbidden_grade',
        file: 'q.txt',
        count: 2,
        grade: 1,
        remapped: true,
        line: 4,
        text: '7 zho d1 1',
        note: 'convert grade 1',
        force: true,
      }),
    ).toBe(
      'q.txt: 2 judgment(s) of grade 1 after --rel-map (first: line 4: "7 zho d1 1"): convert grade 1 [--force: scored as they are]',
    )
    expect(wordIssue('preset', { code: 'qrels_language', part: 'note', note: 'NeuCLIR' })).toBe(
      '(NeuCLIR)',
    )
  })

  it('words a judge agreement input problem (FILE:LINE: what: "text" (expected …))', () => {
    const at = { file: 'j.jsonl', line: 4, text: '{"score":7}' }
    expect(
      wordIssue('agreement', {
        ...at,
        code: 'score_with_status',
        found: '7',
        status: 'ok',
        scale: '1, 2, 3',
      }),
    ).toBe(
      'j.jsonl:4: "score" is 7 with status "ok": "{\\"score\\":7}" (expected "score": an integer in 1, 2, 3 when the status is "ok")',
    )
    expect(
      wordIssue('agreement', {
        ...at,
        code: 'missing_field',
        of: 'labels',
        field: 'score',
        scale: '1, 2',
      }),
    ).toBe('j.jsonl:4: missing "score": "{\\"score\\":7}" (expected "score": an integer in 1, 2)')
    expect(
      wordIssue('agreement', {
        code: 'unknown_dimension',
        file: '--dimension',
        line: 0,
        text: 'x',
        dimension: 'x',
        dimensions: [],
      }),
    ).toBe(
      '--dimension: dimension "x" is in neither file: "x" (expected one of (no dimensions found))',
    )
  })

  it('words a judge-config problem (JSON path first)', () => {
    expect(
      wordIssue('config', {
        code: 'not_a_number',
        path: '$.decoding.temperature',
        found: 'x'.repeat(70),
        integer: false,
        min: 0,
        max: 2,
      }),
    ).toBe(`$.decoding.temperature: expected a number in [0, 2], found "${'x'.repeat(56)}...`)
    expect(
      wordIssue('config', {
        code: 'not_a_number',
        path: '$.concurrency',
        found: undefined,
        integer: true,
        min: 1,
      }),
    ).toBe('$.concurrency: expected an integer ≥ 1, found nothing')
    expect(
      wordIssue('config', {
        code: 'cap_below_base',
        path: '$.retry.backoff_cap_ms',
        base: 500,
        cap: 100,
      }),
    ).toBe('$.retry.backoff_cap_ms: expected at least backoff_base_ms (500), found 100')
  })

  it('words a RETECO plan run problem (Python quoting, no place)', () => {
    const at = { file: 'r.trec', line: 2, text: '' }
    expect(wordIssue('retecoPlan', { ...at, code: 'rank', found: "1'x" })).toBe(
      "rank is not an integer: '1\\'x'",
    )
    expect(wordIssue('retecoPlan', { ...at, code: 'duplicate_rank', rank: 3, topic: 'q\\1' })).toBe(
      "duplicate rank 3 in topic 'q\\\\1'",
    )
    expect(wordIssue('retecoPlan', { ...at, code: 'columns', found: 5 })).toBe(
      'expected 6 columns, got 5',
    )
  })

  it('words a judge input problem (file:line first, the line clipped to 60 characters)', () => {
    const long = `{"turn_id": "${'t'.repeat(80)}"}`
    expect(
      wordIssue('judge', {
        code: 'duplicate_item',
        file: 'items.jsonl',
        line: 7,
        text: long,
        turnId: 'c_turn_1',
        domain: 'fiqa',
        firstLine: 2,
      }),
    ).toBe(
      `items.jsonl:7: turn "c_turn_1" (domain fiqa) already given at line 2: ${JSON.stringify(`${long.slice(0, 60)}…`)}`,
    )
    expect(
      wordIssue('judge', {
        code: 'duplicate_judgment',
        file: 'j.jsonl',
        line: 3,
        text: '{}',
        turnId: 't',
        domain: null,
        dimension: 'faithfulness',
        firstLine: 1,
      }),
    ).toBe(
      'j.jsonl:3: turn "t" already has a faithfulness judgment at line 1; expected one judgment per turn and dimension: "{}"',
    )
    expect(wordIssue('judge', { code: 'nul_byte', file: 'x', line: 1, text: 'a\0b' })).toBe(
      'x:1: NUL byte in line (binary data?), expected one JSON object per line: "a\\u0000b"',
    )
    expect(
      wordIssue('judge', {
        code: 'config_invalid',
        file: 'c.json',
        problem: { code: 'not_a_boolean', path: '$.x', found: 1 },
      }),
    ).toBe('c.json: $.x: expected true or false, found 1')
    expect(
      wordIssue('judge', { code: 'batch_http', what: 'create the batch', status: 500, body: 'no' }),
    ).toBe('batch API: create the batch: HTTP 500: no')
    expect(wordIssue('judge', { code: 'no_items', presets: '' })).toBe('give an items JSONL file')
    expect(
      wordIssue('judge', {
        code: 'answers_not_judged',
        file: 'ans',
        report: 'ans/a.jsonl:1: error: bad',
        errors: 1,
        preset: 'reteco-2b',
      }),
    ).toBe(
      'ans/a.jsonl:1: error: bad\nans: not judged: the submission has 1 error(s) (trecscore validate --preset reteco-2b shows the same report)',
    )
  })
})
