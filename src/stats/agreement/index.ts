export { numpyPairwiseSum } from './numpy-sum.js'
export { cohenKappa, LIKERT_CATEGORIES, type KappaWeights, type StatValue } from './cohen-kappa.js'
export { spearmanRho } from './spearman.js'
export { kendallTauB, kendallCounts, type KendallCounts } from './kendall.js'
export { krippendorffAlpha, krippendorffAlphaPaired, type AlphaLevel, type AlphaResult } from './krippendorff.js'
export {
  BOOTSTRAP_METHOD,
  clusterBootstrap,
  type BootstrapInterval,
  type ClusterBootstrapOptions,
} from './bootstrap.js'
export {
  AGREEMENT_STATISTICS,
  AGREEMENT_STATISTIC_LABELS,
  computeAgreement,
  type AgreementOptions,
  type AgreementPair,
  type AgreementReport,
  type AgreementStatistic,
  type AgreementStatisticName,
  type DimensionAgreement,
} from './agreement.js'
export { conversationOfTurn, parseHumanLabels, parseJudgments, type HumanLabel, type JudgmentRecord, type JudgmentStatus } from './labels.js'
export { formatAgreementInputProblem, AgreementInputError, type AgreementInputProblem } from './jsonl.js'
export { pairLabels, type DimensionPairing, type Pairing, type PairingOptions } from './pairing.js'
export { judgeAgreement, type JudgeAgreementInput, type JudgeAgreementOptions, type JudgeAgreementResult } from './judge-agreement.js'
export { renderAgreement, renderAgreementJson, renderAgreementMarkdown, renderAgreementTable, type AgreementFormat } from './render.js'
