/**
 * The one orchestrator: prepare each query under the conventions, compute every measure,
 * aggregate over the declared query set, and count everything that was dropped, deduplicated or
 * zero-filled. Pure: no I/O.
 */
import type { Conventions } from '../conventions/conventions.js'
import { resolveConventions } from '../conventions/profiles.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import type { LabelProvider } from '../measures/labels.js'
import { type Measure, type MeasureContext, measureAggregate } from '../measures/measure.js'
import { measureParams, needsDocs, parseMeasures } from '../measures/name.js'
import type { Qrels, Run, RunQuery } from '../model/types.js'
import { GradeArena } from '../rank/grade-arena.js'
import { IdSet } from '../rank/id-hash.js'
import { ValueRows } from '../rank/id-index.js'
import { type JudgedRanking, numRelAt } from '../rank/judged-ranking.js'
import { JudgmentStore } from '../rank/judgment-store.js'
import { applyNegativeJudgments } from '../rank/negative-judgments.js'
import {
  type PrepareCounts,
  type PrepareFailure,
  type PrepareResult,
  prepareQuery,
} from '../rank/prepare.js'
import { type AggregateValue, aggregate } from './aggregate.js'
import { splitGroupedQueryId } from './grouped-keys.js'

/** The per-query outcome of one run. */
export interface QueryResult {
  readonly queryId: string
  /** `evaluated`: in the run; `zero-filled`: missing from the run and scored on an empty ranking. */
  readonly status: 'evaluated' | 'zero-filled'
  /** One value per measure, `null` when undefined for this query. */
  readonly values: readonly (number | null)[]
}

/** Everything that was dropped, deduplicated, cut or zero-filled while evaluating one run. */
export interface EvaluationCounts {
  /** Queries in the declared query set (the qrels queries unless given). */
  readonly declaredQueries: number
  /** Distinct queries in the run. */
  readonly runQueries: number
  readonly evaluatedQueries: number
  /** Declared queries absent from the run, and what happened to them. */
  readonly missingQueries: readonly string[]
  readonly missingPolicy: Conventions['missingQueries']
  /** Run queries outside the declared set (ignored). */
  readonly extraQueries: number
  readonly duplicatesRemoved: number
  readonly unknownDiscarded: number
  readonly cutByDepth: number
  readonly unjudgedDropped: number
  /**
   * Averaged queries whose judgments are all negative: scored with no relevant document (as
   * gdeval, ndeval, cwl_eval, trectools and ir_measures do; trec_eval itself refuses them).
   */
  readonly negativeOnlyQueries: readonly string[]
  /**
   * Qrels lines with a negative label dropped as the qrels were read (`negativeJudgments:
   * 'unjudged'`; 0 under the other policies).
   */
  readonly negativeJudgmentsDropped: number
  /** Queries that could not be evaluated (e.g. duplicate docs under the `error` policy). */
  readonly failedQueries: readonly { readonly queryId: string; readonly failure: PrepareFailure }[]
}

/** What one convention set's preparation dropped, deduplicated or cut (see {@link RunEvaluation.conventionSets}). */
export interface ConventionSetCounts {
  readonly duplicatesRemoved: number
  readonly unknownDiscarded: number
  readonly cutByDepth: number
  readonly unjudgedDropped: number
}

/**
 * A measure computed under conventions of its own (e.g. NeuCLIR's RBP: another tie rule and a
 * depth cut), given to {@link RunEvaluator} instead of a bare {@link Measure}. The conventions
 * must share the evaluator's query set, query key and comment rule (they decide which queries
 * exist, not how one is ranked).
 */
export interface MeasureWithConventions {
  readonly measure: Measure
  readonly conventions: Conventions
}

/** The measures computed under one set of conventions, and what its preparation counted. */
export interface ConventionSetResult {
  /** Canonical names of the measures of the set, in the evaluator's order. */
  readonly measures: readonly string[]
  readonly conventions: Conventions
  readonly counts: ConventionSetCounts
}

