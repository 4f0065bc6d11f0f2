/**
 * Fusion on hand-built runs; every expected value is computed by hand in the comments.
 *
 * Run A, q1: d1 3.0, d2 2.0, d3 1.0      minmax → d1 1, d2 0.5, d3 0     ranks d1 1, d2 2, d3 3
 * Run B, q1: d2 0.9, d4 0.5, d1 0.1      minmax → d2 1, d4 0.5, d1 0     ranks d2 1, d4 2, d1 3
 * Run C, q1: d1 5, d3 4, d2 1            minmax → d1 1, d3 0.75, d2 0
 */
import { describe, expect, it } from 'vitest'
import {
  breakTies,
  checkFuseOptions,
  type FusedRun,
  type FuseOptions,
  formatFusedRun,
  fuse,
  fusedRunChunks,
  fusedToRun,
  nextDown,
  normalizeList,
  optimizeWeights,
} from '../../src/entries/fuse.js'
import { InputError } from '../../src/errors/trecscore-error.js'
import { evaluate } from '../../src/evaluate/evaluate.js'
import { parseRun } from '../../src/io/read.js'
import { parseQrels } from '../../src/io/trec-qrels.js'
import type { Run } from '../../src/model/types.js'

function run(text: string): Run {
  const r = parseRun(Buffer.from(text, 'utf8'), { file: 'test.run' })
  if (!r.ok) throw new Error(JSON.stringify(r.issues))
  return r.value
}

const A = run('q1 Q0 d1 1 3.0 A\nq1 Q0 d2 2 2.0 A\nq1 Q0 d3 3 1.0 A\n')
const B = run('q1 Q0 d2 1 0.9 B\nq1 Q0 d4 2 0.5 B\nq1 Q0 d1 3 0.1 B\n')
const C = run('q1 Q0 d1 1 5 C\nq1 Q0 d3 2 4 C\nq1 Q0 d2 3 1 C\n')

/** [docId, written score] of q1. */
function q1(f: FusedRun): [string, number][] {
  return f.queries.get('q1')!.map((d) => [d.docId, d.score])
}

const below = nextDown

