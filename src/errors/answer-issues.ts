/**
 * Problems in a RETECO 2b/2c generation answer file (`generation/submission/answers.ts`), as data
 * keyed by `code` (types only). Worded in the one table of `format-issue.ts`; the report keeps
 * each problem's line, clipped text, severity and that message.
 */
export type AnswerIssue =
  | { readonly code: 'line_too_long'; readonly lineBytes: number; readonly limit: number }
  | { readonly code: 'invalid_utf8' }
  | { readonly code: 'invalid_json'; readonly error: string }
  /** `found`: what the line is instead (`an array`, `null`, `a number`, …). */
  | { readonly code: 'not_an_object'; readonly found: string }
  | { readonly code: 'extra_field'; readonly field: string }
  | { readonly code: 'missing_field'; readonly field: 'turn_id' | 'answer' }
  /** `found`: the value as JSON (`turn_id`) or what it is (`answer`: `null`, `a number`, …). */
  | { readonly code: 'wrong_type'; readonly field: 'turn_id' | 'answer'; readonly found: string }
  | { readonly code: 'empty_answer'; readonly turnId?: string }
  | {
      readonly code: 'answer_too_long'
      readonly chars: number
      readonly limit: number
      readonly turnId?: string
    }
  /** `elsewhere`: where the turn id does exist (another domain or split), when known. */
  | { readonly code: 'unknown_turn'; readonly turnId: string; readonly elsewhere?: string }
  | { readonly code: 'duplicate_turn'; readonly turnId: string; readonly firstLine: number }
  | { readonly code: 'missing_turn'; readonly turnId: string }
