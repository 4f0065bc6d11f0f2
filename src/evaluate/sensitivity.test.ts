import { describe, expect, it } from 'vitest'
import { trecEvalV9, trecEvalV10 } from '../conventions/profiles.js'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import { parseMeasures } from '../measures/name.js'
import {
  type ConventionAlternative,
  defaultAlternatives,
  rankingChange,
  type SensitivityReport,
  sensitivity,
} from './sensitivity.js'

// q1: a (grade 2) and b (grade 1) relevant; q2: judged, retrieved by no run; q3: no relevant doc.
const qrels = parseQrels(Buffer.from('q1 0 a 2\nq1 0 b 1\nq2 0 b 1\nq3 0 c 0\n')).value
// Run x's three q1 scores differ beyond float32 precision: as float32 they all read 1, and the
// tie rule (doc id descending) puts z, y before a.
const x = parseRun(
  Buffer.from(
    'q1 Q0 a 1 1.00000003 x\nq1 Q0 z 2 1.00000002 x\nq1 Q0 y 3 1.00000001 x\nq3 Q0 c 1 1 x\n',
  ),
  { keepRanks: true },
).value
const y = parseRun(Buffer.from('q1 Q0 d 1 2 y\nq1 Q0 a 2 1 y\nq3 Q0 c 1 1 y\n'), {
  keepRanks: true,
}).value
const runs = [
  { name: 'x', run: x },
  { name: 'y', run: y },
]
const measures = parseMeasures(['RR', 'P(rel=2)@1'])

function find(r: SensitivityReport, convention: string, value: string) {
  const c = r.conventions.find((k) => k.convention === convention)!
  return c.alternatives.find((a) => a.value === value)!
}

describe('defaultAlternatives', () => {
  it('lists every other value of every convention, and what it skips', () => {
    const { alternatives, skipped } = defaultAlternatives(trecEvalV10, {
      qrels,
      corpus: false,
      ranks: true,
    })
    const text = alternatives.map((a) => `${a.convention}=${JSON.stringify(a.value)}`)
    expect(text).toEqual([
      'ordering="score-docid-asc"',
      'ordering="score-file-order"',
      'ordering="rank"',
      'ordering="file-order"',
      'scorePrecision="float32"',
      'duplicates="keep-first"',
      'duplicates="keep-last"',
      'duplicates="keep-first-ranked"',
      'duplicates="keep-all"',
      'missingQueries="zero"',
      'queriesWithoutRelevant="undefined"',
      'relevanceLevel=2',
      'gains={"kind":"exp"}',
      'gains={"kind":"binary"}',
    ])
    expect(skipped).toEqual([
      { convention: 'unknownDocs', reason: 'no corpus id list given' },
      { convention: 'negativeJudgments', reason: 'not applicable: no negative judgments' },
    ])
  })
  it('leaves out conventions the caller fixes, and the rank ordering without ranks', () => {
    const { alternatives, skipped } = defaultAlternatives(trecEvalV9, {
      qrels,
      corpus: true,
      ranks: false,
      fixed: [{ convention: 'relevanceLevel', reason: 'fixed by preset p' }],
    })
    expect(alternatives.filter((a) => a.convention === 'relevanceLevel')).toEqual([])
    expect(alternatives.filter((a) => a.convention === 'ordering').map((a) => a.value)).toEqual([
      'score-docid-asc',
      'score-file-order',
      'file-order',
    ])
    expect(alternatives.filter((a) => a.convention === 'scorePrecision')).toEqual([
      { convention: 'scorePrecision', value: 'float64' },
    ])
    expect(alternatives.filter((a) => a.convention === 'unknownDocs')).toEqual([
      { convention: 'unknownDocs', value: 'discard' },
    ])
    expect(skipped).toEqual([
      { convention: 'relevanceLevel', reason: 'fixed by preset p' },
      { convention: 'negativeJudgments', reason: 'not applicable: no negative judgments' },
    ])
  })
})

