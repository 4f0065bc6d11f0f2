/**
 * Bad input of `judge agreement` (`stats/agreement/`), as data keyed by `code` (types only;
 * `stats/agreement/jsonl.ts` re-exports it). Worded once, by the one table of `format-issue.ts`,
 * as `FILE:LINE: what: "text" (expected …)`.
 */

/** Which input a line is of: human labels or judge judgments. */
export type AgreementSource = 'labels' | 'judgments'

/** Where: the file, the physical 1-based line (0 for the whole file), the text shown (clipped). */
export interface AgreementAt {
  readonly file: string
  readonly line: number
  readonly text: string
}

/** One bad input, keyed by `code`. */
export type AgreementIssue = AgreementAt & AgreementFinding

/** What is wrong with an input, keyed by `code` (an {@link AgreementIssue} without its place). */
export type AgreementFinding =
  | { readonly code: 'invalid_utf8' }
  | { readonly code: 'invalid_json'; readonly error: string }
  | { readonly code: 'not_an_object'; readonly of: AgreementSource }
  | { readonly code: 'unknown_fields'; readonly fields: readonly string[] }
  /**
   * A field missing, not a non-empty string, or (`bad_value`) with value `found` (JSON text).
   * `scale`: the score categories (`1, 2, 3, 4, 5`), which `score` is expected in.
   */
  | {
      readonly code: 'missing_field'
      readonly of: AgreementSource
      readonly field: string
      readonly scale: string
    }
  | {
      readonly code: 'not_a_string'
      readonly of: AgreementSource
      readonly field: string
      readonly scale: string
    }
  | {
      readonly code: 'bad_value'
      readonly of: AgreementSource
      readonly field: string
      readonly found: string
      readonly scale: string
    }
  /** A judgment's score (`found`, JSON text) that does not fit its status. */
  | {
      readonly code: 'score_with_status'
      readonly found: string
      readonly status: string
      readonly scale: string
    }
  /** No `conversation_id` and a turn id it cannot be read from. */
  | { readonly code: 'no_conversation'; readonly of: AgreementSource; readonly turnId: string }
  | {
      readonly code: 'duplicate_label'
      readonly turnId: string
      readonly domain: string | null
      readonly dimension: string
      readonly annotator: string | null
      readonly firstLine: number
    }
  | {
      readonly code: 'duplicate_judgment'
      readonly turnId: string
      readonly domain: string | null
      readonly dimension: string
      readonly firstLine: number
    }
  | { readonly code: 'no_records'; readonly of: AgreementSource }
  /** `configs`: each config hash, its line count and first line. */
  | {
      readonly code: 'mixed_configs'
      readonly configs: readonly {
        readonly hash: string
        readonly count: number
        readonly first: number
      }[]
    }
  /** A `--dimension` in neither file (`dimensions`: those found). */
  | {
      readonly code: 'unknown_dimension'
      readonly dimension: string
      readonly dimensions: readonly string[]
    }
  /** A label without domain for a turn judged in several domains (`judged`: where). */
  | {
      readonly code: 'ambiguous_domain'
      readonly turnId: string
      readonly dimension: string
      readonly judgmentsFile: string
      readonly judged: readonly { readonly domain: string | null; readonly line: number }[]
    }
  /** A label resolving to a turn already labelled (without and with its domain). */
  | {
      readonly code: 'same_turn_labelled'
      readonly turnId: string
      readonly domain: string | null
      readonly dimension: string
      readonly annotator: string | null
      readonly firstLine: number
    }
  | {
      readonly code: 'conversation_differs'
      readonly turnId: string
      readonly conversationId: string
      readonly judgmentsFile: string
      readonly judgedConversationId: string
      readonly judgedLine: number
    }
