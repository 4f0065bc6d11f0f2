/**
 * The 2b/2c answer-file checker on hand-written bytes: every kind of problem with its line,
 * counts, missing turns (they score zero), limits in code points; fast-check: arbitrary bytes
 * never crash and every line is accounted for.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ANSWER_PROBLEM_CODES, checkAnswerFile } from '../../../src/entries/validate.js'

const TURNS = ['c1_turn_1', 'c1_turn_2', 'c2_turn_1', 'c2_turn_2']
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
const line = (o: unknown): string => JSON.stringify(o)

describe('checkAnswerFile', () => {
  it('a complete, clean file has no problems', () => {
    const text = TURNS.map((t) => line({ turn_id: t, answer: `answer to ${t}` })).join('\n') + '\n'
    const r = checkAnswerFile(enc(text), 'a.jsonl', { turns: TURNS })
    expect(r.problems).toEqual([])
    expect([r.errors, r.warnings, r.lines, r.answeredTurns, r.missingTurns, r.targetTurns]).toEqual(
      [0, 0, 4, 4, 0, 4],
    )
  })

  it('reports every problem with its line', () => {
    const bytes = new Uint8Array([
      ...enc(`${line({ turn_id: 'c1_turn_1', answer: 'ok' })}\n`), // 1 fine
      ...enc('{"turn_id": "c1_turn_2", "answer": \n'), // 2 invalid JSON
      0x7b,
      0xc3,
      0x28,
      0x7d,
      0x0a, // 3 invalid UTF-8
      ...enc(`${line([1, 2])}\n`), // 4 not an object
      ...enc(`${line({ turn_id: 'c1_turn_2' })}\n`), // 5 missing answer
      ...enc(`${line({ turn_id: 'c1_turn_2', answer: 'x', score: 3 })}\n`), // 6 extra field (turn counted)
      ...enc(`${line({ turn_id: 7, answer: 'x' })}\n`), // 7 wrong type turn_id
      ...enc(`${line({ turn_id: 'c2_turn_1', answer: null })}\n`), // 8 wrong type answer
      ...enc(`${line({ turn_id: 'c9_turn_1', answer: 'x' })}\n`), // 9 unknown turn
      ...enc(`${line({ turn_id: 'c1_turn_1', answer: 'again' })}\n`), // 10 duplicate
      ...enc(`${line({ turn_id: 'c2_turn_2', answer: '  \t ' })}\n`), // 11 empty answer
      ...enc('\n'), // 12 blank
      ...enc(`${line({ turn_id: 'weird', answer: '🙂'.repeat(11) })}`), // 13 unknown, no newline, too long (11 code points > 10)
    ])
    const r = checkAnswerFile(bytes, 'a.jsonl', {
      turns: TURNS,
      maxAnswerChars: 10,
      elsewhere: new Map([['c9_turn_1', 'a turn of domain other']]),
    })
    const at = r.problems.map((p) => [p.line, p.code])
    expect(at).toEqual([
      [2, 'invalid_json'],
      [3, 'invalid_utf8'],
      [4, 'not_an_object'],
      [5, 'missing_field'],
      [6, 'extra_field'],
      [7, 'wrong_type'],
      [8, 'wrong_type'],
      [9, 'unknown_turn'],
      [10, 'duplicate_turn'],
      [11, 'empty_answer'],
      [13, 'answer_too_long'],
      [13, 'unknown_turn'],
      [0, 'missing_turn'],
    ])
    expect(r.problems.find((p) => p.line === 9)!.message).toContain('a turn of domain other')
    expect(r.problems.find((p) => p.line === 10)!.firstLine).toBe(1)
    expect(r.problems.find((p) => p.code === 'missing_turn')!.message).toBe(
      'no answer for target turn "c2_turn_1": it scores zero',
    )
    expect(r.problems.find((p) => p.code === 'answer_too_long')!.message).toBe(
      'answer of 11 characters is longer than 10',
    )
    expect(r.problems.find((p) => p.line === 13 && p.code === 'unknown_turn')!.message).toContain(
      'not of the form <conv>_turn_<t>',
    )
    expect([r.lines, r.blankLines, r.answeredTurns, r.missingTurns]).toEqual([13, 1, 3, 1])
    expect(r.errors).toBe(11)
    expect(r.warnings).toBe(2)
    expect(r.counts.wrong_type).toBe(2)
  })

  it('the length limit counts code points, not UTF-16 units; exactly at the limit is fine', () => {
    const r = checkAnswerFile(
      enc(line({ turn_id: 'c1_turn_1', answer: '𝔸'.repeat(5) })),
      'a.jsonl',
      { turns: ['c1_turn_1'], maxAnswerChars: 5 },
    )
    expect(r.problems).toEqual([])
    expect(r.longestAnswer).toBe(5)
  })

  it('a line over the byte limit is reported and not parsed; CRLF and a BOM are accepted', () => {
    const long = line({ turn_id: 'c1_turn_1', answer: 'x'.repeat(200) })
    const r = checkAnswerFile(
      enc(`\uFEFF${line({ turn_id: 'c1_turn_2', answer: 'a' })}\r\n${long}\r\n`),
      'a.jsonl',
      { turns: ['c1_turn_1', 'c1_turn_2'], maxLineBytes: 100 },
    )
    expect(r.problems.map((p) => [p.line, p.code])).toEqual([
      [2, 'line_too_long'],
      [0, 'missing_turn'],
    ])
  })

  it('an empty file: every target turn missing (warnings), no errors', () => {
    const r = checkAnswerFile(new Uint8Array(), 'a.jsonl', { turns: TURNS })
    expect([r.errors, r.warnings, r.missingTurns]).toEqual([0, 4, 4])
  })
})

describe('checkAnswerFile on arbitrary input (fast-check)', () => {
  it('never throws; problem counts add up; every problem line is a real line', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const r = checkAnswerFile(bytes, 'x.jsonl', { turns: TURNS, maxAnswerChars: 5 })
        const total = ANSWER_PROBLEM_CODES.reduce((s, c) => s + r.counts[c], 0)
        expect(total).toBe(r.problems.length)
        expect(r.errors + r.warnings).toBe(total)
        for (const p of r.problems) expect(p.line >= 0 && p.line <= r.lines).toBe(true)
        expect(r.answeredTurns + r.missingTurns).toBe(TURNS.length)
      }),
      { numRuns: 300 },
    )
  })

  it('lines built from arbitrary JSON values never crash and are each either answered or a problem', () => {
    const rec = fc.oneof(
      fc.record({ turn_id: fc.constantFrom(...TURNS, 'zz'), answer: fc.string({ maxLength: 12 }) }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue()),
      fc.jsonValue(),
    )
    fc.assert(
      fc.property(fc.array(rec, { maxLength: 12 }), (recs) => {
        const text = recs.map((r) => JSON.stringify(r) ?? 'null').join('\n')
        const r = checkAnswerFile(enc(text), 'x.jsonl', { turns: TURNS, maxAnswerChars: 8 })
        const linesWithProblems = new Set(r.problems.filter((p) => p.line > 0).map((p) => p.line))
        const blankish = recs.filter((x) => (JSON.stringify(x) ?? 'null').trim() === '').length
        expect(r.answeredTurns + linesWithProblems.size + blankish).toBeGreaterThanOrEqual(
          r.lines - r.blankLines,
        )
      }),
    )
  })
})
