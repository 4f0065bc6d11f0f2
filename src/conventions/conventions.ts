/**
 * Every choice that changes a number, as one typed value. Presets and CLI flags select one;
 * every report prints the conventions it used. Nothing here is global state.
 */

/** How the retrieved documents of a query are put in order. */
export type Ordering =
  /** Score descending, ties by docId descending in byte order; rank column ignored (trec_eval). */
  | 'score-docid-desc'
  /** Score descending, ties by docId ascending in byte order (ir_measures' Judged and Compat, pyndeval, trectools). */
  | 'score-docid-asc'
  /** Score descending, ties kept in file order (stable; cwl_eval / RBP providers). */
  | 'score-file-order'
  /** The rank column ascending, ties in file order. */
  | 'rank'
  /** File order as given. */
  | 'file-order'

/** How a doc retrieved twice for one query is handled. */
export type DuplicatePolicy =
  /** Refuse to score the query (trec_eval: "duplicate docs"). */
  | 'error'
  /** Keep the first line in file order. */
  | 'keep-first'
  /** Keep the last line in file order (pytrec_eval's dict semantics). */
  | 'keep-last'
  /** Keep the first occurrence in ranking order (after ordering). */
  | 'keep-first-ranked'
  /** Keep every line. */
  | 'keep-all'

/**
 * What a negative qrels label means. `nonrelevant`: the doc is judged, never relevant (its
 * label is kept: trec_eval's unj and bpref still count it unjudged, as trec_eval does; gdeval,
 * cwl_eval). `unjudged`: the line is dropped when the qrels are read, so the doc is unjudged
 * (trectools); a query judged only negative stays in the query set with no judgment (trectools
 * drops it, which no convention reproduces). `error`: a negative label is a
 * usage error naming every such line (ndeval).
 */
export type NegativeJudgments = 'nonrelevant' | 'unjudged' | 'error'

/** Gain of a judged document in DCG-like measures. */
export type GainSpec =
  | { readonly kind: 'grade' }
  | { readonly kind: 'exp' }
  | { readonly kind: 'binary' }
  | { readonly kind: 'map'; readonly gains: Readonly<Record<number, number>> }

/**
 * How interpolated precision turns a recall level r into a count of relevant docs c:
 * `lround` c = lround(r·R) (trec_eval 10.0), `plus-0.9` c = (long)(r·R + 0.9) (trec_eval 9.0.8,
 * and so pytrec_eval and ranx).
 */
export type RecallRounding = 'lround' | 'plus-0.9'

/** The conventions in force for one evaluation. */
export interface Conventions {
  /** Document ordering and tie-breaking. */
  readonly ordering: Ordering
  /** float64 (trec_eval 10) or float32 (trec_eval 9, pytrec_eval: `Math.fround`). */
  readonly scorePrecision: 'float64' | 'float32'
  /** Duplicate docs within a query. */
  readonly duplicates: DuplicatePolicy
  /** Docs not in the corpus id list: keep, or discard before any depth cut. */
  readonly unknownDocs: 'keep' | 'discard'
  /** Qrels queries absent from the run: skip them, or score them 0 and count them. */
  readonly missingQueries: 'skip' | 'zero'
  /** Run queries without qrels: always ignored (and counted). */
  readonly extraQueries: 'ignore'
  /** Keep only the top `depth` docs per query (trec_eval `-M`); `null` = no cap. */
  readonly depth: number | null
  /** Drop unjudged docs (absent or negative in qrels) before measuring (trec_eval `-J`). */
  readonly judgedOnly: boolean
  /** Negative qrels labels: judged non-relevant, dropped at read (unjudged), or an error. */
  readonly negativeJudgments: NegativeJudgments
  /** Lowest grade counted relevant by binary measures (trec_eval `-l`). */
  readonly relevanceLevel: number
  /** IPrec's recall-level rounding: trec_eval 10 `lround`, 9.0.8 `plus-0.9`. */
  readonly recallRounding: RecallRounding
  /** Default gain of nDCG-style measures that take a gain (a measure's own `gains` wins). */
  readonly gains: GainSpec
  /** How queries are keyed: the qid, or (group, qid) where ids collide across groups. */
  readonly queryKey: 'qid' | 'group-qid'
  /**
   * Queries with no relevant document: measures that need one score 0 (trec_eval), or are
   * undefined (`null`), kept out of means and counted separately.
   */
  readonly queriesWithoutRelevant: 'zero' | 'undefined'
  /** Read `#` lines as comments (trec_eval 10). */
  readonly comments: boolean
}