describe('fusion methods (hand-computed)', () => {
  it('combsum, minmax: d1 1+0, d2 0.5+1, d3 0, d4 0.5', () => {
    expect(q1(fuse([A, B], { method: 'combsum' }))).toEqual([
      ['d2', 1.5],
      ['d1', 1],
      ['d4', 0.5],
      ['d3', 0],
    ])
  })
  it('combmnz = |R(d)| × combsum: d1 2·1, d2 2·1.5, d4 1·0.5, d3 1·0', () => {
    expect(q1(fuse([A, B], { method: 'combmnz' }))).toEqual([
      ['d2', 3],
      ['d1', 2],
      ['d4', 0.5],
      ['d3', 0],
    ])
  })
  it('combanz = combsum / |R(d)|: d2 0.75; d1 and d4 tie at 0.5 (d4 first: doc id descending, d1 lowered one ulp)', () => {
    const f = fuse([A, B], { method: 'combanz' })
    expect(q1(f)).toEqual([
      ['d2', 0.75],
      ['d4', 0.5],
      ['d1', below(0.5)],
      ['d3', 0],
    ])
    expect(f.counts.tiesBroken).toBe(1)
  })
  it('combmax: d1 max(1,0)=1 ties d2 max(0.5,1)=1 → d2, d1 (lowered), d4 0.5, d3 0', () => {
    expect(q1(fuse([A, B], { method: 'combmax' }))).toEqual([
      ['d2', 1],
      ['d1', 0.9999999999999999],
      ['d4', 0.5],
      ['d3', 0],
    ])
  })
  it('combmin: d2 min(0.5,1)=0.5 ties d4 0.5; d1 min(1,0)=0 ties d3 0', () => {
    expect(q1(fuse([A, B], { method: 'combmin' }))).toEqual([
      ['d4', 0.5],
      ['d2', below(0.5)],
      ['d3', 0],
      ['d1', -Number.MIN_VALUE],
    ])
  })
  it('combmed over three runs: d1 med(1,0,1)=1, d2 med(0.5,1,0)=0.5, d3 med(0,0.75)=0.375, d4 med(0.5)=0.5', () => {
    expect(q1(fuse([A, B, C], { method: 'combmed' }))).toEqual([
      ['d1', 1],
      ['d4', 0.5],
      ['d2', below(0.5)],
      ['d3', 0.375],
    ])
  })
  it('rrf k=60: d2 1/62+1/61, d1 1/61+1/63, d4 1/62, d3 1/63', () => {
    const f = q1(fuse([A, B], { method: 'rrf' }))
    expect(f.map((d) => d[0])).toEqual(['d2', 'd1', 'd4', 'd3'])
    expect(f[0]![1]).toBeCloseTo(1 / 62 + 1 / 61, 15)
    expect(f[1]![1]).toBeCloseTo(1 / 61 + 1 / 63, 15)
    expect(f[2]![1]).toBe(1 / 62)
    expect(f[3]![1]).toBe(1 / 63)
  })
  it('rrf k=0: d2 1/2+1 = 1.5, d1 1+1/3, d4 1/2, d3 1/3', () => {
    const f = q1(fuse([A, B], { method: 'rrf', k: 0 }))
    expect(f).toEqual([
      ['d2', 1.5],
      ['d1', 1 + 1 / 3],
      ['d4', 0.5],
      ['d3', 1 / 3],
    ])
  })
  it('borda, N = 4 distinct docs: A gives 4,3,2 (d1,d2,d3), B gives 4,3,2 (d2,d4,d1): d2 7, d1 6, d4 3, d3 2', () => {
    expect(q1(fuse([A, B], { method: 'borda' }))).toEqual([
      ['d2', 7],
      ['d1', 6],
      ['d4', 3],
      ['d3', 2],
    ])
  })
  it('wsum 0.25,0.75: d1 0.25·1, d2 0.25·0.5+0.75·1, d4 0.75·0.5, d3 0', () => {
    expect(q1(fuse([A, B], { method: 'wsum', weights: [0.25, 0.75] }))).toEqual([
      ['d2', 0.875],
      ['d4', 0.375],
      ['d1', 0.25],
      ['d3', 0],
    ])
  })
  it('wsum with default weights (1 each) equals combsum', () => {
    expect(q1(fuse([A, B], { method: 'wsum' }))).toEqual(q1(fuse([A, B], { method: 'combsum' })))
  })
  it('combsum with --norm none adds raw scores: d1 3+0.1, d2 2+0.9, d3 1, d4 0.5', () => {
    expect(q1(fuse([A, B], { method: 'combsum', norm: 'none' }))).toEqual([
      ['d1', 3.1],
      ['d2', 2.9],
      ['d3', 1],
      ['d4', 0.5],
    ])
  })
})

describe('normalisations (hand-computed)', () => {
  const list = { docIds: ['a', 'b', 'c'], scores: [3, 2, 1] }
  it('minmax [3,2,1] → [1, 0.5, 0]', () =>
    expect(normalizeList(list, 'minmax').scores).toEqual([1, 0.5, 0]))
  it('zscore [3,2,1]: mean 2, population sd √(2/3) → [±1.2247…, 0]', () => {
    const z = normalizeList(list, 'zscore').scores
    expect(z[0]).toBeCloseTo(1 / Math.sqrt(2 / 3), 15)
    expect(z[1]).toBe(0)
    expect(z[2]).toBeCloseTo(-1 / Math.sqrt(2 / 3), 15)
  })
  it('sum [3,2,1]: shifted [2,1,0] / 3', () =>
    expect(normalizeList(list, 'sum').scores).toEqual([2 / 3, 1 / 3, 0]))
  it('rank: (n − r + 1)/n → [1, 2/3, 1/3]', () =>
    expect(normalizeList(list, 'rank').scores).toEqual([1, 2 / 3, 1 / 3]))
  it('none leaves the list as it is', () => expect(normalizeList(list, 'none')).toBe(list))
  it('constant scores: minmax 1, zscore 0, sum 1/n, rank by position', () => {
    const c = { docIds: ['a', 'b'], scores: [5, 5] }
    expect(normalizeList(c, 'minmax').scores).toEqual([1, 1])
    expect(normalizeList(c, 'zscore').scores).toEqual([0, 0])
    expect(normalizeList(c, 'sum').scores).toEqual([0.5, 0.5])
    expect(normalizeList(c, 'rank').scores).toEqual([1, 0.5])
  })
  it('a single doc: minmax 1, zscore 0, sum 1, rank 1', () => {
    const s = { docIds: ['a'], scores: [-7] }
    expect(normalizeList(s, 'minmax').scores).toEqual([1])
    expect(normalizeList(s, 'zscore').scores).toEqual([0])
    expect(normalizeList(s, 'sum').scores).toEqual([1])
    expect(normalizeList(s, 'rank').scores).toEqual([1])
  })
  it('negative scores: sum shifts by the minimum ([-1,-2,-4] → [3,2,0]/5)', () => {
    expect(normalizeList({ docIds: ['a', 'b', 'c'], scores: [-1, -2, -4] }, 'sum').scores).toEqual([
      3 / 5,
      2 / 5,
      0,
    ])
  })
})

