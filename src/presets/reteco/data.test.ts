import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { encodeId } from '../../io/bytes.js'
import { readCorpusIds, readJsonl } from './data.js'

const dir = mkdtempSync(join(tmpdir(), 'reteco-data-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('readCorpusIds', () => {
  it('reads ids under "id" or "doc_id", first or not, escaped or not, as binary strings', async () => {
    const file = join(dir, 'docs.jsonl')
    writeFileSync(
      file,
      [
        '{"id": "a/1.txt", "content": "x"}',
        '{"content": "text first", "id": "a/2.txt"}',
        '  {"doc_id":"b_ex_1_doc_0","content":"y"}',
        '{"id": "quote\\"d", "content": ""}',
        '{"idx": 1, "id": "a/3.txt"}',
        '',
        '{"id": "caf\u00e9", "content": "utf-8"}',
      ].join('\n'),
    )
    expect([...(await readCorpusIds(file))]).toEqual([
      'a/1.txt',
      'a/2.txt',
      'b_ex_1_doc_0',
      'quote"d',
      'a/3.txt',
      encodeId('café'),
    ])
  })
  it('names the line of a record without an id', async () => {
    const file = join(dir, 'bad.jsonl')
    writeFileSync(file, '{"id": "a"}\n{"content": "no id"}\nnot json\n')
    await expect(readCorpusIds(file)).rejects.toThrow(
      /bad\.jsonl:2: expected a JSON object with a string "id" or "doc_id".*\n.*bad\.jsonl:3:/,
    )
  })
})

describe('readJsonl (the RETECO records, through io/jsonl.ts)', () => {
  it('drops a BOM and CRLF endings and counts blank lines; bad lines are named file:line', async () => {
    const file = join(dir, 'records.jsonl')
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('\ufeff{"id": "q1"}\r\n\r\n{"id": "q\u00e9"}\r\n', 'utf8'),
        Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
        Buffer.from('[1]\n{"id": \n', 'utf8'),
      ]),
    )
    const seen: [unknown, number][] = []
    const err = await readJsonl(file, (rec, line) => seen.push([rec['id'], line])).catch((e) => e)
    expect(seen).toEqual([
      ['q1', 1],
      ['q\u00e9', 3],
    ])
    const lines = (err as Error).message.split('\n')
    expect(lines[0]).toMatch(/records\.jsonl:4: not valid UTF-8 /)
    expect(lines[1]).toBe(`${file}:5: expected a JSON object`)
    expect(lines[2]).toMatch(/records\.jsonl:6: not valid JSON \(/)
  })

  it('lists the first 50 problem lines and counts the rest', async () => {
    const file = join(dir, 'junk.jsonl')
    writeFileSync(file, 'not json\n'.repeat(75))
    const err = (await readJsonl(file, () => undefined).catch((e) => e)) as Error
    const lines = err.message.split('\n')
    expect(lines).toHaveLength(51)
    expect(lines[49]).toMatch(/junk\.jsonl:50: not valid JSON/)
    expect(lines[50]).toBe('… and 25 more problem(s)')
    expect((err as unknown as { problems: string[] }).problems).toHaveLength(50)
  })
})
