/**
 * BERTScore arithmetic as bert_score 0.3.13 (Tiiiger/bert_score, `utils.greedy_cos_idf`,
 * `utils.get_idf_dict`, `score.score`) does it, on token embeddings that are already computed.
 * Pure: no I/O, no model. The model and tokenizer edges are `onnx-model.ts` and `tokenizer.ts`.
 *
 * For a candidate x = (x_1..x_k) and a reference y = (y_1..y_l), each a token sequence that
 * includes the special tokens ([CLS] … [SEP], or <s> … </s>):
 *
 * - every token vector is L2-normalised, so `sim(i, j) = x̂_i · ŷ_j` is a cosine;
 * - greedy matching: `p_i = max_j sim(i, j)` and `r_j = max_i sim(i, j)`, over ALL tokens,
 *   specials included (a special token can be the argmax);
 * - weights: `w(t)` per token id; normalised per sentence to sum 1;
 *   `P = Σ_i w(x_i)·p_i / Σ_i w(x_i)`, `R = Σ_j w(y_j)·r_j / Σ_j w(y_j)`, `F = 2PR/(P+R)`;
 * - without idf, `w = 1` for every id except the special ids ([CLS]/[SEP]), which weigh 0;
 * - with idf, `w(t) = ln((M+1)/(df(t)+1))` where M is the number of reference texts and df(t)
 *   the number of them containing id t (set semantics); an unseen id gets `ln(M+1)`; the
 *   special ids weigh 0 ({@link computeIdf});
 * - an "empty" text is one with only its 2 special tokens (bert_score tests `mask.sum() == 2`):
 *   then P and R are set to 0 (bert_score prints a warning), and F, being NaN, becomes 0;
 * - a 0/0 weight sum in a non-empty text (with idf: every token occurs in every reference) gives
 *   NaN for that P or R, as in bert_score; F = NaN is replaced by 0 (bert_score's
 *   `F.masked_fill(isnan(F), 0)`), P and R stay NaN;
 * - multiple references: the element-wise max over the references, separately for P, R and F
 *   (`all_preds[beg:end].max(dim=0)`), so the three may come from different references;
 *   NaN propagates through the max, as torch's `max` does ({@link bestOverReferences});
 * - baseline rescaling: `x̂ = (x − b)/(1 − b)` for P, R and F separately, after the max; F is not
 *   recomputed from the rescaled P and R ({@link rescale}).
 *
 * Numerics: bert_score works in float32 torch tensors; this file works in float64 on whatever
 * vectors it is given, so values agree to about 1e-7, not bit for bit. One deliberate
 * difference: bert_score multiplies the similarity matrix by the padding mask of its mini-batch,
 * so a padded position contributes a similarity of 0 to the max. When every real similarity of a
 * token is negative and its counterpart was padded in that batch, bert_score takes 0 where this
 * file takes the (negative) true max. Cosines of contextual embeddings (roberta-large L17) are
 * far above 0, so this never shows in practice; it depends on batch composition in bert_score.
 */

/** Precision, recall and F1 of one candidate against one reference (or the best over several). */
export interface BertScoreValue {
  readonly precision: number
  readonly recall: number
  readonly f1: number
}

/**
 * The embeddings of one tokenized text: `ids[t]` is token t's id (specials included) and its
 * vector is `vectors[t*dim .. (t+1)*dim)`, row-major.
 */
export interface TokenEmbeddings {
  readonly ids: readonly number[]
  readonly dim: number
  readonly vectors: ArrayLike<number>
}

/** A token weighting: `weightOf(id)` before per-sentence normalisation. */
export interface TokenWeights {
  readonly kind: 'uniform' | 'idf'
  weightOf(id: number): number
}

/** bert_score's test for an empty text: only the two special tokens. */
export const EMPTY_TEXT_LENGTH = 2

/** Weights without idf: 1 for every id, 0 for the special ids ([CLS]/[SEP], or <s>/</s>). */
export function uniformWeights(specialIds: readonly number[]): TokenWeights {
  const zero = new Set(specialIds)
  return { kind: 'uniform', weightOf: (id) => (zero.has(id) ? 0 : 1) }
}

/** Idf weights with the document frequencies they came from. */
export interface IdfWeights extends TokenWeights {
  readonly kind: 'idf'
  /** M: the number of reference texts counted. */
  readonly documents: number
  /** df(id): how many reference texts contain the id. */
  readonly documentFrequency: ReadonlyMap<number, number>
}

/**
 * Idf over reference texts, as bert_score's `get_idf_dict` plus its zeroing of the specials:
 * `idf(t) = ln((M+1)/(df(t)+1))`, unseen ids `ln(M+1)`, special ids 0. `references` are the
 * tokenized reference texts (specials included, as bert_score counts them), all of them
 * flattened over candidates: bert_score computes idf on its flattened `refs` list, so a
 * reference text given for two candidates counts twice.
 */
