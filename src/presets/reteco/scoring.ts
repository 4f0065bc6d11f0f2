/**
 * RETECO (SemEval-2027 Task 1) public API: scoring. Re-exports of src/presets/reteco/ modules.
 */
export type {
  RetecoTrack,
  RetecoSubtrack,
  RetecoLayout,
  Track1Query,
  Track1Step,
  Track1StepRecord,
  Track1Guidance,
  Track2Turn,
  Track2Conversation,
  ManifestDomain,
  SplitManifest,
  RetecoDomainData,
  RetecoData,
  RetecoRunLine,
  RetecoRunTopic,
  RetecoRunProblem,
  RetecoRunFile,
  RetecoRunLayout,
  RetecoRun,
} from './types.js'
export { RETECO_SUBTRACKS, trackOf, topicQrels } from './types.js'
export { RetecoInputError } from './errors.js'
export { TURN_BUCKETS, type TurnBucket, type TurnTopic, parseTurnTopic, turnBucket, normalizeTurnTopic, stepQueryOf } from './topics.js'
export { loadRetecoData, detectRetecoLayout, readCorpusIds, readSplitManifest, domainsOfTrack, type LoadRetecoOptions } from './data.js'
export { parseRetecoRunFile, readRetecoRun, formatRunProblem, type ReadRetecoRunOptions } from './runs.js'
export { PLAN_METRICS, meanSummary, macroSummary, type PlanMetric, type MetricValues, type MeanSummary, type MacroSummary, type CoverageSummary } from './aggregate.js'
export { temporalPrecisionReteco, temporalPrecisionTempo, temporalRelevance, temporalCoverage } from './temporal.js'
export { offlineLabels, judgeLabels, type TemporalLabelProvider, type TopicTemporalLabels, type JudgeLabelFile } from './labels.js'
export {
  scorePlan,
  runCorpora,
  unscorableReasons,
  aggregatePlan,
  planQueryTable,
  PLAN_AGGREGATIONS,
  planTopicValues,
  retecoPlanConventions,
  PLAN_CUTOFF,
  type PlanOptions,
  type PlanResult,
  type PlanScores,
  type Plan1aScores,
  type Plan1bScores,
  type Plan2aScores,
  type PlanTopic,
  type PlanTopicStatus,
  type PlanDomainCounts,
  type PlanQueryMean,
} from './plan.js'
export { RETECO_CONVENTION_SETS, planConventionSet, planReport, planConventionLines } from './conventions.js'
export {
  RETECO_CONVENTION_SET_NAMES,
  type RetecoConventionSetName,
  type RetecoConventionSet,
  type RetecoScorer,
  type RetecoScoreRequest,
  type RetecoReport,
  type ReportTable,
  type ReportValues,
  type ReportCounts,
  type ReportTopic,
} from './report-model.js'
export { RETECO_REPORT_FORMATS, renderRetecoReports, type RetecoReportFormat, type RenderRetecoOptions } from './report.js'
export { RETECO_PRESETS, subtrackOfPreset, scoreRetecoRuns, type RetecoPreset, type ScoreRetecoOptions } from './score-runs.js'
export { tableFromRetecoReports, retecoGroupings, perQueryTableFromReteco, type CompareRetecoInput } from './compare-route.js'
export { reportFromReteco, retecoReportRoute } from './html-route.js'
export { buildRetecoItems, retecoJudgeItemsRoute, type RetecoJudgePreset, type RetecoItemsOptions, type RetecoItemsSummary } from './judge-items.js'
