/**
 * Problems of a judge config (`generation/judge/config.ts`), as data keyed by `code` (types
 * only; that module re-exports it). Each has the JSON path (`$.dimensions[2].rubric`); `found`
 * is the value as parsed (`undefined` when absent). Worded once, by the one table of
 * `format-issue.ts`, as `PATH: what (expected …)`.
 */
export type ConfigProblem = { readonly path: string } & (
  | { readonly code: 'not_an_object'; readonly found: unknown }
  /** A field not among `keys`, the fields known at that level. */
  | { readonly code: 'unknown_field'; readonly keys: readonly string[] }
  | { readonly code: 'not_a_string'; readonly found: unknown }
  /** Not a finite number (`integer`: an integer) at least `min` and, given `max`, at most it. */
  | {
      readonly code: 'not_a_number'
      readonly found: unknown
      readonly integer: boolean
      readonly min: number
      readonly max?: number
    }
  | { readonly code: 'not_one_of'; readonly values: readonly string[]; readonly found: unknown }
  | { readonly code: 'not_a_boolean'; readonly found: unknown }
  | { readonly code: 'not_an_array'; readonly found: unknown }
  /** A `{{placeholder}}` not among `fields`. */
  | {
      readonly code: 'unknown_placeholder'
      readonly placeholder: string
      readonly fields: readonly string[]
    }
  | { readonly code: 'no_answer_placeholder' }
  | { readonly code: 'no_score_property' }
  | { readonly code: 'not_dimensions'; readonly found: unknown }
  | { readonly code: 'duplicate_dimension'; readonly dimension: string }
  | { readonly code: 'missing_dimension'; readonly dimension: string }
  | { readonly code: 'bad_rubric'; readonly found: unknown }
  | { readonly code: 'bad_requirement'; readonly found: unknown }
  /** `backoff_cap_ms` below `backoff_base_ms`. */
  | { readonly code: 'cap_below_base'; readonly base: number; readonly cap: number }
)
