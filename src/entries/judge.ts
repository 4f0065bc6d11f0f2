/**
 * `trecscore/judge`: the LLM relevance judge: items, prompts, the OpenAI-compatible client,
 * the cache, batches, calibration and reports.
 *
 * @example
 * import { loadJudgeConfig, readJudgeItems } from 'trecscore/judge'
 *
 * @module
 */

export { formatJudgeFieldProblem } from '../errors/format-issue.js'
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
} from '../generation/judge/aggregate.js'
export {
  type BatchCollectResult,
  type BatchEndpoint,
  type BatchSubmitResult,
  collectBatches,
  submitBatch,
} from '../generation/judge/batch.js'
export {
  type CachedJudgment,
  type ClaimResult,
  JudgeCache,
  type JudgmentRow,
  judgmentOfRow,
  rowOfJudgment,
  sha256Hex,
} from '../generation/judge/cache.js'
export {
  type CalibrationCase,
  type CalibrationDimension,
  type CalibrationResult,
  calibrate,
  type GoldenCase,
  parseGoldenCase,
} from '../generation/judge/calibrate.js'
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
} from '../generation/judge/client.js'
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
} from '../generation/judge/commands.js'
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
} from '../generation/judge/config.js'
export {
  type JudgeFieldProblem,
  JudgeInputError,
  type JudgeIssue,
  type JudgeRecordFinding,
} from '../generation/judge/errors.js'
export {
  defaultJudgeConfigPath,
  judgeConfigHash,
  type LoadedJudgeConfig,
  loadJudgeConfig,
  readJsonlFile,
  readJudgeItems,
  readJudgments,
  writeJudgments,
} from '../generation/judge/files.js'
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
} from '../generation/judge/items.js'
export {
  type LexicalDiagnostics,
  type LexicalGroup,
  type LexicalTurn,
  lexicalDiagnostics,
} from '../generation/judge/lexical.js'
export {
  type ParsedReply,
  parseCompletion,
  parseJudgeContent,
  type Usage,
  usageOf,
} from '../generation/judge/parse.js'
export {
  createProgress,
  type ProgressStream,
  progressLine,
} from '../generation/judge/progress.js'
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
} from '../generation/judge/report.js'
export {
  costOf,
  type DimensionRunStats,
  type JudgeProgress,
  type JudgeRunStats,
  judgeShortfall,
  type RunJudgeOptions,
  runJudge,
} from '../generation/judge/runner.js'
export { type JudgmentStore, judgmentStoreOf } from '../generation/judge/store.js'
