/**
 * The vocabulary of run fusion: methods, score normalisations, options and the fused result.
 * Pure data; no I/O.
 */

/** Fusion methods (`--method`). */
export const FUSION_METHODS = [
  'rrf',
  'combsum',
  'combmnz',
  'combmax',
  'combmin',
  'combmed',
  'combanz',
  'wsum',
  'borda',
] as const
/** One of {@link FUSION_METHODS}. */
export type FusionMethod = (typeof FUSION_METHODS)[number]

/** Methods that read only ranks (positions), never scores: they take no normalisation. */
export const RANK_METHODS: readonly FusionMethod[] = ['rrf', 'borda']

/** Per-run, per-query score normalisations (`--norm`). */
export const NORMALIZATIONS = ['none', 'minmax', 'zscore', 'sum', 'rank'] as const
/** One of {@link NORMALIZATIONS}. */
export type Normalization = (typeof NORMALIZATIONS)[number]

/** Default RRF constant k (Cormack, Clarke and Büttcher, SIGIR 2009). */
export const DEFAULT_RRF_K = 60
/** Default number of documents written per query. */
export const DEFAULT_FUSE_DEPTH = 1000

/**
 * One input run's documents for one query, deduplicated and in rank order (rank i+1 at index i):
 * the form every fusion method reads.
 */
export interface RankedList {
  /** Binary-string doc ids (see `io/bytes.ts`). */
  readonly docIds: readonly string[]
  /** Scores, possibly normalised, parallel to `docIds`. */
  readonly scores: readonly number[]
}

/**
 * The lists of every input run for one query, in input order; `undefined` where a run did not
 * retrieve anything for the query. A document missing from a list is absent for that run: it
 * contributes nothing (not a zero score) and, for CombMNZ/CombANZ/CombMIN/CombMED, does not count.
 */
export type QueryLists = readonly (RankedList | undefined)[]

/** Options of {@link fuse}. */
export interface FuseOptions {
  readonly method: FusionMethod
  /** Score normalisation applied per run and query before fusing. @default 'minmax' for score methods, 'none' for rrf and borda */
  readonly norm?: Normalization
  /** RRF constant k. @default 60 */
  readonly k?: number
  /** wsum weights, one per input run. @default 1 for every run */
  readonly weights?: readonly number[]
  /** Documents written per query. @default 1000 */
  readonly depth?: number
  /** Keep equal fused scores as they are (else they are made strictly decreasing). @default false */
  readonly keepTies?: boolean
  /** Run tag of the fused run. @default 'fused' */
  readonly tag?: string
}

/** One document of a fused query. */
export interface FusedDoc {
  /** Binary-string doc id. */
  readonly docId: string
  /** The score written to the run (strictly decreasing down the list unless `keepTies`). */
  readonly score: number
  /** The fused value before tie-breaking (equal to `score` unless a tie was broken). */
  readonly fused: number
}

/** What fusion dropped, deduplicated or changed (never silent). */
export interface FuseCounts {
  readonly inputRuns: number
  /** Distinct queries over all input runs. */
  readonly queries: number
  /** Per query, how many input runs lacked it, summed over queries. */
  readonly missingQueryRuns: number
  /** Repeated (query, doc) lines inside one input run; the highest-ranked occurrence was kept. */
  readonly duplicatesRemoved: number
  /** Fused documents below `depth` and not written. */
  readonly cutByDepth: number
  /** Documents whose written score was lowered (by the fewest ulps) to break a tie. */
  readonly tiesBroken: number
}

/** A fused run: per query (byte order of query id), the documents in rank order. */
export interface FusedRun {
  readonly tag: string
  readonly method: FusionMethod
  readonly norm: Normalization
  readonly queries: ReadonlyMap<string, readonly FusedDoc[]>
  readonly counts: FuseCounts
  /** The options in force, with defaults filled in (for reports). */
  readonly settings: {
    readonly k: number
    readonly weights: readonly number[] | null
    readonly depth: number
    readonly keepTies: boolean
  }
}
