/**
 * The README's Measures table lists every measure family `evaluate` knows, each with its
 * reference tool: a family added to the registry fails here until the table has a row for it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MEASURES } from '../src/internal.js'

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
const start = readme.indexOf('| measure | trec_eval | reference (tool, version) | definition |')
const table = readme.slice(start, readme.indexOf('\n\n', start))
const rows = table
  .split('\n')
  .slice(2)
  .map((l) => l.split(/(?<!\\)\|/).map((c) => c.trim()))

describe('README Measures table', () => {
  it('has a reference for every row', () => {
    expect(start).toBeGreaterThan(0)
    expect(rows.length).toBeGreaterThan(30)
    for (const r of rows) expect([r[1], r[3]!.length > 0]).toEqual([r[1], true])
  })
  it('lists every registered family in its first column', () => {
    const names = new Set(
      rows.flatMap((r) => [...r[1]!.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!)),
    )
    const missing = [...MEASURES.keys()].filter((n) => !names.has(n))
    expect(missing).toEqual([])
  })
})
