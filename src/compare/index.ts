/**
 * Comparing systems: paired significance tests with multiple-comparison correction, effect sizes
 * and wins/ties/losses per measure (and per group of a breakdown), and the renderers of the
 * comparison table (ranx's superscript-letter convention).
 */
export * from './types.js'
export { compareRuns, compareTable, tableFromEvaluations, runLetter, DEFAULT_COMPARE_SETTINGS } from './compare.js'
