import type { JudgedRanking } from '../rank/judged-ranking.js'
import { defineMeasure } from './measure.js'
import { REL, relOf } from './params.js'

/**
 * Understandability-biased bpref (trectools 0.0.50 `get_ubpref`; Zuccon, "Understandability
 * biased evaluation for information retrieval", ECIR 2016). Over the retrieved docs that are
 * judged (grade ≥ 0) **and** have an auxiliary value u (`--aux-qrels`; an inner join, so other
 * docs are skipped and never count as non-relevant), in order:
 *   uBpref = Σ_{relevant i} (1 − min(n_i, R) / min(R, N)) · (u_i · factor) / R
 * n_i = the judged non-relevant docs (0 ≤ grade < rel) above i among those docs, R and N the
 * query's relevant and judged non-relevant counts (every judgment, retrieved or not). With N = 0
 * every term is 0/0, which trectools' pandas sum skips: the value is 0. Negative labels count as
 * neither (trectools drops them when reading: `--negative-judgments unjudged`).
 * Order: trectools sorts this measure by score descending, ties by docno **descending** (its
 * `trec_eval=True`), whatever the run file's order; `ties='break'` keeps the ordering convention's
 * ranking instead.
 */
export function ubpref(q: JudgedRanking, rel: number, factor = 1, tiesDocidDesc = true): number {
  const docs = q.docs
  const aux = docs?.aux
  if (!docs || !aux) return 0
  const R = numAtLeast(q, rel)
  if (R === 0) return 0
  let N = 0
  for (let g = 0; g < Math.min(rel, q.relLevels.length); g++) N += q.relLevels[g]!
  const den = Math.min(R, N)
  if (den === 0) return 0
  const order = Array.from({ length: q.numRet }, (_, i) => i)
  if (tiesDocidDesc) {
    const s = docs.scores
    const ids = docs.ids
    order.sort((a, b) =>
      s[a]! > s[b]!
        ? -1
        : s[a]! < s[b]!
          ? 1
          : ids[a]! < ids[b]!
            ? 1
            : ids[a]! > ids[b]!
              ? -1
              : a - b,
    )
  }
  let n = 0
  let sum = 0
  for (const i of order) {
    const g = q.grades[i]!
    const u = aux[i]!
    if (g < 0 || Number.isNaN(u)) continue
    if (g >= rel) sum += ((1 - Math.min(n, R) / den) * (u * factor)) / R
    else n++
  }
  return sum
}

/** Judged docs of the query with grade ≥ rel. */
function numAtLeast(q: JudgedRanking, rel: number): number {
  let r = 0
  for (let g = Math.max(0, rel); g < q.relLevels.length; g++) r += q.relLevels[g]!
  return r
}

/** uBpref (trectools `get_ubpref`). */
export const ubprefMeasure = defineMeasure({
  name: 'uBpref',
  aliases: [],
  summary:
    'Understandability-biased bpref: bpref terms times the auxiliary value of each relevant doc, over judged docs that have one (trectools 0.0.50; --aux-qrels).',
  formula:
    'uBpref = sum_{relevant i} (1 - min(n_i, R)/min(R, N)) * u_i * factor / R, n_i = non-relevant above i',
  params: {
    factor: {
      type: 'float',
      default: 1,
      range: { min: 0 },
      doc: "multiplies each auxiliary value (trectools' normalization_factor)",
    },
    rel: REL,
    ties: {
      type: 'string',
      choices: ['docid-desc', 'break'],
      default: 'docid-desc',
      doc: "docid-desc: score descending, ties by docno descending, as trectools sorts (trec_eval=True); break: the ordering convention's ranking",
    },
  },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  needsAux: true,
  compute: (q, p, ctx) =>
    ubpref(q, relOf(p.values.rel, ctx), p.values.factor, p.values.ties === 'docid-desc'),
})
