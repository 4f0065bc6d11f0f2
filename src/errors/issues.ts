/**
 * Problems found in user input, as data. Each issue says where (file and physical 1-based line
 * where there is one), what was found and what was expected; the wording lives only in
 * `format-issue.ts`.
 */

/** A position in an input file. `line` is the physical, 1-based line number. */
export interface At {
  readonly file: string
  readonly line: number
}

/** One problem in an input file or argument, keyed by `code`. */
export type InputIssue =
  | (At & {
      readonly code: 'field_count'
      readonly expected: string
      readonly found: number
      readonly text: string
    })
  | (At & {
      readonly code: 'not_a_number'
      readonly field: 'rank' | 'score' | 'grade'
      readonly found: string
      readonly text: string
    })
  | (At & {
      readonly code: 'not_finite'
      readonly field: 'score'
      readonly found: string
      readonly text: string
    })
  | (At & {
      readonly code: 'not_an_integer'
      readonly field: 'rank' | 'grade'
      readonly found: string
      readonly text: string
    })
  | (At & {
      readonly code: 'grade_too_large'
      readonly found: string
      readonly limit: number
      readonly text: string
    })
  /**
   * A negative judgment in diversity qrels (ndeval rejects them), or in any qrels under the
   * `negativeJudgments: 'error'` convention (`convention: true`).
   */
  | (At & {
      readonly code: 'negative_judgment'
      readonly found: string
      readonly text: string
      readonly convention?: boolean
    })
  /** A carriage return not followed by a newline (old Mac line endings run lines together). */
  | (At & { readonly code: 'bare_cr'; readonly text: string })
  | (At & {
      readonly code: 'duplicate_doc'
      readonly queryId: string
      readonly docId: string
      readonly firstLine: number
    })
  | (At & {
      readonly code: 'duplicate_judgment'
      readonly queryId: string
      readonly docId: string
      readonly firstLine: number
    })
  | (At & { readonly code: 'nul_byte'; readonly text: string })
  | (At & { readonly code: 'line_too_long'; readonly limit: number })
  | (At & { readonly code: 'invalid_utf8'; readonly text: string })
  | { readonly code: 'empty_file'; readonly file: string }
  | { readonly code: 'cannot_read'; readonly file: string; readonly reason: string }
  | {
      readonly code: 'unknown_measure'
      readonly found: string
      readonly position: number
      readonly suggestions: readonly string[]
    }
  | {
      readonly code: 'bad_argument'
      readonly option: string
      readonly found: string
      readonly expected: string
    }

/** The `code` of every {@link InputIssue}. */
export type InputIssueCode = InputIssue['code']
