/**
 * The five-dimension LLM judge for generated answers (RETECO 2b/2c) with an audit trail:
 * frozen, hashed config; OpenAI-compatible client with counted retries; SQLite cache; items
 * from JSONL or RECOR data; aggregates; calibration on golden pairs; disclosure reports.
 */

export {
  aggregateJudgments,
  type DimensionSummary,
  depthBucket,
  type GroupSummary,
  type JudgeAggregates,
  type Judgment,
  judgmentToJson,
  parseJudgmentRecord,
  type TurnRow,
} from './aggregate.js'
export {
  type BatchCollectResult,
  type BatchEndpoint,
  type BatchSubmitResult,
  collectBatches,
  submitBatch,
} from './batch.js'
export { type CachedJudgment, type ClaimResult, JudgeCache, sha256Hex } from './cache.js'
export {
  type CalibrationCase,
  type CalibrationDimension,
  type CalibrationResult,
  calibrate,
  type GoldenCase,
  parseGoldenCase,
} from './calibrate.js'
export {
  backoffMs,
  callJudge,
  clampWait,
  type JudgeCallResult,
  type JudgeClientOptions,
  rateLimiter,
  readBodyCapped,
  retryAfterMs,
  UNREACHABLE_RETRIES,
} from './client.js'
export {
  DEFAULT_JUDGE_BASE_URL,
  DEFAULT_MAX_FAILED_SHARE,
  defaultCacheFile,
  type JudgeBatchOptions,
  type JudgeCallOptions,
  type JudgeItemsRoute,
  type JudgeItemsSource,
  type JudgeReportCommandOptions,
  type JudgeRunCommandOptions,
  judgeBatchCollectCommand,
  judgeBatchSubmitCommand,
  judgeCalibrateCommand,
  judgeReportCommand,
  judgeRunCommand,
  readGolden,
  resolveEndpoint,
  resolveJudgeItems,
} from './commands.js'
export {
  type ConfigProblem,
  canonicalJson,
  type DimensionConfig,
  dimensionConfig,
  type InvalidPolicy,
  JUDGE_DIMENSIONS,
  type JudgeConfig,
  type JudgeDimension,
  MAX_TIMER_MS,
  parseJudgeConfig,
  type RetryPolicy,
  TEMPLATE_FIELDS,
} from './config.js'
export { JudgeInputError } from './errors.js'
export {
  defaultJudgeConfigPath,
  judgeConfigHash,
  type LoadedJudgeConfig,
  loadJudgeConfig,
  readJsonlFile,
  readJudgeItems,
  readJudgments,
  writeJudgments,
} from './files.js'
export {
  buildRequest,
  fillTemplate,
  type HistoryMessage,
  type JudgeItem,
  type JudgePassage,
  lacksFor,
  parseJudgeItem,
  type RequestBody,
  renderRubric,
  splitTurnId,
  templateValues,
} from './items.js'
export {
  type LexicalDiagnostics,
  type LexicalGroup,
  type LexicalTurn,
  lexicalDiagnostics,
} from './lexical.js'
export {
  type ParsedReply,
  parseCompletion,
  parseJudgeContent,
  type Usage,
  usageOf,
} from './parse.js'
export { createProgress, type ProgressStream, progressLine } from './progress.js'
export {
  type DisclosureInput,
  disclosureJson,
  JUDGE_REPORT_FORMATS,
  type JudgeReportFormat,
  type RunReportMeta,
  renderCalibration,
  renderDisclosureMarkdown,
  renderRunReport,
  runReportJson,
} from './report.js'
export {
  costOf,
  type DimensionRunStats,
  type JudgeProgress,
  type JudgeRunStats,
  judgeShortfall,
  type RunJudgeOptions,
  runJudge,
} from './runner.js'
