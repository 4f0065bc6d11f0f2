import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import { dcgAt } from './dcg.js'
import { measureParams, parseMeasure } from './name.js'
import { ranking } from './test-helpers.js'

const value = (name: string, q: ReturnType<typeof ranking>) => {
  const m = parseMeasure(name)[0]!
  return m.spec.compute(q, { at: m.at, values: measureParams(m) }, { conventions: trecEvalV10 })
}

// Ranking A: grades [2, -1, 0, 1] and one unretrieved relevant doc.
const A = ranking([2, -1, 0, 1], [1])

describe('DCG (unnormalised)', () => {
  it('sums grade / log2(i + 1): 2/1 + 1/log2(5)', () => {
    expect(value('DCG', A)).toBeCloseTo(2 + 1 / Math.log2(5), 15)
    expect(value('DCG@2', A)).toBe(2)
    expect(value('DCG@1', ranking([0, 3]))).toBe(0)
    expect(value('DCG@2', ranking([0, 3]))).toBeCloseTo(3 / Math.log2(3), 15)
  })
  it('exp-log2 sums 2^grade - 1: 3/1 + 1/log2(5) (ranx dcg_burges)', () => {
    expect(value("DCG(dcg='exp-log2')", A)).toBeCloseTo(3 + 1 / Math.log2(5), 15)
    expect(value("DCG(dcg='exp-log2')@1", ranking([3]))).toBe(7)
  })
  it('takes a gains map, and is 0 on an empty ranking', () => {
    expect(value('DCG(gains={1:10,2:0})', A)).toBeCloseTo(10 / Math.log2(5), 15)
    expect(dcgAt(ranking([]), Infinity, { kind: 'grade' }, 1)).toBe(0)
  })
  it('is not divided by the ideal: nDCG times IDCG', () => {
    const idcg = 2 + 1 / Math.log2(3) + 1 / 2
    expect(value('DCG', A)).toBeCloseTo(value('nDCG', A)! * idcg, 14)
  })
})
