/**
 * The error RETECO loaders and scorers throw for bad data or runs: every problem at once, each
 * already worded as `file:line: what`. The CLI prints the message and exits with code 2.
 */
import { ProblemListError } from '../../errors/trecscore-error.js'

/** Bad RETECO data or run input (exit code 2); `problems` are `file:line: …` lines. */
export class RetecoInputError extends ProblemListError {}
