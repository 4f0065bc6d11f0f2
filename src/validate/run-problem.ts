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
  | (Where & {
      readonly code: 'duplicate_rank'
      readonly queryId: string
      readonly rank: string
      readonly firstLine: number
    })
  | (Where & {
      readonly code: 'rank_score_order'
      readonly queryId: string
      readonly rank: number
      readonly score: number
      readonly previousLine: number
      readonly previousRank: number
      readonly previousScore: number
    })
  | (Where & {
      readonly code: 'mixed_tags'
      readonly tag: string
      readonly firstTag: string
      readonly firstLine: number
    })
  | (Where & {
      readonly code: 'duplicate_doc'
      readonly queryId: string
      readonly docId: string
      readonly firstLine: number
    })
  | (Where & { readonly code: 'unknown_topic'; readonly queryId: string })
  | (Where & { readonly code: 'unknown_doc'; readonly queryId: string; readonly docId: string })
  | (Where & {
      readonly code: 'too_deep'
      readonly queryId: string
      readonly limit: number
      readonly count: number
    })
  | RetecoRunProblem

/**
 * A hint for a topic that is not a topic of the sub-track being validated: where the id does
 * belong (another sub-track, split, domain or track, or the pilot `#turn` spelling).
 */
export type TopicHint =
  | 'step_id'
  | 'query_id'
  | 'pilot_turn'
  | 'other_split'
  | 'other_domain'
  | 'other_subtrack'
  | 'other_track'
  | 'unknown_step'
  | 'unknown_turn'

/**
 * Problems only `trecscore validate --preset reteco-*` reports (RETECO, SemEval-2027 Task 1):
 * the organizers' `format_checker.py` rules the generic checks do not cover, and the evaluation
 * plan's rules. Worded in `format-run-problem.ts` like the others.
 */
export type RetecoRunProblem =
  | (Where & { readonly code: 'extra_fields'; readonly found: number })
  | (Where & { readonly code: 'comment_line'; readonly found: number })
  | (Where & { readonly code: 'rank_not_positive'; readonly found: string })
  | (Where & {
      readonly code: 'score_rises'
      readonly queryId: string
      readonly score: string
      readonly previousScore: string
      readonly previousLine: number
    })
  | (Where & {
      readonly code: 'rank_order_differs'
      readonly queryId: string
      readonly position: number
      readonly byRank: string
      readonly byScore: string
    })
  | (Where & {
      readonly code: 'duplicate_doc_dropped'
      readonly queryId: string
      readonly docId: string
      readonly firstLine: number
    })
  | (Where & {
      readonly code: 'deeper_than_limit'
      readonly queryId: string
      readonly limit: number
      readonly count: number
    })
  | (Where & {
      readonly code: 'not_a_topic'
      readonly queryId: string
      readonly subtrack: string
      readonly domain: string | null
      readonly hint: TopicHint | null
      /**
       * The id form the sub-track expects, where the id belongs (domain, split, sub-track), or
       * for `unknown_step` / `unknown_turn` the steps or turns the query or conversation has.
       */
      readonly suggestion: string | null
    })
  | (Where & {
      readonly code: 'doc_not_in_corpus'
      readonly queryId: string
      readonly docId: string
      readonly domain: string | null
    })
  | {
      readonly code: 'missing_topic'
      readonly queryId: string
      readonly subtrack: string
      readonly domain: string
    }
  | { readonly code: 'missing_domain_file'; readonly domain: string; readonly topics: number }
  | { readonly code: 'stray_file'; readonly path: string; readonly domains: readonly string[] }
  | {
      readonly code: 'no_known_topics'
      readonly subtrack: string
      readonly domain: string | null
      readonly topics: number
    }

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