/**
 * One measure's per-query values as a flat column: `values[j]` for the j-th query, undefined
 * values (`null` in {@link QueryResult.values}) marked in `undefinedAt` (their `values` entry is
 * 0); `undefinedAt` is `null` when every value is defined.
 */
export interface ValueColumn {
  readonly values: Float64Array
  readonly undefinedAt: Uint8Array | null
}

/**
 * A run evaluation's per-query outcome read column by column (see {@link queryColumns}): what
 * `perQuery` holds, without a `QueryResult` or values array per query.
 */
export interface QueryColumns {
  /** The queries of `perQuery`, in its order (id order): their ids (binary strings). */
  readonly queryIds: readonly string[]
  /** 1 where the query is `zero-filled`, 0 where `evaluated`. */
  readonly zeroFilled: Uint8Array
  /** The values of measure `m` (index into `measures`), one per query of `queryIds`. */
  column(m: number): ValueColumn
}

/** The engine's rows behind the evaluations {@link RunEvaluator.finish} made (read by {@link queryColumns}). */
const ENGINE_ROWS = new WeakMap<
  RunEvaluation,
  {
    readonly ids: readonly string[]
    readonly rowOf: Int32Array
    readonly zeroFilled: Uint8Array
    readonly rows: ValueRows
  }
>()

/**
 * Per-query values of `e` as columns. For an evaluation made by the engine ({@link evaluate},
 * {@link RunEvaluator}) they are read from its stored value rows, so `perQuery` is never built
 * (a million tiny queries cost 8 bytes a query per measure here); any other `RunEvaluation`
 * (a copy, or one built by hand) is read through its `perQuery`. The values are the same bits
 * either way.
 */
export function queryColumns(e: RunEvaluation): QueryColumns {
  const engine = ENGINE_ROWS.get(e)
  if (engine) {
    const { ids, rowOf, rows, zeroFilled } = engine
    return {
      queryIds: ids,
      zeroFilled,
      column: (m) => {
        const values = new Float64Array(ids.length)
        let undefinedAt: Uint8Array | null = null
        for (let j = 0; j < ids.length; j++) {
          const v = rows.get(rowOf[j]!, m)
          if (v === null) (undefinedAt ??= new Uint8Array(ids.length))[j] = 1
          else values[j] = v
        }
        return { values, undefinedAt }
      },
    }
  }
  const pq = e.perQuery
  const zeroFilled = new Uint8Array(pq.length)
  pq.forEach((q, j) => (zeroFilled[j] = q.status === 'zero-filled' ? 1 : 0))
  return {
    queryIds: pq.map((q) => q.queryId),
    zeroFilled,
    column: (m) => {
      const values = new Float64Array(pq.length)
      let undefinedAt: Uint8Array | null = null
      pq.forEach((q, j) => {
        const v = q.values[m] ?? null
        if (v === null) (undefinedAt ??= new Uint8Array(pq.length))[j] = 1
        else values[j] = v
      })
      return { values, undefinedAt }
    },
  }
}

/** Result of evaluating one run. */
export interface RunEvaluation {
  readonly runName: string
  readonly runTag: string
  readonly measures: readonly string[]
  readonly conventions: Conventions
  readonly perQuery: readonly QueryResult[]
  readonly aggregates: readonly AggregateValue[]
  readonly counts: EvaluationCounts
  /**
   * With per-measure conventions only: one entry per distinct convention set (the evaluator's
   * own first), each with its own preparation counts. `counts` are those of the evaluator's own
   * conventions; a query that fails under any set fails (and is left out) for every measure.
   */
  readonly conventionSets?: readonly ConventionSetResult[]
}

/** Plain-data state of a {@link RunEvaluator} (see `exportState`). */
export interface EvaluatorState {
  readonly results: readonly (readonly [string, (number | null)[]])[]
  readonly failures: readonly { queryId: string; failure: PrepareFailure }[]
  readonly seen: readonly string[]
  readonly extra: number
  readonly dup: number
  readonly unknown: number
  readonly cut: number
  readonly unjudged: number
  /** Per convention set counts, with per-measure conventions (the evaluator's own set first). */
  readonly sets?: readonly ConventionSetCounts[]
}

