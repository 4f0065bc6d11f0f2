import { describe, expect, it } from 'vitest'
import type { RunQuery } from '../../model/types.js'
import { prefsNumFulfilled, prefsNumFulfilledRet, prefsNumPossible } from './num-prefs.js'
import { closeTransitively, formPrefCounts, type PrefCounts } from './pref-counts.js'
import { prefsAvgjg } from './prefs-avgjg.js'
import { prefsAvgjgRnonrel } from './prefs-avgjg-rnonrel.js'
import type { PrefJudgment } from './prefs-file.js'
import { prefsPair } from './prefs-pair.js'
import { prefsSimp } from './prefs-simp.js'

/** `"jg jsg docno level"` lines. */
function prefs(...lines: string[]): PrefJudgment[] {
  return lines.map((l) => {
    const [jg, jsg, docId, level] = l.split(' ')
    return { jg: jg!, jsg: jsg!, docId: docId!, relLevel: Number(level) }
  })
}

/** `"docno score"` pairs. */
function run(...docs: string[]): RunQuery {
  const parsed = docs.map((d) => d.split(' '))
  return {
    queryId: 'q',
    docIds: parsed.map((p) => p[0]!),
    scores: parsed.map((p) => Number(p[1])),
    ranks: null,
    lines: parsed.map((_, i) => i + 1),
  }
}

function counts(j: PrefJudgment[], r: RunQuery, depth: number | null = null): PrefCounts {
  const res = formPrefCounts(j, r, depth)
  if (!res.ok) throw new Error(res.message)
  return res.value
}

