/**
 * Findings of the preset checks (`presets/checks.ts`) and of the NeuCLIR input checks
 * (`presets/neuclir-checks.ts`), as data keyed by `code` (types only; those modules re-export
 * them). Worded once, by the one table of `format-issue.ts`. Ids are decoded text, except the
 * `text` of a line, which is the binary string (the wording decodes and clips it).
 */

/**
 * One problem of a NeuCLIR input check (`checkCandidates`, `checkUnifiedRanking`,
 * `parseDocLanguages`): the run (or map) file, then what was found.
 */
export type PresetProblem =
  /** A doc-to-language map line of neither 2 nor 4 fields. */
  | {
      readonly code: 'bad_doc_lang_line'
      readonly file: string
      readonly line: number
      readonly found: number
      readonly text: string
    }
  /** `outside`: the first few documents outside the list, with their run lines. */
  | {
      readonly code: 'doc_not_in_candidates'
      readonly file: string
      readonly candidatesFile: string
      readonly topic: string
      readonly count: number
      readonly outside: readonly { readonly docId: string; readonly line: number }[]
    }
  /**
   * A topic with more or fewer documents than its list (`count` of `want`), or (`topic: null`)
   * the topics of the candidate lists absent from the run.
   */
  | ({
      readonly code: 'candidate_count'
      readonly file: string
      readonly candidatesFile: string
    } & (
      | { readonly topic: string; readonly count: number; readonly want: number }
      | { readonly topic: null; readonly absent: readonly string[] }
    ))
  | {
      readonly code: 'topic_without_candidates'
      readonly file: string
      readonly candidatesFile: string
      readonly topics: readonly string[]
    }
  /** `lines`: the run lines where rank 1 comes again. */
  | {
      readonly code: 'rank_restarts'
      readonly file: string
      readonly topic: string
      readonly lines: readonly number[]
    }
  | {
      readonly code: 'too_many_docs'
      readonly file: string
      readonly topic: string
      readonly count: number
      readonly depth: number
    }
  /** `judged`: the languages judged for the topic (`fromQrels`) or in the map, sorted. */
  | {
      readonly code: 'one_language'
      readonly file: string
      readonly topic: string
      readonly language: string
      readonly count: number
      readonly judged: readonly string[]
      readonly fromQrels: boolean
    }

/** One finding of a preset check; `note` is the check's own sentence from the preset. */
export type PresetFinding =
  | PresetProblem
  | {
      readonly code: 'doc_id_prefix'
      readonly file: string
      readonly count: number
      readonly prefix: string
      readonly first: string
      readonly note: string
    }
  | {
      readonly code: 'too_deep'
      readonly file: string
      readonly count: number
      readonly depth: number
      readonly deepest: string
      readonly deepestCount: number
      readonly note: string
    }
  | { readonly code: 'qrels_missing_grade'; readonly file: string; readonly note: string }
  /**
   * The language column: a qrels line whose language the preset does not accept (`part:
   * 'line'`), the lines beyond those listed (`'more'`: `more` of `total`), the check's note.
   */
  | ({ readonly code: 'qrels_language' } & (
      | {
          readonly part: 'line'
          readonly file: string
          readonly line: number
          readonly found: string
          readonly text: string
          readonly preset: string
          readonly languages: readonly string[]
        }
      | {
          readonly part: 'more'
          readonly file: string
          readonly more: number
          readonly total: number
          readonly languages: readonly string[]
        }
      | { readonly part: 'note'; readonly note: string }
    ))
  /** `first`: the first such line (number and binary text); `force`: scored anyway. */
  | {
      readonly code: 'forbidden_grade'
      readonly file: string
      readonly count: number
      readonly grade: number
      readonly remapped: boolean
      readonly line: number
      readonly text: string
      readonly note: string
      readonly force: boolean
    }
  /** `policy`: what the conventions do with them (`scored 0` or `skipped`). */
  | {
      readonly code: 'qrels_topics_missing'
      readonly file: string
      readonly topics: readonly string[]
      readonly policy: string
    }
  | {
      readonly code: 'run_topics_ignored'
      readonly file: string
      readonly topics: readonly string[]
    }
  | {
      readonly code: 'cut_by_depth'
      readonly file: string
      readonly measures: readonly string[]
      readonly count: number
      readonly depth: number | null
    }
