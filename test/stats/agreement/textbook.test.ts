/**
 * Hand-computed and textbook values: Krippendorff (2011) p. 8, the research note's worked
 * examples (../shared/notes/generation.md §5), a kappa computed by hand, and the exhaustive
 * bootstrap enumeration of example D from the same note.
 */
import { describe, expect, it } from 'vitest'
import {
  clusterBootstrap,
  cohenKappa,
  computeAgreement,
  kendallTauB,
  krippendorffAlpha,
  numpyPairwiseSum,
  spearmanRho,
} from '../../../src/entries/stats.js'
import { quantileLinear } from '../../../src/stats/agreement/bootstrap.js'
import { rational, toDouble } from '../../../src/stats/agreement/exact.js'

const N = null
/** Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", p. 8: 4 coders × 12 units. */
const K2011 = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
  [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],
]

describe("Krippendorff's alpha, textbook", () => {
  it('Krippendorff (2011) p. 8: .743 nominal, .815 ordinal, .849 interval, .797 ratio', () => {
    expect(krippendorffAlpha(K2011, 'nominal').exact).toBe('113/152')
    expect(krippendorffAlpha(K2011, 'ordinal').exact).toBe('108577/133160')
    expect(krippendorffAlpha(K2011, 'interval').exact).toBe('951/1120')
    expect(krippendorffAlpha(K2011, 'nominal').value!.toFixed(3)).toBe('0.743')
    expect(krippendorffAlpha(K2011, 'ordinal').value!.toFixed(3)).toBe('0.815')
    expect(krippendorffAlpha(K2011, 'interval').value!.toFixed(3)).toBe('0.849')
    expect(krippendorffAlpha(K2011, 'ratio').value!.toFixed(3)).toBe('0.797')
    // 12th unit has one value and is dropped: n = 40 pairable values
    expect(krippendorffAlpha(K2011, 'nominal').pairable).toBe(40)
  })

  it('undefined: a single value overall, or nothing pairable', () => {
    expect(
      krippendorffAlpha(
        [
          [3, 3, 3],
          [3, 3, 3],
        ],
        'ordinal',
      ),
    ).toMatchObject({ status: 'undefined', value: null })
    expect(
      krippendorffAlpha(
        [
          [1, N],
          [N, 2],
        ],
        'interval',
      ),
    ).toMatchObject({ status: 'undefined', value: null, pairable: 0 })
  })

  it('human always 2, judge always 4: alpha = -0.875 at every level (note: can be negative)', () => {
    const h = [2, 2, 2, 2, 2, 2, 2, 2]
    const j = [4, 4, 4, 4, 4, 4, 4, 4]
    for (const level of ['nominal', 'ordinal', 'interval'] as const)
      expect(krippendorffAlpha([h, j], level).value).toBe(-0.875)
  })

  it('scaling interval values or rescaling ratio values does not change alpha; non-integer values are exact', () => {
    const a = krippendorffAlpha(
      [
        [1, 2, 3, 4],
        [1, 3, 3, 5],
      ],
      'interval',
    )
    const b = krippendorffAlpha(
      [
        [0.5, 1, 1.5, 2],
        [0.5, 1.5, 1.5, 2.5],
      ],
      'interval',
    )
    expect(b.exact).toBe(a.exact)
  })
})

