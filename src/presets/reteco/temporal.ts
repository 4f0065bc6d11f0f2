/**
 * Temporal diagnostics of RETECO Track 1 (per topic), on the labels of the top of a ranking.
 *
 * Notation: the cleaned ranking r_1, r_2, …; n = min(k, length); v_i ∈ {0, 1} the temporal
 * relevance label of r_i; w_i = 1 / log2(i + 1).
 */

/**
 * Temporal Precision@k, RETECO offline definition (`ir_metrics.temporal_precision_at_k`): the
 * DCG-weighted share of temporally relevant documents in the top n:
 *
 *   TP@k = Σ_{i≤n} w_i·v_i / Σ_{i≤n} w_i,   0 for an empty ranking.
 *
 * Equivalently DCG@k of the ranking over the DCG@k of n relevant documents. Example: labels
 * 1 0 0 0 0 at k = 5 give 0.339160.
 */
export function temporalPrecisionReteco(labels: readonly boolean[], k: number): number {
  const n = Math.min(k, labels.length)
  if (n === 0) return 0
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) {
    const w = 1 / Math.log2(i + 2)
    if (labels[i]) num += w
    den += w
  }
  return num / den
}

/**
 * Temporal Precision@k, TEMPO paper definition (`temporal_metrics.py`, eq. 1), named `TP-TEMPO@k`:
 * average precision over the temporally relevant documents *retrieved* in the top n. With
 * R = { i ≤ n : v_i = 1 },
 *
 *   TP-TEMPO@k = (1/|R|) Σ_{r∈R} |{ j ∈ R : j ≤ r }| / r,   0 when R is empty.
 *
 * Examples (k = 5): 1 0 0 0 0 → 1.0; 0 0 0 0 1 → 0.2; 1 1 0 0 0 → 1.0.
 */
export function temporalPrecisionTempo(labels: readonly boolean[], k: number): number {
  const n = Math.min(k, labels.length)
  let hits = 0
  let sum = 0
  for (let i = 0; i < n; i++) {
    if (labels[i]) {
      hits++
      sum += hits / (i + 1)
    }
  }
  return hits ? sum / hits : 0
}

/**
 * Temporal Relevance@k (`ir_metrics.temporal_relevance_at_k`): the share of the top n judged
 * temporally relevant:  TR@k = Σ_{i≤n} v_i / n,  0 for an empty ranking. With qrels as labels this
 * is P@k whenever at least k documents were retrieved.
 */
export function temporalRelevance(labels: readonly boolean[], k: number): number {
  const n = Math.min(k, labels.length)
  if (n === 0) return 0
  let hits = 0
  for (let i = 0; i < n; i++) if (labels[i]) hits++
  return hits / n
}

/**
 * Temporal Coverage@k (`ir_metrics.temporal_coverage_at_k`): the fraction of the required
 * periods P covered by at least one of the top n documents, with C(d) the periods document d
 * covers:
 *
 *   TC@k = |P ∩ ∪_{i≤n} C(r_i)| / |P|,   `null` (undefined, left out of means) when P is empty.
 */
export function temporalCoverage(
  required: readonly string[] | null,
  covered: readonly (readonly string[])[],
  k: number,
): number | null {
  if (!required || required.length === 0) return null
  const want = new Set(required)
  const got = new Set<string>()
  const n = Math.min(k, covered.length)
  for (let i = 0; i < n; i++) for (const p of covered[i]!) if (want.has(p)) got.add(p)
  return got.size / want.size
}
