import { NOT_POOLED, UNJUDGED } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import { ascendingOrder, zeros } from './cutoffs.js'
import { defineMeasure, defineTrecEvalMeasure, teValues } from './measure.js'
import { cutOf } from './params.js'
import { TREC_EVAL_UNJ_CUTOFFS } from './trec-eval-defaults.js'

/**
 * Unjudged at k (trec_eval `unj.k`): the share of the top k that is absent from the qrels or has
 * a negative judgment, dividing by k even when fewer docs were retrieved.
 * Judged@k (ir_measures) is computed the same way over judged docs: 1 − unj@k when k ≤ n.
 */
export function unjudgedAt(q: JudgedRanking, cutoffs: readonly number[]): number[] {
  const out = zeros(cutoffs.length)
  let unjudged = 0
  let i = 0
  for (const at of ascendingOrder(cutoffs)) {
    const k = cutoffs[at]!
    for (const limit = Math.min(k, q.numRet); i < limit; i++) if (q.grades[i]! < 0) unjudged++
    out[at] = unjudged / k
  }
  return out
}

/**
 * Judged at k (ir_measures `Judged@k`): docs of the top k that the qrels list, whatever their
 * label (a negative label counts as judged, as ir_measures' judged provider looks the doc up in
 * the qrels), divided by min(k, n); 0 when nothing was retrieved. Without k, over the whole run.
 * Reference: ir_measures 0.4.3 `judged` provider (test/fixtures/measures-extra, ir_measures-judged).
 */
export function judgedAt(q: JudgedRanking, cutoffs: readonly number[]): number[] {
  const pc = new Int32Array(q.numRet + 1)
  let c = 0
  for (let i = 0; i < q.numRet; i++) {
    if (q.grades[i]! !== NOT_POOLED) c++
    pc[i + 1] = c
  }
  return cutoffs.map((k) => {
    const n = Math.min(k, q.numRet)
    return n ? pc[n]! / n : 0
  })
}

/**
 * Relevance string (trec_eval `relstring.N`): one character per top-N doc: the grade digit,
 * `>` above 9, `-` not in the qrels, `.` negative judgment.
 */
export function relString(q: JudgedRanking, length: number): string {
  const n = Math.max(0, Math.min(length, q.numRet))
  let s = ''
  for (let i = 0; i < n; i++) {
    const v = q.grades[i]!
    s +=
      v > 9
        ? '>'
        : v >= 0
          ? String.fromCharCode(48 + v)
          : v === NOT_POOLED
            ? '-'
            : v === UNJUDGED
              ? '.'
              : '<'
  }
  return s
}

/** Judged at k (ir_measures `Judged@k`; not in trec_eval). */
export const judgedMeasure = defineMeasure({
  name: 'Judged',
  aliases: [],
  summary: 'Share of the top k documents (of all retrieved without k) that are judged.',
  formula:
    'Judged@k = |{d in top k : d in the qrels, any label}| / min(k, n); Judged = the same over all n retrieved',
  params: {},
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: false,
  compute: (q, p) => judgedAt(q, [cutOf(p.at)])[0]!,
})

/** Unjudged at k (trec_eval 10 `unj.k`). */
export const unjudgedMeasure = defineMeasure({
  name: 'Unjudged',
  aliases: ['unj'],
  summary: 'Share of the top k that is unjudged, dividing by k (trec_eval unj.k).',
  formula: 'unj@k = |{d in top k : d unjudged}| / k',
  params: {},
  at: 'cutoff',
  atRequired: true,
  aggregate: 'mean',
  needsRelevant: false,
  trecEval: [
    {
      name: 'unj',
      params: 'long-cutoffs',
      defaults: TREC_EVAL_UNJ_CUTOFFS,
      v10Only: true,
      compute: (q, p) => unjudgedAt(q, teValues(p)),
    },
  ],
  compute: (q, p) => unjudgedAt(q, [cutOf(p.at)])[0]!,
})

/** trec_eval `relstring.N` (drop-in only): a string per query, no summary. */
export const relStringTrecEval = defineTrecEvalMeasure({
  name: 'relstring',
  params: 'double-params',
  defaults: [10],
  perQuery: 'string',
  summary: 'none',
  compute: () => [0],
  text: (q, p) => relString(q, Math.trunc(teValues(p)[0] ?? 10)),
})