describe('sensitivity', () => {
  const { alternatives, skipped } = defaultAlternatives(trecEvalV10, {
    qrels,
    corpus: false,
    ranks: true,
  })
  const report = sensitivity({
    qrels,
    runs,
    measures,
    conventions: trecEvalV10,
    alternatives,
    skipped,
  })

  it('scores the chosen conventions as evaluate does', () => {
    // RR: x q1 1, q3 0 -> 0.5; y q1 1/2, q3 0 -> 0.25. P(rel=2)@1: x 1/2, y 0.
    expect(report.chosen).toEqual([
      [0.5, 0.5],
      [0.25, 0],
    ])
    expect(report.runs).toEqual(['x', 'y'])
    expect(report.measures).toEqual(['RR', 'P(rel=2)@1'])
  })

  it('flags the ranking swap between float64 and float32 scores', () => {
    const alt = find(report, 'scorePrecision', 'float32')
    // float32: x's q1 scores tie at 1, so z, y, a: RR 1/3 -> (1/3 + 0) / 2.
    expect(alt.cells[0]![0]).toEqual({
      chosen: 0.5,
      score: 1 / 6,
      delta: 1 / 6 - 0.5,
      changedQueries: 1,
      failedQueries: 0,
      note: null,
    })
    expect(alt.cells[1]![0]).toMatchObject({ score: 0.25, delta: 0, changedQueries: 0 })
    expect(alt.rankings[0]).toEqual({ measure: 'RR', tau: -1, swaps: [['x', 'y']] })
    // P(rel=2)@1 x: a no longer first (0); y: 0: x and y now tie, no pair reversed.
    expect(alt.cells[0]![1]).toMatchObject({ score: 0, delta: -0.5, changedQueries: 1 })
    expect(alt.rankings[1]).toEqual({ measure: 'P(rel=2)@1', tau: null, swaps: [] })
  })

  it('scores missing queries zero, and queries without relevant docs undefined', () => {
    const zero = find(report, 'missingQueries', 'zero')
    // q2 scored 0 and counted: x (1 + 0 + 0) / 3, y (1/2 + 0 + 0) / 3.
    expect(zero.cells.map((r) => r[0]!.score)).toEqual([1 / 3, 0.5 / 3])
    expect(zero.cells.map((r) => r[0]!.changedQueries)).toEqual([1, 1])
    expect(zero.rankings[0]).toEqual({ measure: 'RR', tau: 1, swaps: [] })
    const undef = find(report, 'queriesWithoutRelevant', 'undefined')
    // q3 leaves both means.
    expect(undef.cells.map((r) => r[0]!.score)).toEqual([1, 0.5])
    expect(undef.cells.map((r) => r[0]!.changedQueries)).toEqual([1, 1])
  })

  it('marks a measure whose parameters fix the convention', () => {
    const rel = find(report, 'relevanceLevel', '2')
    // RR at level 2: only a relevant; x finds it first, y second: unchanged.
    expect(rel.cells.map((r) => r[0]!.score)).toEqual([0.5, 0.25])
    expect(rel.cells.map((r) => r[0]!.changedQueries)).toEqual([0, 0])
    expect(rel.cells[0]![1]).toMatchObject({ note: 'measure-fixes', score: 0.5, delta: 0 })
  })

  it('leaves scores unchanged where a convention does not matter', () => {
    for (const o of ['score-docid-asc', 'score-file-order', 'rank', 'file-order']) {
      const alt = find(report, 'ordering', o)
      expect(alt.cells.flat().map((c) => c.delta)).toEqual([0, 0, 0, 0])
      expect(alt.rankings[0]).toEqual({ measure: 'RR', tau: 1, swaps: [] })
    }
    expect(report.skipped).toEqual([
      {
        convention: 'unknownDocs',
        label: 'unknown docs (not in the corpus)',
        reason: 'no corpus id list given',
      },
      {
        convention: 'negativeJudgments',
        label: 'negative judgments',
        reason: 'not applicable: no negative judgments',
      },
    ])
  })

  it('counts failed queries under a duplicate policy that refuses them', () => {
    const dup = parseRun(Buffer.from('q1 Q0 a 1 2 d\nq1 Q0 a 2 1 d\nq3 Q0 c 1 1 d\n'), {
      keepRanks: true,
    }).value
    const alt: ConventionAlternative = { convention: 'duplicates', value: 'error' }
    const r = sensitivity({
      qrels,
      runs: [{ name: 'd', run: dup }],
      measures: parseMeasures(['RR']),
      conventions: { ...trecEvalV10, duplicates: 'keep-first' },
      alternatives: [alt],
    })
    // keep-first: q1 RR 1, q3 0 -> 0.5; error: q1 fails, left out -> q3 alone, 0.
    expect(r.conventions[0]!.chosen).toBe('keep-first')
    expect(r.conventions[0]!.alternatives[0]!.cells[0]![0]).toEqual({
      chosen: 0.5,
      score: 0,
      delta: -0.5,
      changedQueries: 1,
      failedQueries: 1,
      note: null,
    })
  })
})

