/**
 * `trecscore report` end to end (built CLI): demo data and RETECO fixtures write one HTML file
 * with the data inlined; bad arguments exit 2 with every problem named.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../cli/helpers.js'

function dataOf(html: string): {
  runs: { name: string }[]
  measures: string[]
  domains: unknown[] | null
  turnDepth: unknown[] | null
  significance: unknown
} {
  const m = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)
  return JSON.parse(m![1]!)
}

describe('trecscore report (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trecscore-report-cli-'))
  it('demo: one self-contained file with the leaderboard data and significance', () => {
    const out = join(dir, 'demo.html')
    const r = cli([
      'report',
      'demo/qrels.txt',
      'demo/runs/bm25.run',
      'demo/runs/dense.run',
      'demo/runs/hybrid.run',
      '-m',
      'nDCG@10',
      '-m',
      'AP',
      '--out',
      out,
    ])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain(`trecscore: report: wrote ${out} (3 run(s), 2 measure(s))`)
    const html = readFileSync(out, 'utf8')
    expect(html).not.toMatch(/\s(src|href)=/)
    const d = dataOf(html)
    expect(d.runs.map((x) => x.name)).toEqual(['bm25.run', 'dense.run', 'hybrid.run'])
    expect(d.measures).toEqual(['nDCG@10', 'AP'])
    expect(d.domains).toBeNull()
    expect(d.significance).not.toBeNull()
  })
  it('RETECO 2a: runs only (qrels from --data), domains and turn depth present; --baseline reorders', () => {
    const out = join(dir, 'reteco.html')
    const runs = ['2a_random', '2a_perfect'].map((r) => `test/fixtures/reteco/runs/${r}`)
    const r = cli([
      'report',
      '--preset',
      'reteco-2a',
      '--data',
      'test/fixtures/reteco/data',
      ...runs,
      '--baseline',
      runs[1]!,
      '--out',
      out,
    ])
    expect(r.code).toBe(0)
    const d = dataOf(readFileSync(out, 'utf8'))
    expect(d.runs.map((x) => x.name)).toEqual(['2a_perfect', '2a_random'])
    expect(d.domains).toHaveLength(6)
    expect(d.turnDepth).toHaveLength(10) // T1 … T5+ for each run
  })
  it('bad arguments exit 2 and name every problem', () => {
    const r = cli([
      'report',
      '--preset',
      'reteco-2a',
      'test/fixtures/reteco/runs/2a_random',
      '--baseline',
      'other',
      '-m',
      'AP',
      '--out',
      join(dir, 'x.html'),
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      '-m: expected a RETECO plan metric (nDCG@10, MAP@10, Recall@10, P@10, MRR, TP@10, TR@10, TP-TEMPO@10), found "AP"',
    )
    expect(r.stderr).toContain(
      '--baseline: expected one of the runs given (2a_random), found "other"',
    )
    expect(r.stderr).toContain('--data: expected the RETECO data directory (preset reteco-2a)')
    expect(cli(['report', 'demo/qrels.txt', 'demo/runs/bm25.run']).code).toBe(2) // no --out
    const c = cli([
      'report',
      'demo/qrels.txt',
      'demo/runs/bm25.run',
      '--preset',
      'dl21-passage',
      '--depth',
      '10',
      '--out',
      join(dir, 'y.html'),
    ])
    expect(c.code).toBe(2)
    expect(c.stderr).toContain('--depth: expected no convention flags with --preset dl21-passage')
    expect(c.stderr).not.toContain('    at ')
  })
  it('--help documents every flag', () => {
    const r = cli(['report', '--help'])
    expect(r.code).toBe(0)
    for (const f of [
      '--measure',
      '--preset',
      '--data',
      '--split',
      '--baseline',
      '--out',
      '--title',
    ])
      expect(r.stdout).toContain(f)
  })
})
