/**
 * The UTF-8/BOM bug class (fixed for SkillRet in efa4e44) on every JSONL reader: each reads its
 * lines through the one JSONL reader (src/io/jsonl.ts), so each accepts a UTF-8 BOM on line 1
 * and CRLF endings, reports an invalid UTF-8 line (never decodes it to U+FFFD silently) and a
 * JSON line that is not an object by its physical line number, and never throws a TypeError.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { wordIssue } from '../../src/errors/format-issue.js'
import { readJsonlFile } from '../../src/generation/judge/files.js'
import { checkAnswerFile } from '../../src/generation/submission/answers.js'
import { readTextsimPairs } from '../../src/generation/textsim/textsim-file.js'
import { readSkillRetData } from '../../src/presets/skillret-data.js'
import { readJsonLines } from '../../src/stats/agreement/jsonl.js'

const dir = mkdtempSync(join(tmpdir(), 'trecscore-jsonl-readers-'))
const BOM = Buffer.from([0xef, 0xbb, 0xbf])
const BAD = Buffer.from([0x22, 0xff, 0xfe, 0x22]) // "\xff\xfe": not UTF-8

/**
 * Line 1: BOM + record, line 2: record + CRLF, line 3: invalid UTF-8, line 4: `null`, line 5:
 * blank, line 6: record without a final newline.
 */
function hostile(
  records: readonly [string, string, string],
  badLine: Buffer = Buffer.concat([Buffer.from('{"x":'), BAD, Buffer.from('}')]),
): Buffer {
  const [a, b, c] = records
  return Buffer.concat([
    BOM,
    Buffer.from(`${a}\n${b}\r\n`),
    badLine,
    Buffer.from(`\nnull\n \r\n${c}`),
  ])
}

function file(name: string, bytes: Buffer): string {
  const p = join(dir, name)
  writeFileSync(p, bytes)
  return p
}

describe('every JSONL reader: BOM, CRLF, invalid UTF-8, non-object lines', () => {
  it('judge files (readJsonlFile: items, judgments, golden sets, RETECO benchmark items)', async () => {
    const p = file('judge.jsonl', hostile(['{"n":1}', '{"n":2}', '{"n":6}']))
    const seen: [unknown, number][] = []
    const problems = await readJsonlFile(p, (v, line) => {
      seen.push([v, line])
      return v !== null && typeof v === 'object'
        ? undefined
        : [{ code: 'bad_record', problem: { code: 'not_an_object' } }]
    })
    expect(seen).toEqual([
      [{ n: 1 }, 1],
      [{ n: 2 }, 2],
      [null, 4],
      [{ n: 6 }, 6],
    ])
    expect(problems.map((i) => i.code)).toEqual(['invalid_utf8', 'bad_record'])
    expect(problems[1]).toEqual({
      code: 'bad_record',
      problem: { code: 'not_an_object' },
      file: p,
      line: 4,
      text: 'null',
    })
    expect(problems.map((i) => wordIssue('judge', i))).toEqual([
      `${p}:3: invalid UTF-8, expected UTF-8 text: "{\\"x\\":\\"\uFFFD\uFFFD\\"}"`,
      `${p}:4: expected a JSON object: "null"`,
    ])
  })

  it('answer files (checkAnswerFile)', () => {
    const r = checkAnswerFile(
      hostile([
        '{"turn_id":"c_turn_1","answer":"a"}',
        '{"turn_id":"c_turn_2","answer":"b"}',
        '{"turn_id":"c_turn_3","answer":"c"}',
      ]),
      'answers.jsonl',
      {
        turns: ['c_turn_1', 'c_turn_2', 'c_turn_3'],
      },
    )
    expect(r.answeredTurns).toBe(3)
    expect(r.lines).toBe(6)
    expect(r.blankLines).toBe(1)
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([
      ['invalid_utf8', 3],
      ['not_an_object', 4],
    ])
  })

  it('agreement inputs (readJsonLines)', () => {
    const r = readJsonLines(hostile(['{"n":1}', '{"n":2}', '{"n":6}']), 'labels.jsonl')
    expect(r.lines.map((l) => [l.line, l.value])).toEqual([
      [1, { n: 1 }],
      [2, { n: 2 }],
      [4, null],
      [6, { n: 6 }],
    ])
    expect(r.blank).toBe(1)
    expect(r.problems.map((p) => [p.line, p.code])).toEqual([[3, 'invalid_utf8']])
  })

  it('textsim pair files (readTextsimPairs)', async () => {
    const rec = (id: string): string => JSON.stringify({ id, prediction: 'p', references: ['r'] })
    const p = file('pairs.jsonl', hostile([rec('a'), rec('b'), rec('f')]))
    const got: [boolean, number, string][] = []
    for await (const l of readTextsimPairs(p))
      got.push(
        l.ok ? [true, l.line, l.pair.id] : [false, l.issue.line, wordIssue('textsim', l.issue)],
      )
    expect(got).toEqual([
      [true, 1, 'a'],
      [true, 2, 'b'],
      [false, 3, 'invalid UTF-8'],
      [false, 4, 'expected a JSON object {"id", "prediction", "references"}, found null'],
      [true, 6, 'f'],
    ])
  })

  it('SkillRet queries (readSkillRetData): BOM and CRLF read; a bad line is an error naming it', async () => {
    const data = (name: string, bytes: Buffer): string => {
      const d = join(dir, name)
      mkdirSync(join(d, 'queries'), { recursive: true })
      writeFileSync(join(d, 'queries', 'test.jsonl'), bytes)
      return d
    }
    const q = (id: string): string => JSON.stringify({ id, skill_ids: ['s1'] })
    const good = await readSkillRetData(
      data('sk-good', Buffer.concat([BOM, Buffer.from(`${q('q1')}\r\n\r\n${q('q2')}`)])),
    )
    expect(good.queryIds).toEqual(['q1', 'q2'])
    const bad = data('sk-bad', hostile([q('q1'), q('q2'), q('q6')]))
    await expect(readSkillRetData(bad)).rejects.toThrow(
      `${join(bad, 'queries', 'test.jsonl')}:3: invalid UTF-8 (expected a UTF-8 encoded line)`,
    )
    const nul = data('sk-null', Buffer.from(`${q('q1')}\nnull\n`))
    await expect(readSkillRetData(nul)).rejects.toThrow(
      `${join(nul, 'queries', 'test.jsonl')}:2: expected a string "id" without whitespace`,
    )
  })
})