describe('negative judgments', () => {
  // q1: a relevant, b judged nonrelevant, n and m judged negative; q2: c relevant, d nonrelevant.
  const text = 'q1 0 a 1\nq1 0 b 0\nq1 0 n -1\nq1 0 m -1\nq2 0 c 1\nq2 0 d 0\n'
  const neg = parseQrels(Buffer.from(text)).value
  const run = parseRun(
    Buffer.from(
      'q1 Q0 n 1 4 r\nq1 Q0 a 2 3 r\nq1 Q0 m 3 2 r\nq1 Q0 x 4 1 r\n' +
        'q2 Q0 d 1 4 r\nq2 Q0 c 2 3 r\nq2 Q0 e 3 2 r\nq2 Q0 f 4 1 r\n',
    ),
    { keepRanks: true },
  ).value
  const ms = parseMeasures(['bpref', 'Judged@4'])

  it('varies them only when the qrels hold one, never trying error', () => {
    const { alternatives, skipped } = defaultAlternatives(trecEvalV10, {
      qrels: neg,
      corpus: true,
      ranks: true,
    })
    expect(alternatives.filter((a) => a.convention === 'negativeJudgments')).toEqual([
      { convention: 'negativeJudgments', value: 'unjudged' },
    ])
    expect(skipped).toEqual([
      {
        convention: 'negativeJudgments',
        reason:
          "alternative 'error' not tried: it rejects negative judgments rather than scoring them",
      },
    ])
    // Read with the negative lines dropped, the nonrelevant alternative cannot be made.
    const dropped = parseQrels(Buffer.from(text), { negativeJudgments: 'unjudged' }).value
    const d = defaultAlternatives(
      { ...trecEvalV10, negativeJudgments: 'unjudged' },
      { qrels: dropped, corpus: true, ranks: true },
    )
    expect(d.alternatives.filter((a) => a.convention === 'negativeJudgments')).toEqual([])
    expect(d.skipped.map((k) => k.reason)).toEqual([
      'the qrels were read with their negative judgments dropped (unjudged)',
    ])
  })

  it('scores bpref and Judged with the negative lines unjudged', () => {
    // nonrelevant: q1 Judged@4 3/4 (n, a, m); bpref counts grade 0 only as nonrelevant (as
    //   trec_eval does): R 1, N 1 (b), none above a: 1. q2: Judged@4 2/4; bpref: d above c: 0.
    //   Means: bpref 0.5, Judged@4 0.625.
    // unjudged: q1 Judged@4 1/4 (a); bpref still 1. Means: 0.5, 0.375 (one query changed).
    const alt: ConventionAlternative = { convention: 'negativeJudgments', value: 'unjudged' }
    const r = sensitivity({
      qrels: neg,
      runs: [{ name: 'r', run }],
      measures: ms,
      conventions: trecEvalV10,
      alternatives: [alt],
    })
    expect(r.chosen).toEqual([[0.5, 0.625]])
    expect(r.conventions[0]!.label).toBe('negative judgments')
    expect(r.conventions[0]!.chosen).toBe('nonrelevant')
    const cells = r.conventions[0]!.alternatives[0]!.cells[0]!
    expect(cells.map((c) => [c.score, c.delta, c.changedQueries])).toEqual([
      [0.5, 0, 0],
      [0.375, -0.25, 1],
    ])
    // Chosen unjudged on qrels that keep the negative lines: the same numbers the other way.
    const back = sensitivity({
      qrels: neg,
      runs: [{ name: 'r', run }],
      measures: ms,
      conventions: { ...trecEvalV10, negativeJudgments: 'unjudged' },
      alternatives: [{ convention: 'negativeJudgments', value: 'nonrelevant' }],
    })
    expect(back.chosen).toEqual([[0.5, 0.375]])
    expect(back.conventions[0]!.alternatives[0]!.cells[0]!.map((c) => c.score)).toEqual([
      0.5, 0.625,
    ])
  })
})

describe('rankingChange', () => {
  it('computes tau-b and lists reversed pairs, ahead under the chosen first', () => {
    // chosen a > b > c; alternative c > a > b: pairs (a,b) kept, (a,c) and (b,c) reversed.
    expect(rankingChange('m', ['a', 'b', 'c'], [3, 2, 1], [2, 1, 3])).toEqual({
      measure: 'm',
      tau: -1 / 3,
      swaps: [
        ['a', 'c'],
        ['b', 'c'],
      ],
    })
    // A run undefined on either side is left out.
    expect(rankingChange('m', ['a', 'b', 'c'], [3, null, 1], [1, 2, 3]).swaps).toEqual([['a', 'c']])
  })
})
