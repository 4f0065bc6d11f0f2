/**
 * The five-dimension LLM judge for generated answers (RETECO 2b/2c) with an audit trail:
 * frozen, hashed config; OpenAI-compatible client with counted retries; SQLite cache; items
 * from JSONL or RECOR data; aggregates; calibration on golden pairs; disclosure reports.
 */
export { JUDGE_DIMENSIONS, TEMPLATE_FIELDS, MAX_TIMER_MS, canonicalJson, parseJudgeConfig, dimensionConfig, type JudgeDimension, type JudgeConfig, type DimensionConfig, type RetryPolicy, type InvalidPolicy, type ConfigProblem } from './config.js'
export { parseJudgeItem, buildRequest, fillTemplate, templateValues, renderRubric, splitTurnId, lacksFor, type JudgeItem, type JudgePassage, type HistoryMessage, type RequestBody } from './items.js'
export { parseJudgeContent, parseCompletion, usageOf, type ParsedReply, type Usage } from './parse.js'
export { callJudge, rateLimiter, retryAfterMs, backoffMs, clampWait, readBodyCapped, UNREACHABLE_RETRIES, type JudgeClientOptions, type JudgeCallResult } from './client.js'
export { JudgeCache, sha256Hex, type CachedJudgment, type ClaimResult } from './cache.js'
export { aggregateJudgments, judgmentToJson, parseJudgmentRecord, depthBucket, type Judgment, type JudgeAggregates, type GroupSummary, type DimensionSummary, type TurnRow } from './aggregate.js'
export { runJudge, judgeShortfall, costOf, type RunJudgeOptions, type JudgeRunStats, type DimensionRunStats, type JudgeProgress } from './runner.js'
export { calibrate, parseGoldenCase, type GoldenCase, type CalibrationResult, type CalibrationCase, type CalibrationDimension } from './calibrate.js'
export { JUDGE_REPORT_FORMATS, renderRunReport, runReportJson, renderCalibration, renderDisclosureMarkdown, disclosureJson, type JudgeReportFormat, type RunReportMeta, type DisclosureInput } from './report.js'
export { createProgress, progressLine, type ProgressStream } from './progress.js'
export { loadJudgeConfig, judgeConfigHash, defaultJudgeConfigPath, readJudgeItems, readJudgments, writeJudgments, readJsonlFile, type LoadedJudgeConfig } from './files.js'
export { JudgeInputError } from './errors.js'
export { lexicalDiagnostics, type LexicalDiagnostics, type LexicalGroup, type LexicalTurn } from './lexical.js'
export { submitBatch, collectBatches, type BatchEndpoint, type BatchSubmitResult, type BatchCollectResult } from './batch.js'
export { judgeBatchSubmitCommand, judgeBatchCollectCommand, resolveJudgeItems, type JudgeBatchOptions, type JudgeItemsSource, type JudgeItemsRoute } from './commands.js'
export { judgeRunCommand, judgeCalibrateCommand, judgeReportCommand, readGolden, resolveEndpoint, defaultCacheFile, DEFAULT_JUDGE_BASE_URL, DEFAULT_MAX_FAILED_SHARE, type JudgeCallOptions, type JudgeRunCommandOptions, type JudgeReportCommandOptions } from './commands.js'
