/**
 * trecscore: score retrieval runs exactly as shared tasks do, with every convention explicit.
 *
 * @example
 * import { readQrels, readRun, evaluate } from 'trecscore'
 * const qrels = await readQrels('qrels.txt')
 * const run = await readRun('run.txt')
 * const result = evaluate(qrels, run, ['nDCG@10', 'AP', 'RR@10'], { relevanceLevel: 1 })
 * console.log(result.aggregates.map((a) => `${a.measure} ${a.value}`))
 *
 * @module
 */

export * from './compare/index.js'
// Conventions
export type { Conventions, DuplicatePolicy, GainSpec, Ordering } from './conventions/conventions.js'
export { parseGainMap, parseGainSpec } from './conventions/gain-spec.js'
export {
  conventionProfiles,
  pytrecEval,
  resolveConventions,
  trecEvalV9,
  trecEvalV10,
} from './conventions/profiles.js'
export {
  CWL_EVAL_TIES,
  PYTREC_EVAL_TIES,
  TIE_RULES,
  type TieRule,
  tieRuleOf,
  withTieRule,
} from './conventions/tie-rules.js'
export { formatIssue } from './errors/format-issue.js'
export type { InputIssue } from './errors/issues.js'
export { MissingPackageError } from './errors/missing-package-error.js'
// Errors
export {
  InputError,
  isTrecscoreError,
  ProblemListError,
  TrecscoreError,
} from './errors/trecscore-error.js'
export { type AggregateValue, aggregate } from './evaluate/aggregate.js'
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
} from './evaluate/aggregations.js'
// Evaluation
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
} from './evaluate/evaluate.js'
export { evaluateRunFile, readAuxQrels } from './evaluate/evaluate-file.js'
export {
  groupedQueryId,
  groupQrels,
  groupRuns,
  splitGroupedQueryId,
} from './evaluate/grouped-keys.js'
export * from './evaluate/sensitivity.js'
export * from './evaluate/sensitivity-file.js'
export * from './fuse/index.js'
export * from './generation/bertscore/index.js'
export * from './generation/judge/index.js'
export * from './generation/submission/index.js'
// Generation evaluation (RETECO 2b/2c): lexical and embedding diagnostics, the LLM judge, submissions
export * from './generation/textsim/index.js'
export * from './generation/textsim/nltk/index.js'
export { decodeId, encodeId, parseCDouble, parseCLong } from './io/bytes.js'
export { DEFAULT_MAX_LINE_BYTES } from './io/lines.js'
// Output
export {
  describeSystemError,
  describeWriteError,
  OutputError,
  writeOutputFile,
} from './io/output.js'
export { type ChunkObserver, parseRun, readIdList, readQrels, readRun } from './io/read.js'
export {
  defaultRunLabels,
  fileLabel,
  type NamedRun,
  RUN_LABEL_SOURCES,
  type RunInput,
  type RunLabelOptions,
  type RunLabelSource,
  readRunTag,
  resolveRunLabels,
  runInputName,
  runInputPath,
} from './io/run-labels.js'
export { type RunReadSummary, streamRunQueries } from './io/run-reader.js'
export { readAll, readChunks, SourceError } from './io/source.js'
// Input
export {
  parseQrels,
  QRELS_FORMATS,
  type QrelsFormat,
  type QrelsParseOptions,
  type QrelsParseResult,
} from './io/trec-qrels.js'
export { type RunGroup, type RunParseOptions, TrecRunParser } from './io/trec-run.js'
// Measures
export type { Measure, MeasureSpec, ParamRange, ParamSpec, ParamValue } from './measures/measure.js'
export { rangeText } from './measures/measure.js'
export { canonicalName, parseMeasure, parseMeasures, suggestMeasures } from './measures/name.js'
export { findMeasureSpec, MEASURES } from './measures/registry.js'
// Data model
export type { Qrels, QueryJudgments, Run, RunQuery } from './model/types.js'
export { NOT_POOLED, UNJUDGED } from './model/types.js'
export {
  type CheckImplementation,
  type IssueLocation,
  PRESET_CHECKS,
  type PresetCheckTable,
  type PresetIssue,
  type PresetRunContext,
} from './presets/checks.js'
export { describePreset, describePresetConventions, listPresets } from './presets/describe.js'
export { dl21Doc, dl21Passage, dl21PassagePash } from './presets/dl21.js'
export {
  type ExplainRetecoOptions,
  explainPresetScore,
  explainRetecoReports,
} from './presets/explain.js'
export {
  NEUCLIR_LANGUAGES,
  NEUCLIR_PRESETS,
  NEUCLIR_REL_MAPS,
  type NeuclirLanguage,
  neuclir23Fas,
  neuclir23Mlir,
  neuclir23Rus,
  neuclir23Zho,
} from './presets/neuclir.js'
export {
  checkCandidates,
  checkUnifiedRanking,
  type LanguageInfo,
  type PresetProblem,
  parseDocLanguages,
  parseRelMap,
  type QrelsScan,
  remapGrade,
  remapQrelsText,
  scanNeuclirQrels,
} from './presets/neuclir-checks.js'
// Benchmark presets
export {
  type CutoffMeasures,
  definePreset,
  type MeasureConventions,
  type OfficialEvaluator,
  type Preset,
  type PresetAggregation,
  type PresetCheck,
  type PresetDefinition,
  type PresetReport,
  QUERY_MEAN,
  type Rounding,
} from './presets/preset.js'
export {
  findPreset,
  PRESET_POINTERS,
  PRESETS,
  type PresetPointer,
  presetIds,
} from './presets/registry.js'
export * from './presets/reteco/checking.js'
export * from './presets/reteco/reference-ports/index.js'
// RETECO (SemEval-2027 Task 1) presets
export * from './presets/reteco/scoring.js'
export {
  aggregateQueries,
  getPreset,
  headlineAggregates,
  type InputDigest,
  PRESET_RESULT_SCHEMA,
  type PresetConventionSet,
  type PresetInputs,
  type PresetQueryResult,
  type PresetResult,
  type PresetRunCounts,
  type PresetRunResult,
  presetNotes,
  presetWarnings,
  qrelsWarnings,
  type RunPresetOptions,
  runMessages,
  runPreset,
} from './presets/run-preset.js'
export {
  checkPresetQrels,
  checkPresetRun,
  conventionSetLines,
  type LayoutOf,
  PRESET_REPORT_FORMATS,
  PRESET_SCORE_SCHEMA,
  type PresetMeasureGroup,
  type PresetReportFormat,
  type PresetRunScore,
  type PresetScore,
  presetRunEvaluation,
  renderIrMeasuresLayout,
  renderPresetScore,
  renderTrecEvalLayout,
  scorePreset,
} from './presets/score-preset.js'
export {
  presetScoreTable,
  retecoScoreTable,
  SCORE_TABLE_FORMATS,
  type ScoreTableFormat,
} from './presets/score-table.js'
export { presetFixedConventions, presetSensitivity } from './presets/sensitivity.js'
export {
  isSkillRetPreset,
  parseSkillRetCutoffs,
  SKILLRET_DEFAULT_CUTOFFS,
  SKILLRET_PRESETS,
  skillRet,
  skillRetFusion,
} from './presets/skillret.js'
export {
  readSkillRetData,
  readSkillRetRun,
  type SkillRetData,
  type SkillRetRun,
} from './presets/skillret-data.js'
export {
  explainSkillRetRun,
  explainSkillRetScore,
  officialDictRepr,
  renderSkillRetScore,
  SKILLRET_SCORE_SCHEMA,
  type SkillRetRunScore,
  type SkillRetScore,
  type SkillRetScoreOptions,
  scoreSkillRet,
  skillRetRunScore,
} from './presets/skillret-report.js'
export type { JudgedRanking } from './rank/judged-ranking.js'
// Preparation
export {
  orderDocs,
  type PrepareCounts,
  type PrepareFailure,
  type PrepareResult,
  prepareQuery,
} from './rank/prepare.js'
export {
  csvField,
  csvFieldFormulaSafe,
  escapeControlChars,
  escapeLatex,
  escapeMarkdown,
  escapeMarkdownStrict,
  tsvField,
  visibleText,
} from './report/escape.js'
export * from './report/html/index.js'
export { type JsonChunkOptions, jsonChunks } from './report/json-chunks.js'
// Reports
export {
  describeConventions,
  describeCounts,
  FORMATS,
  type Format,
  renderResults,
  SUMMARY_ROWS,
  type SummaryRows,
  toJson,
} from './report/leaderboard.js'
export { formatFixed } from './report/printf.js'
export * from './report/sensitivity.js'
export {
  type Cell,
  type Column,
  renderTable,
  TABLE_FORMATS,
  type Table,
  type TableFormat,
  type TableOptions,
} from './report/table.js'
export * from './stats/agreement/index.js'
// Statistics and comparing systems
export { createRng, mulberry32, type Rng } from './stats/random.js'
export * from './stats/significance/index.js'
export { trecEvalProcess } from './trec-eval/process-entry.js'
// trec_eval drop-in
export { type TrecEvalIO, trecEval } from './trec-eval/trec-eval.js'
export { describeRunProblemCode, formatRunProblem } from './validate/format-run-problem.js'
export {
  renderValidationJson,
  renderValidationText,
  VALIDATE_JSON_SCHEMA,
} from './validate/render-report.js'
export {
  RUN_PROBLEM_CODES,
  RUN_PROBLEM_SEVERITY,
  type RunProblem,
  type RunProblemCode,
  type Severity,
  severityOf,
} from './validate/run-problem.js'
export {
  type ChunkValidation,
  type ValidateChunksOptions,
  validateChunks,
} from './validate/validate-chunks.js'
// Submission validation
export {
  type ProblemCount,
  problemsOf,
  type RunValidationReport,
  RunValidator,
  type ValidateRunOptions,
  validateRun,
} from './validate/validate-run.js'
