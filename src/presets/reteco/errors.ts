/**
 * The error RETECO loaders and scorers throw for bad data or runs: every problem at once, each
 * already worded as `file:line: what`. The CLI prints the message and exits with code 2.
 */
import { TrecscoreError } from '../../errors/trecscore-error.js'

/** Bad RETECO data or run input (exit code 2); `problems` are `file:line: …` lines. */
export class RetecoInputError extends TrecscoreError {
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
