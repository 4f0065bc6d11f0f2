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
} from './answers.js'
