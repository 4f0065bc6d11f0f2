/**
 * Invariants that hold for every input (fast-check). Only true invariants: e.g. a percentile CI
 * need not contain the point estimate, so that is not asserted; swapping raters changes the
 * float division order, so symmetry is asserted to 1e-15, not bit for bit.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  clusterBootstrap,
  cohenKappa,
  computeAgreement,
  kendallTauB,
  krippendorffAlpha,
  LIKERT_CATEGORIES,
  spearmanRho,
} from '../../../src/entries/stats.js'
import { pairedStatistics, pairedTable } from '../../../src/stats/agreement/paired-table.js'

const rating = fc.integer({ min: 1, max: 5 })
const pairs = fc.array(fc.tuple(rating, rating), { minLength: 2, maxLength: 60 })
const split = (ps: [number, number][]): [number[], number[]] => [
  ps.map((p) => p[0]),
  ps.map((p) => p[1]),
]

describe('agreement invariants', () => {
  it('kappa (all weights) of identical ratings with at least 2 categories is exactly 1', () => {
    fc.assert(
      fc.property(fc.array(rating, { minLength: 2, maxLength: 80 }), (xs) => {
        fc.pre(new Set(xs).size >= 2)
        for (const w of ['quadratic', 'linear', 'unweighted'] as const)
          expect(cohenKappa(xs, xs, w).value).toBe(1)
      }),
    )
  })

  it('alpha is at most 1 at every level; with both coders identical and 2+ values it is 1', () => {
    fc.assert(
      fc.property(pairs, (ps) => {
        const [h, j] = split(ps)
        for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as const) {
          const a = krippendorffAlpha([h, j], level)
          if (a.status === 'ok') expect(a.value!).toBeLessThanOrEqual(1)
          if (new Set(h).size >= 2) expect(krippendorffAlpha([h, h], level).value).toBe(1)
        }
      }),
    )
  })

  it('alpha with missing values never throws and stays at most 1', () => {
    const cell = fc.option(rating, { nil: null, freq: 3 })
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 12 }),
        fc.infiniteStream(cell),
        (coders, units, cells) => {
          const m = Array.from({ length: coders }, () =>
            Array.from({ length: units }, () => cells.next().value as number | null),
          )
          for (const level of ['nominal', 'ordinal', 'interval'] as const) {
            const a = krippendorffAlpha(m, level)
            if (a.status === 'ok') expect(a.value!).toBeLessThanOrEqual(1)
            else expect(a.value).toBeNull()
          }
        },
      ),
    )
  })

  it('spearman and kendall are symmetric (to 1e-15) and within [-1, 1]', () => {
    fc.assert(
      fc.property(pairs, (ps) => {
        const [h, j] = split(ps)
        for (const f of [spearmanRho, kendallTauB]) {
          const a = f(h, j)
          const b = f(j, h)
          expect(a.status).toBe(b.status)
          if (a.status === 'ok') {
            expect(Math.abs(a.value! - b.value!)).toBeLessThanOrEqual(1e-15)
            expect(Math.abs(a.value!)).toBeLessThanOrEqual(1)
          }
        }
      }),
    )
  })

  it('bootstrap CIs are ordered, and resamples = defined + undefined', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(rating, rating), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (convs, seed) => {
          const ps = convs.flatMap((turns, c) =>
            turns.map(([h, j], t) => ({
              conversationId: `c${c}`,
              turnId: `c${c}_turn_${t}`,
              dimension: 'd',
              human: h,
              judge: j,
            })),
          )
          const r = computeAgreement(ps, { bootstrap: 30, seed })
          for (const s of Object.values(r.dimensions[0]!.statistics)) {
            const ci = s.ci!
            expect(ci.resamples).toBe(30)
            expect(ci.undefinedResamples).toBeGreaterThanOrEqual(0)
            if (ci.undefinedResamples < 30) expect(ci.lower!).toBeLessThanOrEqual(ci.upper!)
            else expect([ci.lower, ci.upper]).toEqual([null, null])
          }
        },
      ),
      { numRuns: 40 },
    )
  })

  it('clusterBootstrap never returns a value outside the range of its statistic', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 1, maxLength: 3 }),
          { minLength: 1, maxLength: 6 },
        ),
        (clusters) => {
          const all = clusters.flat()
          const r = clusterBootstrap(
            clusters,
            { max: (xs) => Math.max(...xs) },
            { resamples: 20, seed: 3, confidence: 0.95 },
          )
          expect(r.max.lower!).toBeGreaterThanOrEqual(Math.min(...all))
          expect(r.max.upper!).toBeLessThanOrEqual(Math.max(...all))
        },
      ),
    )
  })
})

describe('the table path (what computeAgreement and its bootstrap use) equals the per-pair functions bit for bit', () => {
  it('on random ratings', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(rating, rating), { maxLength: 80 }), (ps) => {
        const [h, j] = split(ps)
        const s = pairedStatistics(pairedTable(h, j, LIKERT_CATEGORIES), LIKERT_CATEGORIES)
        if (h.length === 0) {
          expect(s.qwk.status).toBe('undefined')
          return
        }
        expect(s.qwk).toEqual(cohenKappa(h, j))
        expect(s.spearman).toEqual(spearmanRho(h, j))
        const tau = kendallTauB(h, j)
        expect(s.kendallTauB).toEqual({ value: tau.value, status: tau.status })
        for (const [name, level] of [
          ['alphaOrdinal', 'ordinal'],
          ['alphaInterval', 'interval'],
        ] as const) {
          const a = krippendorffAlpha([h, j], level)
          expect(s[name]).toEqual({ value: a.value, status: a.status })
        }
        expect(s.exactAgreement.value).toBe(h.filter((x, i) => x === j[i]).length / h.length)
        expect(s.meanBias.value).toBe(j.reduce((a, x, i) => a + x - h[i]!, 0) / h.length)
      }),
      { numRuns: 300 },
    )
  })
})
