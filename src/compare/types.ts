/**
 * Result types of `compareRuns` (`trecscore compare`): per measure, the per-query values of every
 * run over one shared query set, the paired tests of each compared pair with corrected p-values,
 * effect sizes, wins/ties/losses, and the same inside each group of a breakdown. Plain data: the
 * JSON renderer writes it as is (schema `trecscore.compare/1`), the HTML report reads it.
 */
import type { ValueColumn } from '../evaluate/evaluate.js'

/** The paired tests `compare` can run. */
export const TEST_NAMES = ['t', 'permutation', 'bootstrap', 'wilcoxon'] as const
/** One of {@link TEST_NAMES}. */
export type TestName = (typeof TEST_NAMES)[number]

/** Multiple-comparison corrections. */
export const CORRECTION_NAMES = ['holm', 'bonferroni', 'bh', 'none'] as const
/** One of {@link CORRECTION_NAMES}. */
export type CorrectionName = (typeof CORRECTION_NAMES)[number]

/** Groupings a preset can define for breakdowns. */
export const GROUPING_NAMES = ['domain', 'turn-depth', 'step'] as const
/** One of {@link GROUPING_NAMES}. */
export type GroupingName = (typeof GROUPING_NAMES)[number]

/** Settings of one comparison (every one is echoed in the result and the legend). */
export interface CompareSettings {
  /** Tests to run, in order; the FIRST decides the significance letters. @default ['t'] */
  readonly tests: readonly TestName[]
  /** @default 'holm' */
  readonly correction: CorrectionName
  /** Significance level applied to corrected p-values. @default 0.05 */
  readonly alpha: number
  /** Sign-flip budget of the permutation test (exact enumeration when 2^n ≤ this). @default 10000 */
  readonly permutations: number
  /** Resamples of the bootstrap test and of the bootstrap CI of the mean difference. @default 10000 */
  readonly bootstrap: number
  /** Seed of every resampling (`createRng`). @default 42 */
  readonly seed: number
  /** Compare every run against this run only (its name); `null`: all pairs. */
  readonly baseline: string | null
  /** Groups with fewer queries than this are listed but not tested. @default 5 */
  readonly minGroupSize: number
}

/** One paired test of one pair on one measure. */
export interface TestResult {
  readonly test: TestName
  /** The test statistic (t; the mean difference for permutation and bootstrap; V = W+ for Wilcoxon); `null` when the test could not run. */
  readonly statistic: number | null
  /** Two-sided p-value, `null` when the test could not run (n too small). */
  readonly p: number | null
  /** p after the correction across the family (see {@link MeasureComparison.family}); `null` with `p`. */
  readonly pAdjusted: number | null
  /** `pAdjusted < alpha` (strictly). */
  readonly significant: boolean
  /** How p was obtained: `t distribution, df 9`, `exact, 1024 sign vectors`, `sampled, 10000 …`, `normal approximation …`. */
  readonly method: string
}

/** Effect size of one pair: A − B. */
export interface EffectSize {
  /** mean(A − B) over the tested queries. */
  readonly meanDifference: number
  /** Percentile bootstrap 95% CI of the mean difference (seeded); `null` when n < 2. */
  readonly ci95: readonly [number, number] | null
  /** Cohen's d for paired samples, d_z = mean(d) / sd(d) (sd with n − 1); `null` when sd = 0 or n < 2. */
  readonly cohensDz: number | null
}

/** One compared pair (A against B) on one measure in one scope. */
export interface PairComparison {
  /** Index of run A in {@link CompareResult.runs}. */
  readonly a: number
  /** Index of run B (the baseline when one is given). */
  readonly b: number
  /** Queries paired (both values defined). */
  readonly n: number
  readonly meanA: number
  readonly meanB: number
  /** One entry per {@link CompareSettings.tests}, same order. */
  readonly tests: readonly TestResult[]
  readonly effect: EffectSize
  /** Queries where A > B, A = B (exactly), A < B. */
  readonly wins: number
  readonly ties: number
  readonly losses: number
  /**
   * Which run is significantly better under the FIRST test (corrected): `a`, `b`, or `null`
   * (not significant, or equal means).
   */
  readonly better: 'a' | 'b' | null
}

