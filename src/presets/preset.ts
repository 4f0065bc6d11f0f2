/**
 * A benchmark preset as declarative, typed data: the official evaluator it reproduces, its input
 * formats, its measures (names parsed by the engine's parser), its {@link Conventions}, the
 * rounding of printed values, its report layout and the checks that warn about misuse. A preset
 * computes nothing: `run-preset.ts` runs it on the engine.
 */
import type { Conventions } from '../conventions/conventions.js'
import { type TieRule, tieRuleOf } from '../conventions/tie-rules.js'
import { formatIssue } from '../errors/format-issue.js'
import { InputError, TrecscoreError } from '../errors/trecscore-error.js'
import type { AggregationSpec } from '../evaluate/aggregations.js'
import type { Measure } from '../measures/measure.js'
import { parseMeasures } from '../measures/name.js'

/** The official evaluator a preset reproduces. */
export interface OfficialEvaluator {
  /** Tool name, e.g. `trec_eval`. */
  readonly tool: string
  /** The exact version (and commit where known) behind the official numbers. */
  readonly version: string
  /** The command line it runs (`QRELS` and `RUN` stand for the files). */
  readonly command: string
}

/** How printed values are rounded. */
export interface Rounding {
  /** Decimals printed. */
  readonly digits: number
  /**
   * `c-printf`: glibc `%.Nf` (exact binary value, ties to even); `python-round`: Python's
   * `round(mean, N)` on the float64 mean (exact binary value, ties to even), as SkillRet's evaluator.
   */
  readonly rule: 'c-printf' | 'python-round'
}

/**
 * How per-query values become a run's aggregate: `query-mean` (each measure's own aggregate over
 * the queries, in a summation order) or `table` (an {@link AggregationSpec} over the per-query
 * table of grouped queries: group macro, step-then-query, conversation-then-domain, buckets).
 */
export type PresetAggregation = QueryMeanAggregation | TableAggregation

/**
 * Each measure's own aggregate over the averaged queries, computed by `aggregateQueries` in
 * `run-preset.ts`.
 */
export interface QueryMeanAggregation {
  /** Key of the aggregate in `PresetResult` runs' `aggregates` (e.g. `mean`). */
  readonly id: string
  /** `query-mean`: each measure's own aggregate (mean, sum, geometric mean) over the averaged queries. */
  readonly kind: 'query-mean'
  /**
   * Summation order over the averaged queries: `query-id` (byte order of the id, the engine's
   * and trec_eval's), `run` (the run file's query order, as SkillRet's official loop over
   * pytrec_eval's result), `declared` (the order of the declared query set, e.g. a queries file).
   */
  readonly order: 'query-id' | 'run' | 'declared'
}

/**
 * An aggregation over the per-query table, computed by the engine's `aggregateTable`: rows are
 * the declared queries in the input adapter's order (RETECO: domain-name order, then qrels-file
 * order), keyed by what the adapter says of each query (`group`, `parent`, `conversation`,
 * `bucket`); plain left-to-right sums, no rounding.
 */
export interface TableAggregation extends AggregationSpec {
  readonly kind: 'table'
}

/** The default aggregation: the engine's mean in byte order of query id. */
export const QUERY_MEAN: QueryMeanAggregation = Object.freeze({
  id: 'mean',
  kind: 'query-mean',
  order: 'query-id',
})

/**
 * Measures built from user cutoffs (SkillRet's `--k`): every family at every cutoff, in family
 * order, then the `fixed` measures. Each entry is `[printed, engine]`, the engine name of a
 * family without its `@k`.
 */
export interface CutoffMeasures {
  /** The cutoffs of the preset's own `measures`. */
  readonly defaults: readonly number[]
  readonly families: readonly (readonly [printed: string, engine: string])[]
  readonly fixed: readonly (readonly [printed: string, engine: string])[]
}

/** Report layout of `score --format table`. */
export type PresetReport =
  /**
   * trec_eval's own output (`name<TAB>qid<TAB>value`), rows in trec_eval's order; `names` maps
   * each preset measure (as written in `measures`) to the name trec_eval prints.
   */
  | {
      readonly layout: 'trec_eval'
      readonly names: readonly (readonly [measure: string, printed: string])[]
    }
  /** One leaderboard row per run. */
  | { readonly layout: 'leaderboard' }
  /**
   * ir_measures' command-line output: one `name<TAB>value` line per measure in the order asked
   * for, names as ir_measures prints them (`MAP` prints `AP`), values with `rounding.digits`.
   */
  | { readonly layout: 'ir_measures' }

