import { BOOTSTRAP_METHOD, type BootstrapInterval, clusterBootstrapIndices } from './bootstrap.js'
import { LIKERT_CATEGORIES } from './cohen-kappa.js'
import { pairedStatistics, pairedTable } from './paired-table.js'

/**
 * Judge-vs-human agreement per dimension: quadratic-weighted Cohen's kappa over 1..5,
 * Krippendorff's alpha (ordinal, interval), Spearman's rho, Kendall's tau-b, exact agreement
 * (share of pairs with judge = human), within-1 agreement (|judge − human| ≤ 1) and mean bias
 * (mean of judge − human), each with a seeded cluster-bootstrap percentile CI that resamples
 * whole conversations (see bootstrap.ts). Every statistic is computed from the human × judge
 * table of counts (paired-table.ts), so a resample is a sum of per-conversation tables. Pure: no I/O.
 */

/** One rated item: the human's and the judge's score for one turn and dimension. */
export interface AgreementPair {
  readonly conversationId: string
  readonly turnId: string
  readonly dimension: string
  readonly human: number
  readonly judge: number
}

export interface AgreementOptions {
  /** Bootstrap resamples B; 0 turns the CIs off. Default 1000. */
  readonly bootstrap?: number
  /** Seed of the bootstrap's mulberry32 stream. Default 42. */
  readonly seed?: number
  /** Confidence level of the intervals. Default 0.95. */
  readonly confidence?: number
  /** The rating categories. Default 1..5. */
  readonly categories?: readonly number[]
}

/** The statistics reported for each dimension, in report order. */
export const AGREEMENT_STATISTICS = [
  'qwk',
  'alphaOrdinal',
  'alphaInterval',
  'spearman',
  'kendallTauB',
  'exactAgreement',
  'within1Agreement',
  'meanBias',
] as const
export type AgreementStatisticName = (typeof AGREEMENT_STATISTICS)[number]

/** Human-readable names of the statistics. */
export const AGREEMENT_STATISTIC_LABELS: Readonly<Record<AgreementStatisticName, string>> = {
  qwk: "Cohen's kappa (quadratic)",
  alphaOrdinal: "Krippendorff's alpha (ordinal)",
  alphaInterval: "Krippendorff's alpha (interval)",
  spearman: "Spearman's rho",
  kendallTauB: "Kendall's tau-b",
  exactAgreement: 'exact agreement',
  within1Agreement: 'within-1 agreement',
  meanBias: 'mean bias (judge - human)',
}

export interface AgreementStatistic {
  /** The value on all pairs; null when undefined (see status). */
  readonly value: number | null
  /** ok, or nan (the reference library returns NaN) or undefined (no value is defined). */
  readonly status: 'ok' | 'nan' | 'undefined'
  /** Bootstrap CI, null when the bootstrap is off. */
  readonly ci: BootstrapInterval | null
}

export interface DimensionAgreement {
  readonly dimension: string
  /** Pairs (turns × human annotators) used. */
  readonly n: number
  /** Distinct turns and conversations among them. */
  readonly turns: number
  readonly conversations: number
  readonly humanMean: number | null
  readonly judgeMean: number | null
  readonly statistics: Readonly<Record<AgreementStatisticName, AgreementStatistic>>
}

export interface AgreementReport {
  readonly dimensions: readonly DimensionAgreement[]
  readonly bootstrap: {
    readonly resamples: number
    readonly seed: number
    readonly confidence: number
    readonly method: string
  }
  readonly categories: readonly number[]
}

const mean = (xs: readonly number[]): number | null =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null

/** Agreement statistics per dimension (dimensions in order of first appearance). */
export function computeAgreement(
  pairs: readonly AgreementPair[],
  options: AgreementOptions = {},
): AgreementReport {
  const resamples = options.bootstrap ?? 1000
  const seed = options.seed ?? 42
  const confidence = options.confidence ?? 0.95
  const categories = options.categories ?? LIKERT_CATEGORIES
  if (!Number.isInteger(resamples) || resamples < 0)
    throw new RangeError(`computeAgreement: bootstrap must be an integer >= 0, got ${resamples}`)
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new RangeError(`computeAgreement: seed must be an integer in [0, 2^32), got ${seed}`)
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`computeAgreement: confidence must be in (0, 1), got ${confidence}`)
  const sorted = [...categories].sort((a, b) => a - b)
  if (sorted.length < 1 || new Set(sorted).size !== sorted.length || !sorted.every(Number.isFinite))
    throw new RangeError(
      `computeAgreement: categories must be distinct finite numbers, got ${categories.join(',')}`,
    )
  const allowed = new Set(sorted)
  const byDimension = new Map<string, AgreementPair[]>()
  for (const p of pairs) {
    if (!allowed.has(p.human) || !allowed.has(p.judge)) {
      throw new RangeError(
        `computeAgreement: turn ${p.turnId} (${p.dimension}): ratings must be one of ${categories.join(',')}, got human ${p.human}, judge ${p.judge}`,
      )
    }
    let list = byDimension.get(p.dimension)
    if (!list) byDimension.set(p.dimension, (list = []))
    list.push(p)
  }
  const k = sorted.length
  const dimensions: DimensionAgreement[] = []
  for (const [dimension, list] of byDimension) {
    const human = list.map((p) => p.human)
    const judge = list.map((p) => p.judge)
    const clusterMap = new Map<string, AgreementPair[]>()
    for (const p of list) {
      let c = clusterMap.get(p.conversationId)
      if (!c) clusterMap.set(p.conversationId, (c = []))
      c.push(p)
    }
    const tables = [...clusterMap.values()].map((c) =>
      pairedTable(
        c.map((p) => p.human),
        c.map((p) => p.judge),
        sorted,
      ),
    )
    const point = pairedStatistics(pairedTable(human, judge, sorted), sorted)
    let cis: Record<AgreementStatisticName, BootstrapInterval> | null = null
    if (resamples > 0) {
      const sum = new Float64Array(k * k)
      cis = clusterBootstrapIndices(
        tables.length,
        AGREEMENT_STATISTICS,
        (drawn) => {
          sum.fill(0)
          for (const c of drawn) {
            const t = tables[c]!
            for (let i = 0; i < t.length; i++) sum[i]! += t[i]!
          }
          const s = pairedStatistics(sum, sorted)
          const out = {} as Record<AgreementStatisticName, number | null>
          for (const name of AGREEMENT_STATISTICS) out[name] = s[name].value
          return out
        },
        { resamples, seed, confidence },
      )
    }
    const statistics = {} as Record<AgreementStatisticName, AgreementStatistic>
    for (const name of AGREEMENT_STATISTICS) {
      const { value, status } = point[name]
      statistics[name] = { value, status, ci: cis ? cis[name] : null }
    }
    dimensions.push({
      dimension,
      n: list.length,
      turns: new Set(list.map((p) => p.turnId)).size,
      conversations: clusterMap.size,
      humanMean: mean(human),
      judgeMean: mean(judge),
      statistics,
    })
  }
  return {
    dimensions,
    bootstrap: { resamples, seed, confidence, method: BOOTSTRAP_METHOD },
    categories: sorted,
  }
}
