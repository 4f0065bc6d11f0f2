/**
 * `trecscore/presets`: benchmark presets (TREC DL 2021, NeuCLIR 2023, SkillRet) as values,
 * their registry, checks and renderers, and `runPreset`, the one way to score a preset.
 *
 * @example
 * import { runPreset } from 'trecscore/presets'
 * const r = await runPreset('dl21-passage', { qrels: 'qrels.pass.txt', runs: ['a.run'] })
 *
 * @module
 */

export {
  type CheckImplementation,
  type IssueLocation,
  PRESET_CHECKS,
  type PresetCheckTable,
  type PresetIssue,
  type PresetRunContext,
} from '../presets/checks.js'
export { type ComparePresetInput, scorePresetForComparison } from '../presets/compare-preset.js'
export {
  describePreset,
  describePresetConventions,
  listPresets,
} from '../presets/describe.js'
export {
  dl21Doc,
  dl21Passage,
  dl21PassagePash,
} from '../presets/dl21.js'
export {
  type ExplainRetecoOptions,
  explainPresetScore,
  explainRetecoReports,
} from '../presets/explain.js'
export {
  NEUCLIR_LANGUAGES,
  NEUCLIR_PRESETS,
  NEUCLIR_REL_MAPS,
  type NeuclirLanguage,
  neuclir23Fas,
  neuclir23Mlir,
  neuclir23Rus,
  neuclir23Zho,
} from '../presets/neuclir.js'
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
} from '../presets/neuclir-checks.js'
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
} from '../presets/preset.js'
export {
  findPreset,
  PRESET_POINTERS,
  PRESETS,
  type PresetPointer,
  presetIds,
} from '../presets/registry.js'
export {
  buildReportData,
  type DataPresetReportRequest,
  type DataPresetReportRoute,
  DEFAULT_REPORT_MEASURES,
  type ReportRequest,
  writeHtmlReport,
} from '../presets/report-file.js'
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
} from '../presets/run-preset.js'
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
} from '../presets/score-preset.js'
export {
  presetScoreTable,
  retecoScoreTable,
  SCORE_TABLE_FORMATS,
  type ScoreTableFormat,
} from '../presets/score-table.js'
export {
  presetFixedConventions,
  presetSensitivity,
} from '../presets/sensitivity.js'
export {
  isSkillRetPreset,
  parseSkillRetCutoffs,
  SKILLRET_DEFAULT_CUTOFFS,
  SKILLRET_PRESETS,
  skillRet,
  skillRetFusion,
} from '../presets/skillret.js'
export {
  readSkillRetData,
  readSkillRetRun,
  type SkillRetData,
  type SkillRetRun,
} from '../presets/skillret-data.js'
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
} from '../presets/skillret-report.js'
