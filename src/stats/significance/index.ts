/**
 * Paired significance tests, multiple-comparison corrections and effect sizes (pure; seeded
 * resampling through `createRng`). One test per file, formula and source in its doc comment.
 */

export { type BootstrapOptions, bootstrapTest, bootstrapTestAndEffect } from './bootstrap.js'
export { adjustPValues, type Correction } from './correction.js'
export {
  erfc,
  lnGamma,
  normalSf,
  regularizedGammaP,
  regularizedGammaQ,
  regularizedIncompleteBeta,
  studentTTwoSided,
} from './distributions.js'
export {
  cohensDz,
  type EffectOptions,
  type PairedEffect,
  pairedEffect,
  quantileSorted,
} from './effect.js'
export { differences, type PairedTestResult } from './paired.js'
export { type PermutationOptions, permutationTest } from './permutation.js'
export { pairedTTest } from './t-test.js'
export { signedRankCounts, WILCOXON_EXACT_LIMIT, wilcoxonTest } from './wilcoxon.js'
