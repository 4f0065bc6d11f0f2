/**
 * `official-baseline` (pytrec_eval + official_baseline.py) on small hand-made inputs: the
 * dataset-card dict (last duplicate wins), float32 ties by doc id descending, unknown ids in
 * place, recip_rank without cutoff, map_cut divided by R, 5-decimal rounding twice, KeyError.
 */
import { describe, expect, it } from 'vitest'
import { parseQrels } from '../../../io/trec-qrels.js'
import {
  calculateRetrievalMetrics,
  officialBaseline,
  pytrecEvaluate,
  readRunAsPythonDict,
} from './official-baseline.js'

const b = (s: string): Buffer => Buffer.from(s)
const qrels = (s: string) => parseQrels(b(s)).value
const L3 = Math.log2(3)

function dict(s: string) {
  const r = readRunAsPythonDict(b(s))
  if (!r.ok) throw new Error(r.error)
  return r
}

describe('readRunAsPythonDict', () => {
  it('keeps the last score of a duplicated doc, never reads the rank', () => {
    const r = dict('q Q0 d1 1 1.0 t\nq Q0 d2 2 2.0 t\nq Q0 d1 seven 3.0 t\n')
    expect([...r.run.get('q')!]).toEqual([
      ['d1', 3],
      ['d2', 2],
    ])
    expect(r.snippetLoads).toBe(true)
  })
  it('skips whitespace-only lines but records that the literal snippet would crash', () => {
    const r = dict('q Q0 d1 1 1.0 t\n \nq Q0 d2 2 2.0 t\n')
    expect(r.run.get('q')!.size).toBe(2)
    expect(r.snippetLoads).toBe(false)
    expect(r.snippetError).toBe('ValueError: not enough values to unpack (expected 6, got 0)')
  })
  it('reports a malformed line as the snippet error', () => {
    expect(readRunAsPythonDict(b('q Q0 d1 1 n/a t\n'))).toEqual({
      ok: false,
      error: "ValueError: could not convert string to float: 'n/a'",
      snippetLoads: false,
      snippetError: "ValueError: could not convert string to float: 'n/a'",
    })
  })
})

describe('pytrecEvaluate (trec_eval 9.0.8 semantics)', () => {
  it('float32 ties are broken by doc id descending', () => {
    // 0.30000002 and 0.30000001 are the same float32: "b" ranks before "a".
    const s = pytrecEvaluate(
      qrels('q 0 a 1\n'),
      dict('q Q0 a 1 0.30000002 t\nq Q0 b 2 0.30000001 t\n').run,
    )
    expect(s.get('q')!['ndcg_cut_10']).toBeCloseTo(1 / L3, 15)
    expect(s.get('q')!['recip_rank']).toBe(0.5)
  })
  it('keeps unknown ids in place, recip_rank has no cutoff, map_cut divides by R', () => {
    const docs = Array.from(
      { length: 12 },
      (_, i) => `q Q0 ${i === 11 ? 'r1' : `u${i}`} ${i + 1} ${100 - i} t`,
    ).join('\n')
    const s = pytrecEvaluate(qrels('q 0 r1 1\nq 0 r2 1\n'), dict(docs).run).get('q')!
    expect(s['recip_rank']).toBe(1 / 12)
    expect(s['ndcg_cut_10']).toBe(0)
    expect(s['recall_25']).toBe(0.5)
    expect(s['P_25']).toBe(1 / 25)
    const m = pytrecEvaluate(
      qrels('q 0 a 1\nq 0 b 1\nq 0 c 1\n'),
      dict('q Q0 x 1 4 t\nq Q0 a 2 3 t\nq Q0 y 3 2 t\nq Q0 b 4 1 t\n').run,
    ).get('q')!
    expect(m['map_cut_10']).toBeCloseTo((1 / 2 + 2 / 4) / 3, 15)
  })
  it('reads qrels as a dict: a doc judged twice counts once', () => {
    const s = pytrecEvaluate(
      qrels('q 0 a 1\nq 0 a 1\nq 0 b 1\n'),
      dict('q Q0 a 1 2 t\nq Q0 b 2 1 t\n').run,
    )
    expect(s.get('q')!['ndcg_cut_10']).toBe(1)
    expect(s.get('q')!['recall_10']).toBe(1)
  })
  it('a topic judged only negative is scored 0 and counted in the mean, as pytrec_eval does (it zeroes each value before calc_meas)', () => {
    const s = pytrecEvaluate(qrels('q 0 a 1\nn 0 a -1\n'), dict('q Q0 a 1 1 t\nn Q0 a 1 1 t\n').run)
    expect([...s.keys()]).toEqual(['q', 'n'])
    expect(Object.values(s.get('n')!).every((v) => v === 0)).toBe(true)
    expect(calculateRetrievalMetrics(s, [10])['NDCG@10']).toBe(0.5)
  })
  it('leaves out run topics without qrels and qrels topics without run lines', () => {
    const s = pytrecEvaluate(
      qrels('q 0 a 1\nmissing 0 a 1\n'),
      dict('extra Q0 a 1 1 t\nq Q0 a 1 1 t\n').run,
    )
    expect([...s.keys()]).toEqual(['q'])
  })
})

