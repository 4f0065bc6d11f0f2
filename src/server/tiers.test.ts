import { describe, expect, it } from 'vitest'
import { pairedTTest } from '../internal.js'
import { computeTiers, type TierSettings, tierPolicy } from './tiers.js'

const T: TierSettings = {
  test: 't',
  correction: 'holm',
  alpha: 0.05,
  permutations: 10_000,
  seed: 42,
}
const vec = (xs: number[]) => new Map(xs.map((x, i) => [`q${i + 1}`, x]))

// A − B = (0.05, 0, 0, 0): mean 0.0125, sd 0.025, t = 0.0125 / (0.025 / 2) = 1 with df 3, so
// p = 1 − (2/π)(√3/4 + π/6) = 0.391002 (the t distribution with 3 degrees of freedom).
const A = vec([0.9, 0.8, 0.7, 0.6])
const B = vec([0.85, 0.8, 0.7, 0.6])
const C = vec([0.1, 0.2, 0.1, 0.2])
const pAB = 1 - (2 / Math.PI) * (Math.sqrt(3) / 4 + Math.PI / 6)

describe('computeTiers', () => {
  it('a leader, an entry tied with it and one significantly worse: tiers 1, 1, 2 with Holm-corrected p-values', () => {
    expect(pAB).toBeCloseTo(0.391002, 6)
    expect(pairedTTest([...A.values()], [...B.values()]).p).toBeCloseTo(pAB, 12)
    const pAC = pairedTTest([...A.values()], [...C.values()]).p!
    const pBC = pairedTTest([...B.values()], [...C.values()]).p!
    expect(pAC).toBeLessThan(0.01)
    const t = computeTiers([A, B, C], T)
    // Round 1 (head A): Holm over {pAB, pAC}: pAC·2 < 0.05 (C is worse), max(pAC·2, pAB) = pAB for B.
    expect(t[0]).toEqual({ tier: 1, pHead: null, pAbove: null })
    expect(t[1]!.tier).toBe(1)
    expect(t[1]!.pHead).toBeCloseTo(pAB, 12)
    expect(t[2]!.tier).toBe(2)
    expect(t[2]!.pHead).toBeNull()
    // Neighbours: B vs A, C vs B, Holm over the two: pBC·2, then max(pBC·2, pAB).
    expect(t[1]!.pAbove).toBeCloseTo(Math.max(pAB, 2 * pBC), 12)
    expect(t[2]!.pAbove).toBeCloseTo(2 * pBC, 12)
  })

  it('without correction, and with a level that C passes: all tied', () => {
    const t = computeTiers([A, B, C], { ...T, correction: 'none', alpha: 1e-9 })
    expect(t.map((x) => x.tier)).toEqual([1, 1, 1])
  })

  it('an entry without per-query values gets no tier and is not tested; a mean difference in favour of the lower entry never makes it worse', () => {
    // D is better than A on every query (a board ranked by another aggregation can list it lower).
    const D = vec([1, 0.95, 0.9, 0.85])
    const t = computeTiers([A, null, D], T)
    expect(t[1]).toEqual({ tier: null, pHead: null, pAbove: null })
    expect(t[2]!.tier).toBe(1)
    expect(t[2]!.pAbove).toBeNull() // its neighbour above has no values
  })

  it('pairs only the queries both entries have; fewer than two pairs cannot separate them', () => {
    const X = new Map([['q1', 0.9]])
    const Y = new Map([
      ['q1', 0.1],
      ['q2', 0.2],
    ])
    const t = computeTiers([X, Y], T)
    expect(t.map((x) => x.tier)).toEqual([1, 1])
    expect(t[1]!.pHead).toBeNull()
  })

  it('a tier can skip a rank: the paired tests differ in power', () => {
    // B2 is a little worse than A on every query (tiny variance: significant); E is far worse on
    // average but noisy (not significant): B2 heads tier 2, E stays in tier 1.
    const A2 = vec([0.5, 0.5, 0.5, 0.5, 0.5, 0.5])
    const B2 = vec([0.49, 0.48, 0.49, 0.48, 0.49, 0.48])
    const E = vec([0.9, 0.0, 0.9, 0.0, 0.9, 0.0])
    const t = computeTiers([A2, B2, E], T)
    expect(t.map((x) => x.tier)).toEqual([1, 2, 1])
  })

  it('says how it works', () => {
    expect(tierPolicy(T)).toContain(
      'paired t-test on the per-query values of the primary measure, Holm correction per round, alpha 0.05',
    )
    expect(tierPolicy({ ...T, test: 'permutation', correction: 'bh' })).toContain(
      'paired permutation test (10000 sign flips, seed 42)',
    )
  })
})
