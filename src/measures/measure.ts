import type { Conventions } from '../conventions/conventions.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'

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
}

/** How per-query values become one number. */
export type Aggregate = 'mean' | 'sum' | 'gmean'

/**
 * A measure family in ir_measures' vocabulary: name, aliases, parameters, the meaning of `@`,
 * and the per-query computation. `null` from `compute` means "undefined for this query".
 */
export interface MeasureSpec {
  readonly name: string
  readonly aliases: readonly string[]
  readonly summary: string
  /** The formula, as in the family's doc comment (shown by `trecscore measures NAME`). */
  readonly formula: string
  readonly params: Readonly<Record<string, ParamSpec>>
  /** What `@x` sets: an integer rank cutoff, a recall level, or nothing. */
  readonly at: 'cutoff' | 'recall' | 'none'
  /** `@` must be given (e.g. `P@k`). */
  readonly atRequired: boolean
  readonly aggregate: Aggregate
  /** Whether the value needs at least one relevant doc to be meaningful. */
  readonly needsRelevant: boolean
  compute(q: JudgedRanking, p: ResolvedParams, ctx: MeasureContext): number
}

/** Parameters of one measure instance after defaults: `at` holds the `@` value. */
export interface ResolvedParams {
  readonly at: number | undefined
  readonly values: Readonly<Record<string, ParamValue>>
}

/** Define a measure family (identity function that checks the shape). */
export function defineMeasure(spec: MeasureSpec): MeasureSpec {
  return spec
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
  if (r.min !== undefined && r.max !== undefined) return `in ${r.minOpen ? '(' : '['}${r.min}, ${r.max}${r.maxOpen ? ')' : ']'}`
  if (r.min !== undefined) return `${r.minOpen ? '>' : '>='} ${r.min}`
  if (r.max !== undefined) return `${r.maxOpen ? '<' : '<='} ${r.max}`
  return 'finite'
}