/** One distinct convention set of an evaluator and its running counts. */
interface ConventionSet {
  readonly conventions: Conventions
  /** Indices into the evaluator's measures. */
  readonly indices: number[]
  counts: {
    duplicatesRemoved: number
    unknownDiscarded: number
    cutByDepth: number
    unjudgedDropped: number
  }
}

/** The conventions `prepareQuery` reads (score precision: the scores it is given), as one key. */
function preparationKey(c: Conventions): string {
  return `${c.ordering}|${c.scorePrecision}|${c.duplicates}|${c.unknownDocs}|${c.depth}|${c.judgedOnly}|${c.relevanceLevel}`
}

function narrowScores(q: RunQuery): RunQuery {
  return { ...q, scores: q.scores.map(Math.fround) }
}

/** Options of {@link evaluate} and {@link RunEvaluator}. */
export interface EvaluateOptions {
  /** Name of the run in reports (file name). */
  readonly runName?: string
  /** Corpus doc ids (for `unknownDocs: 'discard'`). */
  readonly corpus?: ReadonlySet<string>
  /**
   * Corpus doc ids of each query (for `unknownDocs: 'discard'` when the corpus differs by query
   * group, e.g. one per domain); `undefined` for a query: nothing is discarded. Replaces `corpus`.
   */
  readonly corpusOf?: (queryId: string) => ReadonlySet<string> | undefined
  /**
   * Extra labels of each query, for measures that declare `needsLabels` (e.g. temporal labels for
   * TP@k); without it such measures see no labels.
   */
  readonly labels?: LabelProvider
  /**
   * Called with each query's preparation counts and prepared ranking under the evaluator's own
   * conventions, as it is prepared (zero-filled queries included): per-query diagnostics without
   * a second pass (the ranking carries its doc ids when a measure needs labels).
   */
  readonly onPrepared?: (queryId: string, counts: PrepareCounts, ranking: JudgedRanking) => void
  /** The query set to average over; default: every qrels query. */
  readonly queries?: readonly string[]
  /**
   * Auxiliary judgments (`--aux-qrels`: e.g. understandability values, read as qrels), looked
   * up by query and doc for measures that declare `needsAux` (uRBP, uBpref).
   */
  readonly auxQrels?: Qrels
}

/**
 * Incremental evaluation of one run: feed queries as they are read (`add`), then `finish`.
 * Used by the streaming CLI; {@link evaluate} wraps it for in-memory runs.
 *
 * A measure may come with conventions of its own ({@link MeasureWithConventions}): each query is
 * then prepared once per distinct preparation (sets are told apart by identity; sets that differ
 * only in what measures read, such as gains, share one preparation), and a set with float32
 * scores narrows the run's scores itself (read the run at full precision).
 */
export class RunEvaluator {
  /*
   * Per-query values are rows of `width` values kept once each (`ValueRows`: equal rows share
   * one), and each qrels query points at its row by position (`rowOf`, -1 when not stored): 4
   * bytes a query plus its distinct rows, with no map entry, array or string per query, so a
   * million tiny queries stay small. `RunEvaluation.perQuery` is built from them on first use.
   */
  private readonly indexOf: (queryId: string) => number
  private readonly idAt: (q: number) => string
  private readonly rowOf: Int32Array
  private readonly rows: ValueRows
  private stored = 0
  private readonly failures = new Map<string, PrepareFailure>()
  /** Run queries that have no row (outside the declared set, unjudged or failed). */
  private readonly seenOther = new Set<string>()
  private extra = 0
  private dup = 0
  private unknown = 0
  private cut = 0
  private unjudged = 0
  private readonly declared: readonly string[]
  private readonly declaredSet: { has(queryId: string): boolean }
  /** The measures, without their conventions. */
  readonly measures: readonly Measure[]
  /** Distinct convention sets, the evaluator's own first (one entry without per-measure conventions). */
  private readonly sets: readonly ConventionSet[]
  /** Whether some measure reads extra labels (then rankings carry their doc ids). */
  private readonly labelled: boolean
  /** The qrels under the `negativeJudgments` convention. */
  private readonly qrels: Qrels
  /** Whether a measure reads the ranked docs (`JudgedRanking.docs`); false keeps them unmade. */
  private readonly needDocs: boolean
  /** Where this evaluation's prepared rankings get their grade arrays. */
  private readonly grades = new GradeArena()
  /** Scratch set for finding duplicate ids, reused from query to query. */
  private readonly scratch = new IdSet()
  /** Each measure's resolved parameters (given over defaults), worked out once. */
  private readonly paramsOf = new Map<Measure, ReturnType<typeof measureParams>>()