describe("Cohen's kappa, by hand", () => {
  it('fixed categories 1..5 (note: 0.4444… with labels, 0.6428… with observed labels)', () => {
    // human [1,2,4,4,2], judge [1,4,4,2,2]: C has (1,1)=1, (2,2)=1, (2,4)=1, (4,2)=1, (4,4)=1;
    // quadratic ΣwO = 4+4 = 8; human marginals 1:1 2:2 4:2, judge 1:1 2:2 4:2;
    // ΣwE = Σ_ij (i-j)² h_i j_j / 5 = (1·2·1 + 1·2·9 + 2·1·1 + 2·2·4 + 2·1·9 + 2·2·4)/5 = 72/5;
    // κ = 1 − 8/(72/5) = 1 − 40/72 = 4/9.
    expect(cohenKappa([1, 2, 4, 4, 2], [1, 4, 4, 2, 2], 'quadratic').value).toBe(0.4444444444444444)
  })
  it('unweighted, hand: agreement 3/5, chance (1·1+2·2+2·2)/25 = 9/25 → κ = (15/25 − 9/25)/(16/25) = 3/8', () => {
    expect(cohenKappa([1, 2, 4, 4, 2], [1, 4, 4, 2, 2], 'unweighted').value).toBe(0.375)
  })
  it('ratings outside the categories are an error, not a silent drop', () => {
    expect(() => cohenKappa([1, 6], [1, 2])).toThrow(RangeError)
  })
  it('numpy pairwise sum: below 8 values left to right; 25 values in 8 lanes then the last', () => {
    expect(numpyPairwiseSum([0.1, 0.2, 0.3])).toBe(0.1 + 0.2 + 0.3)
    const v = Array.from({ length: 25 }, (_, i) => 1 / (i + 3))
    const r = Array.from({ length: 8 }, (_, j) => v[j]! + v[j + 8]! + v[j + 16]!)
    expect(numpyPairwiseSum(v)).toBe(
      r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!)) + v[24]!,
    )
  })
})

describe('research note worked examples (generation.md §5)', () => {
  it('example D: QWK 16/21, Spearman 6.75/√85.5, Kendall 5/√72, ordinal alpha 92/125', () => {
    const h = [5, 4, 4, 3, 2]
    const j = [4, 4, 5, 2, 2]
    expect(cohenKappa(h, j).value).toBe(0.7619047619047619)
    expect(spearmanRho(h, j).value).toBe(0.7299963950884315)
    expect(kendallTauB(h, j).counts).toEqual({
      concordant: 6,
      discordant: 1,
      n0: 10,
      tiesX: 1,
      tiesY: 2,
    })
    expect(krippendorffAlpha([h, j], 'ordinal').exact).toBe('92/125')
  })
})

describe('exact rationals', () => {
  it('toDouble rounds correctly, ties to even', () => {
    expect(toDouble(rational(1n, 3n))).toBe(1 / 3)
    expect(toDouble(rational(-2n, 3n))).toBe(-2 / 3)
    expect(toDouble(rational(2n ** 53n + 1n))).toBe(2 ** 53) // tie → even
    expect(toDouble(rational(2n ** 53n + 3n))).toBe(2 ** 53 + 4)
    expect(toDouble(rational((2n ** 53n + 1n) * 3n + 1n, 3n))).toBe(2 ** 53 + 2) // just above the tie
    expect(toDouble(rational(18222619n, 22852465n))).toBe(0.797402774711612)
  })
})

