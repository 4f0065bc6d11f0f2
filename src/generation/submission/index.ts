export {
  ANSWER_PROBLEM_CODES,
  ANSWER_PROBLEM_DESCRIPTIONS,
  ANSWER_PROBLEM_SEVERITY,
  checkAnswerFile,
  DEFAULT_MAX_ANSWER_CHARS,
  type AnswerCheckOptions,
  type AnswerFileReport,
  type AnswerProblem,
  type AnswerProblemCode,
} from './answers.js'
