/**
 * Lexical text similarity, exactly as the reference tools compute it: ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum
 * (rouge-score 0.1.2), NLTK 3.8's Porter stemmer, METEOR (NLTK 3.8 with WordNet 3.0) and the
 * `textsim` pair-file scorer behind `trecscore textsim`.
 */

export { TextsimItemError } from './errors.js'
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
} from './meteor.js'
export { porterStem, type Stemmer } from './porter.js'
export { powCorrectlyRounded, powInt, roundRational } from './power.js'
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
} from './rouge.js'
export { rougeSentences, rougeTokenize } from './rouge-tokenize.js'
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
} from './textsim.js'
export {
  openTextsimSink,
  readTextsimPairs,
  TEXTSIM_MAX_LINE_BYTES,
  type TextsimSink,
} from './textsim-file.js'
export {
  type MorphyMode,
  parseWordNetIndex,
  WORDNET_POS,
  WordNet,
  type WordNetPos,
} from './wordnet.js'
export {
  DEFAULT_WORDNET_INDEX,
  loadWordNet,
  WordNetCache,
  type WordNetLoadOptions,
} from './wordnet-file.js'