export function computeIdf(
  references: readonly (readonly number[])[],
  specialIds: readonly number[],
): IdfWeights {
  const df = new Map<number, number>()
  for (const ids of references) {
    for (const id of new Set(ids)) df.set(id, (df.get(id) ?? 0) + 1)
  }
  const m = references.length
  const zero = new Set(specialIds)
  const unseen = Math.log((m + 1) / 1)
  return {
    kind: 'idf',
    documents: m,
    documentFrequency: df,
    weightOf(id) {
      if (zero.has(id)) return 0
      const c = df.get(id)
      return c === undefined ? unseen : Math.log((m + 1) / (c + 1))
    },
  }
}

function unitRows(e: TokenEmbeddings): Float64Array {
  const n = e.ids.length
  const d = e.dim
  if (e.vectors.length !== n * d) {
    throw new RangeError(`embeddings hold ${e.vectors.length} numbers, expected ${n} tokens × ${d}`)
  }
  const out = new Float64Array(n * d)
  for (let t = 0; t < n; t++) {
    let s = 0
    for (let k = 0; k < d; k++) {
      const v = e.vectors[t * d + k]!
      s += v * v
    }
    const norm = Math.sqrt(s)
    for (let k = 0; k < d; k++) out[t * d + k] = e.vectors[t * d + k]! / norm
  }
  return out
}

/**
 * Σ_t (w(ids[t]) / Σ w)·best[t], normalising the weights first and summing in token order, as
 * bert_score does (`idf.div_(idf.sum())`, then `(word_precision * scale).sum()`). NaN when the
 * weights sum to 0 (bert_score's 0/0).
 */
function weightedMean(ids: readonly number[], best: Float64Array, weights: TokenWeights): number {
  const w = ids.map((id) => weights.weightOf(id))
  let total = 0
  for (const v of w) total += v
  let sum = 0
  for (let t = 0; t < ids.length; t++) sum += (w[t]! / total) * best[t]!
  return sum
}

/**
 * BERTScore of one candidate against one reference, from their token embeddings (specials
 * included). See the file comment for the formulas and the empty-text rule.
 */
export function bertScoreFromEmbeddings(
  candidate: TokenEmbeddings,
  reference: TokenEmbeddings,
  weights: TokenWeights,
): BertScoreValue {
  if (candidate.dim !== reference.dim)
    throw new RangeError(`embedding sizes differ: ${candidate.dim} and ${reference.dim}`)
  const d = candidate.dim
  const x = unitRows(candidate)
  const y = unitRows(reference)
  const k = candidate.ids.length
  const l = reference.ids.length
  const p = new Float64Array(k).fill(-Infinity)
  const r = new Float64Array(l).fill(-Infinity)
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < l; j++) {
      let s = 0
      for (let c = 0; c < d; c++) s += x[i * d + c]! * y[j * d + c]!
      if (s > p[i]!) p[i] = s
      if (s > r[j]!) r[j] = s
    }
  }
  let precision = weightedMean(candidate.ids, p, weights)
  let recall = weightedMean(reference.ids, r, weights)
  let f1 = (2 * precision * recall) / (precision + recall)
  if (k === EMPTY_TEXT_LENGTH || l === EMPTY_TEXT_LENGTH) {
    precision = 0
    recall = 0
  }
  if (Number.isNaN(f1)) f1 = 0
  return { precision, recall, f1 }
}

/** torch's max: NaN if either is NaN. */
function maxNaN(a: number, b: number): number {
  return Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b)
}

/**
 * bert_score's multi-reference rule: the element-wise max over the references, separately for
 * P, R and F (`all_preds[beg:end].max(dim=0)`); NaN propagates. An empty list is an error
 * (bert_score raises on it too).
 */
export function bestOverReferences(scores: readonly BertScoreValue[]): BertScoreValue {
  if (scores.length === 0) throw new RangeError('BERTScore needs at least one reference')
  let { precision, recall, f1 } = scores[0]!
  for (const s of scores.slice(1)) {
    precision = maxNaN(precision, s.precision)
    recall = maxNaN(recall, s.recall)
    f1 = maxNaN(f1, s.f1)
  }
  return { precision, recall, f1 }
}

/** Rescale baselines b for P, R and F (one row of a bert_score `rescale_baseline` file). */
export interface RescaleBaseline {
  readonly precision: number
  readonly recall: number
  readonly f1: number
}

/**
 * Baseline rescaling, `x̂ = (x − b)/(1 − b)` for P, R and F independently (bert_score's
 * `(all_preds - baselines) / (1 - baselines)`). A score of 1 stays 1; a score equal to the
 * baseline becomes 0; scores below the baseline become negative.
 */
export function rescale(value: BertScoreValue, baseline: RescaleBaseline): BertScoreValue {
  return {
    precision: (value.precision - baseline.precision) / (1 - baseline.precision),
    recall: (value.recall - baseline.recall) / (1 - baseline.recall),
    f1: (value.f1 - baseline.f1) / (1 - baseline.f1),
  }
}
