import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseCompletion, parseJudgeContent } from '../../../src/entries/judge.js'

const reason = (c: string) => {
  const r = parseJudgeContent(c)
  return r.kind === 'ok' ? `ok ${r.score}` : r.reason
}

describe('strict judge-reply parser', () => {
  it('accepts exactly one JSON object with an integer score 1..5', () => {
    expect(parseJudgeContent('{"rationale": "fine", "score": 4}')).toEqual({
      kind: 'ok',
      score: 4,
      rationale: 'fine',
      content: '{"rationale": "fine", "score": 4}',
    })
    expect(reason('  \n{"score":1}\n')).toBe('ok 1')
  })
  it('rejects everything else, with a reason', () => {
    expect(reason('')).toBe('empty content')
    expect(reason('Score: 4')).toBe('not exactly one JSON object (text around it)')
    expect(reason('```json\n{"score": 4}\n```')).toBe(
      'not exactly one JSON object (text around it)',
    )
    expect(reason('{"score": 4} {"score": 5}')).toBe('invalid JSON')
    expect(reason('{"score": 4')).toBe('not exactly one JSON object (text around it)')
    expect(reason('{"score": "4"}')).toBe('score is not a number ("4")')
    expect(reason('{"score": 4.0}')).toBe('score is not an integer (4.0)')
    expect(reason('{"score": 3.5}')).toBe('score is not an integer (3.5)')
    expect(reason('{"score": 0}')).toBe('score out of range 1..5 (0)')
    expect(reason('{"score": 6}')).toBe('score out of range 1..5 (6)')
    expect(reason('{"rationale": "x"}')).toBe('no "score"')
    expect(reason('{"score": 3, "confidence": 0.9}')).toBe('unexpected field(s) "confidence"')
    expect(reason('{"score": 3, "rationale": 7}')).toBe('rationale is not a string')
    // A hostile reply nesting the score 100,000 deep: a reason, not a stack overflow.
    expect(reason(`{"score": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`)).toBe(
      'score is not a number (an array)',
    )
    expect(reason('{"score": {"value": 4}}')).toBe('score is not a number (an object)')
    expect(reason(`{"score": "${'x'.repeat(100)}"}`)).toBe(
      `score is not a number ("${'x'.repeat(56)}...)`,
    )
  })
  it('reads the completion envelope: refusal, truncation, filter, no choices', () => {
    const env = (content: string | null, finish = 'stop', refusal?: string) => ({
      choices: [{ message: { content, ...(refusal ? { refusal } : {}) }, finish_reason: finish }],
    })
    expect(parseCompletion(env('{"score": 2}')).kind).toBe('ok')
    expect(parseCompletion(env('{"score": 2', 'length'))).toMatchObject({
      kind: 'malformed',
      reason: 'truncated (finish_reason "length")',
    })
    expect(parseCompletion(env(null, 'stop', 'I cannot help'))).toMatchObject({
      kind: 'malformed',
      reason: 'refusal: I cannot help',
    })
    expect(parseCompletion(env('', 'content_filter'))).toMatchObject({
      kind: 'malformed',
      reason: 'content filter (finish_reason "content_filter")',
    })
    expect(parseCompletion({ choices: [] })).toMatchObject({
      kind: 'malformed',
      reason: 'no choices in the response',
    })
    expect(parseCompletion(null)).toMatchObject({ kind: 'malformed' })
  })
  it('never throws, and accepts only integer scores 1..5 (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseJudgeContent(s)
        if (r.kind === 'ok') expect([1, 2, 3, 4, 5]).toContain(r.score)
      }),
    )
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 10 }), fc.string(), (score, rationale) => {
        const r = parseJudgeContent(JSON.stringify({ rationale, score }))
        expect(r.kind).toBe(score >= 1 && score <= 5 ? 'ok' : 'malformed')
      }),
    )
  })
})