/** A check that warns about input that would invalidate the official numbers. */
export type PresetCheck =
  /** Warn when run doc ids start with `prefix` (e.g. document ids in a passage run). */
  | { readonly kind: 'doc-id-prefix'; readonly prefix: string; readonly message: string }
  /** Warn when a run retrieves more than `depth` documents for a query. */
  | { readonly kind: 'max-depth'; readonly depth: number; readonly message: string }
  /** Warn when the qrels hold no judgment of `grade` (or the file name says `-no<grade>`). */
  | { readonly kind: 'qrels-missing-grade'; readonly grade: number; readonly message: string }
  /**
   * ERROR when the qrels' second column is not one of `languages` (NeuCLIR puts the language
   * code there); every offending line is listed with file:line and its text.
   */
  | {
      readonly kind: 'qrels-language'
      readonly languages: readonly string[]
      readonly message: string
    }
  /**
   * ERROR (exit 2) when the qrels hold a judgment of `grade` after any `--rel-map`, unless
   * `--force` turns it into a warning; `remap` names the relevance map that converts them.
   */
  | {
      readonly kind: 'qrels-forbidden-grade'
      readonly grade: number
      readonly remap: string
      readonly message: string
    }
  /**
   * With `--candidates FILE` (reranking): flag documents outside their topic's candidate list
   * and topics whose document count differs from the list's (warnings when scoring, errors in
   * `validate`).
   */
  | { readonly kind: 'candidates'; readonly message: string }
  /**
   * One unified ranked list per topic (NeuCLIR MLIR): flag rank 1 given twice within a topic,
   * more than `depth` documents for a topic, and documents from one language only where the
   * qrels (or a doc-language map) judge several (warnings when scoring, errors in `validate`).
   */
  | { readonly kind: 'unified-ranking'; readonly depth: number; readonly message: string }
  /** Note (stderr, JSON) which qrels topics the run lacks and which run topics the qrels lack. */
  | { readonly kind: 'topic-sets'; readonly message: string }

/**
 * Conventions for some of a preset's measures that differ from the preset's own (e.g. NeuCLIR's
 * RBP, computed by another provider with another tie rule).
 */
export interface MeasureConventions {
  /** The measures concerned, as written in the preset's `measures`. */
  readonly measures: readonly string[]
  /** The named tie rule these measures use (its ordering and precision are in `conventions`). */
  readonly tieRule: TieRule
  /** The complete conventions for these measures. */
  readonly conventions: Conventions
  /** Why these measures differ (the provider that computes them officially). */
  readonly why: string
}

/** What a preset declares (the input of {@link definePreset}). */
export interface PresetDefinition {
  /** Name used on the command line, e.g. `dl21-passage`. */
  readonly id: string
  /** One-line title. */
  readonly title: string
  /** Version of this definition (bumped when a convention or measure changes); default `1`. */
  readonly version?: string
  /** The official evaluator reproduced. */
  readonly official: OfficialEvaluator
  /**
   * Input formats: qrels as TREC qrels (`--qrels FILE`) or a SkillRet data directory
   * (`--data DIR`); runs as TREC run files, or SkillRet JSON runs or TREC files.
   */
  readonly input: {
    readonly qrels: 'trec-qrels' | 'skillret-data' | 'reteco-data'
    readonly runs: 'trec-run' | 'skillret-json-or-trec' | 'reteco-run'
  }
  /** Measures, in the syntax of `parseMeasures` (ir_measures or trec_eval names). */
  readonly measures: readonly string[]
  /** Names printed for the measures (one per parsed measure, same order); default: canonical names. */
  readonly labels?: readonly string[]
  /** Rebuild the measures (and labels) for user cutoffs; presets without it refuse cutoffs. */
  readonly cutoffMeasures?: CutoffMeasures
  /** Aggregations of a run, the headline first; default {@link QUERY_MEAN}. */
  readonly aggregations?: readonly PresetAggregation[]
  /**
   * Table aggregations: the measures (as written in `measures`) whose mean over a group with no
   * query is undefined; every other measure's is 0 (RETECO's `_mean`, so an empty domain still
   * counts in a macro).
   */
  readonly undefinedWhenEmpty?: readonly string[]
  /** Every convention that changes a number (for every measure not in `measureConventions`). */
  readonly conventions: Conventions
  /** The named tie rule of `conventions`, when the preset names one (printed by `presets show`). */
  readonly tieRule?: TieRule
  /** Per-measure overrides of `conventions`; absent or empty = one set for all measures. */
  readonly measureConventions?: readonly MeasureConventions[]
  /**
   * Named relevance maps `--rel-map NAME` accepts (besides `a:b,c:d` lists): name → grade map,
   * applied to the qrels grades as they are read, before any qrels check.
   */
  readonly relMaps?: Readonly<Record<string, Readonly<Record<number, number>>>>
  /** Rounding of printed values. */
  readonly rounding: Rounding
  /** Layout of the table report. */
  readonly report: PresetReport
  /** Checks run on the inputs; each failure is a warning on stderr. */
  readonly checks: readonly PresetCheck[]
  /** Facts a user must know (what the conventions mean for this benchmark). */
  readonly notes: readonly string[]
}

