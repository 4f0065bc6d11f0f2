/**
 * Golden outputs of the layouts that render through the one table model: compare (table,
 * markdown, latex, csv, html), judge agreement, the SkillRet, RETECO and judge reports (text,
 * markdown).
 * Each must equal its recorded fixture byte for byte (see `table-layouts.cases.ts`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderSkillRetScore, runPreset } from '../../src/internal.js'
import { LAYOUT_CASES, LAYOUT_FIXTURES } from './table-layouts.cases.js'

describe('table layouts are byte-identical to their fixtures', () => {
  it('has cases of every family', () => {
    for (const family of ['compare-', 'agreement-', 'skillret-', 'reteco-', 'judge-'])
      expect(LAYOUT_CASES.filter((c) => c.name.startsWith(family)).length).toBeGreaterThan(3)
  })
  for (const c of LAYOUT_CASES)
    it(c.name, async () => {
      const want = readFileSync(join(LAYOUT_FIXTURES, c.name), 'utf8')
      expect(want.length).toBeGreaterThan(0)
      expect(await c.render()).toBe(want)
    })
})

describe('labels go through the table escaping (they did not in the SkillRet and RETECO reports)', () => {
  it('SkillRet: control characters shown as \\xNN, then Markdown specials escaped', async () => {
    const result = await runPreset(
      'skillret',
      {
        data: 'test/fixtures/presets/skillret/data',
        runs: [{ path: 'test/fixtures/presets/skillret/runs/good.json', name: 'a_b|c\u001b' }],
      },
      { cutoffs: [5] },
    )
    const md = renderSkillRetScore(result, { format: 'markdown' })
    expect(md).toContain('\n| a\\_b\\|c\\\\x1b | 64 | ')
    const text = renderSkillRetScore(result, { format: 'table' })
    expect(text).toMatch(/\na_b\|c\\x1b {2}64 {2}/)
    expect(text).not.toContain('\u001b')
  })
})