  constructor(
    qrels: Qrels,
    measures: readonly (Measure | MeasureWithConventions)[],
    readonly conventions: Conventions,
    private readonly options: EvaluateOptions = {},
  ) {
    this.measures = measures.map((m) => ('measure' in m ? m.measure : m))
    for (const m of this.measures) this.paramsOf.set(m, measureParams(m))
    this.labelled = this.measures.some((m) => m.spec.needsLabels !== undefined)
    if (this.labelled && !options.labels) {
      // Without labels every doc would count as unlabelled: a silent 0, never printed.
      const named = this.measures.filter((m) => m.spec.needsLabels !== undefined)
      throw new TrecscoreError(
        `${named.map((m) => m.name).join(', ')} read${named.length === 1 ? 's' : ''} ${named[0]!.spec.needsLabels} labels of the ranked documents, which this evaluation was not given (a label provider; the RETECO presets give one)`,
        2,
      )
    }
    qrels = applyNegativeJudgments(qrels, conventions.negativeJudgments)
    this.qrels = qrels
    this.needDocs = this.measures.some(needsDocs)
    const needAux = this.measures.filter((m) => m.spec.needsAux)
    if (needAux.length && !options.auxQrels)
      throw new TrecscoreError(
        `${needAux.map((m) => m.name).join(', ')} need${needAux.length === 1 ? 's' : ''} auxiliary judgments (--aux-qrels FILE: topic 0 docno value, e.g. understandability)`,
        2,
      )
    const sets: ConventionSet[] = [
      {
        conventions,
        indices: [],
        counts: { duplicatesRemoved: 0, unknownDiscarded: 0, cutByDepth: 0, unjudgedDropped: 0 },
      },
    ]
    measures.forEach((m, i) => {
      const c = 'measure' in m ? m.conventions : conventions
      let set = sets.find((s) => s.conventions === c)
      if (!set) {
        if (
          c.missingQueries !== conventions.missingQueries ||
          c.queryKey !== conventions.queryKey ||
          c.comments !== conventions.comments ||
          c.negativeJudgments !== conventions.negativeJudgments
        ) {
          throw new TrecscoreError(
            `the conventions of measure '${this.measures[i]!.name}' must share the evaluation's query set, query key, comment rule and negative judgments`,
            2,
          )
        }
        set = {
          conventions: c,
          indices: [],
          counts: { duplicatesRemoved: 0, unknownDiscarded: 0, cutByDepth: 0, unjudgedDropped: 0 },
        }
        sets.push(set)
      }
      set.indices.push(i)
    })
    this.sets = sets[0]!.indices.length === 0 && sets.length > 1 ? sets.slice(1) : sets
    if (conventions.queryKey === 'group-qid') {
      // Keys made of (group, qid) need inputs that carry the group (groupQrels / groupRuns).
      for (const id of qrels.queries.keys()) {
        if (splitGroupedQueryId(id) === null)
          throw new TrecscoreError(
            `query key 'group-qid' needs (group, qid) keys, from a benchmark preset that reads query groups (groupQrels); plain qrels and runs are keyed by qid`,
            2,
          )
      }
    }
    this.declared = options.queries ?? [...qrels.queries.keys()]
    this.declaredSet = options.queries ? new Set(options.queries) : qrels.queries
    const store = qrels.queries
    if (store instanceof JudgmentStore) {
      this.indexOf = (id) => store.indexOf(id)
      this.idAt = (q) => store.idAt(q)
    } else {
      const ids = [...store.keys()]
      const index = new Map(ids.map((id, q) => [id, q]))
      this.indexOf = (id) => index.get(id) ?? -1
      this.idAt = (q) => ids[q]!
    }
    this.rowOf = new Int32Array(store.size).fill(-1)
    this.rows = new ValueRows(this.measures.length)
  }

