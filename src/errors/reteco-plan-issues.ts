/**
 * Problems the RETECO plan's run reader (`presets/reteco/runs.ts`) finds in a run file, as data
 * keyed by `code` (types only; `presets/reteco/types.ts` re-exports it). Ids and fields are
 * binary strings, as read. Worded once, by the one table of `format-issue.ts`, without the
 * file, line or text (`formatRunProblem` of `runs.ts` adds those).
 */
export type RetecoRunProblem = {
  readonly file: string
  /** Physical 1-based line (0 for file-level problems). */
  readonly line: number
  /** The raw line (clipped), when there is one. */
  readonly text: string
} /** Parse errors (the file cannot be scored): not 6 columns (`found` of them), a bad field. */ & (
  | { readonly code: 'columns'; readonly found: number }
  | { readonly code: 'rank'; readonly found: string }
  | { readonly code: 'score'; readonly found: string }
  /** Validation errors (still scored): a rank repeated in a topic, a rank ≤ 0. */
  | { readonly code: 'duplicate_rank'; readonly rank: number; readonly topic: string }
  | { readonly code: 'nonpositive_rank'; readonly rank: number; readonly topic: string }
)
