/**
 * Run fusion (`trecscore fuse`): RRF, the Comb family, weighted sum and Borda over normalised
 * per-run scores, with deterministic tie-breaking and an optional weight grid search.
 */
export {
  FUSION_METHODS,
  RANK_METHODS,
  NORMALIZATIONS,
  DEFAULT_RRF_K,
  DEFAULT_FUSE_DEPTH,
  type FusionMethod,
  type Normalization,
  type RankedList,
  type QueryLists,
  type FuseOptions,
  type FusedDoc,
  type FuseCounts,
  type FusedRun,
} from './types.js'
export { normalizeList } from './normalize.js'
export { reciprocalRankFusion } from './rrf.js'
export { combFusion, type CombMethod } from './comb.js'
export { weightedSumFusion } from './wsum.js'
export { bordaFusion } from './borda.js'
export { orderFused, breakTies, nextDown } from './ties.js'
export { fuse, fuseQuery, rankedListOf, checkFuseOptions, defaultNormalization } from './fuse.js'
export { formatFusedRun, fusedRunChunks, fusedToRun, describeFuse } from './format.js'
export { optimizeWeights, type OptimizeOptions, type OptimizeResult } from './optimize.js'
export { readRunsToFuse, writeFusedRun } from './fuse-files.js'
