/**
 * The one issue shape at run time: each module's default severity per code (one table, keyed
 * by module then code, exhaustive like the wording table), where each module's issue is, and
 * {@link toIssue}, which turns any module's issue into an {@link Issue}.
 */
import { wordIssue } from './format-issue.js'
import type { At, Issue, IssueKind, IssueKinds, IssueOf } from './issues.js'
import type { IssueSeverity, Severity } from './severity.js'

/** A severity for each code of one module's union `U`. */
export type SeverityTable<U extends { readonly code: string }, S = Severity> = {
  readonly [C in U['code']]: S
}

/** Every code of a module an error, in the order of `codes` (a table that cannot miss one). */
function allErrors<C extends string>(codes: readonly C[]): { readonly [K in C]: 'error' } {
  return Object.fromEntries(codes.map((c) => [c, 'error'])) as { readonly [K in C]: 'error' }
}

/**
 * Default severity of each code, by module. `run` is in documentation order (`--help`, README:
 * `RUN_PROBLEM_CODES` reads its keys). A preset check chooses the severity of its findings
 * (`--force` makes a refused grade a warning), so `preset` gives only the usual one.
 */
export const ISSUE_SEVERITY: {
  readonly [K in IssueKind]: SeverityTable<
    IssueKinds[K],
    K extends 'preset' ? IssueSeverity : Severity
  >
} = {
  input: allErrors([
    'field_count',
    'not_a_number',
    'not_finite',
    'not_an_integer',
    'grade_too_large',
    'negative_judgment',
    'bare_cr',
    'duplicate_doc',
    'duplicate_judgment',
    'nul_byte',
    'line_too_long',
    'invalid_utf8',
    'empty_file',
    'cannot_read',
    'unknown_measure',
    'bad_argument',
  ]),
  run: {
    empty_file: 'error',
    no_run_lines: 'error',
    cannot_read: 'error',
    line_too_long: 'error',
    nul_byte: 'error',
    utf16: 'error',
    bare_cr: 'error',
    field_count: 'error',
    score_not_a_number: 'error',
    score_not_finite: 'error',
    rank_not_an_integer: 'error',
    duplicate_rank: 'error',
    duplicate_doc: 'error',
    too_deep: 'error',
    extra_fields: 'error',
    comment_line: 'error',
    rank_not_positive: 'error',
    no_known_topics: 'error',
    invalid_utf8: 'warning',
    bom: 'warning',
    crlf: 'warning',
    rank_score_order: 'warning',
    mixed_tags: 'warning',
    unknown_topic: 'warning',
    unknown_doc: 'warning',
    score_rises: 'warning',
    rank_order_differs: 'warning',
    duplicate_doc_dropped: 'warning',
    deeper_than_limit: 'warning',
    not_a_topic: 'warning',
    doc_not_in_corpus: 'warning',
    missing_topic: 'warning',
    missing_domain_file: 'warning',
    stray_file: 'warning',
  },
  answer: {
    invalid_utf8: 'error',
    invalid_json: 'error',
    not_an_object: 'error',
    missing_field: 'error',
    extra_field: 'error',
    wrong_type: 'error',
    unknown_turn: 'error',
    duplicate_turn: 'error',
    answer_too_long: 'error',
    line_too_long: 'error',
    empty_answer: 'warning',
    missing_turn: 'warning',
  },
  textsim: allErrors([
    'invalid_utf8',
    'line_too_long',
    'invalid_json',
    'not_an_object',
    'bad_fields',
    'duplicate_id',
    'cannot_score',
  ]),
  prepare: allErrors(['duplicate_doc', 'duplicate_judgment', 'no_judgments']),
  preset: {
    bad_doc_lang_line: 'warning',
    doc_not_in_candidates: 'error',
    candidate_count: 'error',
    topic_without_candidates: 'error',
    rank_restarts: 'warning',
    too_many_docs: 'warning',
    one_language: 'warning',
    doc_id_prefix: 'warning',
    too_deep: 'warning',
    qrels_missing_grade: 'warning',
    qrels_language: 'error',
    forbidden_grade: 'error',
    qrels_topics_missing: 'note',
    run_topics_ignored: 'note',
    cut_by_depth: 'note',
  },
  agreement: allErrors([
    'invalid_utf8',
    'invalid_json',
    'not_an_object',
    'unknown_fields',
    'missing_field',
    'not_a_string',
    'bad_value',
    'score_with_status',
    'no_conversation',
    'duplicate_label',
    'duplicate_judgment',
    'no_records',
    'mixed_configs',
    'unknown_dimension',
    'ambiguous_domain',
    'same_turn_labelled',
    'conversation_differs',
  ]),
  config: allErrors([
    'not_an_object',
    'unknown_field',
    'not_a_string',
    'not_a_number',
    'not_one_of',
    'not_a_boolean',
    'not_an_array',
    'unknown_placeholder',
    'no_answer_placeholder',
    'no_score_property',
    'not_dimensions',
    'duplicate_dimension',
    'missing_dimension',
    'bad_rubric',
    'bad_requirement',
    'cap_below_base',
  ]),
  retecoPlan: allErrors(['columns', 'rank', 'score', 'duplicate_rank', 'nonpositive_rank']),
  judge: allErrors([
    'config_unreadable',
    'config_not_json',
    'config_too_deep',
    'config_invalid',
    'not_a_file',
    'cannot_read',
    'too_many_problems',
    'line_too_long',
    'nul_byte',
    'invalid_utf8',
    'invalid_json',
    'bad_record',
    'duplicate_item',
    'duplicate_judgment',
    'duplicate_case',
    'no_records',
    'mixed_configs',
    'out_other_config',
    'out_exists',
    'cannot_write',
    'cache_unopenable',
    'cache_other_config',
    'batch_reply_too_large',
    'batch_unreachable',
    'batch_http',
    'batch_not_json',
    'batch_no_id',
    'items_and_preset',
    'preset_needs_data',
    'not_a_judge_preset',
    'no_items',
    'data_without_preset',
    'judgments_other_config',
    'human_unreadable',
    'diagnostics_unreadable',
    'diagnostics_too_deep',
    'diagnostics_not_an_object',
    'diagnostics_other_config',
    'diagnostics_no_lexical',
    'reteco_2c_needs_retrieval',
    'reteco_2b_retrieval',
    'recor_not_a_file',
    'recor_missing',
    'recor_unreadable',
    'recor_not_an_array',
    'no_recor_conversations',
    'answers_not_judged',
    'retrieval_run',
  ]),
}

