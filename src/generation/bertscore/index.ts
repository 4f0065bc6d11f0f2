/**
 * BERTScore (bert_score 0.3.13 semantics) on a local ONNX model run by onnxruntime-node:
 * `loadBertScorer` for the model path, and the pure arithmetic for embeddings computed elsewhere.
 */

export {
  type BaselineRow,
  type BaselineTable,
  baselineForLayer,
  parseBaselineTable,
  ROBERTA_LARGE_L17_BASELINE,
} from './baseline.js'
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
} from './bertscore.js'
export { type BertScorer, type BertScorerOptions, loadBertScorer } from './scorer.js'
