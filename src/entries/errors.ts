/**
 * `trecscore/errors`: the error classes (a `TrecscoreError` carries a one-line message and the
 * exit code the CLI uses), the issue types (`Issue`: any module's issue) and their wording.
 *
 * @example
 * import { isTrecscoreError } from 'trecscore/errors'
 * try { await readQrels('qrels.txt') } catch (e) { if (isTrecscoreError(e)) console.error(e.message) }
 *
 * @module
 */

export { formatIssue, formatPrepareFailure } from '../errors/format-issue.js'
export type { InputIssue, Issue, IssueKind, IssueKinds } from '../errors/issues.js'
export { MissingPackageError } from '../errors/missing-package-error.js'
export {
  InputError,
  isTrecscoreError,
  ProblemListError,
  TrecscoreError,
} from '../errors/trecscore-error.js'
