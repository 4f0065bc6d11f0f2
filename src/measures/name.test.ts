import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InputError } from '../errors/trecscore-error.js'
import { parseMeasure, parseMeasures } from './name.js'

const names = (t: string): string[] => parseMeasure(t).map((m) => m.name)

describe('measure names (ir_measures syntax)', () => {
  it.each([
    ['nDCG@10', 'nDCG@10'],
    ["nDCG(dcg='exp-log2')@5", "nDCG(dcg='exp-log2')@5"],
    ["nDCG(dcg='log2')@10", 'nDCG@10'],
    ['nDCG(gains={0:0,1:1,2:3,3:7})@10', 'nDCG(gains={0:0,1:1,2:3,3:7})@10'],
    ['nDCG(gains={3:7, 0:0})@10', 'nDCG(gains={0:0,3:7})@10'],
    ['P(rel=2)@5', 'P(rel=2)@5'],
    ['AP@10', 'AP@10'],
    ['MAP', 'AP'],
    ['AP(judged_only=True)', 'AP(judged_only=True)'],
    ['AP(judged_only=False)', 'AP'],
    ['RR', 'RR'],
    ['MRR@10', 'RR@10'],
    ['R@1000', 'R@1000'],
    ['Rprec', 'Rprec'],
    ['Bpref', 'Bpref'],
    ['infAP', 'infAP'],
    ['Judged@10', 'Judged@10'],
    ['Success@1', 'Success@1'],
    ['SetF(beta=2)', 'SetF(beta=2)'],
    ['IPrec@0.5', 'IPrec@0.5'],
    ['RBP(p=0.8,rel=1)', 'RBP(rel=1)'],
    ['RBP(rel=1, p=0.5)', 'RBP(p=0.5,rel=1)'],
    ['NumRelRet', 'NumRelRet'],
    ['ndcg', 'nDCG'],
  ])('%s prints as %s', (input, canonical) => {
    expect(names(input)).toEqual([canonical])
    expect(names(canonical)).toEqual([canonical]) // parse(print(m)) = m
  })
  it('accepts trec_eval names, with several cutoffs', () => {
    expect(names('ndcg_cut.10')).toEqual(['nDCG@10'])
    expect(names('P.5,10')).toEqual(['P@5', 'P@10'])
    expect(names('map_cut.10')).toEqual(['AP@10'])
    expect(names('recip_rank')).toEqual(['RR'])
    expect(names('recall.1000')).toEqual(['R@1000'])
    expect(names('ndcg.0=0,1=1,2=3,3=7')).toEqual(['nDCG(gains={0:0,1:1,2:3,3:7})'])
    expect(names('P_5')).toEqual(['P@5'])
    expect(names('iprec_at_recall.0.5')).toEqual(['IPrec@0.5'])
    expect(names('set_F.0.5')).toEqual(['SetF(beta=0.5)'])
  })
  it('splits lists and removes repeats', () => {
    expect(parseMeasures(['nDCG@10 AP', 'AP,P@5']).map((m) => m.name)).toEqual([
      'nDCG@10',
      'AP',
      'P@5',
    ])
  })
})

