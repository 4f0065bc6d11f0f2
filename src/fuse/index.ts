/**
 * Run fusion (`trecscore fuse`): RRF, the Comb family, weighted sum and Borda over normalised
 * per-run scores, with deterministic tie-breaking and an optional weight grid search.
 */

export { bordaFusion } from './borda.js'
export { type CombMethod, combFusion } from './comb.js'
export { describeFuse, formatFusedRun, fusedRunChunks, fusedToRun } from './format.js'
export { checkFuseOptions, defaultNormalization, fuse, fuseQuery, rankedListOf } from './fuse.js'
export { readRunsToFuse, writeFusedRun } from './fuse-files.js'
export { normalizeList } from './normalize.js'
export { type OptimizeOptions, type OptimizeResult, optimizeWeights } from './optimize.js'
export { reciprocalRankFusion } from './rrf.js'
export { breakTies, nextDown, orderFused } from './ties.js'
export {
  DEFAULT_FUSE_DEPTH,
  DEFAULT_RRF_K,
  FUSION_METHODS,
  type FuseCounts,
  type FusedDoc,
  type FusedRun,
  type FuseOptions,
  type FusionMethod,
  NORMALIZATIONS,
  type Normalization,
  type QueryLists,
  RANK_METHODS,
  type RankedList,
} from './types.js'
export { weightedSumFusion } from './wsum.js'
