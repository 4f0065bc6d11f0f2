import { describe, expect, it } from 'vitest'
import {
  aggregateJudgments,
  type JudgeDimension,
  type Judgment,
  judgmentToJson,
  parseJudgmentRecord,
} from '../../../src/entries/judge.js'
import { formatJudgeFieldProblem } from '../../../src/errors/format-issue.js'

const H = 'h'.repeat(64)
function j(
  turnId: string,
  domain: string,
  depth: number,
  dimension: JudgeDimension,
  score: number | null,
  status: Judgment['status'] = 'ok',
  unanswered = false,
): Judgment {
  return {
    turnId,
    conversationId: turnId.split('_turn_')[0]!,
    domain,
    turnDepth: depth,
    dimension,
    score,
    status,
    rationale: null,
    configHash: H,
    attempts: status === 'ok' ? 1 : 3,
    reason: status === 'ok' ? null : 'r',
    unanswered,
  }
}
const DIMS: JudgeDimension[] = [
  'correctness',
  'completeness',
  'relevance',
  'coherence',
  'faithfulness',
]
// Hand-built: A (x, depth 1): 5, 3, 4, invalid, 1. B (x, depth 2): 2, missing, 5, 3, 4. C (y, depth 1): unanswered.
const sample: Judgment[] = [
  j('a_turn_1', 'x', 1, 'correctness', 5),
  j('a_turn_1', 'x', 1, 'completeness', 3),
  j('a_turn_1', 'x', 1, 'relevance', 4),
  j('a_turn_1', 'x', 1, 'coherence', null, 'invalid'),
  j('a_turn_1', 'x', 1, 'faithfulness', 1),
  j('a_turn_2', 'x', 2, 'correctness', 2),
  j('a_turn_2', 'x', 2, 'completeness', null, 'missing'),
  j('a_turn_2', 'x', 2, 'relevance', 5),
  j('a_turn_2', 'x', 2, 'coherence', 3),
  j('a_turn_2', 'x', 2, 'faithfulness', 4),
  ...DIMS.map((d) => j('c_turn_1', 'y', 1, d, null, 'missing', true)),
]

describe('judge aggregates (hand-computed)', () => {
  it('exclude: invalid/missing leave the denominator; unanswered turns score 0', () => {
    const a = aggregateJudgments(sample, 'exclude')
    const m = Object.fromEntries(a.all.dimensions.map((d) => [d.dimension, d]))
    expect(m['correctness']!.mean).toBeCloseTo((1 + 0.25 + 0) / 3, 15)
    expect(m['completeness']!.mean).toBeCloseTo((0.5 + 0) / 2, 15)
    expect(m['relevance']!.mean).toBeCloseTo((0.75 + 1 + 0) / 3, 15)
    expect(m['coherence']!.mean).toBeCloseTo((0.5 + 0) / 2, 15)
    expect(m['faithfulness']!.mean).toBeCloseTo((0 + 0.75 + 0) / 3, 15)
    expect(a.all.overall).toBeCloseTo(0.35, 15)
    expect(m['coherence']).toMatchObject({
      n: 2,
      ok: 1,
      invalid: 1,
      missing: 0,
      unanswered: 1,
      excluded: 1,
    })
    expect(m['completeness']).toMatchObject({
      n: 2,
      ok: 1,
      invalid: 0,
      missing: 1,
      unanswered: 1,
      excluded: 1,
    })
    expect(a.unansweredTurns).toBe(1)
    expect(a.turns[0]!.mean).toBeCloseTo((1 + 0.5 + 0.75 + 0) / 4, 15)
    expect(a.byDomain.map((g) => [g.key, g.turns])).toEqual([
      ['x', 2],
      ['y', 1],
    ])
    expect(a.byDomain[0]!.dimensions[0]!.mean).toBeCloseTo(0.625, 15)
    expect(a.byDepth.map((g) => [g.key, g.turns])).toEqual([
      ['T1', 2],
      ['T2', 1],
    ])
  })
  it('minimum: invalid/missing count as score 1 (0)', () => {
    const a = aggregateJudgments(sample, 'minimum')
    expect(a.all.dimensions[1]!.mean).toBeCloseTo(1 / 6, 15)
    expect(a.all.dimensions[3]!.mean).toBeCloseTo(1 / 6, 15)
    expect(a.all.overall).toBeCloseTo(19 / 60, 15)
    expect(a.all.dimensions[3]!.excluded).toBe(0)
  })
  it('refuses mixed config hashes and double judgments', () => {
    expect(() =>
      aggregateJudgments(
        [...sample, { ...sample[0]!, turnId: 'z_turn_1', configHash: 'other' }],
        'exclude',
      ),
    ).toThrow(/different judge configs/)
    expect(() => aggregateJudgments([sample[0]!, sample[0]!], 'exclude')).toThrow(
      /two correctness judgments/,
    )
  })
  it('round-trips the shared JSONL format', () => {
    for (const x of sample) {
      const r = parseJudgmentRecord(JSON.parse(JSON.stringify(judgmentToJson(x))))
      expect(r.ok && r.judgment).toEqual(x)
    }
    const bad = parseJudgmentRecord({
      turn_id: 't',
      dimension: 'style',
      status: 'ok',
      score: 7,
      config_hash: H,
      attempts: 1,
    })
    expect(bad).toEqual({
      ok: false,
      problems: [
        {
          code: 'bad_value',
          field: 'dimension',
          expected: 'one of correctness, completeness, relevance, coherence, faithfulness',
          found: '"style"',
        },
        {
          code: 'bad_value',
          field: 'score',
          expected: 'an integer 1..5 for status "ok"',
          found: '7',
        },
      ],
    })
    expect(bad.ok ? [] : bad.problems.map(formatJudgeFieldProblem)).toEqual([
      '"dimension": expected one of correctness, completeness, relevance, coherence, faithfulness, found "style"',
      '"score": expected an integer 1..5 for status "ok", found 7',
    ])
  })
})

describe('judge run report: numbers through formatFixed (exact binary value, ties to even)', () => {
  it('a mean of exactly 0.03125 prints 0.0312 (toFixed would give 0.0313)', async () => {
    const { renderRunReport, loadJudgeConfig } = await import('../../../src/entries/judge.js')
    const { tempDir, writeTestConfig } = await import('./helpers.js')
    // Eight turns; correctness 2 (normalised 0.25) on one, 1 (0) on the rest: mean 0.25 / 8 = 1/32.
    const judgments = Array.from({ length: 8 }, (_, t) =>
      DIMS.map((d) => j(`t${t}_turn_1`, 'x', 1, d, d === 'correctness' && t === 0 ? 2 : 1)),
    ).flat()
    const agg = aggregateJudgments(judgments, 'exclude')
    expect(agg.all.dimensions[0]!.mean).toBe(0.03125)
    const loaded = loadJudgeConfig(writeTestConfig(tempDir()))
    const text = renderRunReport(
      agg,
      null,
      { config: loaded.config, configHash: H, baseUrl: null, source: 'judgments.jsonl', notes: [] },
      'text',
    )
    expect(text).toContain(
      '\ncorrectness           0.0312  8   8        0        0           0         0\n',
    )
    expect(text).toContain(
      '\nx           8       0.0312        0.0000     0.0000     0.0000        0.0000  0.0063\n',
    )
    expect((0.03125).toFixed(4)).toBe('0.0313')
  })
})
