/**
 * `trecscore/evaluate`: the engine: per-query preparation (`prepareQuery`), `evaluate`,
 * the streaming `RunEvaluator`, `evaluateRunFile` (bounded memory), aggregations and grouped keys.
 *
 * @example
 * import { evaluate } from 'trecscore/evaluate'
 * const result = evaluate(qrels, run, ['nDCG@10', 'AP'], { relevanceLevel: 1 })
 *
 * @module
 */

export {
  type AggregateValue,
  aggregate,
} from '../evaluate/aggregate.js'
export {
  type AggregationColumn,
  type AggregationResult,
  type AggregationRow,
  type AggregationSpec,
  aggregateAll,
  aggregateTable,
  type KeyOrder,
  type QueryTable,
  type QueryTableRow,
} from '../evaluate/aggregations.js'
export {
  type ConventionSetCounts,
  type ConventionSetResult,
  type EvaluateOptions,
  type EvaluationCounts,
  evaluate,
  type MeasureWithConventions,
  type QueryColumns,
  type QueryResult,
  queryColumns,
  type RunEvaluation,
  RunEvaluator,
  type ValueColumn,
} from '../evaluate/evaluate.js'
export {
  evaluateRunFile,
  readAuxQrels,
} from '../evaluate/evaluate-file.js'
export {
  groupedQueryId,
  groupQrels,
  groupRuns,
  splitGroupedQueryId,
} from '../evaluate/grouped-keys.js'
export {
  type AlternativeContext,
  type AlternativeResult,
  alternativeLabel,
  applyAlternative,
  type ConventionAlternative,
  type ConventionResult,
  chosenValue,
  defaultAlternatives,
  narrowRun,
  type RankingChange,
  rankingChange,
  runsHaveRanks,
  SENSITIVITY_CONVENTIONS,
  SENSITIVITY_LABELS,
  type SensitivityCell,
  type SensitivityConvention,
  type SensitivityInput,
  type SensitivityReport,
  type SensitivityRun,
  type SkippedConvention,
  sensitivity,
} from '../evaluate/sensitivity.js'
export {
  type SensitivityFilesRequest,
  sensitivityOfRunFiles,
} from '../evaluate/sensitivity-file.js'
export { GradeArena } from '../rank/grade-arena.js'
export type { JudgedRanking } from '../rank/judged-ranking.js'
export {
  orderDocs,
  type PrepareCounts,
  type PrepareFailure,
  type PrepareResult,
  prepareQuery,
} from '../rank/prepare.js'
