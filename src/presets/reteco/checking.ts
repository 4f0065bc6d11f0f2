/**
 * RETECO (SemEval-2027 Task 1) public API: checking. Re-exports of src/presets/reteco/ modules:
 * submission validation (`validate --preset reteco-*`), the port of the organizers'
 * `format_checker.py`, and sample runs (`reteco sample`).
 */
export {
  validateRetecoRun,
  expectedTopics,
  RetecoFileValidator,
  RETECO_MAX_DEPTH,
  type RetecoValidation,
  type RetecoFileValidation,
  type RetecoFileContext,
  type RetecoValidateOptions,
  type ValidateRetecoRunOptions,
  type CheckerDifference,
} from './validate.js'
export { renderRetecoValidationText, renderRetecoValidationJson, RETECO_VALIDATE_JSON_SCHEMA } from './validate-render.js'
export {
  FormatChecker,
  renderFormatCheckerOutput,
  formatCheckerMessage,
  FORMAT_CHECKER_ERROR_KINDS,
  type FormatCheckerFinding,
  type FormatCheckerResult,
  type FormatCheckerOptions,
  type CheckedLine,
} from './reference-ports/format-checker.js'
export { RETECO_RUN_PROBLEM_CODES, type RetecoRunProblem as RetecoValidationProblem, type TopicHint } from '../../validate/run-problem.js'
export { explainCheckerDifference } from '../../validate/format-run-problem.js'
export { makeRetecoSample, writeRetecoSample, type RetecoSample, type RetecoSampleOptions } from './sample.js'
export { validateRetecoAnswers, type DomainAnswers, type GenerationSubtrack, type RetecoAnswersValidation, type ValidateRetecoAnswersOptions } from './validate-answers.js'
export { renderRetecoAnswersJson, renderRetecoAnswersText } from './validate-answers-render.js'
