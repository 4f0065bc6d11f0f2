import type { InputIssue } from './issues.js'

/** Base class of every error trecscore throws on purpose. `exitCode` is what the CLI returns. */
export class TrecscoreError extends Error {
  override name = 'TrecscoreError'
  readonly exitCode: number

  constructor(message: string, exitCode: number, options?: { cause?: unknown }) {
    super(message, options)
    this.exitCode = exitCode
  }
}

/**
 * Bad user input: carries every {@link InputIssue} found (not just the first). CLI exit code 2.
 */
export class InputError extends TrecscoreError {
  override name = 'InputError'
  readonly issues: readonly InputIssue[]

  constructor(issues: readonly InputIssue[], message?: string) {
    super(message ?? `${issues.length} problem(s) in the input`, 2)
    this.issues = issues
  }
}

/**
 * Bad user input whose problems are already worded for people (`file:line: what`): the message
 * shows the first 50, then how many more. CLI exit code 2. The RETECO loaders and the judge
 * throw subclasses of it.
 */
export class ProblemListError extends TrecscoreError {
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    const shown = problems.slice(0, 50)
    const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more problem(s)` : ''
    super(shown.join('\n') + more, 2)
    this.problems = problems
  }
}

/** True for any error trecscore throws on purpose (checked by name, so it works across realms). */
export function isTrecscoreError(e: unknown): e is TrecscoreError {
  return e instanceof Error && (e.name === 'TrecscoreError' || e.name === 'InputError' || e.name === 'TrecEvalExit')
}
