/**
 * Lexical text similarity, exactly as the reference tools compute it: ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum
 * (rouge-score 0.1.2), NLTK 3.8's Porter stemmer, METEOR (NLTK 3.8 with WordNet 3.0) and the
 * `textsim` pair-file scorer behind `trecscore textsim`.
 */
export { porterStem, type Stemmer } from './porter.js'
export { rougeTokenize, rougeSentences } from './rouge-tokenize.js'
export {
  ROUGE_TYPES,
  lcsIndices,
  lcsLength,
  rougeF,
  rougeLTokens,
  rougeNTokens,
  rougeLsumTokens,
  rougePair,
  rougeScores,
  type RougeBest,
  type RougeOptions,
  type RougePair,
  type RougeResult,
  type RougeScore,
  type RougeType,
} from './rouge.js'
export {
  NLTK_METEOR_PARAMS,
  countChunks,
  meteorAlign,
  meteorScore,
  meteorScoreTokens,
  meteorSplitTokenize,
  pythonSplit,
  singleMeteor,
  type MeteorDetail,
  type MeteorOptions,
  type MeteorParams,
  type MeteorResult,
  type MeteorTokenizer,
  type SynonymSource,
} from './meteor.js'
export { powCorrectlyRounded, powInt, roundRational } from './power.js'
export { WORDNET_POS, WordNet, parseWordNetIndex, type MorphyMode, type WordNetPos } from './wordnet.js'
export { DEFAULT_WORDNET_INDEX, WordNetCache, loadWordNet, type WordNetLoadOptions } from './wordnet-file.js'
export { TextsimItemError } from './errors.js'
export {
  TEXTSIM_METRICS,
  formatTextsimIssue,
  parseTextsimLine,
  scoreTextsim,
  scoreTextsimPair,
  summarizeTextsim,
  type TextsimBertScorer,
  type TextsimMean,
  type TextsimConfig,
  type TextsimIssue,
  type TextsimLine,
  type TextsimMetric,
  type TextsimPair,
  type TextsimRow,
  type TextsimScored,
  type TextsimSummary,
} from './textsim.js'
export { TEXTSIM_MAX_LINE_BYTES, openTextsimSink, readTextsimPairs, type TextsimSink } from './textsim-file.js'
