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
} from './agreement.js'
export {
  BOOTSTRAP_METHOD,
  type BootstrapInterval,
  type ClusterBootstrapOptions,
  clusterBootstrap,
} from './bootstrap.js'
export { cohenKappa, type KappaWeights, LIKERT_CATEGORIES, type StatValue } from './cohen-kappa.js'
export {
  AgreementInputError,
  type AgreementInputProblem,
  formatAgreementInputProblem,
} from './jsonl.js'
export {
  type JudgeAgreementInput,
  type JudgeAgreementOptions,
  type JudgeAgreementResult,
  judgeAgreement,
} from './judge-agreement.js'
export { type KendallCounts, kendallCounts, kendallTauB } from './kendall.js'
export {
  type AlphaLevel,
  type AlphaResult,
  krippendorffAlpha,
  krippendorffAlphaPaired,
} from './krippendorff.js'
export {
  conversationOfTurn,
  type HumanLabel,
  type JudgmentRecord,
  type JudgmentStatus,
  parseHumanLabels,
  parseJudgments,
} from './labels.js'
export { numpyPairwiseSum } from './numpy-sum.js'
export { type DimensionPairing, type Pairing, type PairingOptions, pairLabels } from './pairing.js'
export {
  type AgreementFormat,
  renderAgreement,
  renderAgreementJson,
  renderAgreementMarkdown,
  renderAgreementTable,
} from './render.js'
export { spearmanRho } from './spearman.js'
