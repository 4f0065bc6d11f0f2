/**
 * Problems with a line of a `textsim` pair file (`generation/textsim/textsim.ts`), as data keyed
 * by `code` (types only). Worded in the one table of `format-issue.ts`; `formatTextsimIssue`
 * adds the place, the id and the clipped text around that wording.
 */

/** A JSON field of a pair line. */
export type TextsimField = 'id' | 'prediction' | 'references'

/** One field problem of a line (a line reports all of them at once). */
export type TextsimFieldProblem =
  | { readonly code: 'missing'; readonly field: TextsimField }
  /** `found`: what the value is (`a number`, `null`, `an array`, …). */
  | { readonly code: 'wrong_type'; readonly field: TextsimField; readonly found: string }
  | { readonly code: 'no_references' }
  | { readonly code: 'reference_not_a_string'; readonly index: number; readonly found: string }

/**
 * Why a pair cannot be scored (`TextsimItemError` carries it; a pair file's line keeps it as
 * `cannot_score`): no reference for the scorer (rouge-score's `score_multi` and NLTK's
 * `meteor_score` raise on it), or a text over a size limit (`limit`: the option that sets it).
 */
export type TextsimScoreProblem =
  | { readonly code: 'no_references'; readonly scorer: 'ROUGE score_multi' | 'METEOR' }
  /** An LCS table of `rows` × `columns` tokens over `limit` cells (`maxLcsCells`). */
  | {
      readonly code: 'lcs_too_large'
      readonly rows: number
      readonly columns: number
      readonly limit: number
    }
  /** A METEOR alignment of `hypothesis` × `reference` tokens over `limit` pairs (`maxAlignCells`). */
  | {
      readonly code: 'alignment_too_large'
      readonly hypothesis: number
      readonly reference: number
      readonly limit: number
    }
  /** WordNet morphy of a `tokenLength`-character token generating over `limit` characters. */
  | { readonly code: 'morphy_too_large'; readonly tokenLength: number; readonly limit: number }

/** Where: the file, the physical 1-based line, the line's id when it could be read, the text. */
export interface TextsimAt {
  readonly file: string
  readonly line: number
  /** The line's id when it could be read. */
  readonly id?: string
  /** The offending text (clipped when shown). */
  readonly text: string
}

/** One problem of a pair line, keyed by `code`. */
export type TextsimIssue = TextsimAt &
  (
    | { readonly code: 'invalid_utf8' }
    | { readonly code: 'line_too_long'; readonly limit: number }
    | { readonly code: 'invalid_json'; readonly error: string }
    | { readonly code: 'not_an_object'; readonly found: string }
    | { readonly code: 'bad_fields'; readonly problems: readonly TextsimFieldProblem[] }
    | { readonly code: 'duplicate_id'; readonly firstLine: number }
    /** A pair that cannot be scored (e.g. an LCS table too large). */
    | { readonly code: 'cannot_score'; readonly problem: TextsimScoreProblem }
  )
