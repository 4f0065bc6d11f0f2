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
    expect(parseMeasures(['nDCG@10 AP', 'AP,P@5']).map((m) => m.name)).toEqual(['nDCG@10', 'AP', 'P@5'])
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
    expect(issue('nDGC@10')).toMatchObject({ code: 'unknown_measure', found: 'nDCG'.replace('CG', 'GC'), position: 0, suggestions: expect.arrayContaining(['nDCG']) })
    expect(issue('Precison@5')).toMatchObject({ suggestions: expect.arrayContaining(['P']) })
  })
  it('unknown parameters name the ones that exist', () => {
    expect(issue('nDCG(foo=1)@10')).toMatchObject({ code: 'unknown_measure', position: 5 })
  })
  it('bad values and missing cutoffs', () => {
    expect(issue("nDCG(dcg='exp')@5")).toMatchObject({ code: 'bad_argument' })
    expect(issue('P')).toMatchObject({ code: 'bad_argument', expected: expect.stringContaining('@k') })
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
