/**
 * Problems `validateRun` finds in a TREC run, as data (types only; `validate/run-problem.ts`
 * holds the severities and re-exports these): a union keyed by `code`, each with where it is
 * (physical 1-based line, 1-based byte column, the raw line) and what was found. Worded only in
 * the one table of `format-issue.ts`.
 *
 * Ids and found texts are binary strings (one char per byte, see `io/bytes.ts`), as elsewhere.
 */
import type { Severity } from './severity.js'

/** Where a line-level problem is. */
export interface Where {
  /** Physical 1-based line number (every `\n` counts, blank and comment lines too). */
  readonly line: number
  /** 1-based byte offset in the line of what is wrong. */
  readonly column: number
  /** The raw line as a binary string, without `\n`, cut after `MAX_TEXT_BYTES` (400) bytes. */
  readonly text: string
  /** Length of the whole line in bytes (more than `text.length` when cut). */
  readonly lineBytes: number
}

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
 * plan's rules. Worded in `errors/format-issue.ts` like the others.
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

export type { Severity }