describe('measure name errors point at the token and suggest', () => {
  const issue = (t: string) => {
    try {
      parseMeasures([t])
    } catch (e) {
      expect(e).toBeInstanceOf(InputError)
      return (e as InputError).issues[0]!
    }
    throw new Error(`no error for ${t}`)
  }
  it('unknown names get the nearest valid measure', () => {
    expect(issue('nDGC@10')).toMatchObject({
      code: 'unknown_measure',
      found: 'nDCG'.replace('CG', 'GC'),
      position: 0,
      suggestions: expect.arrayContaining(['nDCG']),
    })
    expect(issue('Precison@5')).toMatchObject({ suggestions: expect.arrayContaining(['P']) })
  })
  it('unknown parameters name the ones that exist', () => {
    expect(issue('nDCG(foo=1)@10')).toMatchObject({ code: 'unknown_measure', position: 5 })
  })
  it('bad values and missing cutoffs', () => {
    expect(issue("nDCG(dcg='exp')@5")).toMatchObject({ code: 'bad_argument' })
    expect(issue('Precision')).toMatchObject({
      code: 'bad_argument',
      expected: expect.stringContaining('@k'),
    })
    expect(issue('P@0')).toMatchObject({ code: 'bad_argument' })
    expect(issue('Rprec@5')).toMatchObject({ code: 'bad_argument' })
    expect(issue('IPrec@2')).toMatchObject({ code: 'bad_argument' })
  })
  it('reports every bad name at once', () => {
    try {
      parseMeasures(['nDGC@10', 'AP', 'Pp@5'])
      throw new Error('no error')
    } catch (e) {
      expect((e as InputError).issues).toHaveLength(2)
    }
  })
})

const DEFAULT_CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]

describe('bare trec_eval names expand to trec_eval defaults (m_P.c, m_success.c, m_unjudged.c)', () => {
  it.each([
    ['P', 'P'],
    ['recall', 'R'],
    ['map_cut', 'AP'],
    ['ndcg_cut', 'nDCG'],
  ])('%s = %s@5 … @1000', (bare, family) => {
    expect(names(bare)).toEqual(DEFAULT_CUTS.map((k) => `${family}@${k}`))
  })
  it('success, unj and iprec_at_recall use their own defaults', () => {
    expect(names('success')).toEqual(['Success@1', 'Success@5', 'Success@10'])
    expect(names('unj')).toEqual(['Unjudged@5', 'Unjudged@10', 'Unjudged@20'])
    expect(names('iprec_at_recall')).toEqual(
      [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map((r) => `IPrec@${r}`),
    )
  })
  it('names without cutoffs keep their meaning', () => {
    expect(names('map')).toEqual(['AP'])
    expect(names('ndcg')).toEqual(['nDCG'])
    expect(names('R')).toEqual(['R'])
  })
  it('accepts the printed list spellings P_5,10 and ndcg_cut_5,10', () => {
    expect(names('P_5,10')).toEqual(['P@5', 'P@10'])
    expect(names('ndcg_cut_5,10')).toEqual(['nDCG@5', 'nDCG@10'])
    expect(names('iprec_at_recall_0.00,0.50')).toEqual(['IPrec@0', 'IPrec@0.5'])
  })
  it('keeps trec_eval lists whole inside a list of names', () => {
    expect(
      parseMeasures(['P.5,10 map', 'AP,ndcg_cut.5,10', 'P_5,10,nDCG@20']).map((m) => m.name),
    ).toEqual(['P@5', 'P@10', 'AP', 'nDCG@5', 'nDCG@10', 'nDCG@20'])
    expect(parseMeasures(['ndcg.0=0,1=1,2=3,AP']).map((m) => m.name)).toEqual([
      'nDCG(gains={0:0,1:1,2:3})',
      'AP',
    ])
  })
})

describe("ir_measures' cutoff= and recall= parameters", () => {
  it('cutoff= is @k', () => {
    expect(names("nDCG(dcg='exp-log2', cutoff=20)")).toEqual(names("nDCG(dcg='exp-log2')@20"))
    expect(names('P(cutoff=5,rel=2)')).toEqual(['P(rel=2)@5'])
    expect(names('nDCG(cutoff=10)@10')).toEqual(['nDCG@10'])
  })
  it("recall= is IPrec's @r", () => {
    expect(names('IPrec(recall=0.5)')).toEqual(['IPrec@0.5'])
  })
  it('refuses conflicting or invalid values', () => {
    expect(() => parseMeasures(['nDCG(cutoff=5)@10'])).toThrow(InputError)
    expect(() => parseMeasures(['P(cutoff=0)'])).toThrow(InputError)
    expect(() => parseMeasures(['P(cutoff=2.5)'])).toThrow(InputError)
    expect(() => parseMeasures(['IPrec(recall=1.5)'])).toThrow(InputError)
    expect(() => parseMeasures(['AP(recall=0.5)'])).toThrow(InputError)
  })
})

describe('set_F with several betas, and no NaN or Infinity anywhere', () => {
  it('set_F.1.0,0.5,2.4 is three measures (as ir_measures)', () => {
    expect(names('set_F.1.0,0.5,2.4')).toEqual(['SetF', 'SetF(beta=0.5)', 'SetF(beta=2.4)'])
    expect(parseMeasures(['set_F.1.0,0.5,2.4']).map((m) => m.given['beta'] ?? 1)).toEqual([
      1, 0.5, 2.4,
    ])
  })
  it.each([
    'set_F.abc',
    'set_F.nan',
    'set_F.inf',
    'set_F.-1',
    'SetF(beta=-1)',
    'SetF(beta=1e400)',
    'P@1e400',
    'RBP(p=1e400)',
    'rbp.p=nan',
    'ndcg.1=nan',
    'ndcg.1=1e999',
    'nDCG(gains={0:0,1:1e400})',
    'nDCG(gains={1.5:2})',
    'IPrec@nan',
    'iprec_at_recall.nan',
    'P.1e3',
    'P(rel=1e400)@5',
  ])('%s is refused', (t) => {
    expect(() => parseMeasures([t])).toThrow(InputError)
  })
  it('no parsed parameter is NaN or infinite (property over numeric spellings)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.constantFrom('nan', 'inf', '-inf', '1e400', '-0', '1_0', '0x10')),
        fc.constantFrom(
          'SetF(beta=#)',
          'RBP(p=#)',
          'set_F.#',
          'rbp.p=#',
          'ndcg.1=#',
          'nDCG(gains={1:#})',
          'IPrec@#',
          'P(rel=#)@5',
        ),
        (x, template) => {
          let ms: ReturnType<typeof parseMeasures>
          try {
            ms = parseMeasures([template.replace('#', String(x))])
          } catch (e) {
            expect(e).toBeInstanceOf(InputError)
            return
          }
          for (const m of ms) {
            const nums = [
              m.at,
              ...Object.values(m.given).flatMap((v) =>
                typeof v === 'number' ? [v] : typeof v === 'object' ? Object.values(v) : [],
              ),
            ]
            for (const n of nums) if (n !== undefined) expect(Number.isFinite(n)).toBe(true)
          }
        },
      ),
    )
  })
})

