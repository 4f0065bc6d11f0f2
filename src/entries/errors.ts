/**
 * `trecscore/errors`: the error classes (a `TrecscoreError` carries a one-line message and the
 * exit code the CLI uses), the one issue shape (`Issue`: module, code, severity, `at`, message and
 * the module's data, built by `toIssue`), the per-module issue types and their wording.
 *
 * @example
 * import { isTrecscoreError } from 'trecscore/errors'
 * try { await readQrels('qrels.txt') } catch (e) { if (isTrecscoreError(e)) console.error(e.message) }
 *
 * @module
 */

export { formatIssue, formatPrepareFailure } from '../errors/format-issue.js'
export type {
  At,
  InputIssue,
  Issue,
  IssueKind,
  IssueKinds,
  IssueOf,
  IssueSeverity,
  ModuleIssue,
} from '../errors/issues.js'
export { MissingPackageError } from '../errors/missing-package-error.js'
export { ISSUE_SEVERITY, type IssueContext, toIssue } from '../errors/to-issue.js'
export {
  InputError,
  isTrecscoreError,
  ProblemListError,
  TrecscoreError,
} from '../errors/trecscore-error.js'
