/**
 * Labels beyond the qrels that some measures read, per query and keyed by document: the
 * evaluator asks a {@link LabelProvider} for a query's {@link QueryLabels} and gives them to
 * the measures in their context, with the ranked doc ids, only when a measure declares
 * `needsLabels` (the trec_eval measures never pay for it). Pure types.
 */

/**
 * The temporal labels of one query (RETECO Track 1 and 2): which documents are temporally
 * relevant, the periods a query must cover, and the periods each document covers. Doc and
 * period ids are the engine's binary strings.
 */
export interface TemporalLabels {
  /** Period ids the query must cover; `null` when it has none (TC undefined). */
  readonly requiredPeriods: readonly string[] | null
  /** Whether the document is temporally relevant for the query; `undefined` when unlabelled. */
  relevance(docId: string): boolean | undefined
  /** The period ids the document covers for the query (empty when none or unlabelled). */
  periods(docId: string): readonly string[]
}

/** The extra labels of one query, by kind (a measure names the kind it needs). */
export interface QueryLabels {
  readonly temporal?: TemporalLabels
}

/** A kind of extra labels (`temporal`). */
export type LabelKind = keyof QueryLabels

/** The labels of a query, by the query id the evaluator keys it with; `undefined`: none. */
export type LabelProvider = (queryId: string) => QueryLabels | undefined