/**
 * What a module's issue does not say itself: the file it is in (run problems, answer problems
 * and judge-config problems are found in a file the caller names), the line (an answer problem's
 * line is kept beside it), and a severity other than the table's (a preset check's choice).
 */
export interface IssueContext {
  readonly file?: string
  readonly line?: number
  readonly severity?: IssueSeverity
}

/** `{file, line?, column?}`, leaving out a line of 0 (a whole-file problem) and what is unknown. */
function place(file: string | undefined, line?: number, column?: number): At | null {
  if (file === undefined) return null
  return {
    file,
    ...(line !== undefined && line > 0 ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
  }
}

/** Where each module's issue is, from its own fields and the context. */
const ISSUE_AT: {
  readonly [K in IssueKind]: (issue: IssueKinds[K], context: IssueContext) => At | null
} = {
  input: (i) =>
    'file' in i
      ? place(i.file, 'line' in i ? i.line : undefined, 'column' in i ? i.column : undefined)
      : null,
  run: (p, c) =>
    p.code === 'stray_file'
      ? place(p.path)
      : place(c.file, 'line' in p ? p.line : undefined, 'column' in p ? p.column : undefined),
  answer: (_a, c) => place(c.file, c.line),
  textsim: (t) => place(t.file, t.line),
  prepare: (f, c) => place(c.file, f.code === 'duplicate_doc' ? f.line : undefined),
  preset: (p) => ('file' in p ? place(p.file, 'line' in p ? p.line : undefined) : null),
  agreement: (a) => place(a.file, a.line),
  config: (_c, c) => place(c.file),
  retecoPlan: (p) => place(p.file, p.line),
  judge: (j) =>
    j.code === 'retrieval_run'
      ? place(j.problem.file, j.problem.line)
      : 'file' in j
        ? place(j.file, 'line' in j ? j.line : undefined)
        : 'dir' in j
          ? place(j.dir)
          : null,
}

/** Any module's issue in the one shape: module, code, severity, place, wording and the data. */
export function toIssue<K extends IssueKind>(
  kind: K,
  detail: IssueKinds[K],
  context: IssueContext = {},
): IssueOf<K> {
  const code = detail.code as IssueKinds[K]['code']
  const table = ISSUE_SEVERITY[kind] as { readonly [code: string]: IssueSeverity }
  const where = ISSUE_AT[kind as IssueKind] as unknown as (
    i: IssueKinds[K],
    c: IssueContext,
  ) => At | null
  const issue = {
    kind,
    code,
    severity: context.severity ?? (table[code] as IssueSeverity),
    at: where(detail, context),
    message: wordIssue(kind, detail),
    detail,
  }
  return issue as IssueOf<K>
}

export type { Issue }
