import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ascendingOrder, zeros } from './cutoffs.js'

describe('ascendingOrder', () => {
  it('is a stable sort of the indices by value, short lists and long', () => {
    const value = fc.oneof(
      fc.integer({ min: -3, max: 1000 }),
      fc.double({ min: -2, max: 2, noNaN: true }),
      fc.constant(Number.POSITIVE_INFINITY),
    )
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40 }), (values) => {
        const expected = values
          .map((v, i) => ({ v, i }))
          .sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : a.i - b.i))
          .map((x) => x.i)
        expect(ascendingOrder(values)).toEqual(expected)
        expect(ascendingOrder(Float64Array.from(values))).toEqual(expected)
      }),
    )
  })

  it('orders ties by index', () => {
    expect(ascendingOrder([10, 5, 10, 5, 1])).toEqual([4, 1, 3, 0, 2])
  })
})

describe('zeros', () => {
  it('is n zeros', () => {
    expect(zeros(3)).toEqual([0, 0, 0])
    expect(zeros(0)).toEqual([])
  })
})
