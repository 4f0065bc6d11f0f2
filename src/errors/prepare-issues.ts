/**
 * Why a query could not be prepared (`rank/prepare.ts`; trec_eval refuses to compute its
 * measures), as data keyed by `code` (types only; `rank/prepare.ts` re-exports it). Worded once,
 * by the one table of `format-issue.ts` (`formatPrepareFailure`), for every command.
 */
export type PrepareFailure =
  /** `line`: physical run line of the doc's second occurrence; `firstLine`: of its first. */
  | {
      readonly code: 'duplicate_doc'
      readonly docId: string
      readonly line: number
      readonly firstLine: number
    }
  | { readonly code: 'duplicate_judgment'; readonly docId: string }
  /** Every judgment of the query is negative (only with `refuseWithoutJudgments`). */
  | { readonly code: 'no_judgments' }

/** A failure with its query (ids as binary strings). */
export type PrepareIssue = PrepareFailure & { readonly queryId: string }
