/**
 * Comparing systems: paired significance tests with multiple-comparison correction, effect sizes
 * and wins/ties/losses per measure (and per group of a breakdown), and the renderers of the
 * comparison table (ranx's superscript-letter convention).
 */

export {
  compareRuns,
  compareTable,
  DEFAULT_COMPARE_SETTINGS,
  runLetter,
  tableFromEvaluations,
} from './compare.js'
export {
  type CompareFilesInput,
  perQueryTableFromFiles,
} from './compare-files.js'
export { CORRECTION_TITLES, legendLines, TEST_TITLES, testConvention } from './legend.js'
export {
  COMPARE_FORMATS,
  type CompareFormat,
  compareToJson,
  formatP,
  type RenderCompareOptions,
  renderCompare,
} from './render.js'
export { renderCompareHtml, renderCompareHtmlFragment } from './render-html.js'
export * from './types.js'
