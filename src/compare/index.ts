/**
 * Comparing systems: paired significance tests with multiple-comparison correction, effect sizes
 * and wins/ties/losses per measure (and per group of a breakdown), and the renderers of the
 * comparison table (ranx's superscript-letter convention).
 */
export * from './types.js'
export { compareRuns, compareTable, tableFromEvaluations, runLetter, DEFAULT_COMPARE_SETTINGS } from './compare.js'
export { COMPARE_FORMATS, renderCompare, compareToJson, formatP, type CompareFormat, type RenderCompareOptions } from './render.js'
export { renderCompareHtml, renderCompareHtmlFragment } from './render-html.js'
export { legendLines, testConvention, TEST_TITLES, CORRECTION_TITLES } from './legend.js'
export { perQueryTableFromFiles, scorePresetForComparison, type CompareFilesInput, type ComparePresetInput } from './compare-files.js'
