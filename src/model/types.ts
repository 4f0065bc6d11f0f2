/**
 * Core data: judgments and rankings. Ids are binary strings (one char per byte, see
 * `io/bytes.ts`), so comparisons are byte-wise like C `strcmp`.
 */

/** The judgments of one query. */
export interface QueryJudgments {
  readonly queryId: string
  /** docId → grade (the qrels label). Negative grades mean "pooled but unjudged". */
  readonly grades: ReadonlyMap<string, number>
  /** `relLevels[g]` = number of judged docs with grade g, for g ≥ 0. */
  readonly relLevels: readonly number[]
  /** Highest label of any judgment of the query, negative ones included. */
  readonly maxJudgment: number
  /** Docs judged more than once (byte order of docId; the first is what trec_eval names). */
  readonly duplicateDocs: readonly string[]
  /** Physical line of each judgment's first occurrence (for messages). */
  readonly lines: ReadonlyMap<string, number>
  /** The same grades, probed by the ids' precomputed hashes (built by the parser; else on use). */
  readonly table?: JudgmentLookup
}

/** Grade lookup for the documents of a run query by their precomputed id hashes. */
export interface JudgmentLookup {
  /** The grade of document `i` of `run` (whose id hash is `hash`), or `undefined` if unjudged. */
  getDoc(run: RunQuery, i: number, hash: number): number | undefined
}

/**
 * Diversity judgments of one query (`topic subtopic docno judgment`, ndeval's format), binarised:
 * a judgment > 0 makes the doc relevant to the subtopic. Only subtopics with a relevant doc count.
 */
export interface SubtopicJudgments {
  /** S: subtopics with at least one relevant doc. */
  readonly count: number
  /** docId → the indices (0 … S−1, ascending) of the subtopics it is relevant to; relevant docs only. */
  readonly docs: ReadonlyMap<string, readonly number[]>
  /** Relevant docs per subtopic index. */
  readonly relevantPerSubtopic: readonly number[]
}

/** A qrels file: judgments per query, in order of first appearance. */
export interface Qrels {
  readonly queries: ReadonlyMap<string, QueryJudgments>
  /** Diversity qrels only: the subtopic judgments per query (`queries` holds each doc's highest judgment). */
  readonly subtopics?: ReadonlyMap<string, SubtopicJudgments>
  /** Lines that were comments and skipped. */
  readonly commentLines: number
  /** Number of judgment lines read. */
  readonly judgmentLines: number
  /**
   * How negative labels were read (`negativeJudgments` convention) and how many lines that
   * dropped (`unjudged`); absent when the qrels were not read by the parser.
   */
  readonly negativeJudgments?: {
    readonly policy: 'nonrelevant' | 'unjudged' | 'error'
    readonly dropped: number
  }
}

/** Doc ids stored as bytes: document i is `bytes[offsets[i], offsets[i + 1])`. */
export interface DocBytes {
  readonly bytes: Uint8Array
  readonly offsets: number[]
}

/**
 * The documents one query retrieved, in file order. Ids are either `docIds` (strings) or, from
 * the streaming parser in compact mode, `docBytes` (then `docIds` is empty); read them through
 * `model/run-query.ts` (`docCount`, `docIdAt`, `docIdsOf`).
 */
export interface RunQuery {
  readonly queryId: string
  readonly docIds: string[]
  /** Doc ids as bytes (compact mode); when present, `docIds` is empty. */
  readonly docBytes?: DocBytes
  /** Parsed scores (after the score-precision convention). */
  readonly scores: number[]
  /** Parsed rank column (`NaN` when not an integer); only when asked for. */
  readonly ranks: number[] | null
  /** Physical line number of each document. */
  readonly lines: number[]
  /** 32-bit hash of each doc id (`hashId`: MurmurHash3-style, 4 bytes at a time), filled by the parser; computed when absent. */
  readonly docHashes?: number[]
}

/** A run: retrieved documents per query, in order of first appearance, plus the run tag. */
export interface Run {
  readonly queries: ReadonlyMap<string, RunQuery>
  /** The run tag of the last line (what trec_eval's `runid` prints). */
  readonly tag: string
  /** Every distinct run tag, in order of first appearance. */
  readonly tags: readonly string[]
  /** Number of document lines read. */
  readonly lineCount: number
}

/** Relevance value of a retrieved doc that is absent from the qrels ("not in pool"). */
export const NOT_POOLED = -1
/** Relevance value of a retrieved doc judged with a negative label ("pooled, unjudged"). */
export const UNJUDGED = -2
