/**
 * RETECO (SemEval-2027 Task 1) public API: scoring. Re-exports of src/presets/reteco/ modules.
 */

export {
  temporalCoverage,
  temporalPrecisionReteco,
  temporalPrecisionTempo,
  temporalRelevance,
} from '../../measures/temporal.js'
export {
  type CoverageSummary,
  type MacroSummary,
  type MeanSummary,
  type MetricValues,
  macroSummary,
  meanSummary,
  PLAN_METRICS,
  type PlanMetric,
} from './aggregate.js'
export {
  type CompareRetecoInput,
  perQueryTableFromReteco,
  retecoGroupings,
  tableFromRetecoReports,
} from './compare-route.js'
export {
  planConventionLines,
  planConventionSet,
  planReport,
  RETECO_CONVENTION_SETS,
} from './conventions.js'
export {
  detectRetecoLayout,
  domainsOfTrack,
  type LoadRetecoOptions,
  loadRetecoData,
  readCorpusIds,
  readSplitManifest,
} from './data.js'
export { RetecoInputError } from './errors.js'
export { reportFromReteco, retecoReportRoute } from './html-route.js'
export {
  buildRetecoItems,
  type RetecoItemsOptions,
  type RetecoItemsSummary,
  type RetecoJudgePreset,
  retecoJudgeItemsRoute,
} from './judge-items.js'
export {
  type JudgeLabelFile,
  judgeLabels,
  offlineLabels,
  type TemporalLabelProvider,
  type TopicTemporalLabels,
} from './labels.js'
export {
  PLAN_AGGREGATIONS,
  PLAN_CUTOFF,
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
  retecoPlanConventions,
  runCorpora,
  scorePlan,
  unscorableReasons,
} from './plan.js'
export { RETECO_PRESET_VALUES, retecoPresetOf } from './presets.js'
export {
  RETECO_REPORT_FORMATS,
  type RenderRetecoOptions,
  type RetecoReportFormat,
  renderRetecoReports,
} from './report.js'
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
} from './report-model.js'
export {
  formatRunProblem,
  parseRetecoRunFile,
  type ReadRetecoRunOptions,
  readRetecoRun,
} from './runs.js'
export {
  RETECO_PRESETS,
  type RetecoPreset,
  type ScoreRetecoOptions,
  scoreRetecoRuns,
  subtrackOfPreset,
} from './score-runs.js'
export {
  normalizeTurnTopic,
  parseTurnTopic,
  stepQueryOf,
  TURN_BUCKETS,
  type TurnBucket,
  type TurnTopic,
  turnBucket,
} from './topics.js'
export type {
  ManifestDomain,
  RetecoData,
  RetecoDomainData,
  RetecoLayout,
  RetecoRun,
  RetecoRunFile,
  RetecoRunLayout,
  RetecoRunLine,
  RetecoRunProblem,
  RetecoRunTopic,
  RetecoSubtrack,
  RetecoTrack,
  SplitManifest,
  Track1Guidance,
  Track1Query,
  Track1Step,
  Track1StepRecord,
  Track2Conversation,
  Track2Turn,
} from './types.js'
export { RETECO_SUBTRACKS, topicQrels, trackOf } from './types.js'
