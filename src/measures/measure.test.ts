/**
 * `defineMeasure`: parameter types inferred from the declared params (checked by `tsc`), the
 * trec_eval rows' defaults, and the trec_eval names derived from the families.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import { defineMeasure, defineTrecEvalMeasure, type ParamSpec, single } from './measure.js'
import { parseMeasure, parseMeasures } from './name.js'
import { REL, relOf } from './params.js'
import { MEASURES } from './registry.js'
import { ranking } from './test-helpers.js'

const q = ranking([2, -1, 0, 1], [1])

describe('defineMeasure', () => {
  const WIDE: ParamSpec = { type: 'float', doc: 'a parameter declared without `as const`' }
  const spec = defineMeasure({
    name: 'Demo',
    aliases: [],
    summary: 'a family for this test',
    formula: 'beta * rel',
    params: {
      beta: { type: 'float', default: 2, doc: 'a number with a default' },
      dcg: { type: 'string', choices: ['log2', 'exp-log2'], default: 'log2', doc: 'a choice' },
      gains: { type: 'gains', doc: 'a map, no default' },
      judged: { type: 'bool', default: false, doc: 'a flag' },
      rel: REL,
      wide: WIDE,
    },
    at: 'cutoff',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: false,
    trecEval: [{ name: 'demo', compute: single(() => 7) }],
    compute: (r, p, ctx) => {
      expectTypeOf(p.values.beta).toEqualTypeOf<number>()
      expectTypeOf(p.values.dcg).toEqualTypeOf<'log2' | 'exp-log2'>()
      expectTypeOf(p.values.gains).toEqualTypeOf<Readonly<Record<number, number>> | undefined>()
      expectTypeOf(p.values.judged).toEqualTypeOf<boolean>()
      expectTypeOf(p.values.rel).toEqualTypeOf<number | undefined>()
      expectTypeOf(p.values.wide).toEqualTypeOf<
        number | boolean | string | Readonly<Record<number, number>> | undefined
      >()
      return p.values.beta * relOf(p.values.rel, ctx) + (p.at ?? 0) + r.numRet
    },
  })

  it('passes the values through to compute', () => {
    const ctx = { conventions: trecEvalV10 }
    expect(
      spec.compute(
        q,
        {
          at: 10,
          values: {
            beta: 2,
            dcg: 'log2',
            gains: undefined,
            judged: false,
            rel: 3,
            wide: undefined,
          },
        },
        ctx,
      ),
    ).toBe(2 * 3 + 10 + 4)
    expect(
      spec.compute(
        q,
        {
          at: undefined,
          values: {
            beta: 0.5,
            dcg: 'log2',
            gains: undefined,
            judged: false,
            rel: undefined,
            wide: undefined,
          },
        },
        ctx,
      ),
    ).toBe(0.5 * 1 + 4)
  })

  it('fills in a trec_eval row: no parameters, %6.4f per query, averaged', () => {
    expect(spec.trecEval).toHaveLength(1)
    const { compute, ...row } = spec.trecEval[0]!
    expect(row).toEqual({
      name: 'demo',
      params: 'none',
      perQuery: 'double',
      summary: 'mean',
      usesRanking: true,
      v10Only: false,
    })
    expect(compute(q, { kind: 'none' }, { collectionSize: 0, recallRounding: 'lround' })).toEqual([
      7,
    ])
  })

  it('gives a family without trec_eval names none', () => {
    const bare = defineMeasure({
      name: 'Bare',
      aliases: [],
      summary: 'no trec_eval name',
      formula: '0',
      params: {},
      at: 'none',
      atRequired: false,
      aggregate: 'sum',
      needsRelevant: false,
      compute: () => 0,
    })
    expect(bare.trecEval).toEqual([])
  })

  it('keeps what a trec_eval row says', () => {
    const row = defineTrecEvalMeasure({
      name: 'x',
      params: 'pairs',
      perQuery: 'long',
      summary: 'sum',
      v10Only: true,
      compute: () => [1],
    })
    expect([row.params, row.perQuery, row.summary, row.v10Only]).toEqual([
      'pairs',
      'long',
      'sum',
      true,
    ])
  })
})

describe('trec_eval names come from the families', () => {
  it('each reads as its family, a bare name as the drop-in defaults', () => {
    const seen: string[] = []
    for (const [family, spec] of MEASURES) {
      for (const m of spec.trecEval) {
        seen.push(m.name)
        const parsed = parseMeasure(m.name)
        expect(parsed.map((x) => x.spec.name)).toEqual(parsed.map(() => family))
        // One measure per default value, except where the values make one measure together
        // (utility's a,b,c,d) or `evaluate` has them built in (11pt_avg's recall points).
        const one = m.paramList !== undefined || (m.params === 'double-params' && !m.param)
        expect(parsed).toHaveLength(one ? 1 : (m.defaults?.length ?? 1))
      }
    }
    expect(seen.sort()).toEqual(
      [
        '11pt_avg',
        'G',
        'P',
        'Rndcg',
        'Rprec',
        'Rprec_mult',
        'binG',
        'bpref',
        'dcg',
        'gm_bpref',
        'gm_map',
        'infAP',
        'iprec_at_recall',
        'map',
        'map_cut',
        'ndcg',
        'ndcg_cut',
        'ndcg_rel',
        'num_nonrel_judged_ret',
        'num_q',
        'num_rel',
        'num_rel_ret',
        'num_ret',
        'rbp',
        'recall',
        'recip_rank',
        'relative_P',
        'set_F',
        'set_P',
        'set_map',
        'set_recall',
        'set_relative_P',
        'success',
        'unj',
        'utility',
        'yaap',
      ].sort(),
    )
  })
  it('maps values as the style says: cutoffs to @, recall points to @, set_F to beta, pairs to p and gains', () => {
    expect(parseMeasure('map_cut.5,10').map((m) => m.name)).toEqual(['AP@5', 'AP@10'])
    expect(parseMeasure('iprec_at_recall.0.25').map((m) => m.name)).toEqual(['IPrec@0.25'])
    expect(parseMeasure('set_F.0.5').map((m) => m.name)).toEqual(['SetF(beta=0.5)'])
    expect(parseMeasure('set_F').map((m) => m.name)).toEqual(['SetF'])
    expect(parseMeasure('rbp').map((m) => m.name)).toEqual(['RBP(p=0.9)'])
    expect(parseMeasure('rbp.p=0.5,1=2').map((m) => m.name)).toEqual(['RBP(gains={1:2},p=0.5)'])
    expect(parseMeasure('ndcg.1=3').map((m) => m.name)).toEqual(['nDCG(gains={1:3})'])
    expect(() => parseMeasure('rbp.p=x')).toThrow(/p=<number>/)
    expect(() => parseMeasure('set_F.-1')).toThrow(/beta of SetF >= 0/)
    expect(() => parseMeasure('map.5')).toThrow(/no parameters for map/)
  })
  it('maps the measures once only in the drop-in: relative_P, Rprec_mult, utility, 11pt_avg, ...', () => {
    const names = (t: string) => parseMeasure(t).map((m) => m.name)
    expect(names('relative_P.5,10')).toEqual(['P(relative=True)@5', 'P(relative=True)@10'])
    expect(names('set_relative_P')).toEqual(['SetP(relative=True)'])
    expect(names('Rprec_mult.0.2,1.0,2')).toEqual(['Rprec(mult=0.2)', 'Rprec', 'Rprec(mult=2)'])
    expect(names('Rprec_mult')).toHaveLength(10)
    expect(names('utility')).toEqual(['Utility'])
    expect(names('utility.2,-1,0,0')).toEqual(['Utility(a=2)'])
    expect(() => parseMeasure('utility.1,2')).toThrow(/4 numbers for utility/)
    expect(names('11pt_avg')).toEqual(['IPrecAvg'])
    expect(() => parseMeasure('11pt_avg.0.5')).toThrow(/no parameters for 11pt_avg/)
    expect(names('G.1=3')).toEqual(['G(gains={1:3})'])
    expect(
      parseMeasures(['ndcg_rel Rndcg binG gm_bpref yaap num_q dcg']).map((m) => m.name),
    ).toEqual(['nDCG_rel', 'RnDCG', 'binG', 'GMBpref', 'YAAP', 'NumQ', 'DCG'])
  })
})