describe('calculateRetrievalMetrics and the domain macro', () => {
  it('rounds each mean to 5 decimals with round-half-even on the exact value, keys in order', () => {
    const m = calculateRetrievalMetrics(
      new Map([
        [
          'q',
          {
            ndcg_cut_10: 0.000025,
            map_cut_10: 0.000015,
            recall_10: 1 / 3,
            P_10: 0.1,
            recip_rank: 1,
          },
        ],
      ]),
      [10],
    )
    expect(m).toEqual({
      'NDCG@10': 0.00003,
      'MAP@10': 0.00002,
      'Recall@10': 0.33333,
      'P@10': 0.1,
      MRR: 1,
      num_topics: 1,
    })
    expect(Object.keys(m)).toEqual(['NDCG@10', 'MAP@10', 'Recall@10', 'P@10', 'MRR', 'num_topics'])
    expect(calculateRetrievalMetrics(new Map())).toEqual({})
  })
  it('macro-averages the rounded domain values and rounds again', () => {
    // Domain A: P@1 = 1/3 → 0.33333; domain B: 0. Macro (0.33333 + 0) / 2 = 0.166665 → 0.16667.
    const r = officialBaseline('track1_tempo', '1a_dev', [
      {
        domain: 'a',
        qrels: qrels('q1 0 r 1\nq2 0 r 1\nq3 0 r 1\n'),
        run: b('q1 Q0 r 1 1 t\nq2 Q0 x 1 1 t\nq3 Q0 x 1 1 t\n'),
      },
      { domain: 'b', qrels: qrels('q4 0 r 1\n'), run: b('q4 Q0 x 1 1 t\n') },
    ])
    expect(r.domains[0]!.metrics['P@1']).toBe(0.33333)
    expect(r.macro!['P@1']).toBe(0.16667)
    expect(r.macro!['num_topics']).toBe(4)
    expect(r.unroundedDomainMacro!['P_10']).toBeCloseTo(1 / 60, 15)
    expect(r.summaryLine).toBe(
      '  track1_tempo   1a_dev     nDCG@10 0.1667   MAP@10 0.1667  Recall@10 0.1667  MRR 0.1667  (4 topics)',
    )
  })
  it('a domain with no evaluated topic makes main() raise KeyError, as the original', () => {
    const full = { domain: 'a', qrels: qrels('q1 0 r 1\n'), run: b('q1 Q0 r 1 1 t\n') }
    const empty = { domain: 'b', qrels: qrels('q2 0 r 1\n'), run: b('') }
    const r = officialBaseline('track1_tempo', '1a_dev', [full, empty])
    expect(r.macro).toBeNull()
    expect(r.macroError).toBe("KeyError: 'NDCG@1'")
    expect(r.summaryLine).toBeNull()
    expect(r.macroOverNonemptyDomains!['NDCG@10']).toBe(1)
    expect(r.domains[1]!.metrics).toEqual({})
    expect(r.domains[1]!.topicsMissingFromRun).toEqual(['q2'])
    expect(officialBaseline('track1_tempo', '1a_dev', [empty, full]).macroError).toBe(
      "KeyError: 'num_topics'",
    )
  })
  it('an unreadable run leaves the macro undefined', () => {
    const r = officialBaseline('track1_tempo', '1a_dev', [
      { domain: 'a', qrels: qrels('q1 0 r 1\n'), run: b('q1 Q0 r 1\n') },
    ])
    expect(r.domains[0]!.error).toBe('ValueError: not enough values to unpack (expected 6, got 4)')
    expect(r.macro).toBeNull()
    expect(r.macroError).toBe('a domain could not be loaded')
  })
})
