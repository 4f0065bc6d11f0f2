/**
 * Problems `validateRun` finds in a TREC run, as data: a union keyed by `code`, each with where
 * it is (physical 1-based line, 1-based byte column, the raw line) and what was found. Wording
 * lives only in `format-run-problem.ts`; severities only in {@link RUN_PROBLEM_SEVERITY}.
 *
 * Ids and found texts are binary strings (one char per byte, see `io/bytes.ts`), as elsewhere.
 */

/** An error makes a run unusable or ambiguous; a warning is accepted by trec_eval but suspicious. */
export type Severity = 'error' | 'warning'

/** Where a line-level problem is. */
export interface Where {
  /** Physical 1-based line number (every `\n` counts, blank and comment lines too). */
  readonly line: number
  /** 1-based byte offset in the line of what is wrong. */
  readonly column: number
  /** The raw line as a binary string, without `\n`, cut after {@link MAX_TEXT_BYTES} bytes. */
  readonly text: string
  /** Length of the whole line in bytes (more than `text.length` when cut). */
  readonly lineBytes: number
}

/** Most bytes of a line kept in {@link Where.text}. */
export const MAX_TEXT_BYTES = 400

/** One problem in a run file, keyed by `code`. */
export type RunProblem =
  | { readonly code: 'empty_file' }
  | { readonly code: 'no_run_lines'; readonly blankLines: number; readonly commentLines: number }
  | { readonly code: 'cannot_read'; readonly reason: string; readonly afterLine: number }
  | (Where & { readonly code: 'line_too_long'; readonly limit: number })
  | (Where & { readonly code: 'nul_byte' })
  | (Where & { readonly code: 'invalid_utf8'; readonly byte: number })
  | (Where & { readonly code: 'utf16'; readonly encoding: 'UTF-16LE' | 'UTF-16BE' })
  | (Where & { readonly code: 'bom' })
  | (Where & { readonly code: 'crlf'; readonly count: number })
  | (Where & { readonly code: 'bare_cr' })
  | (Where & { readonly code: 'field_count'; readonly found: number })
  | (Where & { readonly code: 'score_not_a_number'; readonly found: string })
  | (Where & { readonly code: 'score_not_finite'; readonly found: string })
  | (Where & { readonly code: 'rank_not_an_integer'; readonly found: string })
  | (Where & { readonly code: 'duplicate_rank'; readonly queryId: string; readonly rank: string; readonly firstLine: number })
  | (Where & {
      readonly code: 'rank_score_order'
      readonly queryId: string
      readonly rank: number
      readonly score: number
      readonly previousLine: number
      readonly previousRank: number
      readonly previousScore: number
    })
  | (Where & { readonly code: 'mixed_tags'; readonly tag: string; readonly firstTag: string; readonly firstLine: number })
  | (Where & { readonly code: 'duplicate_doc'; readonly queryId: string; readonly docId: string; readonly firstLine: number })
  | (Where & { readonly code: 'unknown_topic'; readonly queryId: string })
  | (Where & { readonly code: 'unknown_doc'; readonly queryId: string; readonly docId: string })
  | (Where & { readonly code: 'too_deep'; readonly queryId: string; readonly limit: number; readonly count: number })

/** The `code` of every {@link RunProblem}. */
export type RunProblemCode = RunProblem['code']

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
  invalid_utf8: 'warning',
  bom: 'warning',
  crlf: 'warning',
  rank_score_order: 'warning',
  mixed_tags: 'warning',
  unknown_topic: 'warning',
  unknown_doc: 'warning',
}

/** Every code, in documentation order. */
export const RUN_PROBLEM_CODES = Object.keys(RUN_PROBLEM_SEVERITY) as RunProblemCode[]

/** Severity of a problem. */
export function severityOf(problem: RunProblem): Severity {
  return RUN_PROBLEM_SEVERITY[problem.code]
}

/** True for problems tied to a line (all but `empty_file`, `no_run_lines`, `cannot_read`). */
export function hasWhere(problem: RunProblem): problem is RunProblem & Where {
  return 'line' in problem
}