/** A checked preset: its definition plus the parsed measures. */
export interface Preset extends PresetDefinition {
  /** `measures`, parsed (one entry per measure; `recall.100,1000` gives two). */
  readonly parsedMeasures: readonly Measure[]
}

/**
 * Check and freeze a preset definition: every measure name must parse and every trec_eval
 * report name must belong to a declared measure. Throws {@link TrecscoreError} on a bad one.
 */
export function definePreset(def: PresetDefinition): Preset {
  let parsedMeasures: Measure[]
  try {
    parsedMeasures = parseMeasures(def.measures)
  } catch (e) {
    const why =
      e instanceof InputError
        ? e.issues.map(formatIssue).join('; ')
        : e instanceof Error
          ? e.message
          : String(e)
    throw new TrecscoreError(`preset '${def.id}': ${why}`, 2)
  }
  if (def.report.layout === 'trec_eval') {
    const names = new Set(parsedMeasures.map((m) => m.name))
    for (const [m] of def.report.names) {
      if (!names.has(m))
        throw new TrecscoreError(
          `preset '${def.id}': report names measure '${m}', which the preset does not compute`,
          2,
        )
    }
    if (def.report.names.length !== names.size)
      throw new TrecscoreError(
        `preset '${def.id}': the trec_eval report must name every measure once`,
        2,
      )
  }
  const names = new Set(parsedMeasures.map((m) => m.name))
  const fail = (why: string): never => {
    throw new TrecscoreError(`preset '${def.id}': ${why}`, 2)
  }
  if (def.tieRule && tieRuleOf(def.conventions) !== def.tieRule)
    fail(`its conventions do not follow the tie rule '${def.tieRule.name}' it names`)
  const overridden = new Set<string>()
  for (const mc of def.measureConventions ?? []) {
    if (mc.measures.length === 0) fail('a measure-conventions override names no measure')
    if (tieRuleOf(mc.conventions) !== mc.tieRule)
      fail(
        `the conventions for ${mc.measures.join(', ')} do not follow the tie rule '${mc.tieRule.name}' they name`,
      )
    for (const m of parseMeasures(mc.measures)) {
      if (!names.has(m.name))
        fail(`measure-conventions override names '${m.name}', which the preset does not compute`)
      if (overridden.has(m.name)) fail(`measure '${m.name}' has two convention overrides`)
      overridden.add(m.name)
    }
    if (
      mc.conventions.missingQueries !== def.conventions.missingQueries ||
      mc.conventions.queryKey !== def.conventions.queryKey ||
      mc.conventions.comments !== def.conventions.comments
    ) {
      fail(
        `the conventions for ${mc.measures.join(', ')} must share the preset's query set, query key and comment rule`,
      )
    }
  }
  if (overridden.size === names.size)
    fail('every measure is overridden: put the conventions in `conventions`')
  if (def.labels && def.labels.length !== parsedMeasures.length)
    fail(`${def.labels.length} labels for ${parsedMeasures.length} measures`)
  const aggregations = def.aggregations ?? [QUERY_MEAN]
  if (aggregations.length === 0) fail('no aggregation')
  if (new Set(aggregations.map((a) => a.id)).size !== aggregations.length)
    fail('two aggregations share an id')
  return Object.freeze({ ...def, parsedMeasures: Object.freeze(parsedMeasures) })
}
