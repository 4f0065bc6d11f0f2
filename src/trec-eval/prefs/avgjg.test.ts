import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../../conventions/profiles.js'
import { averagePrecision } from '../../measures/average-precision.js'
import { precision, rPrecisionMult } from '../../measures/precision.js'
import type { RunQuery } from '../../model/types.js'
import type { JudgedRanking } from '../../rank/judged-ranking.js'
import { prepareQuery } from '../../rank/prepare.js'
import { mapAvgjg, precisionAvgjg, rPrecisionMultAvgjg } from './avgjg.js'
import { parseQrelsJg } from './qrels-jg-file.js'

function groups(qrelsJg: string, r: RunQuery): JudgedRanking[] {
  const parsed = parseQrelsJg(Buffer.from(qrelsJg, 'latin1'), { file: 'j', comments: true })
  if (!parsed.ok) throw new Error('bad test input')
  return parsed.value.get('q')!.map((g) => {
    const p = prepareQuery(g, r, trecEvalV10)
    if (!p.ok) throw new Error(p.failure.code)
    return p.ranking
  })
}

const run: RunQuery = {
  queryId: 'q',
  docIds: ['d1', 'd2'],
  scores: [2, 1],
  ranks: null,
  lines: [1, 2],
}

describe('judgment-group averages', () => {
  // g1: d1 relevant (rank 1); g2: d2 relevant (rank 2).
  const two = groups('q g1 d1 1\nq g1 d2 0\nq g2 d1 0\nq g2 d2 1\n', run)

  it('averages AP, P@k and Rprec_mult over the groups', () => {
    expect(mapAvgjg(two)).toBe(0.75)
    expect(precisionAvgjg(two, [1, 2, 10])).toEqual([0.5, 0.5, 0.1])
    expect(rPrecisionMultAvgjg(two, [1, 2])).toEqual([0.5, 0.5])
  })

  it('equals the plain measure with one group', () => {
    const one = groups('q g d1 0\nq g d2 1\nq g d3 1\n', run)
    expect(mapAvgjg(one)).toBe(averagePrecision(one[0]!))
    expect(precisionAvgjg(one, [1, 5])).toEqual(precision(one[0]!, [1, 5]))
    expect(rPrecisionMultAvgjg(one, [0.2, 1, 2])).toEqual(rPrecisionMult(one[0]!, [0.2, 1, 2]))
  })
})
