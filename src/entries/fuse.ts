/**
 * `trecscore/fuse`: rank fusion (RRF, CombSUM/MNZ, Borda, weighted sum), normalizations and
 * weight optimisation.
 *
 * @example
 * import { fuse } from 'trecscore/fuse'
 * const fused = fuse([bm25, dense], { method: 'rrf' })
 *
 * @module
 */

export { bordaFusion } from '../fuse/borda.js'
export {
  type CombMethod,
  combFusion,
} from '../fuse/comb.js'
export {
  describeFuse,
  formatFusedRun,
  fusedRunChunks,
  fusedToRun,
} from '../fuse/format.js'
export {
  checkFuseOptions,
  defaultNormalization,
  fuse,
  fuseQuery,
  rankedListOf,
} from '../fuse/fuse.js'
export {
  readRunsToFuse,
  writeFusedRun,
} from '../fuse/fuse-files.js'
export { normalizeList } from '../fuse/normalize.js'
export {
  type OptimizeOptions,
  type OptimizeResult,
  optimizeWeights,
} from '../fuse/optimize.js'
export { reciprocalRankFusion } from '../fuse/rrf.js'
export {
  breakTies,
  nextDown,
  orderFused,
} from '../fuse/ties.js'
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
} from '../fuse/types.js'
export { weightedSumFusion } from '../fuse/wsum.js'
