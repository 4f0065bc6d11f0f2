/**
 * BERTScore (bert_score 0.3.13 semantics) on a local ONNX model run by onnxruntime-node:
 * `loadBertScorer` for the model path, and the pure arithmetic for embeddings computed elsewhere.
 */
export { loadBertScorer, type BertScorer, type BertScorerOptions } from './scorer.js'
export {
  bertScoreFromEmbeddings,
  bestOverReferences,
  computeIdf,
  rescale,
  uniformWeights,
  EMPTY_TEXT_LENGTH,
  type BertScoreValue,
  type TokenEmbeddings,
  type TokenWeights,
  type IdfWeights,
  type RescaleBaseline,
} from './bertscore.js'
export { parseBaselineTable, baselineForLayer, ROBERTA_LARGE_L17_BASELINE, type BaselineRow, type BaselineTable } from './baseline.js'
