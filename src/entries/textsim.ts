/**
 * `trecscore/textsim`: text-similarity metrics for generated answers: ROUGE, METEOR (with
 * WordNet), the Porter stemmer, NLTK's Punkt and Treebank tokenizers, and BERTScore.
 *
 * @example
 * import { rougeScores } from 'trecscore/textsim'
 * rougeScores('The cat is on the mat.', ['The cat sat on the mat.'], { stemmer: true }).best.rougeL
 *
 * @module
 */

export {
  type BaselineRow,
  type BaselineTable,
  baselineForLayer,
  parseBaselineTable,
  ROBERTA_LARGE_L17_BASELINE,
} from '../generation/bertscore/baseline.js'
export {
  type BertScoreValue,
  bertScoreFromEmbeddings,
  bestOverReferences,
  computeIdf,
  EMPTY_TEXT_LENGTH,
  type IdfWeights,
  type RescaleBaseline,
  rescale,
  type TokenEmbeddings,
  type TokenWeights,
  uniformWeights,
} from '../generation/bertscore/bertscore.js'
export {
  type BertScorer,
  type BertScorerOptions,
  loadBertScorer,
} from '../generation/bertscore/scorer.js'
export { TextsimItemError, type TextsimScoreProblem } from '../generation/textsim/errors.js'
export {
  countChunks,
  type MeteorDetail,
  type MeteorOptions,
  type MeteorParams,
  type MeteorResult,
  type MeteorTokenizer,
  meteorAlign,
  meteorScore,
  meteorScoreTokens,
  meteorSplitTokenize,
  NLTK_METEOR_PARAMS,
  pythonSplit,
  type SynonymSource,
  singleMeteor,
} from '../generation/textsim/meteor.js'
export { loadPunktParameters } from '../generation/textsim/nltk/load-punkt.js'
export {
  type PunktParameters,
  parsePunktParameters,
  sentTokenize,
} from '../generation/textsim/nltk/punkt.js'
export { treebankWordTokenize } from '../generation/textsim/nltk/treebank.js'
export { wordTokenize } from '../generation/textsim/nltk/word-tokenize.js'
export {
  porterStem,
  type Stemmer,
} from '../generation/textsim/porter.js'
export {
  powCorrectlyRounded,
  powInt,
  roundRational,
} from '../generation/textsim/power.js'
export {
  lcsIndices,
  lcsLength,
  ROUGE_TYPES,
  type RougeBest,
  type RougeOptions,
  type RougePair,
  type RougeResult,
  type RougeScore,
  type RougeType,
  rougeF,
  rougeLsumTokens,
  rougeLTokens,
  rougeNTokens,
  rougePair,
  rougeScores,
} from '../generation/textsim/rouge.js'
export {
  rougeSentences,
  rougeTokenize,
} from '../generation/textsim/rouge-tokenize.js'
export {
  formatTextsimIssue,
  parseTextsimLine,
  scoreTextsim,
  scoreTextsimPair,
  summarizeTextsim,
  TEXTSIM_METRICS,
  type TextsimBertScorer,
  type TextsimConfig,
  type TextsimIssue,
  type TextsimLine,
  type TextsimMean,
  type TextsimMetric,
  type TextsimPair,
  type TextsimRow,
  type TextsimScored,
  type TextsimSummary,
} from '../generation/textsim/textsim.js'
export {
  openTextsimSink,
  readTextsimPairs,
  TEXTSIM_MAX_LINE_BYTES,
  type TextsimSink,
} from '../generation/textsim/textsim-file.js'
export {
  type MorphyMode,
  parseWordNetIndex,
  WORDNET_POS,
  WordNet,
  type WordNetPos,
} from '../generation/textsim/wordnet.js'
export {
  DEFAULT_WORDNET_INDEX,
  loadWordNet,
  WordNetCache,
  type WordNetLoadOptions,
} from '../generation/textsim/wordnet-file.js'
