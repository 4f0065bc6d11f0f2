/**
 * The embedding diagnostic beside the judge: per turn BERTScore F1 (bert_score's greedy
 * matching on a local ONNX model, see generation/bertscore) of the answer against the turn's
 * reference, macro over turns:
 *
 *   BERTScore = (1/n) Σ_turns F1(answer, reference),  F1 = 2PR / (P + R)
 *
 * with the same turn rules as the lexical diagnostics: an unanswered target turn scores 0
 * (counted), an answered turn without a reference is not scored (counted). Only computed when
 * a model is given (`judge run --bertscore-model DIR`, or a judged track's `judge.bertscore`).
 */
import type { BertScorer } from '../bertscore/scorer.js'
import type { JudgeItem } from './items.js'

/** BERTScore of a set of items. */
export interface EmbeddingDiagnostics {
  readonly method: string
  /** Mean F1 over the scored turns (null: none). */
  readonly f1: number | null
  readonly precision: number | null
  readonly recall: number | null
  /** Scored turns (answered with a reference, and unanswered ones at 0). */
  readonly turns: number
  readonly unanswered: number
  readonly noReference: number
  /** The model, layer, options and hashes (BertScorer.describe()). */
  readonly model: Record<string, unknown>
}

/** Score every item with a reference (see the module comment). */
export async function embeddingDiagnostics(
  items: readonly JudgeItem[],
  scorer: BertScorer,
): Promise<EmbeddingDiagnostics> {
  const scored = items.filter((i) => i.answer !== null && i.reference)
  const unanswered = items.filter((i) => i.answer === null).length
  const noReference = items.filter((i) => i.answer !== null && !i.reference).length
  const s = scored.length
    ? await scorer.score(
        scored.map((i) => i.answer!),
        scored.map((i) => [i.reference!]),
      )
    : []
  const n = s.length + unanswered
  const mean = (pick: (x: (typeof s)[number]) => number): number | null =>
    n ? s.reduce((acc, x) => acc + pick(x), 0) / n : null
  return {
    method:
      "BERTScore (bert_score's greedy matching, local ONNX model) of each answer against the turn's reference; unanswered target turns 0; macro over turns",
    f1: mean((x) => x.f1),
    precision: mean((x) => x.precision),
    recall: mean((x) => x.recall),
    turns: n,
    unanswered,
    noReference,
    model: scorer.describe(),
  }
}
