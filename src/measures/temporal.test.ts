import { describe, expect, it } from 'vitest'
import { evaluate } from '../evaluate/evaluate.js'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import type { LabelProvider, TemporalLabels } from './labels.js'
import type { Measure } from './measure.js'
import {
  temporalCoverage,
  temporalPrecisionMeasure,
  temporalPrecisionReteco,
  temporalPrecisionTempo,
  temporalRelevance,
} from './temporal.js'

const b = (s: string): boolean[] => s.split(' ').map((c) => c === '1')

describe('temporal diagnostics (worked vectors of notes/tempo-recor.md §1.1)', () => {
  const cases: [string, number, number, number, number][] = [
    ['1 0 0 0 0', 5, 1.0, 0.33916, 0.2],
    ['0 0 0 0 1', 5, 0.2, 0.131205, 0.2],
    ['1 1 0 0 0', 5, 1.0, 0.553146, 0.4],
    ['0 1 0 1 0 0 0 0 0 0', 10, 0.5, 0.233651, 0.2],
    ['1 0 1 0 1 0 0 0 0 0', 10, 0.755556, 0.415281, 0.3],
  ]
  for (const [labels, k, tempo, reteco, tr] of cases) {
    it(`${labels} @${k}`, () => {
      expect(temporalPrecisionTempo(b(labels), k)).toBeCloseTo(tempo, 6)
      expect(temporalPrecisionReteco(b(labels), k)).toBeCloseTo(reteco, 6)
      expect(temporalRelevance(b(labels), k)).toBeCloseTo(tr, 12)
    })
  }
  it('empty rankings score 0; TR divides by the retrieved count below k', () => {
    expect(temporalPrecisionReteco([], 10)).toBe(0)
    expect(temporalPrecisionTempo([], 10)).toBe(0)
    expect(temporalRelevance([], 10)).toBe(0)
    expect(temporalRelevance([true, false], 10)).toBe(0.5)
    expect(temporalPrecisionReteco([true, true], 10)).toBe(1)
  })
  it('TC: covered required periods in the top k; null without periods', () => {
    expect(temporalCoverage(null, [['a']], 10)).toBeNull()
    expect(temporalCoverage([], [['a']], 10)).toBeNull()
    expect(temporalCoverage(['a', 'b', 'c'], [['a'], [], ['a', 'x']], 10)).toBeCloseTo(1 / 3, 15)
    expect(temporalCoverage(['a', 'b'], [['a'], ['b']], 1)).toBe(0.5)
    expect(temporalCoverage(['a'], [], 10)).toBe(0)
  })
})

describe('temporal measures on the engine (labels from a provider, hand-computed)', () => {
  // q1 ranks a b c d; a and d temporally relevant, b not, c unlabelled; a covers p1, d covers p2.
  const labels: TemporalLabels = {
    requiredPeriods: ['p1', 'p2'],
    relevance: (d) => ({ a: true, b: false, d: true })[d],
    periods: (d) => ({ a: ['p1'], d: ['p2'] })[d] ?? [],
  }
  const qrels = parseQrels(Buffer.from('q1 0 a 1\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\n')).value
  const run = parseRun(
    Buffer.from('q1 Q0 a 1 4 t\nq1 Q0 b 2 3 t\nq1 Q0 c 3 2 t\nq1 Q0 d 4 1 t\nq2 Q0 x 1 1 t\n'),
  ).value
  const provider: LabelProvider = (q) => (q === 'q1' ? { temporal: labels } : undefined)
  const w = (i: number): number => 1 / Math.log2(i + 1)
  const names = ['TP', 'TR', 'TP_TEMPO', 'TC', 'nDCG_FC', 'Unlabelled']
  const perQ1 = (k: number) =>
    evaluate(
      qrels,
      run,
      names.map((n) => `${n}@${k}`),
      {},
      { labels: provider },
    ).perQuery[0]!.values

  it('@3: top a b c; c unlabelled counts as not relevant; TC 1/2, so nDCG_FC undefined', () => {
    const v = perQ1(3)
    expect(v[0]).toBeCloseTo(w(1) / (w(1) + w(2) + w(3)), 15)
    expect(v[1]).toBe(1 / 3)
    expect(v[2]).toBe(1)
    expect(v[3]).toBe(0.5)
    expect(v[4]).toBeNull()
    expect(v[5]).toBe(1)
  })
  it('@4: d covers p2, so TC = 1 and nDCG_FC = nDCG@4 = (1 + 1/2) / (1 + 1/log2 3)', () => {
    const v = perQ1(4)
    expect(v[0]).toBeCloseTo((w(1) + w(4)) / (w(1) + w(2) + w(3) + w(4)), 15)
    expect(v[1]).toBe(0.5)
    expect(v[2]).toBe(0.75)
    expect(v[3]).toBe(1)
    expect(v[4]).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 15)
    expect(v[5]).toBe(1)
  })
  it('a query without labels: TP 0, TC and nDCG_FC undefined and left out of the mean', () => {
    const r = evaluate(
      qrels,
      run,
      ['TP@4', 'TC@4', 'nDCG_FC@4', 'Unlabelled@4'],
      {},
      {
        labels: provider,
      },
    )
    expect(r.perQuery[1]!.values).toEqual([0, null, null, 1])
    expect(r.aggregates.map((a) => [a.value, a.queries])).toEqual([
      [(w(1) + w(4)) / (w(1) + w(2) + w(3) + w(4)) / 2, 2],
      [1, 1],
      [1.5 / (1 + 1 / Math.log2(3)), 1],
      [2, 2],
    ])
  })
  it('without a label provider the temporal measures are refused, not scored 0', () => {
    expect(() => evaluate(qrels, run, ['nDCG@10', 'TP@10', 'TC@10'])).toThrow(
      'TP@10, TC@10 read temporal labels of the ranked documents, which this evaluation was not given',
    )
  })
  it('rankings carry their doc ids only when a measure needs labels', () => {
    const seen: (readonly string[] | undefined)[] = []
    const spy = {
      ...temporalPrecisionMeasure,
      compute: (q: JudgedRanking) => {
        seen.push(q.docIds)
        return 0
      },
    }
    const m: Measure = { spec: spy, given: {}, at: 3, name: 'TP@3' }
    evaluate(qrels, run, [m], {}, { labels: provider })
    expect(seen).toEqual([['a', 'b', 'c', 'd'], ['x']])
    seen.length = 0
    const { needsLabels: _, ...unlabelled } = spy
    evaluate(qrels, run, [{ ...m, spec: unlabelled }], {})
    expect(seen).toEqual([undefined, undefined])
  })
})
