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

// Data model
export type { Qrels, QueryJudgments, Run, RunQuery } from './model/types.js'
export { NOT_POOLED, UNJUDGED } from './model/types.js'
export { decodeId, encodeId, parseCDouble, parseCLong } from './io/bytes.js'

// Input
export { parseQrels, QRELS_FORMATS, type QrelsFormat, type QrelsParseOptions, type QrelsParseResult } from './io/trec-qrels.js'
export { TrecRunParser, type RunParseOptions, type RunGroup } from './io/trec-run.js'
export { parseRun, readRun, readQrels, readIdList, type ChunkObserver } from './io/read.js'
export { readChunks, readAll, SourceError } from './io/source.js'
export { DEFAULT_MAX_LINE_BYTES } from './io/lines.js'

// Output
export { OutputError, writeOutputFile, describeWriteError, describeSystemError } from './io/output.js'
export { RUN_LABEL_SOURCES, defaultRunLabels, fileLabel, readRunTag, resolveRunLabels, runInputName, runInputPath, type NamedRun, type RunInput, type RunLabelOptions, type RunLabelSource } from './io/run-labels.js'
export { streamRunQueries, type RunReadSummary } from './io/run-reader.js'

// Conventions
export type { Conventions, Ordering, DuplicatePolicy, GainSpec } from './conventions/conventions.js'
export { trecEvalV10, trecEvalV9, pytrecEval, conventionProfiles, resolveConventions } from './conventions/profiles.js'
export { parseGainSpec, parseGainMap } from './conventions/gain-spec.js'

// Preparation
export { prepareQuery, orderDocs, type PrepareResult, type PrepareCounts, type PrepareFailure } from './rank/prepare.js'
export type { JudgedRanking } from './rank/judged-ranking.js'

// Measures
export type { Measure, MeasureSpec, ParamSpec, ParamValue, ParamRange } from './measures/measure.js'
export { rangeText } from './measures/measure.js'
export { parseMeasure, parseMeasures, canonicalName, suggestMeasures } from './measures/name.js'
export { MEASURES, findMeasureSpec } from './measures/registry.js'

// Evaluation
export { evaluate, RunEvaluator, queryColumns, type QueryColumns, type ValueColumn, type RunEvaluation, type QueryResult, type EvaluationCounts, type EvaluateOptions, type MeasureWithConventions, type ConventionSetResult, type ConventionSetCounts } from './evaluate/evaluate.js'
export { evaluateRunFile } from './evaluate/evaluate-file.js'
export { aggregate, type AggregateValue } from './evaluate/aggregate.js'
export { aggregateTable, aggregateAll, type QueryTable, type QueryTableRow, type AggregationColumn, type AggregationSpec, type AggregationRow, type AggregationResult, type KeyOrder } from './evaluate/aggregations.js'
export { groupedQueryId, splitGroupedQueryId, groupQrels, groupRuns } from './evaluate/grouped-keys.js'

// Submission validation
export { validateRun, RunValidator, problemsOf, type ValidateRunOptions, type RunValidationReport, type ProblemCount } from './validate/validate-run.js'
export { RUN_PROBLEM_CODES, RUN_PROBLEM_SEVERITY, severityOf, type RunProblem, type RunProblemCode, type Severity } from './validate/run-problem.js'
export { formatRunProblem, describeRunProblemCode } from './validate/format-run-problem.js'
export { renderValidationText, renderValidationJson, VALIDATE_JSON_SCHEMA } from './validate/render-report.js'

// RETECO (SemEval-2027 Task 1) presets
export * from './presets/reteco/scoring.js'
export * from './presets/reteco/reference-ports/index.js'
export * from './presets/reteco/checking.js'

