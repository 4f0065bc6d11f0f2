/**
 * Agreement statistics against test/fixtures/generation/{agreement,krippendorff_matrix}.jsonl
 * (copied from shared/conformance/generation; see its README): sklearn 1.2.1 kappas and scipy
 * 1.10.1 Spearman / Kendall tau-b bit for bit (===), nan statuses as the references return them,
 * Krippendorff's alpha within 1e-12 of the exact fraction (and the same fraction), undefined
 * cases, agreement rates and mean bias.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  type AlphaLevel,
  cohenKappa,
  computeAgreement,
  type KappaWeights,
  kendallTauB,
  krippendorffAlpha,
  spearmanRho,
} from '../../../src/entries/stats.js'

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'generation')

interface Reference {
  value: number | null
  status: string
  exact?: string | null
  concordant?: number
  discordant?: number
  n0?: number
  ties_human?: number
  ties_judge?: number
}
interface AgreementCase {
  id: string
  n: number
  human: number[]
  judge: number[]
  results: Record<string, Reference>
}
interface MatrixCase {
  id: string
  matrix: (number | null)[][]
  results: Record<string, Reference>
}

const read = <T>(name: string): T[] =>
  readFileSync(join(DIR, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T)

const CASES = read<AgreementCase>('agreement.jsonl')
const MATRICES = read<MatrixCase>('krippendorff_matrix.jsonl')

/** Our ok|nan|undefined against the reference's ok|nan|undefined. */
function expectValue(got: { value: number | null; status: string }, ref: Reference): void {
  expect(got.status).toBe(ref.status)
  if (ref.status === 'ok') expect(got.value).toBe(ref.value)
  else expect(got.value).toBeNull()
}

describe('agreement.jsonl fixture', () => {
  it('has the 40 cases the README lists', () => {
    expect(CASES).toHaveLength(40)
    for (const c of CASES) expect(c.human).toHaveLength(c.n)
  })

  const kappas: [string, KappaWeights][] = [
    ['qwk', 'quadratic'],
    ['kappa_linear', 'linear'],
    ['kappa_unweighted', 'unweighted'],
  ]
  for (const [key, weights] of kappas) {
    it(`${key}: sklearn cohen_kappa_score(labels=[1..5]) exactly, NaN cases as nan`, () => {
      for (const c of CASES) {
        const ref = c.results[key]!
        const got = cohenKappa(c.human, c.judge, weights)
        expect({ id: c.id, ...got }).toEqual({ id: c.id, value: ref.value, status: ref.status })
      }
    })
  }

  it('spearman_rho: scipy spearmanr exactly', () => {
    for (const c of CASES) {
      const ref = c.results.spearman_rho!
      expect({ id: c.id, ...spearmanRho(c.human, c.judge) }).toEqual({
        id: c.id,
        value: ref.value,
        status: ref.status,
      })
    }
  })

  it('kendall_tau_b: scipy kendalltau exactly, with the pair counts', () => {
    for (const c of CASES) {
      const ref = c.results.kendall_tau_b!
      const got = kendallTauB(c.human, c.judge)
      expect({ id: c.id, value: got.value, status: got.status }).toEqual({
        id: c.id,
        value: ref.value,
        status: ref.status,
      })
      expect({ id: c.id, ...got.counts }).toEqual({
        id: c.id,
        concordant: ref.concordant,
        discordant: ref.discordant,
        n0: ref.n0,
        tiesX: ref.ties_human,
        tiesY: ref.ties_judge,
      })
    }
  })

  for (const level of ['ordinal', 'interval', 'nominal'] as const) {
    it(`kripp_alpha_${level}: the exact fraction, within 1e-12, undefined cases`, () => {
      for (const c of CASES) {
        const ref = c.results[`kripp_alpha_${level}`]!
        const got = krippendorffAlpha([c.human, c.judge], level)
        expect({ id: c.id, status: got.status, exact: got.exact }).toEqual({
          id: c.id,
          status: ref.status,
          exact: ref.exact,
        })
        if (ref.status === 'ok') {
          expect(Math.abs(got.value! - ref.value!)).toBeLessThanOrEqual(1e-12)
          expect(got.value).toBe(ref.value) // correctly rounded, as the fixture's value
        } else expect(got.value).toBeNull()
      }
    })
  }

  it('computeAgreement on each case gives the same values, rates and bias', () => {
    for (const c of CASES) {
      const pairs = c.human.map((h, i) => ({
        conversationId: `c${i}`,
        turnId: `c${i}_turn_1`,
        dimension: 'd',
        human: h,
        judge: c.judge[i]!,
      }))
      const report = computeAgreement(pairs, { bootstrap: 0 })
      const s = report.dimensions[0]!.statistics
      expectValue(s.qwk, c.results.qwk!)
      expectValue(s.spearman, c.results.spearman_rho!)
      expectValue(s.kendallTauB, c.results.kendall_tau_b!)
      expect(s.alphaOrdinal.status).toBe(c.results.kripp_alpha_ordinal!.status)
      expect(s.alphaOrdinal.value).toBe(c.results.kripp_alpha_ordinal!.value)
      expect(s.alphaInterval.value).toBe(c.results.kripp_alpha_interval!.value)
      expect(s.exactAgreement.value).toBe(c.results.exact_agreement!.value)
      expect(s.within1Agreement.value).toBe(c.results.within1_agreement!.value)
      expect(s.meanBias.value).toBe(c.results.mean_bias_judge_minus_human!.value)
      expect(s.qwk.ci).toBeNull()
    }
  })
})

describe('krippendorff_matrix.jsonl fixture (several coders, missing values)', () => {
  it('has 5 matrices', () => expect(MATRICES).toHaveLength(5))
  for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as AlphaLevel[]) {
    it(`kripp_alpha_${level}: exact fraction and value within 1e-12`, () => {
      for (const m of MATRICES) {
        const ref = m.results[`kripp_alpha_${level}`]!
        const got = krippendorffAlpha(m.matrix, level)
        expect({ id: m.id, status: got.status, exact: got.exact }).toEqual({
          id: m.id,
          status: ref.status,
          exact: ref.exact,
        })
        if (ref.status === 'ok') {
          expect(Math.abs(got.value! - ref.value!)).toBeLessThanOrEqual(1e-12)
          expect(got.value).toBe(ref.value)
        }
      }
    })
  }
})
