/**
 * Means of per-topic RETECO values, in one documented order: callers pass topics in domain-name
 * (byte) order, then the qrels file's topic order, and every mean is a plain left-to-right sum
 * divided by the count (as the Python references do), so values match them to the last bits.
 */

/** The per-topic measures of the plan scorer, in display order. */
export const PLAN_METRICS = ['nDCG@10', 'MAP@10', 'Recall@10', 'P@10', 'MRR', 'TP@10', 'TR@10', 'TP-TEMPO@10'] as const

/** One of {@link PLAN_METRICS}. */
export type PlanMetric = (typeof PLAN_METRICS)[number]

/** A value per plan measure. */
export type MetricValues = Readonly<Record<PlanMetric, number>>

/** Temporal coverage summary of a set of Track 1 query topics. */
export interface CoverageSummary {
  /** Mean TC@10 over the topics whose TC is defined; `null` when none is. */
  readonly tc: number | null
  /** Topics with a defined TC (required periods known). */
  readonly tcDefined: number
  /** nDCG|FC@10: mean nDCG@10 over the topics with TC = 1; `null` when none has. */
  readonly ndcgFullCoverage: number | null
  /** Topics with TC = 1. */
  readonly fullCoverage: number
}

/** A mean over topics (or queries, turns, conversations). */
export interface MeanSummary {
  readonly values: MetricValues
  /** How many values were averaged. */
  readonly count: number
  /** Track 1 query topics only: the temporal coverage summary. */
  readonly coverage: CoverageSummary | null
}

/** Input row of the means: the measures, and for Track 1 queries the TC@10 (null: undefined). */
export interface MeanInput {
  readonly values: MetricValues
  readonly tc?: number | null
}

function zeros(): Record<PlanMetric, number> {
  const o = {} as Record<PlanMetric, number>
  for (const m of PLAN_METRICS) o[m] = 0
  return o
}

/**
 * Left-to-right mean of each measure:  mean = (((x_1 + x_2) + x_3) + …) / n  (0 for n = 0, as
 * RETECO's `_mean`). With `coverage`, also TC (over rows whose TC is defined) and nDCG|FC.
 */
export function meanOf(rows: readonly MeanInput[], coverage = false): MeanSummary {
  const sum = zeros()
  for (const r of rows) for (const m of PLAN_METRICS) sum[m] += r.values[m]
  const n = rows.length
  if (n) for (const m of PLAN_METRICS) sum[m] /= n
  return { values: sum, count: n, coverage: coverage ? coverageOf(rows) : null }
}

/**
 * TC and nDCG|FC of a set of rows:  TC = mean of the defined TC@10 values;
 * nDCG|FC@10 = mean nDCG@10 over rows with TC@10 = 1; each `null` when its set is empty.
 */
export function coverageOf(rows: readonly MeanInput[]): CoverageSummary {
  let tcSum = 0
  let tcN = 0
  let fcSum = 0
  let fcN = 0
  for (const r of rows) {
    const tc = r.tc
    if (tc === null || tc === undefined) continue
    tcSum += tc
    tcN++
    if (tc === 1) {
      fcSum += r.values['nDCG@10']
      fcN++
    }
  }
  return { tc: tcN ? tcSum / tcN : null, tcDefined: tcN, ndcgFullCoverage: fcN ? fcSum / fcN : null, fullCoverage: fcN }
}

/** A macro-average over groups (domains, conversations). */
export interface MacroSummary {
  readonly values: MetricValues
  /** Groups averaged. */
  readonly groups: number
  /** Mean of the groups' defined TC (null when none); present when the groups carry coverage. */
  readonly tc: number | null
  /** Mean of the groups' defined nDCG|FC@10 (null when none). */
  readonly ndcgFullCoverage: number | null
}

/**
 * Unweighted mean of group means:  macro = (1/G) Σ_g mean_g  (summed in group order). TC and
 * nDCG|FC average only the groups where they are defined.
 */
export function macroOf(groups: readonly MeanSummary[]): MacroSummary {
  const m = meanOf(groups.map((g) => ({ values: g.values })))
  let tcSum = 0
  let tcN = 0
  let fcSum = 0
  let fcN = 0
  for (const g of groups) {
    if (g.coverage?.tc !== null && g.coverage?.tc !== undefined) {
      tcSum += g.coverage.tc
      tcN++
    }
    if (g.coverage?.ndcgFullCoverage !== null && g.coverage?.ndcgFullCoverage !== undefined) {
      fcSum += g.coverage.ndcgFullCoverage
      fcN++
    }
  }
  return { values: m.values, groups: groups.length, tc: tcN ? tcSum / tcN : null, ndcgFullCoverage: fcN ? fcSum / fcN : null }
}

/** Group rows by a key, keeping the order of first appearance of each key and of rows. */
export function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const r of rows) {
    const k = keyOf(r)
    const list = out.get(k)
    if (list) list.push(r)
    else out.set(k, [r])
  }
  return out
}