describe('parameter ranges', () => {
  it('RBP(p=2) and RBP(p=-1) name the valid range', () => {
    for (const t of ['RBP(p=2)', 'RBP(p=-1)', 'RBP(p=1)', 'rbp.p=2']) {
      expect(() => parseMeasure(t)).toThrow(InputError)
      expect(() => parseMeasure(t)).toThrow(/p of RBP in \[0, 1\)/)
    }
    expect(names('RBP(p=0)')).toEqual(['RBP(p=0)'])
    expect(names('RBP(p=0.95)')).toEqual(['RBP(p=0.95)'])
  })
})

describe('edge names: no prototype lookups', () => {
  it.each([
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '__proto__.5',
    'constructor_5',
    'P(__proto__=1)@5',
    'P(constructor=1)@5',
    'nDCG(toString=1)',
    'RBP(hasOwnProperty=1)',
  ])('%s is an unknown measure or parameter', (t) => {
    try {
      parseMeasures([t])
      throw new Error('no error')
    } catch (e) {
      expect(e).toBeInstanceOf(InputError)
      expect((e as InputError).issues[0]!.code).toBe('unknown_measure')
    }
  })
})

describe('an empty measure list is an error', () => {
  it.each([[['']], [['  ']], [[',']], [[]]])('%j', (texts) => {
    expect(() => parseMeasures(texts)).toThrow(/no measure given/)
  })
})
