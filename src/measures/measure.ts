import type { Conventions, RecallRounding } from '../conventions/conventions.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import type { GainPair } from './gains.js'
import type { LabelKind, QueryLabels } from './labels.js'

/** Type of a measure parameter. */
export type ParamType = 'int' | 'float' | 'bool' | 'string' | 'gains'

/** A parameter value: number, boolean, string, or a grade→gain map. */
export type ParamValue = number | boolean | string | Readonly<Record<number, number>>

/** Allowed values of a number parameter: `min` ≤ x ≤ `max`, a bound left open when `…Open`. */
export interface ParamRange {
  readonly min?: number
  readonly max?: number
  readonly minOpen?: boolean
  readonly maxOpen?: boolean
}

/** Declaration of one measure parameter (drives parsing, printing, help and docs). */
export interface ParamSpec {
  readonly type: ParamType
  readonly doc: string
  /** Allowed values of a string parameter. */
  readonly choices?: readonly string[]
  /** Allowed values of an int or float parameter (always finite). */
  readonly range?: ParamRange
  /** Default value; absent = taken from the conventions (e.g. `rel`) or "no value". */
  readonly default?: ParamValue
}

/** What a measure gets besides the ranking. */
export interface MeasureContext {
  readonly conventions: Conventions
  /**
   * The query's extra labels, for a measure that declares `needsLabels` (absent otherwise, or
   * when the evaluation was given none for the query).
   */
  readonly labels?: QueryLabels
}

/** How per-query values become one number. */
export type Aggregate = 'mean' | 'sum' | 'gmean'

/** The declared parameters of a family, by name. */
export type ParamSpecs = Readonly<Record<string, ParamSpec>>

/** The value type of a parameter type (distributes over a union of types). */
type ValueOfType<T extends ParamType, Choice extends string> = T extends 'int' | 'float'
  ? number
  : T extends 'bool'
    ? boolean
    : T extends 'string'
      ? Choice
      : Readonly<Record<number, number>>

/** The value of one declared parameter: one of its `choices` for a string, else by type. */
export type ParamValueOf<S extends ParamSpec> = ValueOfType<
  S['type'],
  S extends { readonly choices: readonly (infer C extends string)[] } ? C : string
>

/** Parameter values as `compute` sees them: defaults filled in, `undefined` where there is none. */
export type ParamValues<P extends ParamSpecs> = {
  readonly [K in keyof P]: P[K] extends { readonly default: ParamValue }
    ? ParamValueOf<P[K]>
    : ParamValueOf<P[K]> | undefined
}

/** Parameters of one measure instance after defaults: `at` holds the `@` value. */
export interface ResolvedParams<P extends ParamSpecs = ParamSpecs> {
  readonly at: number | undefined
  readonly values: ParamValues<P>
}

/** What a family file writes for a family (see {@link defineMeasure}). */
export interface MeasureDefinition<P extends ParamSpecs = ParamSpecs> {
  readonly name: string
  readonly aliases: readonly string[]
  readonly summary: string
  /** The formula, as in the family's doc comment (shown by `trecscore measures NAME`). */
  readonly formula: string
  readonly params: P
  /** What `@x` sets: an integer rank cutoff, a recall level, or nothing. */
  readonly at: 'cutoff' | 'recall' | 'none'
  /** `@` must be given (e.g. `P@k`). */
  readonly atRequired: boolean
  readonly aggregate: Aggregate
  /** Whether the value needs at least one relevant doc to be meaningful. */
  readonly needsRelevant: boolean
  /**
   * Per-query values: in [0, 1] (`unit`, the default), ≥ 0 (`nonnegative`: DCG, Hits, counts)
   * or any real (`real`: utility, yaap). Checked by the registry's property tests.
   */
  readonly valueRange?: 'unit' | 'nonnegative' | 'real'
  /** When `compute` returns `null` (undefined for the query), in words; absent = never. */
  readonly undefinedWhen?: string
  /** Needs diversity qrels (subtopic judgments): refused with ordinary qrels. */
  readonly needsSubtopics?: boolean
  /**
   * Reads extra labels of this kind (`ctx.labels`) for the ranked docs (`q.docIds`): the
   * evaluator then materialises the ranked doc ids and asks its label provider.
   */
  readonly needsLabels?: LabelKind
  /**
   * Reads the ranked docs' ids and scores and the query's judgments (`JudgedRanking.docs`):
   * Compat's ideal ranking, tie averaging. Only then are they gathered for a query.
   */
  readonly needsDocs?: boolean
  /** Reads the ranked docs for some parameter values only (RBP with `ties='average'`). */
  docsWhen?(values: ParamValues<P>): boolean
  /** Reads auxiliary judgments by rank (`docs.aux`, `--aux-qrels`): refused without them. */
  readonly needsAux?: boolean
  /** Parameters without a default that must be given (`alpha_uRBP(goal=…,sd=…)`). */
  readonly required?: readonly string[]
  /**
   * Names that stand for the family with some parameters set, as ir_measures registers them
   * (`SetRelP` is `SetP(relative=True)`); printed canonically as the family with those values.
   */
  readonly presetAliases?: readonly {
    readonly name: string
    readonly params: Partial<ParamValues<P>>
  }[]
  /** Pairs of parameters that cannot be given together (`rel` and `max_rel`). */
  readonly exclusive?: readonly (readonly [string, string])[]
  /** trec_eval's names for this family (`P`; `map` and `map_cut`), if it has any. */
  readonly trecEval?: readonly TrecEvalMappingInput<P>[]
  /** The value for one query; `null`: undefined for this query (left out of the mean). */
  compute(q: JudgedRanking, p: ResolvedParams<P>, ctx: MeasureContext): number | null
}

