/**
 * `trecscore/stats`: statistics: significance tests, multiple-comparison corrections, effect
 * sizes, inter-annotator agreement, seeded random numbers.
 *
 * @example
 * import { createRng } from 'trecscore/stats'
 * const rng = createRng(42)
 *
 * @module
 */

export {
  AGREEMENT_STATISTIC_LABELS,
  AGREEMENT_STATISTICS,
  type AgreementOptions,
  type AgreementPair,
  type AgreementReport,
  type AgreementStatistic,
  type AgreementStatisticName,
  computeAgreement,
  type DimensionAgreement,
} from '../stats/agreement/agreement.js'
export {
  BOOTSTRAP_METHOD,
  type BootstrapInterval,
  type ClusterBootstrapOptions,
  clusterBootstrap,
} from '../stats/agreement/bootstrap.js'
export {
  cohenKappa,
  type KappaWeights,
  LIKERT_CATEGORIES,
  type StatValue,
} from '../stats/agreement/cohen-kappa.js'
export {
  AgreementInputError,
  type AgreementInputProblem,
  formatAgreementInputProblem,
} from '../stats/agreement/jsonl.js'
export {
  type JudgeAgreementInput,
  type JudgeAgreementOptions,
  type JudgeAgreementResult,
  judgeAgreement,
} from '../stats/agreement/judge-agreement.js'
export {
  type KendallCounts,
  kendallCounts,
  kendallTauB,
} from '../stats/agreement/kendall.js'
export {
  type AlphaLevel,
  type AlphaResult,
  krippendorffAlpha,
  krippendorffAlphaPaired,
} from '../stats/agreement/krippendorff.js'
export {
  conversationOfTurn,
  type HumanLabel,
  type JudgmentRecord,
  type JudgmentStatus,
  parseHumanLabels,
  parseJudgments,
} from '../stats/agreement/labels.js'
export { numpyPairwiseSum } from '../stats/agreement/numpy-sum.js'
export {
  type DimensionPairing,
  type Pairing,
  type PairingOptions,
  pairLabels,
} from '../stats/agreement/pairing.js'
export {
  type AgreementFormat,
  renderAgreement,
  renderAgreementJson,
  renderAgreementMarkdown,
  renderAgreementTable,
} from '../stats/agreement/render.js'
export { spearmanRho } from '../stats/agreement/spearman.js'
export {
  createRng,
  mulberry32,
  type Rng,
} from '../stats/random.js'
export {
  type BootstrapOptions,
  bootstrapTest,
  bootstrapTestAndEffect,
} from '../stats/significance/bootstrap.js'
export {
  adjustPValues,
  type Correction,
} from '../stats/significance/correction.js'
export {
  erfc,
  lnGamma,
  normalSf,
  regularizedGammaP,
  regularizedGammaQ,
  regularizedIncompleteBeta,
  studentTTwoSided,
} from '../stats/significance/distributions.js'
export {
  cohensDz,
  type EffectOptions,
  type PairedEffect,
  pairedEffect,
  quantileSorted,
} from '../stats/significance/effect.js'
export {
  differences,
  type PairedTestResult,
} from '../stats/significance/paired.js'
export {
  type PermutationOptions,
  permutationTest,
} from '../stats/significance/permutation.js'
export { pairedTTest } from '../stats/significance/t-test.js'
export {
  signedRankCounts,
  WILCOXON_EXACT_LIMIT,
  wilcoxonTest,
} from '../stats/significance/wilcoxon.js'