// Benchmark presets
export { definePreset, QUERY_MEAN, type Preset, type PresetDefinition, type OfficialEvaluator, type Rounding, type PresetReport, type PresetCheck, type PresetAggregation, type CutoffMeasures, type MeasureConventions } from './presets/preset.js'
export { runPreset, getPreset, aggregateQueries, presetWarnings, presetNotes, qrelsWarnings, runMessages, headlineAggregates, PRESET_RESULT_SCHEMA, type PresetInputs, type RunPresetOptions, type PresetResult, type PresetRunResult, type PresetQueryResult, type PresetRunCounts, type PresetConventionSet, type InputDigest } from './presets/run-preset.js'
export { PRESET_CHECKS, type PresetIssue, type PresetRunContext, type PresetCheckTable, type CheckImplementation, type IssueLocation } from './presets/checks.js'
export { PRESETS, PRESET_POINTERS, findPreset, presetIds, type PresetPointer } from './presets/registry.js'
export { dl21Passage, dl21Doc, dl21PassagePash } from './presets/dl21.js'
export { skillRet, skillRetFusion, SKILLRET_PRESETS, SKILLRET_DEFAULT_CUTOFFS, isSkillRetPreset, parseSkillRetCutoffs } from './presets/skillret.js'
export { readSkillRetData, readSkillRetRun, type SkillRetData, type SkillRetRun } from './presets/skillret-data.js'
export { renderSkillRetScore, officialDictRepr, SKILLRET_SCORE_SCHEMA, scoreSkillRet, skillRetRunScore, explainSkillRetRun, explainSkillRetScore, type SkillRetScore, type SkillRetRunScore, type SkillRetScoreOptions } from './presets/skillret-report.js'
export { listPresets, describePreset, describePresetConventions } from './presets/describe.js'
export { explainPresetScore, explainRetecoReports, type ExplainRetecoOptions } from './presets/explain.js'
export { neuclir23Zho, neuclir23Fas, neuclir23Rus, neuclir23Mlir, NEUCLIR_PRESETS, NEUCLIR_LANGUAGES, NEUCLIR_REL_MAPS, type NeuclirLanguage } from './presets/neuclir.js'
export { parseRelMap, remapGrade, remapQrelsText, scanNeuclirQrels, parseDocLanguages, checkCandidates, checkUnifiedRanking, type PresetProblem, type QrelsScan, type LanguageInfo } from './presets/neuclir-checks.js'
export { PYTREC_EVAL_TIES, CWL_EVAL_TIES, TIE_RULES, withTieRule, tieRuleOf, type TieRule } from './conventions/tie-rules.js'
export { presetScoreTable, retecoScoreTable, SCORE_TABLE_FORMATS, type ScoreTableFormat } from './presets/score-table.js'
export { scorePreset, checkPresetQrels, checkPresetRun, renderPresetScore, renderTrecEvalLayout, renderIrMeasuresLayout, presetRunEvaluation, conventionSetLines, PRESET_REPORT_FORMATS, PRESET_SCORE_SCHEMA, type PresetReportFormat, type PresetScore, type PresetRunScore, type PresetMeasureGroup, type LayoutOf } from './presets/score-preset.js'

// Generation evaluation (RETECO 2b/2c): lexical and embedding diagnostics, the LLM judge, submissions
export * from './generation/textsim/index.js'
export * from './generation/textsim/nltk/index.js'
export * from './generation/bertscore/index.js'
export * from './generation/judge/index.js'
export * from './generation/submission/index.js'

// Statistics and comparing systems
export { createRng, mulberry32, type Rng } from './stats/random.js'
export * from './stats/agreement/index.js'
export * from './stats/significance/index.js'
export * from './compare/index.js'
export * from './fuse/index.js'

// trec_eval drop-in
export { trecEval, type TrecEvalIO } from './trec-eval/trec-eval.js'
export { trecEvalProcess } from './trec-eval/process-entry.js'

// Reports
export { renderResults, toJson, describeConventions, describeCounts, FORMATS, type Format } from './report/leaderboard.js'
export { escapeControlChars } from './report/control-chars.js'
export { escapeMarkdown } from './report/escape.js'
export { formatFixed } from './report/printf.js'
export { jsonChunks, type JsonChunkOptions } from './report/json-chunks.js'
export { validateChunks, type ValidateChunksOptions, type ChunkValidation } from './validate/validate-chunks.js'
export { TABLE_FORMATS, renderTable, type Cell, type Column, type Table, type TableFormat, type TableOptions } from './report/table.js'
export * from './report/html/index.js'

// Errors
export { TrecscoreError, InputError, ProblemListError, isTrecscoreError } from './errors/trecscore-error.js'
export { MissingPackageError } from './errors/missing-package-error.js'
export type { InputIssue } from './errors/issues.js'
export { formatIssue } from './errors/format-issue.js'
