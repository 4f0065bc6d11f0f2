/**
 * `trecscore/reteco`: the RETECO (SemEval-2027 Task 1) presets: data, planning, scoring,
 * checking, reports, and the reference ports of the official scripts. Its run-problem wording
 * is `formatRetecoRunProblem` (`trecscore/validate`'s `formatRunProblem` words TREC run problems).
 *
 * @example
 * import { loadRetecoData } from 'trecscore/reteco'
 * const data = await loadRetecoData('RETECO-SemEval2027', { split: 'dev', tracks: ['track1_tempo'] })
 *
 * @module
 */

export {
  type CoverageSummary,
  type MacroSummary,
  type MeanSummary,
  type MetricValues,
  macroSummary,
  meanSummary,
  PLAN_METRICS,
  type PlanMetric,
} from '../presets/reteco/aggregate.js'
export {
  type CompareRetecoInput,
  perQueryTableFromReteco,
  retecoGroupings,
  tableFromRetecoReports,
} from '../presets/reteco/compare-route.js'
export {
  planConventionLines,
  planConventionSet,
  planReport,
  RETECO_CONVENTION_SETS,
} from '../presets/reteco/conventions.js'
export {
  detectRetecoLayout,
  domainsOfTrack,
  type LoadRetecoOptions,
  loadRetecoData,
  readCorpusIds,
  readSplitManifest,
} from '../presets/reteco/data.js'
export {
  runCorpora,
  unscorableReasons,
} from '../presets/reteco/engine-inputs.js'
export { RetecoInputError } from '../presets/reteco/errors.js'
export {
  reportFromReteco,
  retecoReportRoute,
} from '../presets/reteco/html-route.js'
export {
  buildRetecoItems,
  type RetecoItemsOptions,
  type RetecoItemsSummary,
  type RetecoJudgePreset,
  retecoJudgeItemsRoute,
} from '../presets/reteco/judge-items.js'
export {
  type JudgeLabelFile,
  judgeLabels,
  offlineLabels,
  type TemporalLabelProvider,
  type TopicTemporalLabels,
} from '../presets/reteco/labels.js'
export {
  type Plan1aScores,
  type Plan1bScores,
  type Plan2aScores,
  type PlanDomainCounts,
  type PlanOptions,
  type PlanQueryMean,
  type PlanResult,
  type PlanScores,
  type PlanTopic,
  type PlanTopicStatus,
  scorePlan,
} from '../presets/reteco/plan.js'
export {
  PLAN_AGGREGATIONS,
  PLAN_CUTOFF,
  RETECO_PRESET_VALUES,
  RETECO_PRESETS,
  type RetecoPreset,
  retecoPlanConventions,
  retecoPresetOf,
  subtrackOfPreset,
} from '../presets/reteco/presets.js'
export {
  officialBaselineConventionSet,
  scorerPyConventionSet,
} from '../presets/reteco/reference-ports/compat-sets.js'
export {
  type CheckedLine,
  FORMAT_CHECKER_ERROR_KINDS,
  FormatChecker,
  type FormatCheckerFinding,
  type FormatCheckerOptions,
  type FormatCheckerResult,
  formatCheckerMessage,
  renderFormatCheckerOutput,
} from '../presets/reteco/reference-ports/format-checker.js'
export {
  calculateRetrievalMetrics,
  OFFICIAL_K_VALUES,
  type OfficialBaselineDomain,
  type OfficialBaselineDomainInput,
  type OfficialBaselineResult,
  officialBaseline,
  type PythonRunDict,
  type PythonRunDictResult,
  type PytrecTopicValues,
  pytrecEvaluate,
  readRunAsPythonDict,
} from '../presets/reteco/reference-ports/official-baseline.js'
export {
  type ScorerPyDomainFiles,
  type ScorerPyInput,
  type ScorerPyOutput,
  type ScorerPyResult,
  type ScorerPyTopic,
  scorerPy,
  scorerPyNdcg,
  scorerPyPooled,
  scorerPyTemporalCoverage,
  scorerPyTemporalPrecision,
  scorerPyTemporalRelevance,
  scorerPyTurnBucket,
} from '../presets/reteco/reference-ports/scorer-py.js'
export {
  RETECO_REPORT_FORMATS,
  type RenderRetecoOptions,
  type RetecoReportFormat,
  renderRetecoReports,
} from '../presets/reteco/report.js'
export {
  RETECO_CONVENTION_SET_NAMES,
  type ReportCounts,
  type ReportTable,
  type ReportTopic,
  type ReportValues,
  type RetecoConventionSet,
  type RetecoConventionSetName,
  type RetecoReport,
  type RetecoScoreRequest,
  type RetecoScorer,
} from '../presets/reteco/report-model.js'
export {
  formatRunProblem as formatRetecoRunProblem,
  parseRetecoRunFile,
  type ReadRetecoRunOptions,
  readRetecoRun,
} from '../presets/reteco/runs.js'
export {
  makeRetecoSample,
  type RetecoSample,
  type RetecoSampleOptions,
  writeRetecoSample,
} from '../presets/reteco/sample.js'
export {
  type ScoreRetecoOptions,
  scoreRetecoRuns,
} from '../presets/reteco/score-runs.js'
export {
  normalizeTurnTopic,
  parseTurnTopic,
  stepQueryOf,
  TURN_BUCKETS,
  type TurnBucket,
  type TurnTopic,
  turnBucket,
} from '../presets/reteco/topics.js'
export {
  type ManifestDomain,
  RETECO_SUBTRACKS,
  type RetecoData,
  type RetecoDomainData,
  type RetecoLayout,
  type RetecoRun,
  type RetecoRunFile,
  type RetecoRunLayout,
  type RetecoRunLine,
  type RetecoRunProblem,
  type RetecoRunTopic,
  type RetecoSubtrack,
  type RetecoTrack,
  type SplitManifest,
  type Track1Guidance,
  type Track1Query,
  type Track1Step,
  type Track1StepRecord,
  type Track2Conversation,
  type Track2Turn,
  topicQrels,
  trackOf,
} from '../presets/reteco/types.js'
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
} from '../presets/reteco/validate.js'
export {
  type DomainAnswers,
  type GenerationSubtrack,
  type RetecoAnswersValidation,
  type ValidateRetecoAnswersOptions,
  validateRetecoAnswers,
} from '../presets/reteco/validate-answers.js'
export {
  renderRetecoAnswersJson,
  renderRetecoAnswersText,
} from '../presets/reteco/validate-answers-render.js'
export {
  RETECO_VALIDATE_JSON_SCHEMA,
  renderRetecoValidationJson,
  renderRetecoValidationText,
} from '../presets/reteco/validate-render.js'