/**
 * A measure family in ir_measures' vocabulary: name, aliases, parameters, the meaning of `@`,
 * the per-query computation and its trec_eval names (the drop-in's rows and the `-m` names
 * `evaluate` reads). `null` from `compute` means "undefined for this query".
 */
export interface MeasureSpec<P extends ParamSpecs = ParamSpecs>
  extends Omit<MeasureDefinition<P>, 'trecEval' | 'compute'> {
  readonly trecEval: readonly TrecEvalMapping<P>[]
  compute(q: JudgedRanking, p: ResolvedParams<P>, ctx: MeasureContext): number | null
}

/**
 * Define a measure family. `compute` gets the parameter values typed from the declared
 * `params` (`p.values.beta` is a number, `p.values.dcg` one of its choices, `p.values.rel` a
 * number or `undefined`), so declare shared parameters `as const satisfies ParamSpec`.
 */
export function defineMeasure<const P extends ParamSpecs>(
  spec: MeasureDefinition<P>,
): MeasureSpec<P> {
  const choices = aggregateChoices(spec)
  // Every family with a choice also takes `aggregate` (read by `measureAggregate`, never by
  // `compute`), so its spec lists, parses and prints it as any parameter.
  const params =
    choices.length > 1 && !Object.hasOwn(spec.params, 'aggregate')
      ? {
          ...spec.params,
          aggregate: {
            type: 'string',
            choices,
            default: spec.aggregate,
            doc: `how per-query values become one number: ${choices.join(', ')} (gmean: exp(mean(log(max(v, 0.00001)))), as trec_eval's gm_map)`,
          } satisfies ParamSpec,
        }
      : spec.params
  return {
    ...spec,
    params,
    trecEval: (spec.trecEval ?? []).map((m) => defineTrecEvalMeasure(m)),
  }
}

/**
 * The aggregates a family may be given where they make sense: counts (default `sum`) `sum` or
 * `mean`; values in [0, 1] `mean` or `gmean` (GMAP is AP with `gmean`); any other value (DCG,
 * Hits, utility, yaap: zero or negative values) only its own.
 */
function aggregateChoices(spec: MeasureDefinition<ParamSpecs>): Aggregate[] {
  if (spec.aggregate === 'sum') return ['sum', 'mean']
  if ((spec.valueRange ?? 'unit') === 'unit')
    return spec.aggregate === 'gmean' ? ['gmean', 'mean'] : ['mean', 'gmean']
  return [spec.aggregate]
}

/** How a measure's per-query values are aggregated: its `aggregate` parameter, else the family's. */
export function measureAggregate(m: Measure): Aggregate {
  const a = m.given['aggregate']
  return a === 'mean' || a === 'sum' || a === 'gmean' ? a : m.spec.aggregate
}

/** How trec_eval reads a measure's `-m name.params` string (its `init_meas_*`). */
export type ParamKind = 'none' | 'long-cutoffs' | 'double-cutoffs' | 'double-params' | 'pairs'

/** Parsed trec_eval parameters of one measure. */
export type TeParams =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'long-cutoffs'
      readonly values: readonly number[]
      readonly printable: string | null
    }
  | {
      readonly kind: 'double-cutoffs'
      readonly values: readonly number[]
      readonly printable: string | null
    }
  | {
      readonly kind: 'double-params'
      readonly values: readonly number[]
      readonly printable: string | null
    }
  | {
      readonly kind: 'pairs'
      readonly pairs: readonly GainPair[]
      readonly printable: string | null
    }

/** Evaluation settings trec_eval's measures read (its `EPI`, the parts measures use). */
export interface TeContext {
  readonly collectionSize: number
  readonly recallRounding: RecallRounding
}

/**
 * A measure as trec_eval defines it (one row of its `measures.c`): how `-m name.x` reads, the
 * default parameters, how values print per query and in the summary, and the computation,
 * one value per cutoff or parameter, in the parameters' order.
 */
