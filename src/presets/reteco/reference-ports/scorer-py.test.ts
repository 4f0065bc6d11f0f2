/**
 * `scorer-py` on small hand-made inputs: ordering by the rank column, duplicates kept, missing
 * topics excluded, exact printed output, by_turn buckets, crashes. Values worked out by hand
 * with the formulas of `ir_metrics.py` (w_i = 1/log2(i+1)).
 */
import { describe, expect, it } from 'vitest'
import {
  scorerPy,
  scorerPyNdcg,
  scorerPyPooled,
  scorerPyTemporalCoverage,
  scorerPyTemporalPrecision,
  scorerPyTemporalRelevance,
  scorerPyTurnBucket,
} from './scorer-py.js'

const b = (s: string): Buffer => Buffer.from(s)
const L3 = Math.log2(3)

function ok(out: ReturnType<typeof scorerPy>) {
  if (!out.ok) throw new Error(out.error)
  return out
}

describe('ir_metrics functions', () => {
  it('nDCG is binary, IDCG over min(|gold|, k); duplicates earn gain twice', () => {
    expect(scorerPyNdcg(['x', 'a'], new Set(['a']), 10)).toBeCloseTo(1 / L3, 15)
    const dup = scorerPyNdcg(['a', 'a', 'b'], new Set(['a', 'b']), 10)
    expect(dup).toBeCloseTo((1 + 1 / L3 + 0.5) / (1 + 1 / L3), 15)
    expect(dup).toBeGreaterThan(1)
    expect(scorerPyNdcg(['a'], new Set(), 10)).toBe(0)
  })
  it('TP is the DCG-weighted share of the top n = min(k, len); TR the plain share', () => {
    expect(scorerPyTemporalPrecision(['a', 'x'], new Set(['a']), 10)).toBeCloseTo(
      1 / (1 + 1 / L3),
      15,
    )
    expect(scorerPyTemporalRelevance(['a', 'x'], new Set(['a']), 10)).toBe(0.5)
    expect(scorerPyTemporalPrecision([], new Set(['a']), 10)).toBe(0)
    expect(scorerPyTemporalRelevance([], new Set(['a']), 10)).toBe(0)
  })
  it('TC counts periods with a gold doc in the top k; null without periods', () => {
    expect(
      scorerPyTemporalCoverage(['a', 'x'], [new Set(['a']), new Set(['b']), new Set()], 10),
    ).toBeCloseTo(1 / 3, 15)
    expect(scorerPyTemporalCoverage(['a'], [], 10)).toBeNull()
    expect(scorerPyTemporalCoverage(['x', 'a'], [new Set(['a'])], 1)).toBe(0)
  })
  it('turn buckets follow the int after the last _turn_', () => {
    expect(
      [
        'c_turn_1',
        'ex_4_turn_4',
        'c_turn_5',
        'c_turn_12',
        'c#turn1',
        'c_turn_x',
        'c_turn_0',
        'a_turn_2_turn_3',
      ].map(scorerPyTurnBucket),
    ).toEqual(['T1', 'T4', 'T5+', 'T5+', 'T?', 'T?', 'T0', 'T3'])
  })
})

