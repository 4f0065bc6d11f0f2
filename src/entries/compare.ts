/**
 * `trecscore/compare`: comparing systems on the same queries: paired significance tests over a
 * per-query table, and its text, JSON and HTML renderers.
 *
 * @example
 * import { compareRuns, renderCompare } from 'trecscore/compare'
 * const result = compareRuns(qrels, [{ name: 'a', run: a }, { name: 'b', run: b }], ['AP'])
 *
 * @module
 */

export { formatP } from '../compare/cells.js'
export {
  compareRuns,
  compareTable,
  DEFAULT_COMPARE_SETTINGS,
  runLetter,
  tableFromEvaluations,
} from '../compare/compare.js'
export {
  type CompareFilesInput,
  perQueryTableFromFiles,
} from '../compare/compare-files.js'
export {
  CORRECTION_TITLES,
  legendLines,
  TEST_TITLES,
  testConvention,
} from '../compare/legend.js'
export {
  COMPARE_FORMATS,
  type CompareFormat,
  compareToJson,
  type RenderCompareOptions,
  renderCompare,
} from '../compare/render.js'
export {
  renderCompareHtml,
  renderCompareHtmlFragment,
} from '../compare/render-html.js'
export {
  type Breakdown,
  CORRECTION_NAMES,
  type CompareOptions,
  type CompareQuery,
  type CompareResult,
  type CompareRun,
  type CompareSettings,
  type CorrectionName,
  type EffectSize,
  GROUPING_NAMES,
  type GroupComparison,
  type GroupingName,
  type MeasureComparison,
  type PairComparison,
  type PerQueryRun,
  type PerQueryTable,
  TEST_NAMES,
  type TestName,
  type TestResult,
} from '../compare/types.js'