export interface TrecEvalMeasure {
  readonly name: string
  readonly params: ParamKind
  /** Default parameter values (cutoffs or params); pairs default to none. */
  readonly defaults?: readonly number[]
  /** Per-query printing: `double` (%6.4f), `long` (%ld), `string` (relstring), or none. */
  readonly perQuery: 'double' | 'long' | 'string' | 'none'
  /** Summary: arithmetic mean, geometric mean of logs, plain sum, number of queries, run tag, none. */
  readonly summary: 'mean' | 'gm' | 'sum' | 'num_q' | 'num_rel' | 'runid' | 'none'
  /** False for measures that never look at the ranking (runid, num_q). */
  readonly usesRanking: boolean
  /** Only in trec_eval 10 (not in 9.0.8). */
  readonly v10Only: boolean
  compute(q: JudgedRanking, p: TeParams, ctx: TeContext): number[]
  /** Per-query text (relstring only). */
  text?(q: JudgedRanking, p: TeParams): string
}

/**
 * A trec_eval name of a family. Besides the drop-in's row it says what the name means to
 * `evaluate`: `fixed` parameters (trec_eval's `rbp` is `RBP(p=0.9)`), and for `double-params`
 * the parameter its values set (`set_F.0.5` is `SetF(beta=0.5)`). Cutoffs set `@`; `pairs` set
 * a number parameter they name (`rbp.p=0.8`) or else the `gains` map (`ndcg.1=3`).
 */
export interface TrecEvalMapping<P extends ParamSpecs = ParamSpecs> extends TrecEvalMeasure {
  readonly fixed?: Partial<ParamValues<P>>
  readonly param?: keyof P & string
  /**
   * For `double-params` whose values together make one measure: the parameters they set, in
   * order (`utility.1,-1,0,0` is `Utility(a=1,b=-1,c=0,d=0)`).
   */
  readonly paramList?: readonly (keyof P & string)[]
}

/** A trec_eval row as written in a family file: printing `double`/`mean` and no parameters unless said. */
export type TrecEvalMappingInput<P extends ParamSpecs = ParamSpecs> = Omit<
  TrecEvalMapping<P>,
  'params' | 'perQuery' | 'summary' | 'usesRanking' | 'v10Only'
> &
  Partial<Pick<TrecEvalMapping<P>, 'params' | 'perQuery' | 'summary' | 'usesRanking' | 'v10Only'>>

/**
 * Define a measure of trec_eval's (the drop-in's) alone, or one trec_eval name of a family.
 * Defaults: no parameters, printed `%6.4f` per query, averaged in the summary.
 */
export function defineTrecEvalMeasure<P extends ParamSpecs = ParamSpecs>(
  m: TrecEvalMappingInput<P>,
): TrecEvalMapping<P> {
  return {
    params: 'none',
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    v10Only: false,
    ...m,
  }
}

/** The values of cutoff and number parameters (none for other kinds). */
export function teValues(p: TeParams): readonly number[] {
  return p.kind === 'long-cutoffs' || p.kind === 'double-cutoffs' || p.kind === 'double-params'
    ? p.values
    : []
}

/** The pairs of a `pairs` parameter string (none for other kinds). */
export function tePairs(p: TeParams): readonly GainPair[] {
  return p.kind === 'pairs' ? p.pairs : []
}

/** A one-value trec_eval computation as the drop-in calls it. */
export function single(
  f: (q: JudgedRanking, p: TeParams, ctx: TeContext) => number,
): TrecEvalMeasure['compute'] {
  return (q, p, ctx) => [f(q, p, ctx)]
}

/** A measure instance: a family plus its parameters, with its canonical name. */
export interface Measure {
  readonly spec: MeasureSpec
  /** Parameters explicitly given (canonical name omits defaults). */
  readonly given: Readonly<Record<string, ParamValue>>
  readonly at: number | undefined
  /** Canonical ir_measures-style name: params sorted, defaults omitted, `@` last. */
  readonly name: string
}

/** Whether `x` is finite and within `r`. */
export function inRange(x: number, r: ParamRange = {}): boolean {
  if (!Number.isFinite(x)) return false
  if (r.min !== undefined && (r.minOpen ? x <= r.min : x < r.min)) return false
  if (r.max !== undefined && (r.maxOpen ? x >= r.max : x > r.max)) return false
  return true
}

/** A range in words: `in [0, 1)`, `>= 0`, `> 0`, or `finite`. */
export function rangeText(r: ParamRange = {}): string {
  if (r.min !== undefined && r.max !== undefined)
    return `in ${r.minOpen ? '(' : '['}${r.min}, ${r.max}${r.maxOpen ? ')' : ']'}`
  if (r.min !== undefined) return `${r.minOpen ? '>' : '>='} ${r.min}`
  if (r.max !== undefined) return `${r.maxOpen ? '<' : '<='} ${r.max}`
  return 'finite'
}
