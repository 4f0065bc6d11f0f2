/**
 * `trecscore textsim` ROUGE-1/ROUGE-2 and the summary formats, on the built CLI: rouge_n.jsonl
 * scored through the command equals rouge-score's score_multi values (===), and the summary's means
 * equal numpy's np.mean of the per-pair values (pairwise summation, emulated here independently).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { numpyPairwiseSum } from '../../../src/stats/agreement/numpy-sum.js'
import { cli } from '../../cli/helpers.js'
import { FIXTURES } from './fixtures.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-textsim-summary-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

interface Prf {
  precision: number
  recall: number
  fmeasure: number
}
const RECORDS = readFileSync(join(FIXTURES, 'rouge_n.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map(
    (l) =>
      JSON.parse(l) as {
        id: string
        scores: Record<'nostem' | 'stem', { multi: { rouge1: Prf; rouge2: Prf } }>
      },
  )

const rows = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, any>)

describe('trecscore textsim rouge1/rouge2', () => {
  for (const mode of ['nostem', 'stem'] as const) {
    it(`scores rouge_n.jsonl as rouge-score score_multi (${mode})`, () => {
      const r = cli([
        'textsim',
        '--metric',
        'rouge1,rouge2',
        ...(mode === 'stem' ? ['--stemmer'] : []),
        join(FIXTURES, 'rouge_n.jsonl'),
      ])
      expect(r.stderr).toBe('textsim: 309 scored, 0 line(s) not scored\n')
      expect(r.code).toBe(0)
      const out = rows(r.stdout)
      expect(out.length).toBe(309)
      const want = new Map(RECORDS.map((x) => [x.id, x.scores[mode].multi]))
      for (const row of out) {
        expect(Object.keys(row)).toEqual(['id', 'rouge1', 'rouge2'])
        for (const t of ['rouge1', 'rouge2'] as const) {
          const { reference: _r, ...prf } = row[t]
          expect(prf, `${row.id} ${t}`).toEqual(want.get(row.id)![t])
        }
      }
    })
  }
})

describe('trecscore textsim --format (summary)', () => {
  const input = join(FIXTURES, 'rouge_n.jsonl')

  it('json: the mean of every component equals np.mean of the reference values', () => {
    const items = join(tmp, 'items.jsonl')
    const r = cli(['textsim', '--metric', 'rouge1,rouge2', '-f', 'json', '--items', items, input])
    expect(r.code).toBe(0)
    const s = JSON.parse(r.stdout)
    expect(s.schema).toBe('trecscore.textsim-summary/1')
    expect(s.scored).toBe(309)
    expect(s.notScored).toBe(0)
    expect(s.means).toHaveLength(6)
    for (const m of s.means) {
      const values = RECORDS.map(
        (x) => x.scores.nostem.multi[m.metric as 'rouge1' | 'rouge2'][m.component as keyof Prf],
      )
      expect(m.mean, `${m.metric} ${m.component}`).toBe(numpyPairwiseSum(values) / values.length)
      expect(m.n).toBe(309)
    }
    expect(rows(readFileSync(items, 'utf8'))).toHaveLength(309)
  })

  it('table and csv: one row per metric; csv carries full precision', () => {
    const t = cli(['textsim', '--metric', 'rouge2,meteor', '-f', 'table', input])
    expect(t.code).toBe(0)
    const lines = t.stdout.split('\n')
    expect(lines[0]).toMatch(/^metric\s+P\s+R\s+F\s+n$/)
    expect(lines[2]).toMatch(/^rouge2\s+0\.\d{4}\s+0\.\d{4}\s+0\.\d{4}\s+309$/)
    expect(lines[3]).toMatch(/^meteor\s+-\s+-\s+0\.\d{4}\s+309$/)
    expect(t.stdout).toMatch(/means over 309 scored pair\(s\)/)
    const c = cli(['textsim', '--metric', 'rouge2', '-f', 'csv', input])
    const [head, row] = c.stdout.trim().split('\n')
    expect(head).toBe('metric,P,R,F,n')
    const values = RECORDS.map((x) => x.scores.nostem.multi.rouge2.fmeasure)
    expect(Number(row!.split(',')[3])).toBe(numpyPairwiseSum(values) / values.length)
  })

  it('--items without a summary format is a usage error', () => {
    const r = cli(['textsim', '--items', join(tmp, 'x.jsonl'), input])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--items only applies to a summary --format/)
  })
})
