/**
 * Issue 10 item 10: an empty run file. With `--missing-queries zero` every qrels query scores 0
 * (as the library's `evaluate` on an empty run and ir_measures give); without it, one line saying
 * why it cannot be scored (exit 2). The CLI and the library (`evaluateRunFile`, `evaluate`) agree.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  evaluate,
  evaluateRunFile,
  parseMeasures,
  parseQrels,
  parseRun,
  readQrels,
  resolveConventions,
  TrecscoreError,
} from '../../src/internal.js'
import { cli } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-empty-'))
const file = (name: string, content: string): string => {
  const p = join(tmp, name)
  writeFileSync(p, content)
  return p
}
const QRELS_TEXT = 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\nq3 0 d4 0\n'
const QRELS = file('qrels', QRELS_TEXT)
const EMPTY = file('empty.run', '')
const COMMENTS = file('comments.run', '# nothing retrieved\n\n   \n')

describe('an empty run file', () => {
  it('--missing-queries zero: every qrels query 0, in the CLI and the library alike', async () => {
    const r = cli([
      'evaluate',
      QRELS,
      EMPTY,
      '-m',
      'AP',
      '-m',
      'nDCG@10',
      '-m',
      'NumRet',
      '--missing-queries',
      'zero',
      '-f',
      'json',
    ])
    expect([r.code, r.stderr]).toEqual([0, ''])
    const run = (
      JSON.parse(r.stdout) as {
        runs: {
          aggregates: Record<string, { value: number; queries: number }>
          counts: { missingQueries: string[]; evaluatedQueries: number }
        }[]
      }
    ).runs[0]!
    expect(Object.entries(run.aggregates).map(([m, a]) => [m, a.value, a.queries])).toEqual([
      ['AP', 0, 3],
      ['nDCG@10', 0, 3],
      ['NumRet', 0, 3],
    ])
    expect(run.counts).toMatchObject({ missingQueries: ['q1', 'q2', 'q3'], evaluatedQueries: 0 })
    const lib = evaluate(
      parseQrels(Buffer.from(QRELS_TEXT)).value,
      parseRun(Buffer.from('')).value,
      ['AP', 'nDCG@10', 'NumRet'],
      { missingQueries: 'zero' },
    )
    expect(lib.aggregates.map((a) => [a.measure, a.value, a.queries])).toEqual(
      Object.entries(run.aggregates).map(([m, a]) => [m, a.value, a.queries]),
    )
    const conventions = resolveConventions({ missingQueries: 'zero' })
    const fromFile = await evaluateRunFile(
      await readQrels(QRELS),
      EMPTY,
      parseMeasures(['AP']),
      conventions,
    )
    expect(fromFile.perQuery.map((q) => [q.queryId, q.status, q.values[0]])).toEqual([
      ['q1', 'zero-filled', 0],
      ['q2', 'zero-filled', 0],
      ['q3', 'zero-filled', 0],
    ])
    // A file of comments and blank lines retrieves nothing either.
    const c = cli(['evaluate', QRELS, COMMENTS, '-m', 'AP', '--missing-queries', 'zero'])
    expect(c.code).toBe(0)
    expect(c.stdout).toMatch(/comments\.run\s+0\.0000/)
  })
  it('missing queries skipped: one line saying why, exit 2; evaluateRunFile throws the same', async () => {
    const r = cli(['evaluate', QRELS, EMPTY, '-m', 'AP'])
    expect([r.code, r.stdout]).toEqual([2, ''])
    expect(r.stderr).toBe(
      `trecscore: ${EMPTY}: the file is empty, so no query can be scored while missing queries are skipped; --missing-queries zero scores every qrels query 0\n`,
    )
    const c = cli(['evaluate', QRELS, COMMENTS, '-m', 'AP'])
    expect(c.code).toBe(2)
    expect(c.stderr).toContain(
      `${COMMENTS}: the file has no run lines (only blank or comment lines), so no query can be scored`,
    )
    const lib = evaluateRunFile(
      await readQrels(QRELS),
      EMPTY,
      parseMeasures(['AP']),
      resolveConventions({}),
    )
    await expect(lib).rejects.toBeInstanceOf(TrecscoreError)
    await expect(
      evaluateRunFile(await readQrels(QRELS), EMPTY, parseMeasures(['AP']), resolveConventions({})),
    ).rejects.toThrow(r.stderr.slice('trecscore: '.length, -1))
    // The in-memory evaluate has no file to refuse: it averages no query, so every value is null.
    const mem = evaluate(
      parseQrels(Buffer.from(QRELS_TEXT)).value,
      parseRun(Buffer.from('')).value,
      ['AP'],
    )
    expect(mem.aggregates[0]).toMatchObject({ value: null, queries: 0 })
  })
  it('compare zero-fills as always: the empty run scores 0 on every query', () => {
    const run = file('run', 'q1 Q0 d1 1 1 t\nq2 Q0 d3 1 1 t\n')
    const r = cli(['compare', QRELS, EMPTY, run, '-m', 'AP', '-f', 'json'])
    expect(r.code).toBe(0)
    const ap = (
      JSON.parse(r.stdout) as { overall: { measure: string; means: number[] }[] }
    ).overall.find((o) => o.measure === 'AP')!
    expect(ap.means).toEqual([0, 2 / 3])
  })
})