describe('formPrefCounts', () => {
  // d1 (2) > d2 (1) > d3 (0); ranking d3, d1, d9 (d9 unjudged): internal ranks d3 0, d1 1, d2 2.
  const c = counts(prefs('g s d1 2', 'g s d2 1', 'g s d3 0'), run('d3 3', 'd1 2', 'd9 1'))

  it('ranks retrieved judged docs first, then the others in byte order', () => {
    expect(c.numJudged).toBe(3)
    expect(c.numJudgedRet).toBe(2)
    expect(c.counts[1 * 3 + 2]).toBe(1) // d1 > d2
    expect(c.counts[1 * 3 + 0]).toBe(1) // d1 > d3
    expect(c.counts[2 * 3 + 0]).toBe(1) // d2 > d3
  })

  it('classifies each preference as ret, implied or not occurring', () => {
    const g = c.groups[0]!
    // d1 > d2: implied, fulfilled; d1 > d3: both retrieved, not fulfilled; d2 > d3: implied, not fulfilled.
    expect(g).toMatchObject({
      fulfilledRet: 0,
      possibleRet: 1,
      fulfilledImp: 1,
      possibleImp: 2,
      possibleNotOccur: 0,
    })
    expect(g).toMatchObject({ numRel: 2, numRelRet: 1, numNonrel: 1, numNonrelRet: 1 })
    expect(g.prefs.kind).toBe('classes')
  })

  it('gives the values trec_eval 10 prints for every prefs measure', () => {
    expect([prefsNumPossible(c), prefsNumFulfilled(c), prefsNumFulfilledRet(c)]).toEqual([3, 1, 0])
    expect([prefsSimp(c, 'all'), prefsSimp(c, 'ret'), prefsSimp(c, 'imp')]).toEqual([
      1 / 3,
      0,
      1 / 3,
    ])
    expect([prefsPair(c, 'all'), prefsPair(c, 'ret'), prefsPair(c, 'imp')]).toEqual([
      1 / 3,
      0,
      1 / 3,
    ])
    expect([prefsAvgjg(c, 'all'), prefsAvgjg(c, 'ret'), prefsAvgjg(c, 'imp')]).toEqual([
      1 / 3,
      0,
      1 / 3,
    ])
    // R = 2 >= N = 1: (1 + 1·1) / (3 + 2·1).
    expect(prefsAvgjgRnonrel(c, 'all')).toBeCloseTo(0.4, 15)
    expect(prefsAvgjgRnonrel(c, 'ret')).toBe(0)
  })

  it('recounts with the first R non-relevant docs when N > R (pairing the last class with itself)', () => {
    const r = counts(
      prefs('g s d1 1', 'g s d2 0', 'g s d3 0', 'g s d4 0'),
      run('d1 3', 'd2 2', 'd3 1'),
    )
    // Kept non-relevant: d2. d1 > d2 fulfilled; d2, d3, d4 against d2 are not: 1/4.
    expect(prefsAvgjgRnonrel(r, 'all')).toBe(0.25)
    // Retrieved only: d1 > d2 fulfilled; d2, d3 against d2 are not: 1/3.
    expect(prefsAvgjgRnonrel(r, 'ret')).toBe(1 / 3)
  })

  it('breaks score ties by docno ascending (unlike qrels measures)', () => {
    const t = counts(prefs('g s d2 1', 'g s d1 0'), run('d1 1', 'd2 1'))
    expect(prefsSimp(t, 'ret')).toBe(0)
    expect(
      counts(prefs('g s d2 1', 'g s d1 0'), run('d1 1', 'd2 1.5')).groups[0]!.fulfilledRet,
    ).toBe(1)
  })

  it('closes the preferences of a multi-subgroup group transitively', () => {
    const j = prefs('g s1 a 3', 'g s1 b 2', 'g s2 b 5', 'g s2 c 4')
    const worst = counts(j, run('c 3', 'b 2', 'a 1'))
    expect(worst.groups[0]!.prefs.kind).toBe('array')
    expect([prefsNumPossible(worst), prefsNumFulfilled(worst)]).toEqual([3, 0])
    const best = counts(j, run('a 3', 'b 2', 'c 1'))
    expect([prefsNumPossible(best), prefsNumFulfilled(best), prefsNumFulfilledRet(best)]).toEqual([
      3, 3, 3,
    ])
  })

  it('counts a doc pair once per judgment group', () => {
    const two = counts(prefs('g1 s a 1', 'g1 s b 0', 'g2 s a 0', 'g2 s b 1'), run('a 2', 'b 1'))
    expect(two.groups).toHaveLength(2)
    expect(prefsSimp(two, 'all')).toBe(0.5)
    expect(prefsPair(two, 'all')).toBe(0.5)
  })

  it('applies -M before looking for judged docs', () => {
    const cut = counts(prefs('g s d1 1', 'g s d2 0'), run('d2 2', 'd1 1'), 1)
    expect(cut.numJudgedRet).toBe(1)
    expect(cut.groups[0]).toMatchObject({ possibleImp: 1, fulfilledImp: 0 })
  })

  it('fails with trec_eval messages on inconsistent input', () => {
    const msg = (j: PrefJudgment[], r: RunQuery, depth: number | null = null): string => {
      const res = formPrefCounts(j, r, depth)
      return res.ok ? '' : res.message
    }
    expect(msg(prefs('g s a 1'), run('a 2', 'b 1', 'a 0'))).toBe(
      'trec_eval.form_prefs_counts: duplicate docs a',
    )
    expect(msg(prefs('g s a 1'), run('a 2', 'b 1', 'a 0'), 2)).toBe('')
    expect(msg(prefs('g s a 2', 'g s a 1'), run('a 1'))).toBe(
      'trec_eval.form_prefs_counts: Internal docid 0 occurs with different rel_level in same jsg\n',
    )
    expect(msg(prefs('g s1 a 0', 'g s1 b 1', 'g s2 a 1', 'g s2 c 0'), run())).toBe(
      "trec_eval.form_prefs_counts: doc 'a' has both 0 and non-0 rel_level assigned\n",
    )
    expect(msg(prefs('g s1 a 2', 'g s1 b 1', 'g s2 b 2', 'g s2 a 1'), run('a 1'))).toBe(
      'trec_eval.form_prefs_counts: Pref inconsistency found\n      internal rank 0 and internal rank 1 are conflicted\n',
    )
  })

  it('scores 0 when nothing can be preferred', () => {
    const none = counts(prefs('g s a 1'), run())
    expect([prefsSimp(none, 'all'), prefsPair(none, 'all'), prefsAvgjg(none, 'all')]).toEqual([
      0, 0, 0,
    ])
  })
})

describe('closeTransitively', () => {
  it('closes a chain across 32-bit words', () => {
    const n = 40
    const a = new Uint8Array(n * n)
    for (let i = 0; i + 1 < n; i++) a[i * n + i + 1] = 1
    closeTransitively(a, n)
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(a[i * n + j]).toBe(j > i ? 1 : 0)
  })
})
