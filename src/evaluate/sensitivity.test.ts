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
    expect(skipped).toEqual([{ convention: 'unknownDocs', reason: 'no corpus id list given' }])
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
    expect(skipped).toEqual([{ convention: 'relevanceLevel', reason: 'fixed by preset p' }])
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