  /** Whether a query id is worth reading (it is in the declared set and has judgments). */
  wants(queryId: string): boolean {
    return this.declaredSet.has(queryId) && this.qrels.queries.has(queryId)
  }

  /** Evaluate one query of the run (a later call for the same query replaces the earlier). */
  add(run: RunQuery): void {
    const id = run.queryId
    const q = this.indexOf(id)
    const stored = q >= 0 && this.rowOf[q]! >= 0
    if (!stored && !this.seenOther.has(id)) {
      if (!this.declaredSet.has(id)) this.extra++
    }
    if (!this.wants(id)) {
      this.seenOther.add(id)
      return
    }
    // A query seen again (lines split across the file) replaces its earlier, partial outcome.
    this.failures.delete(id)
    const values = this.compute(run)
    if (values) this.store(q, values)
    else if (!stored) this.seenOther.add(id)
  }

  /** Store the values of the qrels query at position `q`. */
  private store(q: number, values: readonly (number | null)[]): void {
    if (this.rowOf[q]! < 0) {
      if (this.seenOther.size) this.seenOther.delete(this.idAt(q))
      this.stored++
    }
    this.rowOf[q] = this.rows.intern(values)
  }

  private compute(run: RunQuery): (number | null)[] | null {
    if (this.sets.length === 1 && this.sets[0]!.conventions === this.conventions)
      return this.computeSet(
        run.queryId,
        this.prepare(run, this.conventions),
        this.conventions,
        this.measures,
        null,
      )
    // Every set is prepared before any count is kept: a query failing under one set fails whole.
    // Sets that prepare alike (they differ only in what measures read, e.g. gains) share one
    // preparation, and the scores are narrowed to float32 once.
    const out: (number | null)[] = new Array(this.measures.length).fill(null)
    const counts: PrepareCounts[] = []
    const rankings: JudgedRanking[] = []
    const prepared = new Map<string, PrepareResult>()
    let narrowed: RunQuery | null = null
    for (const set of this.sets) {
      const c = set.conventions
      const input = c.scorePrecision === 'float32' ? (narrowed ??= narrowScores(run)) : run
      const key = preparationKey(c)
      let prep = prepared.get(key)
      if (!prep) {
        prep = this.prepare(input, c)
        prepared.set(key, prep)
      }
      const values = this.computeSet(
        run.queryId,
        prep,
        c,
        set.indices.map((i) => this.measures[i]!),
        counts,
        rankings,
      )
      if (!values) return null
      set.indices.forEach((mi, k) => (out[mi] = values[k]!))
    }
    this.sets.forEach((set, i) => {
      const p = counts[i]!
      set.counts.duplicatesRemoved += p.duplicatesRemoved
      set.counts.unknownDiscarded += p.unknownDiscarded
      set.counts.cutByDepth += p.cutByDepth
      set.counts.unjudgedDropped += p.unjudgedDropped
    })
    const i = this.sets.findIndex((s) => s.conventions === this.conventions)
    this.count(run.queryId, counts[i] ?? counts[0]!, rankings[i] ?? rankings[0]!)
    return out
  }

  private count(queryId: string, p: PrepareCounts, ranking: JudgedRanking): void {
    this.options.onPrepared?.(queryId, p, ranking)
    this.dup += p.duplicatesRemoved
    this.unknown += p.unknownDiscarded
    this.cut += p.cutByDepth
    this.unjudged += p.unjudgedDropped
  }

