import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { judgeLabels } from './labels.js'
import type { RetecoDomainData } from './types.js'

const dir = mkdtempSync(join(tmpdir(), 'reteco-labels-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const domain = (name: string): RetecoDomainData => ({ domain: name }) as RetecoDomainData

describe('judge-label file (trecscore.reteco-labels/1)', () => {
  it('reads topic records and document labels; domain-specific records win', async () => {
    const file = join(dir, 'ok.jsonl')
    writeFileSync(
      file,
      [
        '{"schema": "trecscore.reteco-labels/1", "judge": "gpt-4o-2024-08-06"}',
        '{"topic": "q1", "required_periods": ["p1", "p2"]}',
        '{"topic": "q1", "doc": "d1", "temporally_relevant": true, "covered_periods": ["p1"]}',
        '',
        '{"topic": "q1", "doc": "d2", "temporally_relevant": false}',
        '{"topic": "q1", "domain": "law", "doc": "d1", "temporally_relevant": false, "covered_periods": []}',
      ].join('\n'),
    )
    const p = await judgeLabels(file)
    expect(p.info).toMatchObject({ topics: 1, docLabels: 3 })
    const l = p.labelsFor(domain('bitcoin'), 'q1')
    expect(l.requiredPeriods).toEqual(['p1', 'p2'])
    expect(l.relevance('d1')).toBe(true)
    expect(l.periods('d1')).toEqual(['p1'])
    expect(l.relevance('d2')).toBe(false)
    expect(l.relevance('d3')).toBeUndefined()
    expect(p.labelsFor(domain('law'), 'q1').relevance('d1')).toBe(false)
    expect(p.labelsFor(domain('law'), 'q2').requiredPeriods).toBeNull()
  })
  it('reports every bad line with file:line', async () => {
    const file = join(dir, 'bad.jsonl')
    writeFileSync(
      file,
      [
        '{"topic": "q1", "doc": "d1"}',
        'not json',
        '{"topic": "q1", "doc": "d2", "temporally_relevant": true}',
        '{"topic": "q1", "doc": "d2", "temporally_relevant": true}',
        '{"topic": "q1"}',
      ].join('\n'),
    )
    await expect(judgeLabels(file)).rejects.toThrow(
      /bad\.jsonl:1: "temporally_relevant" must be true or false\n.*bad\.jsonl:2: .*\n.*bad\.jsonl:4: document "d2" labelled twice.*\n.*bad\.jsonl:5: expected "doc"/,
    )
  })
})