describe('inputs, counts and output', () => {
  it('orders each input by score (rank column ignored) and keeps the highest-scored duplicate', () => {
    const dup = run('q1 Q0 x 1 1.0 D\nq1 Q0 y 2 3.0 D\nq1 Q0 x 3 2.0 D\n')
    // y 3.0, x 2.0 (first occurrence in score order); x 1.0 dropped. minmax: y 1, x 0.
    const f = fuse([dup], { method: 'combsum' })
    expect(q1(f)).toEqual([
      ['y', 1],
      ['x', 0],
    ])
    expect(f.counts.duplicatesRemoved).toBe(1)
  })
  it('a run lacking a query does not contribute; queries are the union, in byte order', () => {
    const a = run('q2 Q0 x 1 1 A\nq10 Q0 y 1 2 A\n')
    const b = run('q2 Q0 z 1 4 B\nq2 Q0 x 2 2 B\n')
    const f = fuse([a, b], { method: 'combsum' })
    expect([...f.queries.keys()]).toEqual(['q10', 'q2'])
    expect(f.counts.missingQueryRuns).toBe(1)
    // q2: a {x: 1 (single doc)}, b {z: 1, x: 0} → x 1, z 1 → tie, z first
    expect(f.queries.get('q2')!.map((d) => d.docId)).toEqual(['z', 'x'])
    expect(f.queries.get('q10')!.map((d) => [d.docId, d.score])).toEqual([['y', 1]])
  })
  it('depth cuts each query and counts what it cut', () => {
    const f = fuse([A, B], { method: 'combsum', depth: 2 })
    expect(q1(f)).toEqual([
      ['d2', 1.5],
      ['d1', 1],
    ])
    expect(f.counts.cutByDepth).toBe(2)
  })
  it('--keep-ties writes equal scores, in the same order', () => {
    const kept = fuse([A, B], { method: 'combmin', keepTies: true })
    expect(q1(kept)).toEqual([
      ['d4', 0.5],
      ['d2', 0.5],
      ['d3', 0],
      ['d1', 0],
    ])
    expect(kept.counts.tiesBroken).toBe(0)
  })
  it('formats six columns with the tag, ranks from 1, and round-trips non-ASCII ids byte for byte', () => {
    const u = run('q1 Q0 caf\u00e9 1 2 U\nq1 Q0 na\u00efve 2 1 U\n')
    const text = formatFusedRun(fuse([u], { method: 'combsum', tag: 'my-fusion' }))
    expect(Buffer.from(text, 'latin1').toString('utf8')).toBe(
      'q1 Q0 caf\u00e9 1 1 my-fusion\nq1 Q0 na\u00efve 2 0 my-fusion\n',
    )
    // Read back, the run has the same ids and scores.
    const back = parseRun(Buffer.from(text, 'latin1')).value
    expect(back.queries.get('q1')!.docIds).toEqual(u.queries.get('q1')!.docIds)
  })
  it('breakTies lowers by the fewest ulps and never overtakes a lower score', () => {
    const x = 0.5
    const { docs, broken } = breakTies(
      [
        ['c', x],
        ['b', x],
        ['a', below(x)],
      ],
      false,
    )
    expect(docs.map((d) => d.score)).toEqual([x, below(x), below(below(x))])
    expect(broken).toBe(2)
  })
  it('nextDown: 1 → 1 − 2^-53, 0 → −min, −1 → −(1 + 2^-52)', () => {
    expect(nextDown(1)).toBe(1 - 2 ** -53)
    expect(nextDown(0)).toBe(-Number.MIN_VALUE)
    expect(nextDown(-1)).toBe(-(1 + 2 ** -52))
  })
  it('rejects bad options with every problem at once', () => {
    const bad: FuseOptions = {
      method: 'rrf',
      norm: 'zscore',
      k: -1,
      weights: [1],
      depth: 0,
      tag: 'a b',
    }
    try {
      checkFuseOptions(bad, 2)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(InputError)
      expect((e as InputError).issues.map((i) => ('option' in i ? i.option : ''))).toEqual([
        '--norm',
        '--k',
        '--weights',
        '--depth',
        '--tag',
      ])
    }
    expect(() => fuse([A, B], { method: 'wsum', weights: [1, 2, 3] })).toThrow(InputError)
    expect(() => fuse([A, B], { method: 'wsum', weights: [1, NaN] })).toThrow(InputError)
    expect(() => fuse([A], { method: 'combsum', k: 10 })).toThrow(InputError)
  })
  it('the fused run evaluates like any run (RR of d4 relevant: combsum rank 3 → 1/3)', () => {
    const qrels = parseQrels(Buffer.from('q1 0 d4 1\n'), { file: 'q' }).value
    expect(
      evaluate(qrels, fusedToRun(fuse([A, B], { method: 'combsum' })), ['RR']).aggregates[0]!.value,
    ).toBe(1 / 3)
  })
})

