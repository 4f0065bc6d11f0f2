/**
 * The error the judge throws for bad user input (config, items, answers, judgments, cache of
 * another config): every problem at once, each worded as `file:line: what` (or `file: $.path:
 * what`). The CLI prints the message and exits with code 2.
 */
import { TrecscoreError } from '../../errors/trecscore-error.js'

/** Bad judge input (exit code 2); `problems` are already worded for people. */
export class JudgeInputError extends TrecscoreError {
  // The name `isTrecscoreError` recognises, so the CLI reports it without a stack trace.
  override name = 'TrecscoreError'
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    const shown = problems.slice(0, 50)
    const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more problem(s)` : ''
    super(shown.join('\n') + more, 2)
    this.problems = problems
  }
}
