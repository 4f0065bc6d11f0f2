import type { InputIssue } from './issues.js'

/**
 * The brand every {@link TrecscoreError} carries: a registered symbol, so the check holds across
 * realms and across two copies of the package in one process (where `instanceof` fails).
 */
const BRAND: unique symbol = Symbol.for('trecscore.error') as never

/**
 * Base class of every error trecscore throws on purpose. `exitCode` is what the CLI returns.
 * Each subclass keeps its own class name as `name` (`InputError`, `SourceError`, …).
 */
export class TrecscoreError extends Error {
  readonly exitCode: number
  readonly [BRAND] = true

  constructor(message: string, exitCode: number, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    this.exitCode = exitCode
  }
}

/**
 * Bad user input: carries every {@link InputIssue} found (not just the first). CLI exit code 2.
 */
export class InputError extends TrecscoreError {
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

  /**
   * `unlisted`: problems found but not kept in `problems` (a reader that stops storing them to
   * bound its memory still counts them); they are added to the "… and N more" line.
   */
  constructor(problems: readonly string[], unlisted = 0) {
    const shown = problems.slice(0, 50)
    const rest = problems.length - shown.length + unlisted
    const more = rest > 0 ? `\n… and ${rest} more problem(s)` : ''
    super(shown.join('\n') + more, 2)
    this.problems = problems
  }
}

/** True for any error trecscore throws on purpose (checked by its brand, so it works across realms and package copies). */
export function isTrecscoreError(e: unknown): e is TrecscoreError {
  return typeof e === 'object' && e !== null && (e as { [BRAND]?: unknown })[BRAND] === true
}