describe('bootstrap, example D enumerated exhaustively (generation.md §5)', () => {
  const h = [5, 4, 4, 3, 2]
  const j = [4, 4, 5, 2, 2]
  // every one of the 5^5 = 3125 ordered resamples
  const all: number[][] = []
  for (let a = 0; a < 3125; a++) {
    const idx: number[] = []
    for (let t = 0, x = a; t < 5; t++, x = Math.floor(x / 5)) idx.push(x % 5)
    all.push(idx)
  }
  it('exact-agreement resample means have the published multiplicities and CI [0.0, 0.8]', () => {
    const eq = h.map((v, i) => (v === j[i] ? 1 : 0))
    const means = all.map((idx) => idx.reduce((s, i) => s + eq[i]!, 0) / 5)
    const mult = new Map<number, number>()
    for (const m of means) mult.set(m, (mult.get(m) ?? 0) + 1)
    expect([...mult.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [0, 243],
      [0.2, 810],
      [0.4, 1080],
      [0.6, 720],
      [0.8, 240],
      [1, 32],
    ])
    means.sort((a, b) => a - b)
    expect([quantileLinear(means, 0.025), quantileLinear(means, 0.975)]).toEqual([0, 0.8])
  })
  it('QWK: 2 of 3125 resamples undefined; linear 2.5/50/97.5 percentiles as numpy', () => {
    const values: number[] = []
    let undef = 0
    for (const idx of all) {
      const k = cohenKappa(
        idx.map((i) => h[i]!),
        idx.map((i) => j[i]!),
      )
      if (k.value === null) undef++
      else values.push(k.value)
    }
    expect(undef).toBe(2)
    values.sort((a, b) => a - b)
    expect(quantileLinear(values, 0.025)).toBe(-0.4285714285714286)
    expect(quantileLinear(values, 0.5)).toBe(0.7272727272727273)
    expect(quantileLinear(values, 0.975)).toBe(0.9180327868852459)
  })
  it('a seeded Monte-Carlo bootstrap (B = 5000) reaches the exact CI [0.0, 0.8] for exact agreement', () => {
    const pairs = h.map((v, i) => ({
      conversationId: `c${i}`,
      turnId: `c${i}_turn_1`,
      dimension: 'x',
      human: v,
      judge: j[i]!,
    }))
    const r = computeAgreement(pairs, { bootstrap: 5000, seed: 7 })
    const ci = r.dimensions[0]!.statistics.exactAgreement.ci!
    expect([ci.lower, ci.upper]).toEqual([0, 0.8])
    expect(ci.undefinedResamples).toBe(0)
    // QWK undefined only when all 5 draws are one of the two items with human = judge: p = 2/3125
    expect(r.dimensions[0]!.statistics.qwk.ci!.undefinedResamples).toBeLessThan(20)
  })
})

describe('cluster bootstrap', () => {
  it('resamples whole conversations: a statistic that counts distinct clusters only sees whole clusters', () => {
    const clusters = [['a', 'a', 'a'], ['b', 'b'], ['c']]
    const sizes = new Set<number>()
    clusterBootstrap(
      clusters,
      { n: (items) => (sizes.add(items.length), items.length) },
      { resamples: 200, seed: 1, confidence: 0.95 },
    )
    // totals are sums of 3 cluster sizes from {3, 2, 1}: 3..9, never anything that splits a cluster
    for (const s of sizes) expect(s >= 3 && s <= 9).toBe(true)
    expect(sizes.size).toBeGreaterThan(3)
  })
  it('the same seed gives the same interval; undefined resamples are counted', () => {
    const clusters = [[1], [1], [2], [3]]
    const stat = {
      odd: (xs: readonly number[]) => (xs.includes(3) ? xs.reduce((a, b) => a + b, 0) : null),
    }
    const a = clusterBootstrap(clusters, stat, { resamples: 300, seed: 9, confidence: 0.9 })
    const b = clusterBootstrap(clusters, stat, { resamples: 300, seed: 9, confidence: 0.9 })
    expect(a).toEqual(b)
    // P(no cluster 4 in 4 draws) = (3/4)^4 ≈ 0.32
    expect(a.odd.undefinedResamples).toBeGreaterThan(60)
    expect(a.odd.undefinedResamples).toBeLessThan(140)
    expect(a.odd.resamples).toBe(300)
  })
})

describe('Krippendorff alpha with extreme and fractional values', () => {
  it('interval alpha is exact for values spanning many binary orders of magnitude', () => {
    // same structure as [[1,2,3,4],[1,3,3,5]] scaled by 2^-1000 and 2^900: the same alpha
    const base = krippendorffAlpha(
      [
        [1, 2, 3, 4],
        [1, 3, 3, 5],
      ],
      'interval',
    ).exact
    const tiny = krippendorffAlpha(
      [[1, 2, 3, 4].map((v) => v * 2 ** -1000), [1, 3, 3, 5].map((v) => v * 2 ** -1000)],
      'interval',
    ).exact
    const huge = krippendorffAlpha(
      [[1, 2, 3, 4].map((v) => v * 2 ** 900), [1, 3, 3, 5].map((v) => v * 2 ** 900)],
      'interval',
    ).exact
    expect(tiny).toBe(base)
    expect(huge).toBe(base)
    expect(
      krippendorffAlpha(
        [
          [5e-324, 1e300],
          [1e300, 5e-324],
        ],
        'interval',
      ).status,
    ).toBe('ok')
  })
})
