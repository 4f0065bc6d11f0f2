import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { drawSample, type PoolItem } from './sample.js'

/** 2 submissions × 2 domains × turns 1..6: 24 items, 20 strata (T5+ holds turns 5 and 6). */
const POOL: PoolItem[] = []
for (const submission of ['subA', 'subB'])
  for (const domain of ['bio', 'law'])
    for (let t = 1; t <= 6; t++)
      POOL.push({
        id: `${submission}-${domain}-${t}`,
        submission,
        domain,
        turnId: `c_turn_${t}`,
        turnDepth: t,
      })

describe('drawSample', () => {
  it('pins the sample and its assignment for seed 42', () => {
    const s = drawSample(POOL, { size: 7, seed: 42, doubleShare: 0.3, raters: ['r1', 'r2', 'r3'] })
    // 7 of 24 over 20 strata: 7·2/24 = 0.583 for each T5+ stratum (4 of them), 7/24 = 0.29 for
    // the 16 others: all floors are 0; the 4 largest remainders (the T5+ strata) get one each, then
    // 3 of the 16 single-item strata, in stratum order (bio before law, subA before subB).
    expect(
      s.strata.map((x) => `${x.submission}/${x.domain}/${x.depth}:${x.drawn}/${x.available}`),
    ).toEqual([
      'subA/bio/T1:1/1',
      'subB/bio/T1:1/1',
      'subA/bio/T2:1/1',
      'subB/bio/T2:0/1',
      'subA/bio/T3:0/1',
      'subB/bio/T3:0/1',
      'subA/bio/T4:0/1',
      'subB/bio/T4:0/1',
      'subA/bio/T5+:1/2',
      'subB/bio/T5+:1/2',
      'subA/law/T1:0/1',
      'subB/law/T1:0/1',
      'subA/law/T2:0/1',
      'subB/law/T2:0/1',
      'subA/law/T3:0/1',
      'subB/law/T3:0/1',
      'subA/law/T4:0/1',
      'subB/law/T4:0/1',
      'subA/law/T5+:1/2',
      'subB/law/T5+:1/2',
    ])
    // The seeded shuffles pick which item of a T5+ stratum and the sample order (pinned).
    expect(s.items).toEqual([
      { itemId: 'subA-bio-2', double: true },
      { itemId: 'subA-law-6', double: true },
      { itemId: 'subB-bio-6', double: false },
      { itemId: 'subB-bio-1', double: false },
      { itemId: 'subA-bio-1', double: false },
      { itemId: 'subA-bio-6', double: false },
      { itemId: 'subB-law-5', double: false },
    ])
    // round(0.3·7) = 2 double items; least-loaded rater first, ties by rater order (by hand).
    const a = (itemId: string, raterId: string, slot: 1 | 2, position: number) => ({
      itemId,
      raterId,
      slot,
      position,
    })
    expect(s.assignments).toEqual([
      a('subA-bio-2', 'r1', 1, 0),
      a('subA-bio-2', 'r2', 2, 0),
      a('subA-law-6', 'r3', 1, 0),
      a('subA-law-6', 'r1', 2, 1),
      a('subB-bio-6', 'r2', 1, 1),
      a('subB-bio-1', 'r3', 1, 1),
      a('subA-bio-1', 'r1', 1, 2),
      a('subA-bio-6', 'r2', 1, 2),
      a('subB-law-5', 'r3', 1, 2),
    ])
    // The same design gives the same sample; another seed another one.
    expect(
      drawSample([...POOL].reverse(), {
        size: 7,
        seed: 42,
        doubleShare: 0.3,
        raters: ['r1', 'r2', 'r3'],
      }),
    ).toEqual(s)
    expect(
      drawSample(POOL, { size: 7, seed: 43, doubleShare: 0.3, raters: ['r1', 'r2', 'r3'] }).items,
    ).not.toEqual(s.items)
  })

  it('allocates proportionally (largest remainders) and double items go to two raters', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 3 }),
            fc.integer({ min: 0, max: 1 }),
            fc.integer({ min: 1, max: 7 }),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 2, max: 4 }),
        (specs, seed, share, nRaters) => {
          const pool = specs.map(([sub, dom, depth], i) => ({
            id: `i${i}`,
            submission: `s${sub}`,
            domain: `d${dom}`,
            turnId: `t${i}`,
            turnDepth: depth,
          }))
          const size = 1 + (seed % pool.length)
          const raters = Array.from({ length: nRaters }, (_, i) => `r${i}`)
          const s = drawSample(pool, { size, seed, doubleShare: share, raters })
          expect(s.items).toHaveLength(size)
          expect(new Set(s.items.map((x) => x.itemId)).size).toBe(size)
          for (const st of s.strata) {
            expect(Math.abs(st.drawn - (size * st.available) / pool.length)).toBeLessThan(1)
            expect(st.drawn).toBeLessThanOrEqual(st.available)
          }
          expect(s.items.filter((x) => x.double)).toHaveLength(Math.round(share * size))
          for (const it of s.items) {
            const to = s.assignments.filter((x) => x.itemId === it.itemId)
            expect(to.map((x) => x.slot)).toEqual(it.double ? [1, 2] : [1])
            expect(new Set(to.map((x) => x.raterId)).size).toBe(to.length)
          }
          const loads = raters.map((r) => s.assignments.filter((x) => x.raterId === r).length)
          expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1)
        },
      ),
    )
  })
})
