import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildRequest,
  createProgress,
  loadJudgeConfig,
  parseJudgeItem,
  progressLine,
} from '../../../src/entries/judge.js'
import { formatJudgeFieldProblem } from '../../../src/errors/format-issue.js'
import { SHIPPED_CONFIG } from './helpers.js'

describe('judge items and requests', () => {
  it('parses an item, deriving conversation and depth from a <conv>_turn_<t> id', () => {
    const r = parseJudgeItem({
      turn_id: 'ex_9_turn_3',
      history: [{ role: 'user', content: 'hi' }],
      question: 'q?',
      answer: 'a.',
      passages: ['p1', { id: 'd2', text: 'p2' }],
    })
    expect(r).toEqual({
      ok: true,
      item: {
        turnId: 'ex_9_turn_3',
        conversationId: 'ex_9',
        domain: null,
        turnDepth: 3,
        history: [{ role: 'user', content: 'hi' }],
        question: 'q?',
        answer: 'a.',
        passages: [
          { id: null, text: 'p1' },
          { id: 'd2', text: 'p2' },
        ],
        reference: null,
      },
    })
  })
  it('reports every problem of a bad item', () => {
    const r = parseJudgeItem({
      turn_id: 3,
      question: '',
      answer: 5,
      history: [{ role: 'bot', content: 'x' }],
      passages: [7],
      turn_depth: 0,
      extra: true,
    })
    expect(r.ok).toBe(false)
    expect(r.ok ? [] : r.problems.slice(0, 2)).toEqual([
      {
        code: 'unknown_field',
        field: 'extra',
        known: [
          'turn_id',
          'conversation_id',
          'domain',
          'turn_depth',
          'history',
          'question',
          'answer',
          'passages',
          'reference',
        ],
      },
      { code: 'bad_value', field: 'turn_id', expected: 'a non-empty string', found: '3' },
    ])
    expect(r.ok ? [] : r.problems.map(formatJudgeFieldProblem)).toEqual([
      'unknown field "extra" (expected turn_id, conversation_id, domain, turn_depth, history, question, answer, passages, reference)',
      '"turn_id": expected a non-empty string, found 3',
      '"question": expected a non-empty string, found ""',
      '"answer": expected a string (or null for an unanswered turn), found 5',
      '"turn_depth": expected an integer ≥ 1, found 0',
      '"history"[0]: expected {"role": "user"|"assistant"|"system", "content": string}, found {"role":"bot","content":"x"}',
      '"passages"[0]: expected a string or {"id"?, "text"}, found 7',
    ])
  })
  it('never throws on arbitrary JSON (property)', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => void parseJudgeItem(v)))
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('turn_id', 'question', 'answer', 'history', 'passages', 'turn_depth'),
          fc.jsonValue(),
        ),
        (v) => void parseJudgeItem(v),
      ),
    )
  })
  it('builds the exact request: explicit decoding, json_schema, the filled template', () => {
    const { config } = loadJudgeConfig(SHIPPED_CONFIG)
    const item = parseJudgeItem({
      turn_id: 'c_turn_2',
      history: [
        { role: 'user', content: 'Q1' },
        { role: 'assistant', content: 'A1' },
      ],
      question: 'Q2',
      answer: 'A2',
      passages: [{ id: 'd1', text: 'P1' }],
      reference: 'R2',
    })
    if (!item.ok) throw new Error('bad item')
    const body = buildRequest(config, 'faithfulness', item.item, true)
    expect(Object.keys(body)).toEqual([
      'model',
      'messages',
      'temperature',
      'top_p',
      'n',
      'max_tokens',
      'seed',
      'response_format',
    ])
    expect(body).toMatchObject({
      model: 'gpt-4o-2024-08-06',
      temperature: 0,
      top_p: 1,
      n: 1,
      max_tokens: 300,
      seed: 42,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'judgment', strict: true, schema: config.outputSchema },
      },
    })
    const user = (body['messages'] as { content: string }[])[1]!.content
    expect(user).toContain(
      'Conversation so far:\nUser: Q1\nAssistant: A1\n\nCurrent user question:\nQ2\n\nPassages:\n[1] (d1) P1\n\nAnswer to judge:\nA2\n\nRubric for faithfulness (score 1 to 5):\n1: The main claims are not supported',
    )
    expect(user).not.toContain('{{')
    expect(
      buildRequest(config, 'faithfulness', item.item, false)['response_format'],
    ).toBeUndefined()
  })
})

describe('progress', () => {
  const p = (done: number, calls = done) => ({ done, total: 10, calls, cacheHits: 0, startedAt: 0 })
  it('a plain line at most every interval, then a last line', () => {
    const out: string[] = []
    let t = 0
    const pr = createProgress(
      { write: (s: string) => out.push(s), isTTY: false },
      { intervalMs: 5000, now: () => t },
    )
    pr.onProgress(p(0))
    t = 1000
    pr.onProgress(p(2))
    t = 6000
    pr.onProgress(p(5))
    t = 12000
    pr.finish()
    expect(out).toEqual([
      'trecscore judge: 0/10 judgments (0%), 0 from cache, 0 HTTP calls, 0s\n',
      'trecscore judge: 5/10 judgments (50%), 0 from cache, 5 HTTP calls, 6s ETA 6s\n',
      'trecscore judge: done, 5/10 judgments (50%), 0 from cache, 5 HTTP calls, 12s ETA 12s\n',
    ])
  })
  it('a redrawn bar on a TTY; nothing when quiet', () => {
    const out: string[] = []
    const pr = createProgress(
      { write: (s: string) => out.push(s), isTTY: true },
      { now: () => 4000 },
    )
    pr.onProgress(p(4))
    pr.finish()
    expect(out).toEqual([
      '\r\x1b[2K[##########--------------] 4/10 judgments (40%), 0 from cache, 4 HTTP calls, 4s ETA 6s',
      '\n',
    ])
    const q: string[] = []
    const quiet = createProgress({ write: (s: string) => q.push(s), isTTY: true }, { quiet: true })
    quiet.onProgress(p(1))
    quiet.finish()
    expect(q).toEqual([])
    expect(
      progressLine({ done: 90, total: 100, calls: 0, cacheHits: 90, startedAt: 0 }, 3_600_000),
    ).toBe('90/100 judgments (90%), 90 from cache, 0 HTTP calls, 1h00m ETA 6m40s')
  })
})