  /** Prepare one query under `conventions`. */
  private prepare(run: RunQuery, conventions: Conventions): PrepareResult {
    const judgments = this.qrels.queries.get(run.queryId)!
    const subtopics = this.qrels.subtopics?.get(run.queryId)
    const o = this.options
    const corpus = o.corpusOf ? o.corpusOf(run.queryId) : o.corpus
    const aux = this.needDocs ? o.auxQrels?.queries.get(run.queryId) : undefined
    return prepareQuery(judgments, run, conventions, {
      grades: this.grades,
      scratch: this.scratch,
      ...(corpus ? { corpus } : {}),
      ...(subtopics ? { subtopics } : {}),
      ...(this.labelled ? { docIds: true } : {}),
      ...(this.needDocs ? { docs: true } : {}),
      ...(aux ? { aux } : {}),
    })
  }

  /** Compute `measures` on a prepared query; counts go to `counts` when given, else to the evaluator. */
  private computeSet(
    queryId: string,
    prep: PrepareResult,
    conventions: Conventions,
    measures: readonly Measure[],
    counts: PrepareCounts[] | null,
    rankings: JudgedRanking[] | null = null,
  ): (number | null)[] | null {
    if (!prep.ok) {
      this.failures.set(queryId, prep.failure)
      return null
    }
    const q = prep.ranking
    if (counts) {
      counts.push(prep.counts)
      rankings?.push(q)
    } else this.count(queryId, prep.counts, q)
    const o = this.options
    const labels = this.labelled ? o.labels?.(queryId) : undefined
    const ctx: MeasureContext = labels ? { conventions, labels } : { conventions }
    return measures.map((m) => {
      const values = this.paramsOf.get(m) ?? measureParams(m)
      const rel = typeof values['rel'] === 'number' ? values['rel'] : conventions.relevanceLevel
      if (
        conventions.queriesWithoutRelevant === 'undefined' &&
        m.spec.needsRelevant &&
        numRelAt(q, rel) === 0
      )
        return null
      return m.spec.compute(q, { at: m.at, values }, ctx)
    })
  }

  /** Everything this evaluator has gathered, as plain data (to move between threads). */
  exportState(): EvaluatorState {
    const results: (readonly [string, (number | null)[]])[] = []
    for (let q = 0; q < this.rowOf.length; q++) {
      const r = this.rowOf[q]!
      if (r >= 0) results.push([this.idAt(q), this.rows.row(r)])
    }
    return {
      results,
      failures: [...this.failures].map(([queryId, failure]) => ({ queryId, failure })),
      seen: [...this.seenOther],
      extra: this.extra,
      dup: this.dup,
      unknown: this.unknown,
      cut: this.cut,
      unjudged: this.unjudged,
      ...(this.sets.length > 1 ? { sets: this.sets.map((s) => ({ ...s.counts })) } : {}),
    }
  }

  /** Merge the state of an evaluator that read other queries of the same run. */
  absorb(s: EvaluatorState): void {
    for (const [id, v] of s.results) {
      const q = this.indexOf(id)
      if (q >= 0) this.store(q, v)
    }
    for (const f of s.failures) this.failures.set(f.queryId, f.failure)
    for (const id of s.seen) {
      const q = this.indexOf(id)
      if (q < 0 || this.rowOf[q]! < 0) this.seenOther.add(id)
    }
    this.extra += s.extra
    this.dup += s.dup
    this.unknown += s.unknown
    this.cut += s.cut
    this.unjudged += s.unjudged
    s.sets?.forEach((c, i) => {
      const set = this.sets[i]
      if (!set) return
      set.counts.duplicatesRemoved += c.duplicatesRemoved
      set.counts.unknownDiscarded += c.unknownDiscarded
      set.counts.cutByDepth += c.cutByDepth
      set.counts.unjudgedDropped += c.unjudgedDropped
    })
  }

