/**
 * The drop-in's table is assembled from the measure definitions: every trec_eval name defined
 * somewhere is printed, in trec_eval 10's order, and a family's row is the family's own.
 */
import { describe, expect, it } from 'vitest'
import { MEASURES } from '../measures/registry.js'
import { TREC_EVAL_MEASURES, UNLISTED_TREC_EVAL_NAMES, V10_ONLY_MEASURES } from './table.js'

describe('trec_eval measure table', () => {
  it('prints every defined trec_eval name once, in trec_eval 10 order', () => {
    expect(UNLISTED_TREC_EVAL_NAMES).toEqual([])
    const names = TREC_EVAL_MEASURES.map((m) => m.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names.slice(0, 12)).toEqual([
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'map',
      'gm_map',
      'Rprec',
      'bpref',
      'recip_rank',
      'iprec_at_recall',
      'P',
    ])
    expect(names.slice(-7)).toEqual([
      'map_avgjg',
      'P_avgjg',
      'Rprec_mult_avgjg',
      'yaap',
      'rbp',
      'rbp_resid',
      'unj',
    ])
    expect(names).toHaveLength(57)
  })
  it('uses the family’s own row for a family’s trec_eval name', () => {
    for (const spec of MEASURES.values()) {
      for (const m of spec.trecEval)
        expect(TREC_EVAL_MEASURES.find((r) => r.name === m.name)).toBe(m)
    }
  })
  it('marks the trec_eval 10 measures', () => {
    expect([...V10_ONLY_MEASURES].sort()).toEqual(['rbp', 'rbp_resid', 'unj'])
  })
})