/** One measure compared in one scope (all queries, or one group). */
export interface MeasureComparison {
  readonly measure: string
  /** Per run (same order as {@link CompareResult.runs}): the mean over the tested queries. */
  readonly means: readonly (number | null)[]
  /** Indices into {@link CompareResult.queries} of the queries tested here (defined for every run). */
  readonly queries: readonly number[]
  /** Queries of the scope left out because some run's value is undefined for them. */
  readonly undefinedQueries: number
  /** Per run, per tested query (aligned with `queries`): the value. */
  readonly values: readonly (readonly number[])[]
  readonly pairs: readonly PairComparison[]
  /** The family the correction ran over, in words. */
  readonly family: string
  /** Best mean (indices of runs sharing it); empty when no mean is defined. */
  readonly best: readonly number[]
  /**
   * Per run: indices of the runs it significantly beats (first test, corrected); drives the
   * superscript letters.
   */
  readonly beats: readonly (readonly number[])[]
}

/** One group of a breakdown. */
export interface GroupComparison {
  /** Group label (`law`, `T3`, `step2`). */
  readonly group: string
  /** Queries in the group. */
  readonly size: number
  /** `false` when the group has fewer than `minGroupSize` queries: listed, means shown, not tested. */
  readonly tested: boolean
  /** Why a group was not tested. */
  readonly note: string | null
  readonly measures: readonly MeasureComparison[]
}

/** A breakdown by one grouping. */
export interface Breakdown {
  readonly by: GroupingName
  readonly groups: readonly GroupComparison[]
}

/** A compared run. */
export interface CompareRun {
  /** Name in reports (file name). */
  readonly name: string
  /** Letter in tables (`a`, `b`, …, `z`, `aa`, …). */
  readonly letter: string
  /** Run tag, when known. */
  readonly tag: string
  /** Queries of the shared set absent from the run, scored 0 (zero-filled) and counted. */
  readonly zeroFilled: number
  /** Their ids (display form). */
  readonly zeroFilledQueries: readonly string[]
}

/** A query of the shared set. */
export interface CompareQuery {
  /** Display id (UTF-8). */
  readonly id: string
  /** Group label per grouping the source defines (e.g. `{ domain: 'law', step: 'step2' }`). */
  readonly groups: Readonly<Partial<Record<GroupingName, string>>>
}

/** The whole comparison (JSON schema `trecscore.compare/1`). */
export interface CompareResult {
  readonly schema: 'trecscore.compare/1'
  readonly settings: CompareSettings
  /** Where the values came from (`qrels FILE`, `preset reteco-2a (plan) on DIR split dev`). */
  readonly source: string
  readonly runs: readonly CompareRun[]
  readonly measures: readonly string[]
  /** The shared query set (qrels queries), in order. */
  readonly queries: readonly CompareQuery[]
  /** Per measure, over every query. */
  readonly overall: readonly MeasureComparison[]
  readonly breakdowns: readonly Breakdown[]
  /** Conventions and counts worth a line in the legend (zero-filled queries, conventions). */
  readonly notes: readonly string[]
}

/** One run's per-query values, the input of `compareTable`. */
export interface PerQueryRun {
  readonly name: string
  readonly tag: string
  /** Display ids of the shared queries the run did not have (their values are the zero-filled ones). */
  readonly zeroFilledQueries: readonly string[]
  /**
   * Per measure, per query of {@link PerQueryTable.queries}: the value (`null` = undefined), as an
   * array or as a flat {@link ValueColumn} (what {@link tableFromEvaluations} gives: 8 bytes a
   * value, for runs of millions of queries).
   */
  readonly values: readonly (readonly (number | null)[] | ValueColumn)[]
}

/** Per-query values of several runs over one shared query set: what every source is turned into. */
export interface PerQueryTable {
  readonly source: string
  readonly measures: readonly string[]
  readonly queries: readonly CompareQuery[]
  /** Groupings the source defines (the breakdowns that may be asked for). */
  readonly groupings: readonly GroupingName[]
  readonly runs: readonly PerQueryRun[]
  readonly notes: readonly string[]
}

/** Options of `compareRuns` / `compareTable`: any subset of {@link CompareSettings}, plus breakdowns. */
export interface CompareOptions extends Partial<CompareSettings> {
  /** Breakdowns to compute (each must be one of the source's groupings). */
  readonly by?: readonly GroupingName[]
}
