/**
 * Paired significance tests, multiple-comparison corrections and effect sizes (pure; seeded
 * resampling through `createRng`). One test per file, formula and source in its doc comment.
 */
export { lnGamma, regularizedIncompleteBeta, regularizedGammaP, regularizedGammaQ, studentTTwoSided, erfc, normalSf } from './distributions.js'
export { differences, type PairedTestResult } from './paired.js'
export { pairedTTest } from './t-test.js'
export { permutationTest, type PermutationOptions } from './permutation.js'
export { bootstrapTest, bootstrapTestAndEffect, type BootstrapOptions } from './bootstrap.js'
export { wilcoxonTest, signedRankCounts, WILCOXON_EXACT_LIMIT } from './wilcoxon.js'
export { adjustPValues, type Correction } from './correction.js'
export { pairedEffect, cohensDz, quantileSorted, type PairedEffect, type EffectOptions } from './effect.js'
