/**
 * `trecscore/validate`: submission checks: TREC run validation (problem codes, severities,
 * text and JSON reports) and generation answer files.
 *
 * @example
 * import { readFileSync } from 'node:fs'
 * import { renderValidationText, validateRun } from 'trecscore/validate'
 * const report = validateRun(readFileSync('run.txt'))
 *
 * @module
 */

export {
  ANSWER_PROBLEM_CODES,
  ANSWER_PROBLEM_DESCRIPTIONS,
  ANSWER_PROBLEM_SEVERITY,
  type AnswerCheckOptions,
  type AnswerFileReport,
  type AnswerProblem,
  type AnswerProblemCode,
  checkAnswerFile,
  DEFAULT_MAX_ANSWER_CHARS,
} from '../generation/submission/answers.js'
export {
  describeRunProblemCode,
  explainCheckerDifference,
  formatRunProblem,
} from '../validate/format-run-problem.js'
export {
  renderValidationJson,
  renderValidationText,
  VALIDATE_JSON_SCHEMA,
} from '../validate/render-report.js'
export {
  RETECO_RUN_PROBLEM_CODES,
  type RetecoRunProblem as RetecoValidationProblem,
  RUN_PROBLEM_CODES,
  RUN_PROBLEM_SEVERITY,
  type RunProblem,
  type RunProblemCode,
  type Severity,
  severityOf,
  type TopicHint,
} from '../validate/run-problem.js'
export {
  type ChunkValidation,
  type ValidateChunksOptions,
  validateChunks,
} from '../validate/validate-chunks.js'
export {
  type ParallelValidation,
  validateInParallel,
} from '../validate/validate-file.js'
export {
  type ProblemCount,
  problemsOf,
  type RunValidationReport,
  RunValidator,
  type ValidateRunOptions,
  validateRun,
} from '../validate/validate-run.js'