  /** Aggregate over the declared query set and return the full result. */
  finish(runTag = ''): RunEvaluation {
    const missing: string[] = []
    const negativeOnly: string[] = []
    const ids = this.declared.filter((id) => this.qrels.queries.has(id)).sort()
    // The listed queries in id order: their ids, rows and whether they were zero-filled.
    const listed: string[] = []
    const rowOfListed = new Int32Array(ids.length)
    const zeroFilled = new Uint8Array(ids.length)
    for (const id of ids) {
      const r = this.rowOf[this.indexOf(id)]!
      if (r >= 0) {
        rowOfListed[listed.length] = r
        listed.push(id)
        continue
      }
      if (this.failures.has(id)) continue
      missing.push(id)
      if (this.conventions.missingQueries === 'zero') {
        const zero = this.compute({ queryId: id, docIds: [], scores: [], ranks: [], lines: [] })
        if (zero) {
          rowOfListed[listed.length] = this.rows.intern(zero)
          zeroFilled[listed.length] = 1
          listed.push(id)
        }
      }
    }
    for (const id of listed) if (this.qrels.queries.get(id)!.maxJudgment < 0) negativeOnly.push(id)
    const rows = this.rows
    const aggregates = this.measures.map((m, i) =>
      aggregate(
        m.name,
        measureAggregate(m),
        listed.map((_, j) => rows.get(rowOfListed[j]!, i)),
      ),
    )
    const result: RunEvaluation = {
      runName: this.options.runName ?? 'run',
      runTag,
      measures: this.measures.map((m) => m.name),
      conventions: this.conventions,
      perQuery: [],
      aggregates,
      counts: {
        declaredQueries: this.declared.length,
        runQueries: this.stored + this.seenOther.size,
        evaluatedQueries: this.stored,
        missingQueries: missing,
        missingPolicy: this.conventions.missingQueries,
        extraQueries: this.extra,
        duplicatesRemoved: this.dup,
        unknownDiscarded: this.unknown,
        cutByDepth: this.cut,
        unjudgedDropped: this.unjudged,
        negativeOnlyQueries: negativeOnly,
        negativeJudgmentsDropped: this.qrels.negativeJudgments?.dropped ?? 0,
        failedQueries: [...this.failures].map(([queryId, failure]) => ({ queryId, failure })),
      },
      ...(this.sets.length > 1
        ? {
            conventionSets: this.sets.map((s) => ({
              measures: s.indices.map((i) => this.measures[i]!.name),
              conventions: s.conventions,
              counts: { ...s.counts },
            })),
          }
        : {}),
    }
    // `perQuery` is made on first read (an ordinary enumerable property to every reader, JSON
    // and spreads included): a caller that needs only the aggregates never pays for it.
    let perQuery: readonly QueryResult[] | null = null
    Object.defineProperty(result, 'perQuery', {
      enumerable: true,
      configurable: true,
      get: () =>
        (perQuery ??= listed.map(
          (queryId, j): QueryResult => ({
            queryId,
            status: zeroFilled[j] ? 'zero-filled' : 'evaluated',
            values: rows.row(rowOfListed[j]!),
          }),
        )),
    })
    ENGINE_ROWS.set(result, {
      ids: listed,
      rowOf: rowOfListed.subarray(0, listed.length),
      zeroFilled: zeroFilled.subarray(0, listed.length),
      rows,
    })
    return result
  }
}

/**
 * Evaluate an in-memory run against qrels.
 * @example
 * const result = evaluate(qrels, run, ['nDCG@10', 'AP'], { relevanceLevel: 2 })
 * result.aggregates[0].value // mean nDCG@10 over the qrels queries
 */
export function evaluate(
  qrels: Qrels,
  run: Run,
  measures: readonly (string | Measure)[],
  conventions: Partial<Conventions> = {},
  options: EvaluateOptions = {},
): RunEvaluation {
  const ms = measures.flatMap((m) => (typeof m === 'string' ? parseMeasures([m]) : [m]))
  const ev = new RunEvaluator(qrels, ms, resolveConventions(conventions), options)
  for (const q of run.queries.values()) ev.add(q)
  return ev.finish(run.tag)
}
