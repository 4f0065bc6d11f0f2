import type { QueryJudgments, SubtopicJudgments } from '../model/types.js'

/**
 * A query's ranking joined with its judgments, prepared once and shared by every measure
 * (trec_eval's `RES_RELS`). Ranks are 0-based indices into `grades`.
 */
export interface JudgedRanking {
  readonly queryId: string
  /** Grade of the doc at each rank: ≥ 0 judged, `NOT_POOLED` (-1) absent, `UNJUDGED` (-2) negative. */
  readonly grades: Int32Array
  /** Number of ranked docs (after depth cut and judged-only). */
  readonly numRet: number
  /** `relLevels[g]` = judged docs of the query with grade g (retrieved or not), g ≥ 0. */
  readonly relLevels: readonly number[]
  /** 1 + the highest grade with at least one judged doc. */
  readonly numRelLevels: number
  /** Relevance level of the conventions: grade ≥ this is relevant. */
  readonly relevanceLevel: number
  /** Judged docs with grade ≥ `relevanceLevel` (R). */
  readonly numRel: number
  /** Ranked docs with grade ≥ `relevanceLevel`. */
  readonly numRelRet: number
  /** Ranked docs absent from the qrels. */
  readonly numNonpool: number
  /** Ranked docs with a negative judgment. */
  readonly numUnjudgedInPool: number
  /**
   * An upper bound on 1 + the rank of the last ranked doc with a positive grade (0: none), set by
   * `prepareQuery` so that scans for relevant docs or nonzero gains can stop there
   * ({@link relevantEnd}). A view that drops or cuts docs keeps it valid (it stays an upper
   * bound); one that reorders the grades must leave it out.
   */
  readonly positiveEnd?: number
  /**
   * The doc id at each rank (binary strings), only when asked for (`PrepareOptions.docIds`: a
   * measure that looks up extra labels by doc).
   */
  readonly docIds?: readonly string[]
  /** Diversity qrels only: the query's subtopic judgments and the subtopics of each ranked doc. */
  readonly diversity?: RankingSubtopics
  /**
   * The ranked docs themselves (ids, scores, the query's judgments, aux values), made only when a
   * measure declares `needsDocs` or `needsAux` (Compat, tie averaging, uRBP).
   */
  readonly docs?: RankingDocs
}

/** The docs of a ranking, by rank (see {@link JudgedRanking.docs}). */
export interface RankingDocs {
  /** Doc id at each rank (binary string). */
  readonly ids: readonly string[]
  /** Score at each rank, as the run gave it (after the score-precision convention). */
  readonly scores: Float64Array
  /** The query's judgments (every judged doc, in qrels file order). */
  readonly judgments: QueryJudgments
  /** Auxiliary value (e.g. understandability, `--aux-qrels`) at each rank, NaN where the doc has none; only with aux qrels. */
  readonly aux?: Float64Array
}

/** Subtopics of a ranking (diversity measures, `measures/diversity.ts`). */
export interface RankingSubtopics {
  readonly judgments: SubtopicJudgments
  /** Per rank: the subtopic indices its doc is relevant to (empty when none). */
  readonly ranked: readonly (readonly number[])[]
}

/**
 * Where a scan of the ranking for docs of grade ≥ `rel` may stop: past the last doc with a
 * positive grade when `rel` ≥ 1 (and the ranking says where that is), else at the end.
 */
export function relevantEnd(q: JudgedRanking, rel: number): number {
  const end = q.positiveEnd
  return rel >= 1 && end !== undefined && end < q.numRet ? end : q.numRet
}

/** R for relevance level `rel`: judged docs of the query with grade ≥ `rel`. */
export function numRelAt(q: JudgedRanking, rel: number): number {
  if (rel === q.relevanceLevel) return q.numRel
  let n = 0
  for (let g = Math.max(0, rel); g < q.relLevels.length; g++) n += q.relLevels[g]!
  return n
}

/** Relevant retrieved docs for level `rel`. */
export function numRelRetAt(q: JudgedRanking, rel: number): number {
  if (rel === q.relevanceLevel) return q.numRelRet
  let n = 0
  const g = q.grades
  for (let i = 0; i < q.numRet; i++) if (g[i]! >= rel) n++
  return n
}