describe('optimizeWeights (grid on the simplex)', () => {
  it('picks the first best vector. d4 relevant; with weights (w, 1−w): d1 w, d2 0.5w + (1−w), d4 0.5(1−w), d3 0, so d4 is never first; it is second (RR 1/2) once 0.5(1−w) > w, i.e. w < 1/3: first at w = 0.3', () => {
    const qrels = parseQrels(Buffer.from('q1 0 d4 1\n'), { file: 'q' }).value
    const r = optimizeWeights([A, B], qrels, {}, { measure: 'RR' })
    expect(r.weights).toEqual([0.3, 0.7])
    expect(r.value).toBe(0.5)
    expect(r.tried).toHaveLength(11)
    // w = 1 … 0.4: d4 third (at w = 1 it ties d3 at 0 and comes first by doc id descending): RR 1/3.
    expect(r.tried.map((t) => t.value)).toEqual([
      1 / 3,
      1 / 3,
      1 / 3,
      1 / 3,
      1 / 3,
      1 / 3,
      1 / 3,
      0.5,
      0.5,
      0.5,
      0.5,
    ])
  })
  it('refuses a step that does not divide 1, and a grid that is too large', () => {
    const qrels = parseQrels(Buffer.from('q1 0 d4 1\n'), { file: 'q' }).value
    expect(() => optimizeWeights([A, B], qrels, {}, { measure: 'RR', step: 0.3 })).toThrow(
      InputError,
    )
    // 3 runs, step 0.01: C(102, 2) = 5151 weight vectors.
    try {
      optimizeWeights([A, B, C], qrels, {}, { measure: 'RR', step: 0.01 })
      expect.unreachable()
    } catch (e) {
      expect((e as InputError).issues[0]).toMatchObject({
        code: 'bad_argument',
        option: '--step',
        expected: 'a coarser step: 3 runs give 5151 weight vectors, more than 5000',
      })
    }
  })
})

describe('fusedRunChunks', () => {
  it('splits the run text at line ends into bounded pieces that join to formatFusedRun', () => {
    const u: Run = {
      queries: new Map([
        [
          '1',
          {
            queryId: '1',
            docIds: ['a', 'b', 'c'],
            scores: [3, 2, 1],
            ranks: null,
            lines: [1, 2, 3],
          },
        ],
        ['2', { queryId: '2', docIds: ['d', 'e'], scores: [2, 1], ranks: null, lines: [4, 5] }],
      ]),
      tag: 'x',
      tags: ['x'],
      lineCount: 5,
    }
    const fused = fuse([u], { method: 'combsum', tag: 'my-tag' })
    const whole = formatFusedRun(fused)
    for (const size of [1, 10, 30, 1 << 20]) {
      const chunks = [...fusedRunChunks(fused, size)]
      expect(chunks.join('')).toBe(whole)
      for (const c of chunks) {
        expect(c.endsWith('\n')).toBe(true)
        // at most one line past the size
        expect(c.slice(0, -1).lastIndexOf('\n')).toBeLessThan(size)
      }
    }
    expect(whole.split('\n').length).toBe(6)
  })
})
