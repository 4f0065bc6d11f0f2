/**
 * The disclosure report on the shipped agreement examples (examples/judge/judgments.jsonl and
 * human-labels.jsonl: synthetic, made for `judge agreement`, carrying the shipped config's hash).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { judgeReportCommand } from '../../../src/entries/judge.js'
import { ROOT, tempDir } from './helpers.js'

const J = join(ROOT, 'examples', 'judge', 'judgments.jsonl')
const H = join(ROOT, 'examples', 'judge', 'human-labels.jsonl')
const present = existsSync(J) && existsSync(H)
if (!present)
  console.warn(
    `skipping the disclosure report on the shipped agreement examples: ${J} or ${H} is absent`,
  )

;(present ? describe : describe.skip)('judge report on the shipped agreement examples', () => {
  it('sample, agreement, invalid/missing counts as in the file; another hash is refused', async () => {
    const lines = readFileSync(J, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const dir = tempDir()
    const json = join(dir, 'r.json')
    const r = await judgeReportCommand({
      judgments: J,
      human: H,
      bootstrap: 50,
      format: 'markdown',
      jsonOut: json,
    })
    const turns = new Set(lines.map((l) => `${String(l['domain'])}/${String(l['turn_id'])}`)).size
    const convs = new Set(
      lines.map((l) => `${String(l['domain'])}/${String(l['conversation_id'])}`),
    ).size
    expect(r.report).toContain(`${turns} turns in ${convs} conversations`)
    expect(r.report).toContain('Agreement of the judge with the human labels')
    expect(r.report).toContain('### Agreement with human labels')
    const j = JSON.parse(readFileSync(json, 'utf8')) as Record<string, any>
    const count = (s: string) => lines.filter((l) => l['status'] === s).length
    expect(
      (j['invalid_and_missing'] as { invalid: number }[]).reduce((s, x) => s + x.invalid, 0),
    ).toBe(count('invalid'))
    expect(
      (j['invalid_and_missing'] as { missing: number }[]).reduce((s, x) => s + x.missing, 0),
    ).toBe(count('missing'))
    expect(j['agreement']).not.toBeNull()
    const other = join(dir, 'other.jsonl')
    writeFileSync(
      other,
      lines.map((l) => JSON.stringify({ ...l, config_hash: 'e'.repeat(64) })).join('\n') + '\n',
    )
    await expect(judgeReportCommand({ judgments: other, format: 'markdown' })).rejects.toThrow(
      `judgments were made under judge config ${'e'.repeat(64)}`,
    )
  })
})
