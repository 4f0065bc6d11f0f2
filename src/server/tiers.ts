/**
 * Significance tiers of a board: which entries are statistically tied with the one ranked
 * above them, by the paired tests of `trecscore compare` on the per-query values of the
 * primary measure.
 *
 * Tiers, round by round: the best-ranked entry not yet placed heads a new tier; every other
 * unplaced entry is tested against it (paired over the queries where both have a value), the
 * p-values of the round are corrected together (Holm by default), and each entry that is not
 * significantly worse than the head (corrected p ≥ α, or a mean difference in its favour, or
 * fewer than two paired queries) joins the head's tier. Tier 1 is "statistically tied with
 * #1". A tier can skip a rank: an entry may be significantly worse than the head while one
 * ranked below it is not (the tests are paired, so their power differs); each entry is shown
 * with its own tier.
 *
 * Each entry is also tested against the entry ranked directly above it (its neighbour), those
 * p-values corrected together as a second family.
 *
 * The tests read the per-query values, so they compare the query means of the primary
 * measure; a board ranked by another aggregation (a domain macro) ranks on that, and the two
 * can disagree, which the board says.
 */
import {
  adjustPValues,
  type Correction,
  pairedTTest,
  permutationTest,
  wilcoxonTest,
} from '../internal.js'
import type { TIER_TESTS } from './config/schema.js'

export type TierTest = (typeof TIER_TESTS)[number]

/** How tiers are computed (the competition config's `significance`). */
export interface TierSettings {
  readonly test: TierTest
  readonly correction: Correction
  readonly alpha: number
  /** Sign-flip budget of the permutation test. */
  readonly permutations: number
  /** Seed of the permutation test. */
  readonly seed: number
}

/** One entry's tier and tests. */
export interface EntryTier {
  /** 1, 2, …; null when the entry has no per-query values of the primary measure. */
  readonly tier: number | null
  /** Corrected p-value against the head of its tier (null for a head, or when untestable). */
  readonly pHead: number | null
  /** Corrected p-value against the entry ranked directly above (null for the first, or when untestable). */
  readonly pAbove: number | null
}

/** Per entry, in board order: its per-query values of the primary measure (query id → value), or null. */
export type PerQueryPrimary = ReadonlyMap<string, number> | null

function paired(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
): [number[], number[]] {
  const x: number[] = []
  const y: number[] = []
  for (const [q, v] of a) {
    const w = b.get(q)
    if (w !== undefined) {
      x.push(v)
      y.push(w)
    }
  }
  return [x, y]
}

/** Two-sided p of A against B and mean(A − B), or p null when the test cannot run. */
function test(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  s: TierSettings,
): { p: number | null; diff: number } {
  const [x, y] = paired(a, b)
  if (x.length < 2) return { p: null, diff: 0 }
  let diff = 0
  for (let i = 0; i < x.length; i++) diff += x[i]! - y[i]!
  diff /= x.length
  const r =
    s.test === 't'
      ? pairedTTest(x, y)
      : s.test === 'wilcoxon'
        ? wilcoxonTest(x, y)
        : permutationTest(x, y, { permutations: s.permutations, seed: s.seed })
  return { p: r.p, diff }
}

/** Tiers of entries given in board order (rank 1 first). Pure. */
export function computeTiers(
  perQuery: readonly PerQueryPrimary[],
  settings: TierSettings,
): EntryTier[] {
  const n = perQuery.length
  const tier: (number | null)[] = new Array(n).fill(null)
  const pHead: (number | null)[] = new Array(n).fill(null)
  let next = 1
  for (;;) {
    const head = perQuery.findIndex((v, i) => v !== null && tier[i] === null)
    if (head < 0) break
    const h = perQuery[head]!
    tier[head] = next
    const others = perQuery
      .map((v, i) => (v !== null && tier[i] === null ? i : -1))
      .filter((i) => i >= 0)
    const results = others.map((i) => test(h, perQuery[i]!, settings))
    const adjusted = adjustPValues(
      results.map((r) => r.p),
      settings.correction,
    )
    others.forEach((i, k) => {
      const p = adjusted[k] ?? null
      const worse = p !== null && p < settings.alpha && results[k]!.diff > 0
      if (!worse) {
        tier[i] = next
        pHead[i] = p
      }
    })
    next++
  }
  const above = perQuery.map((v, i) => {
    const prev = i > 0 ? perQuery[i - 1] : null
    return v !== null && prev ? test(prev, v, settings).p : null
  })
  const pAbove = adjustPValues(above, settings.correction)
  return perQuery.map((_, i) => ({
    tier: tier[i] ?? null,
    pHead: pHead[i] ?? null,
    pAbove: pAbove[i] ?? null,
  }))
}

/** The tier rule in words, as every board prints it. */
export function tierPolicy(s: TierSettings): string {
  const test =
    s.test === 't'
      ? 'paired t-test'
      : s.test === 'wilcoxon'
        ? 'Wilcoxon signed-rank test'
        : `paired permutation test (${s.permutations} sign flips, seed ${s.seed})`
  const corr =
    s.correction === 'none'
      ? 'no correction'
      : `${s.correction === 'holm' ? 'Holm' : s.correction === 'bonferroni' ? 'Bonferroni' : 'Benjamini-Hochberg'} correction`
  return `Tiers: the best entry not yet placed heads a tier, and every entry not significantly worse than it (${test} on the per-query values of the primary measure, ${corr} per round, alpha ${s.alpha}) shares it; tier 1 is statistically tied with #1. "vs above" tests each entry against the one ranked directly above (${corr} over those pairs).`
}
