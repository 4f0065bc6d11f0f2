import { describe, expect, it } from 'vitest'
import { orderDocs } from './prepare.js'

describe('orderDocs', () => {
  // File order B, A, C with scores 5, 5, 4 (the measures-extra README's probe), plus D tied at 4.
  const run = {
    queryId: 'q',
    docIds: ['B', 'A', 'C', 'D'],
    scores: [5, 5, 4, 4],
    ranks: [1, 2, 3, 4],
    lines: [1, 2, 3, 4],
  }
  const ids = (o: number[]) => o.map((i) => run.docIds[i])
  it('score-docid-asc breaks ties by doc id ascending', () => {
    expect(ids(orderDocs(run, 'score-docid-asc'))).toEqual(['A', 'B', 'C', 'D'])
  })
  it('score-docid-desc and score-file-order differ on the same run', () => {
    expect(ids(orderDocs(run, 'score-docid-desc'))).toEqual(['B', 'A', 'D', 'C'])
    expect(ids(orderDocs(run, 'score-file-order'))).toEqual(['B', 'A', 'C', 'D'])
  })
})
