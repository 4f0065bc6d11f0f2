/**
 * measures-extra conformance (test/fixtures/measures-extra; README there): one `describe` per
 * reference variant, one test per case, through the built CLI (`npm run build` first). Each
 * variant lists the measures trecscore implements so far; the others are `todo` with their
 * names, so what is left stays visible.
 */
import { describe, expect, it } from 'vitest'
import {
  casesOf,
  checkVariant,
  listVariants,
  loadExpected,
  withinTolerance,
} from './measures-extra.check.js'

/** Per variant: the measure names (patterns over the expected files' names) that must pass. */
const IMPLEMENTED: Readonly<Record<string, readonly RegExp[]>> = {
  gdeval: [/^nDCG\(dcg='exp-log2'\)@\d+$/, /^ERR@\d+$/],
  'gdeval-c': [/^nDCG\(dcg='exp-log2'\)@\d+$/, /^ERR@\d+$/],
  'ir_measures-gdeval': [/^nDCG\(dcg='exp-log2'\)@\d+$/, /^ERR@\d+$/],
  'ir_measures-judged': [/^Judged(@\d+)?$/],
  'ir_measures-compat': [/^Compat(\(.*\))?$/],
  // Every trectools measure (RBP and its residual with averaged ties, graded RBP, uRBP, alpha_uRBP, uBpref).
  trectools: [/^/],
  // Every cwl_eval measure (P, RR, cwl's AP, RBP binary and graded with residuals, INST, INSQ, BPM, SDCG, NERR8-11).
  cwl_eval: [/^/],
  'ir_measures-cwl_eval': [/^/],
  // Every ndeval measure (alpha_DCG, alpha_nDCG, ERR_IA, nERR_IA, NRBP, nNRBP, AP_IA, P_IA, StRecall).
  ndeval: [/^/],
  'ndeval-traditional': [/^/],
  'ndeval-c': [/^/],
  'ir_measures-pyndeval': [/^/],
}

const implemented = (variant: string) => (name: string) =>
  (IMPLEMENTED[variant] ?? []).some((re) => re.test(name))

for (const variant of listVariants()) {
  describe(`measures-extra ${variant}`, () => {
    for (const c of casesOf(variant)) {
      const names = loadExpected(c, variant).measures.map((m) => m.name)
      const done = names.filter(implemented(variant))
      const left = names.filter((n) => !done.includes(n))
      if (done.length) {
        it(`${c}: ${done.length} of ${names.length} measures`, () => {
          const r = checkVariant(c, variant, implemented(variant))
          expect(r.problems).toEqual([])
          expect(r.measures.map((m) => m.name)).toEqual(done)
          for (const m of r.measures) expect(m.compared).toBeGreaterThan(0)
        })
      }
      if (left.length) it.todo(`${c}: not implemented yet: ${left.join(' ')}`)
    }
  })
}

describe('measures-extra checker tolerances', () => {
  it('decimals: half a unit of the last printed place', () => {
    expect(withinTolerance(0.123455, 0.12346, 5)).toBe(true)
    expect(withinTolerance(0.123449, 0.12346, 5)).toBe(false)
    expect(withinTolerance(0.1234704, 0.12347, 6)).toBe(true)
    expect(withinTolerance(0.1234706, 0.12347, 6)).toBe(false)
  })
  it('full precision: 1e-9 relative plus 1e-12', () => {
    expect(withinTolerance(0.5 + 4e-10, 0.5, null)).toBe(true)
    expect(withinTolerance(0.5 + 6e-10, 0.5, null)).toBe(false)
    expect(withinTolerance(5e-13, 0, null)).toBe(true)
    expect(withinTolerance(2e-12, 0, null)).toBe(false)
  })
  it('NaN wants null or NaN; a number never passes as missing', () => {
    expect(withinTolerance(null, 'NaN', 6)).toBe(true)
    expect(withinTolerance(Number.NaN, 'NaN', null)).toBe(true)
    expect(withinTolerance(0, 'NaN', null)).toBe(false)
    expect(withinTolerance(null, 0, null)).toBe(false)
    expect(withinTolerance(undefined, 0, 5)).toBe(false)
  })
})
