import { formatTextsimScoreProblem } from '../../errors/format-issue.js'
import type { TextsimScoreProblem } from '../../errors/textsim-issues.js'
import { TrecscoreError } from '../../errors/trecscore-error.js'

export type { TextsimScoreProblem } from '../../errors/textsim-issues.js'

/**
 * A text-similarity item that cannot be scored: an empty reference list (rouge-score's
 * `score_multi` and NLTK's `meteor_score` raise on it), or a text over a size limit (an LCS
 * table, a METEOR alignment, a WordNet morphy expansion). `problem` says which, as data; the
 * message is its wording. Exit code 2; the CLI reports it for the line and scores the others.
 */
export class TextsimItemError extends TrecscoreError {
  readonly problem: TextsimScoreProblem

  constructor(problem: TextsimScoreProblem) {
    super(formatTextsimScoreProblem(problem), 2)
    this.problem = problem
  }
}
