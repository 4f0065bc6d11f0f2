/**
 * Problems `validateRun` finds in a TREC run: the types live in `errors/run-issues.ts` (the one
 * wording table in `errors/format-issue.ts` words them); severities only in
 * {@link RUN_PROBLEM_SEVERITY}.
 */
import type {
  RetecoRunProblem,
  RunProblem,
  RunProblemCode,
  Severity,
  Where,
} from '../errors/run-issues.js'

export type {
  RetecoRunProblem,
  RunProblem,
  RunProblemCode,
  Severity,
  TopicHint,
  Where,
} from '../errors/run-issues.js'

/** Most bytes of a line kept in {@link Where.text}. */
export const MAX_TEXT_BYTES = 400

/** A problem of a given code. */
export type RunProblemOf<C extends RunProblemCode> = Extract<RunProblem, { code: C }>

/**
 * Severity of each code, in the order problems are documented (`--help`, README). A table keyed
 * by the union, so a new code does not compile until it has a severity.
 */
export const RUN_PROBLEM_SEVERITY: { readonly [C in RunProblemCode]: Severity } = {
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
}

/** Codes only the RETECO presets report (the generic validator never does). */
export const RETECO_RUN_PROBLEM_CODES: readonly RetecoRunProblem['code'][] = [
  'extra_fields',
  'comment_line',
  'rank_not_positive',
  'no_known_topics',
  'score_rises',
  'rank_order_differs',
  'duplicate_doc_dropped',
  'deeper_than_limit',
  'not_a_topic',
  'doc_not_in_corpus',
  'missing_topic',
  'missing_domain_file',
  'stray_file',
]

/** Every code, in documentation order. */
export const RUN_PROBLEM_CODES = Object.keys(RUN_PROBLEM_SEVERITY) as RunProblemCode[]

/** Severity of a problem. */
export function severityOf(problem: RunProblem): Severity {
  return RUN_PROBLEM_SEVERITY[problem.code]
}

/** True for problems tied to a line (all but `empty_file`, `no_run_lines`, `cannot_read` and the RETECO file-level codes). */
export function hasWhere(problem: RunProblem): problem is RunProblem & Where {
  return 'line' in problem
}
