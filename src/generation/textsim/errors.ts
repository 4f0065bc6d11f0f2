import { TrecscoreError } from '../../errors/trecscore-error.js'

/**
 * A text-similarity item that cannot be scored: an empty reference list (rouge-score's
 * `score_multi` and NLTK's `meteor_score` raise on it), or a text whose LCS table would exceed
 * the cell limit. Exit code 2; the CLI reports it for the line and scores the others.
 */
export class TextsimItemError extends TrecscoreError {
  readonly reason: 'no_references' | 'too_long'

  constructor(reason: 'no_references' | 'too_long', message: string) {
    super(message, 2)
    this.reason = reason
  }
}
