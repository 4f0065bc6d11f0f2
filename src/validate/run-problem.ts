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
import { ISSUE_SEVERITY } from '../errors/to-issue.js'

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
 * by the union, so a new code does not compile until it has a severity: the `run` row of the
 * one severity table, `ISSUE_SEVERITY` (`errors/to-issue.ts`).
 */
export const RUN_PROBLEM_SEVERITY: { readonly [C in RunProblemCode]: Severity } = ISSUE_SEVERITY.run

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
