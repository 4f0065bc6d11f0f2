import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { aggregateAll, aggregateTable, type QueryTable } from './aggregations.js'

// Column a averages 0 over an empty group; b is undefined there (and null on some rows).
const TABLE: QueryTable = {
  columns: [
    { name: 'a', empty: 0 },
    { name: 'b', empty: null },
  ],
  rows: [
    { keys: { group: 'x', conv: '1', bucket: 'T2' }, values: [1, null] },
    { keys: { group: 'x', conv: '1', bucket: 'T1' }, values: [0, 1] },
    { keys: { group: 'x', conv: '2', bucket: 'T9' }, values: [1, 0] },
    { keys: { group: 'y', conv: '1', bucket: 'T1' }, values: [0.5, null] },
  ],
  keyOrders: {
    group: { values: ['y', 'x', 'z'], keepEmpty: true },
    bucket: { values: ['T1', 'T2', 'T3'], keepEmpty: false },
  },
}

describe('aggregateTable', () => {
  it('query macro: left-to-right mean of every row, nulls left out and counted', () => {
    const [row] = aggregateTable(TABLE, { id: 'q', title: 'query macro', levels: [] }).rows
    expect(row).toEqual({
      split: {},
      values: [(1 + 0 + 1 + 0.5) / 4, (1 + 0) / 2],
      units: 4,
      defined: [4, 2],
    })
  })

  it('split by group: declared order, an empty group kept (a = 0, b undefined)', () => {
    const r = aggregateTable(TABLE, { id: 'd', title: 'per group', levels: [], splitBy: ['group'] })
    expect(r.rows).toEqual([
      { split: { group: 'y' }, values: [0.5, null], units: 1, defined: [1, 0] },
      { split: { group: 'x' }, values: [2 / 3, 0.5], units: 3, defined: [3, 2] },
      { split: { group: 'z' }, values: [0, null], units: 0, defined: [0, 0] },
    ])
  })

  it('group macro: mean of group means; the empty group counts 0 for a, b only where defined', () => {
    const [row] = aggregateTable(TABLE, { id: 'm', title: 'group macro', levels: [['group']] }).rows
    expect(row).toEqual({
      split: {},
      values: [(0.5 + 2 / 3 + 0) / 3, 0.5],
      units: 3,
      defined: [3, 1],
    })
  })

  it('conversation then group: conversations (keyed within their group) averaged first', () => {
    const [row] = aggregateTable(TABLE, {
      id: 'c',
      title: 'conversation then group',
      levels: [['group', 'conv'], ['group']],
    }).rows
    // y/1: a 0.5; x/1: a 0.5, b 1; x/2: a 1, b 0  ->  y: 0.5; x: 0.75, b 0.5; z: 0
    expect(row).toEqual({
      split: {},
      values: [(0.5 + 0.75 + 0) / 3, 0.5],
      units: 3,
      defined: [3, 1],
    })
  })

  it('buckets: declared order, values outside it last, no empty bucket without keepEmpty', () => {
    const r = aggregateTable(TABLE, { id: 'b', title: 'bucket', levels: [], splitBy: ['bucket'] })
    expect(r.rows.map((x) => [x.split['bucket'], x.values[0], x.units])).toEqual([
      ['T1', 0.25, 2],
      ['T2', 1, 1],
      ['T9', 1, 1],
    ])
  })

  it('split by two keys: ordered by each key in turn', () => {
    const r = aggregateTable(TABLE, {
      id: 'gb',
      title: 'group and bucket',
      levels: [],
      splitBy: ['group', 'bucket'],
    })
    expect(r.rows.map((x) => `${x.split['group']}/${x.split['bucket']}`)).toEqual([
      'y/T1',
      'x/T1',
      'x/T2',
      'x/T9',
    ])
  })

  it('refuses a level that groups by a key the level before dropped', () => {
    expect(() =>
      aggregateTable(TABLE, { id: 'bad', title: 'bad', levels: [['group'], ['conv']] }),
    ).toThrow(/level 2 groups by 'conv'/)
  })

  it('aggregateAll keeps the list order', () => {
    expect(
      aggregateAll(TABLE, [
        { id: 'one', title: '1', levels: [] },
        { id: 'two', title: '2', levels: [['group']] },
      ]).map((a) => a.id),
    ).toEqual(['one', 'two'])
  })

  it('sums left to right in row order, to the last bit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 }),
        (xs) => {
          const table: QueryTable = {
            columns: [{ name: 'v', empty: 0 }],
            rows: xs.map((v, i) => ({ keys: { group: String(i % 3) }, values: [v] })),
          }
          let sum = 0
          for (const x of xs) sum += x
          expect(
            aggregateTable(table, { id: 'q', title: 'q', levels: [] }).rows[0]!.values[0],
          ).toBe(sum / xs.length)
        },
      ),
    )
  })
})
