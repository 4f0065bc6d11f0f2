/**
 * The types the drop-in's modules share (its measure rows, what a query's measures read, where
 * it writes), here so that no module imports `trec-eval.ts` for them.
 */
import type { TeContext, TeParams, TrecEvalMeasure } from '../measures/measure.js'
import type { RunQuery } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import type { PrefCounts } from './prefs/pref-counts.js'

export type { ParamKind, TeContext, TeParams } from '../measures/measure.js'

/** Where the drop-in writes. Strings are binary strings (one char per byte). */
export interface TrecEvalIO {
  out(text: string): void
  err(text: string): void
  /**
   * Optional: write standard output as bytes (what `out` would get as a binary string). The
   * bytes are the caller's to keep. Large outputs (`-q`) then skip the round trip through text.
   */
  outBytes?(bytes: Uint8Array): void
}

/** A measure of the judged ranking of a `-R qrels` file (trec_eval's `form_res_rels`). */
export interface TeMeasure extends TrecEvalMeasure {
  readonly input?: 'qrels'
}

/** What every row of the table has besides its computation. */
type TeMeasureRow = Omit<TrecEvalMeasure, 'compute' | 'text'>

/** A measure of the preference counts of a `-R prefs` or `-R qrels_prefs` file. */
export interface TePrefsMeasure extends TeMeasureRow {
  readonly input: 'prefs'
  compute(c: PrefCounts, p: TeParams, ctx: TeContext): number[]
}

/** A measure of the judgment groups of a `-R qrels_jg` file (one judged ranking per group). */
export interface TeJgMeasure extends TeMeasureRow {
  readonly input: 'qrels_jg'
  compute(groups: readonly JudgedRanking[], p: TeParams, ctx: TeContext): number[]
}

/** Any row of the table. */
export type TeAnyMeasure = TeMeasure | TePrefsMeasure | TeJgMeasure

/** One requested measure after parameter parsing. */
export interface ActiveMeasure {
  readonly def: TeAnyMeasure
  readonly params: TeParams
  /** Printed names, one per value. */
  readonly names: readonly string[]
  /** The names padded to 22 columns and followed by a tab, as printed. */
  readonly labels: readonly string[]
  /** {@link labels} as bytes. */
  readonly labelBytes: readonly Buffer[]
}

/** A prepared measure input, or trec_eval's stderr text saying why it cannot be prepared. */
export type Prepared<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string }

/**
 * What the measures of one query read, each prepared on first use (trec_eval caches them per
 * query). A relevance format supplies only its own kind; measures of another kind fail.
 */
export interface QueryInputs {
  /** The judged ranking (`-R qrels`). */
  readonly qrels?: () => Prepared<JudgedRanking>
  /** Preference counts (`-R prefs`, `-R qrels_prefs`). */
  readonly prefs?: () => Prepared<PrefCounts>
  /** One judged ranking per judgment group (`-R qrels_jg`). */
  readonly judgmentGroups?: () => Prepared<readonly JudgedRanking[]>
}

/** A relevance file read in one of trec_eval's `-R` formats. */
export interface RelInfo {
  /** Query ids in byte order: the order trec_eval evaluates and prints them. */
  readonly queryIds: readonly string[]
  has(queryId: string): boolean
  /** The inputs of one run query whose id is in this file. */
  inputs(run: RunQuery): QueryInputs
  /** Summary `num_rel` with `-c` (qrels only; see `completeNumRel` in `trec-eval.ts`). */
  completeNumRel?(): number
}
