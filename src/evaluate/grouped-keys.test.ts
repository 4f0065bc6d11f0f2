import { describe, expect, it } from 'vitest'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import { evaluate } from './evaluate.js'
import { groupedQueryId, groupQrels, groupRuns, splitGroupedQueryId } from './grouped-keys.js'

// The same topic id in two groups, with different judgments (as RETECO Track 2's `2_turn_1`).
const bio = parseQrels(Buffer.from('2_turn_1 0 a 1\n2_turn_1 0 b 0\n5_turn_1 0 c 1\n')).value
const earth = parseQrels(Buffer.from('2_turn_1 0 x 1\n2_turn_1 0 y 1\n')).value
const qrels = groupQrels(
  new Map([
    ['biology', bio],
    ['earth_science', earth],
  ]),
)
const run = groupRuns(
  new Map([
    ['biology', parseRun(Buffer.from('2_turn_1 Q0 b 1 2 r\n2_turn_1 Q0 a 2 1 r\n')).value],
    ['earth_science', parseRun(Buffer.from('2_turn_1 Q0 x 1 3 s\n')).value],
  ]),
)

describe('grouped query keys (group, qid)', () => {
  it('key and split round-trip; plain ids and bad group names are told apart', () => {
    expect(splitGroupedQueryId(groupedQueryId('earth_science', '2_turn_1'))).toEqual({
      group: 'earth_science',
      queryId: '2_turn_1',
    })
    expect(splitGroupedQueryId('2_turn_1')).toBeNull()
    expect(() => groupedQueryId('earth science', 'q')).toThrow(/without whitespace/)
    expect(() => groupedQueryId('', 'q')).toThrow(/non-empty/)
  })

  it('groupQrels and groupRuns keep colliding ids apart, with their counts and the last tag', () => {
    expect([...qrels.queries.keys()]).toEqual([
      'biology\t2_turn_1',
      'biology\t5_turn_1',
      'earth_science\t2_turn_1',
    ])
    expect(qrels.queries.get('earth_science\t2_turn_1')?.queryId).toBe('earth_science\t2_turn_1')
    expect(qrels.judgmentLines).toBe(5)
    expect({ tag: run.tag, lines: run.lineCount }).toEqual({ tag: 's', lines: 3 })
  })

  it('RunEvaluator scores each (group, qid) against its own judgments; missing ones per group', () => {
    const r = evaluate(qrels, run, ['RR', 'R@10'], {
      queryKey: 'group-qid',
      missingQueries: 'zero',
    })
    expect(r.perQuery.map((q) => [splitGroupedQueryId(q.queryId), q.status, q.values])).toEqual([
      [{ group: 'biology', queryId: '2_turn_1' }, 'evaluated', [0.5, 1]], // a (relevant) at rank 2
      [{ group: 'biology', queryId: '5_turn_1' }, 'zero-filled', [0, 0]],
      [{ group: 'earth_science', queryId: '2_turn_1' }, 'evaluated', [1, 0.5]], // x of {x, y}
    ])
    expect(r.counts.missingQueries).toEqual(['biology\t5_turn_1'])
    expect(r.aggregates.map((a) => a.value)).toEqual([(0.5 + 0 + 1) / 3, (1 + 0 + 0.5) / 3])
  })

  it('without the convention the grouped keys are plain ids; plain qrels refuse it', () => {
    expect(evaluate(qrels, run, ['RR']).perQuery).toHaveLength(2)
    expect(() => evaluate(bio, run, ['RR'], { queryKey: 'group-qid' })).toThrow(/groupQrels/)
  })
})