describe('scorerPy Track 1', () => {
  const qrels = b('q1\t0\ta\t1\nq1\t0\tb\t1\nq2\t0\tc\t1\nq3\t0\td\t1\nq4\t0\te\t0\n')
  const steps = b(
    '{"id":"q1","steps":[{"step_id":"q1_step1","gold_ids":["a"]},{"step_id":"q1_step3","gold_ids":["b"]}]}\n{"id":"q2","steps":[{"gold_ids":["c","z"]}]}\n',
  )
  // q1: ranks contradict scores (b has rank 1 despite the lowest score); q2: c twice; q9 not in qrels; q3 missing.
  const run = b(
    [
      'q1 Q0 x 3 9.0 t',
      'q1 Q0 a 2 5.0 t',
      'q1 Q0 b 1 1.0 t',
      'q2 Q0 c 1 2 t',
      'q2 Q0 c 2 1 t',
      'q9 Q0 d 1 1 t',
      '',
    ].join('\n'),
  )
  const out = ok(scorerPy({ track: 1, run, qrels, steps }))
  it('orders by the rank column, keeps duplicates, excludes missing topics', () => {
    expect(out.perTopic.map((t) => t.topic)).toEqual(['q1', 'q2'])
    expect(out.perTopic[0]!.rankingTopK).toEqual(['b', 'a', 'x'])
    expect(out.perTopic[0]!.nDCG).toBe(1)
    expect(out.perTopic[1]!.rankingTopK).toEqual(['c', 'c'])
    expect(out.perTopic[1]!.nDCG).toBeCloseTo(1 + 1 / L3, 15)
    expect(out.perTopic[0]!.TC).toBe(1)
    expect(out.perTopic[1]!.TC).toBe(1)
  })
  it('prints exactly what scorer.py prints, rounded with round(·, 4)', () => {
    // q1: nDCG 1, TP (1 + w2) / (1 + w2 + w3) = 0.76535, TR 2/3; q2: nDCG 1 + w2 = 1.63093, TP 1, TR 1.
    const nd = (1 + 1 + 1 / L3) / 2
    expect(out.unroundedMeans['nDCG']).toBeCloseTo(nd, 15)
    expect(out.text).toBe(
      [
        '# RETECO Track 1 -- 2 topics scored',
        '  nDCG@10        1.3155  <-- OFFICIAL',
        '  TP@10          0.8827',
        '  TR@10          0.8333',
        '  TC@10          1.0',
        '  NDCG|FC@10     1.3155',
        '  num_full_coverage 2',
        '',
      ].join('\n'),
    )
    expect(out.json).toBe(
      [
        '{',
        '  "k": 10,',
        '  "num_topics": 2,',
        '  "nDCG@10": 1.3155,',
        '  "TP@10": 0.8827,',
        '  "TR@10": 0.8333,',
        '  "TC@10": 1.0,',
        '  "NDCG|FC@10": 1.3155,',
        '  "num_full_coverage": 2',
        '}',
        '',
      ].join('\n'),
    )
  })
  it('ties in rank go to the higher score, then file order', () => {
    const r = ok(
      scorerPy({ track: 1, run: b('q1 Q0 x 1 1 t\nq1 Q0 a 1 2 t\nq1 Q0 y 1 2 t\n'), qrels }),
    )
    expect(r.perTopic[0]!.rankingTopK).toEqual(['a', 'y', 'x'])
  })
  it('without --steps TC is 0.0 and NDCG|FC 0.0, never undefined', () => {
    const r = ok(scorerPy({ track: 1, run, qrels }))
    expect(r.text).toContain('  TC@10          0.0\n  NDCG|FC@10     0.0\n  num_full_coverage 0\n')
  })
  it('an empty run scores 0 topics with zeros', () => {
    const r = ok(scorerPy({ track: 1, run: b(''), qrels, steps }))
    expect(r.text).toBe(
      '# RETECO Track 1 -- 0 topics scored\n  nDCG@10        0.0  <-- OFFICIAL\n  TP@10          0.0\n  TR@10          0.0\n  TC@10          0.0\n  NDCG|FC@10     0.0\n  num_full_coverage 0\n',
    )
  })
  it('--k changes the cutoff and the keys', () => {
    const r = ok(scorerPy({ track: 1, run, qrels, k: 1 }))
    expect(r.result.map(([key]) => key)).toEqual([
      'k',
      'num_topics',
      'nDCG@1',
      'TP@1',
      'TR@1',
      'TC@1',
      'NDCG|FC@1',
      'num_full_coverage',
    ])
  })
  it('crashes as scorer.py does on malformed lines (first bad line wins)', () => {
    const crash = (text: string) => {
      const r = scorerPy({ track: 1, run: b(text), qrels })
      return r.ok ? 'ok' : r.error
    }
    expect(crash('q1 Q0 a 1 1.0\n')).toBe(
      'ValueError: not enough values to unpack (expected 6, got 5)',
    )
    expect(crash('q1 Q0 a 1 1.0 t # note\n')).toBe(
      'ValueError: too many values to unpack (expected 6)',
    )
    expect(crash('q1 Q0 a 3.0 1.0 t\nq1 Q0 a 1 n/a t\n')).toBe(
      "ValueError: invalid literal for int() with base 10: '3.0'",
    )
    expect(crash('q1 Q0 a 1 n/a t\n')).toBe("ValueError: could not convert string to float: 'n/a'")
    expect(crash('q1 Q0 a 1 1 t\n  \n\r\n')).toBe('ok')
    const bad = scorerPy({ track: 1, run: b('q1 Q0 a 1 1 t\n'), qrels: b('q1 0 a\n') })
    expect(bad).toEqual({
      ok: false,
      exitCode: 1,
      error: 'ValueError: not enough values to unpack (expected 4, got 3)',
    })
  })
})

describe('scorerPy Track 2', () => {
  const qrels = b('c_turn_1\t0\ta\t1\nc_turn_2\t0\tb\t1\nc_turn_6\t0\tc\t1\nodd\t0\td\t1\n')
  const run = b(
    'c_turn_1 Q0 a 1 1 t\nc_turn_2 Q0 x 1 1 t\nc_turn_6 Q0 x 1 2 t\nc_turn_6 Q0 c 2 1 t\nodd Q0 d 1 1 t\n',
  )
  it('prints nDCG and by_turn buckets in sorted order, as a Python dict or JSON', () => {
    const out = ok(scorerPy({ track: 2, run, qrels }))
    // nDCG: T1 1, T2 0, T5+ (c at rank 2) 1/log2(3) = 0.63093, T? 1; mean 0.65773 → 0.6577.
    expect(out.text).toBe(
      `# RETECO Track 2 -- 4 topics scored\n  nDCG@10        0.6577  <-- OFFICIAL\n  by_turn        {'T1': 1.0, 'T2': 0.0, 'T5+': 0.6309, 'T?': 1.0}\n`,
    )
    expect(out.json).toBe(
      `{\n  "k": 10,\n  "num_topics": 4,\n  "nDCG@10": 0.6577,\n  "by_turn": {\n    "T1": 1.0,\n    "T2": 0.0,\n    "T5+": 0.6309,\n    "T?": 1.0\n  }\n}\n`,
    )
  })
  it('an empty run prints an empty dict', () => {
    const out = ok(scorerPy({ track: 2, run: b(''), qrels }))
    expect(out.text).toBe(
      '# RETECO Track 2 -- 0 topics scored\n  nDCG@10        0.0  <-- OFFICIAL\n  by_turn        {}\n',
    )
    expect(out.json).toBe(
      '{\n  "k": 10,\n  "num_topics": 0,\n  "nDCG@10": 0.0,\n  "by_turn": {}\n}\n',
    )
  })
})

describe('scorerPyPooled', () => {
  it('concatenates the domain files in sorted domain order (cat)', () => {
    const out = ok(
      scorerPyPooled([
        { domain: 'law', run: b('q2 Q0 b 1 1 t\n'), qrels: b('q2\t0\tb\t1\n') },
        { domain: 'bitcoin', run: b('q1 Q0 x 1 1 t\n'), qrels: b('q1\t0\ta\t1\n') },
      ]),
    )
    expect(out.perTopic.map((t) => [t.topic, t.nDCG])).toEqual([
      ['q1', 0],
      ['q2', 1],
    ])
  })
})
