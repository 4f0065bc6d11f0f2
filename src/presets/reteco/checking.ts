/**
 * RETECO (SemEval-2027 Task 1) public API: checking. Re-exports of src/presets/reteco/ modules:
 * submission validation (`validate --preset reteco-*`), the port of the organizers'
 * `format_checker.py`, and sample runs (`reteco sample`).
 */

export { explainCheckerDifference } from '../../validate/format-run-problem.js'
export {
  RETECO_RUN_PROBLEM_CODES,
  type RetecoRunProblem as RetecoValidationProblem,
  type TopicHint,
} from '../../validate/run-problem.js'
export {
  type CheckedLine,
  FORMAT_CHECKER_ERROR_KINDS,
  FormatChecker,
  type FormatCheckerFinding,
  type FormatCheckerOptions,
  type FormatCheckerResult,
  formatCheckerMessage,
  renderFormatCheckerOutput,
} from './reference-ports/format-checker.js'
export {
  makeRetecoSample,
  type RetecoSample,
  type RetecoSampleOptions,
  writeRetecoSample,
} from './sample.js'
export {
  type CheckerDifference,
  expectedTopics,
  RETECO_MAX_DEPTH,
  type RetecoFileContext,
  type RetecoFileValidation,
  RetecoFileValidator,
  type RetecoValidateOptions,
  type RetecoValidation,
  type ValidateRetecoRunOptions,
  validateRetecoRun,
} from './validate.js'
export {
  type DomainAnswers,
  type GenerationSubtrack,
  type RetecoAnswersValidation,
  type ValidateRetecoAnswersOptions,
  validateRetecoAnswers,
} from './validate-answers.js'
export { renderRetecoAnswersJson, renderRetecoAnswersText } from './validate-answers-render.js'
export {
  RETECO_VALIDATE_JSON_SCHEMA,
  renderRetecoValidationJson,
  renderRetecoValidationText,
} from './validate-render.js'
