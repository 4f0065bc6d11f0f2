import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const DEMO = ['demo/qrels.txt', 'demo/runs/bm25.run', 'demo/runs/dense.run', 'demo/runs/hybrid.run']
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-cli-'))

describe('trecscore evaluate', () => {
  it('prints a leaderboard of several runs side by side', () => {
    const r = cli(['evaluate', ...DEMO, '-m', 'nDCG@10', '-m', 'AP'])
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^run\s+nDCG@10\s+AP$/)
    expect(lines).toHaveLength(6)
    expect(lines[5]).toMatch(
      /^conventions: ordering score-docid-desc; scores float64; duplicates error; .*relevant grade >= 1; gains grade/,
    )
    expect(lines[2]).toMatch(/^bm25\.run\s+0\.\d{4}\s+0\.\d{4}$/)
  })
  it('agrees with the trec_eval drop-in on the demo data', () => {
    const ours = JSON.parse(
      cli(['evaluate', DEMO[0]!, DEMO[3]!, '-m', 'ndcg_cut.10', '-m', 'map', '-f', 'json']).stdout,
    )
    const te = cli(['trec-eval', '-m', 'ndcg_cut.10', '-m', 'map', DEMO[0]!, DEMO[3]!]).stdout
    const map = Number(/^map\s+all\s+(\S+)/m.exec(te)![1])
    const ndcg = Number(/^ndcg_cut_10\s+all\s+(\S+)/m.exec(te)![1])
    expect(ours.runs[0].aggregates['AP'].value).toBeCloseTo(map, 4)
    expect(ours.runs[0].aggregates['nDCG@10'].value).toBeCloseTo(ndcg, 4)
  })
  it('has a stable JSON schema with conventions and counts', () => {
    const j = JSON.parse(
      cli(['evaluate', DEMO[0]!, DEMO[1]!, '-m', 'P@5', '-q', '-f', 'json']).stdout,
    )
    expect(j.schema).toBe('trecscore.evaluate/1')
    expect(j.measures).toEqual(['P@5'])
    expect(j.conventions).toMatchObject({
      ordering: 'score-docid-desc',
      relevanceLevel: 1,
      duplicates: 'error',
    })
    expect(j.runs[0]).toMatchObject({
      run: 'bm25.run',
      tag: 'bm25',
      counts: { declaredQueries: 30, evaluatedQueries: 30, extraQueries: 0 },
    })
    expect(j.runs[0].perQuery).toHaveLength(30)
    expect(j.runs[0].perQuery[0]).toMatchObject({
      query: 'q01',
      status: 'evaluated',
      values: { 'P@5': expect.any(Number) },
    })
  })
  it('--aggregate std and mean+std print the population standard deviation over queries', () => {
    const json = JSON.parse(
      cli(['evaluate', DEMO[0]!, DEMO[1]!, '-m', 'P@5', '-q', '-f', 'json']).stdout,
    )
    const values = json.runs[0].perQuery.map(
      (q: { values: Record<string, number> }) => q.values['P@5'],
    )
    const mean = values.reduce((a: number, b: number) => a + b, 0) / values.length
    const std = Math.sqrt(
      values.reduce((a: number, v: number) => a + (v - mean) ** 2, 0) / values.length,
    )
    expect(json.runs[0].aggregates['P@5'].std).toBeCloseTo(std, 14)
    expect(std).toBeGreaterThan(0)
    const csv = cli([
      'evaluate',
      DEMO[0]!,
      DEMO[1]!,
      '-m',
      'P@5',
      '--aggregate',
      'mean+std',
      '-f',
      'csv',
    ])
    expect(csv.stdout.trim().split('\n')).toEqual([
      'run,query,P@5',
      `bm25.run,all,${json.runs[0].aggregates['P@5'].value}`,
      `bm25.run,std,${json.runs[0].aggregates['P@5'].std}`,
    ])
    const table = cli(['evaluate', DEMO[0]!, DEMO[1]!, '-m', 'P@5', '--aggregate', 'std'])
    expect(table.stdout.split('\n')[2]).toBe(`bm25.run  ${std.toFixed(4)}`)
    const bad = cli(['evaluate', DEMO[0]!, DEMO[1]!, '-m', 'P@5', '--aggregate', 'median'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--aggregate/)
  })
  it('renders every format', () => {
    for (const f of ['table', 'json', 'jsonl', 'csv', 'tsv', 'markdown', 'latex']) {
      const r = cli(['evaluate', DEMO[0]!, DEMO[1]!, '-m', 'AP', '-f', f])
      expect([f, r.code]).toEqual([f, 0])
      expect(r.stdout.length).toBeGreaterThan(10)
    }
    expect(cli(['evaluate', DEMO[0]!, DEMO[1]!, '-m', 'AP', '-f', 'csv']).stdout).toBe(
      'run,AP\nbm25.run,0.21314507254945114\n',
    )
    expect(cli(['evaluate', DEMO[0]!, DEMO[1]!, '-m', 'AP', '-f', 'latex']).stdout).toContain(
      '\\toprule',
    )
  })
  it('--explain states conventions and what was zero-filled', () => {
    const run = join(tmp, 'partial.run')
    writeFileSync(run, 'q01 Q0 doc0001 1 3.0 t\nq02 Q0 doc0002 1 2.0 t\nzz Q0 x 1 1 t\n')
    const r = cli(['evaluate', DEMO[0]!, run, '-m', 'AP', '--missing-queries', 'zero', '--explain'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('missing queries: zero')
    expect(r.stdout).toContain('missing from run: 28')
    expect(r.stdout).toContain('scored 0 (zero-filled)')
    expect(r.stdout).toContain('run queries without qrels (ignored): 1')
  })
  it('duplicates are an error under trec_eval conventions, and counted when deduplicated', () => {
    const run = join(tmp, 'dup.run')
    writeFileSync(run, 'q01 Q0 doc0001 1 3.0 t\nq01 Q0 doc0001 2 2.0 t\n')
    const bad = cli(['evaluate', DEMO[0]!, run, '-m', 'AP'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('retrieved more than once')
    expect(bad.stderr).not.toMatch(/\n\s+at /)
    const ok = cli([
      'evaluate',
      DEMO[0]!,
      run,
      '-m',
      'AP',
      '--duplicates',
      'keep-first',
      '--explain',
    ])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('duplicate docs removed: 1')
  })
  it('unknown measures exit 2 with a suggestion and no stack trace', () => {
    const r = cli(['evaluate', ...DEMO.slice(0, 2), '-m', 'nDGC@10'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('did you mean "nDCG"')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
  it('missing files, directories and truncated gzip are clear errors (exit 2)', () => {
    const gz = join(tmp, 'run.gz')
    writeFileSync(
      gz,
      gzipSync(Buffer.from('q01 Q0 doc0001 1 3.0 t\n'.repeat(1000))).subarray(0, 40),
    )
    mkdirSync(join(tmp, 'dir'), { recursive: true })
    for (const [file, msg] of [
      [join(tmp, 'nope.run'), 'no such file'],
      [join(tmp, 'dir'), 'is a directory'],
      [gz, 'gzip'],
    ] as const) {
      const r = cli(['evaluate', DEMO[0]!, file, '-m', 'AP'])
      expect([file, r.code]).toEqual([file, 2])
      expect(r.stderr).toContain(msg)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
  })
  it('reads gzipped runs and stdin', () => {
    const gz = join(tmp, 'ok.run.gz')
    writeFileSync(gz, gzipSync(Buffer.from('q01 Q0 doc0001 1 3.0 t\n')))
    expect(cli(['evaluate', DEMO[0]!, gz, '-m', 'NumRet']).stdout).toMatch(
      /\s1\nconventions: [^\n]+\n$/,
    )
    expect(
      cli(['evaluate', DEMO[0]!, '-', '-m', 'NumRet'], {
        input: 'q01 Q0 doc0001 1 3.0 t\nq02 Q0 doc0001 1 3.0 t\n',
      }).stdout,
    ).toMatch(/\s2\nconventions: [^\n]+\n$/)
  })
  it('reports malformed run lines with file:line', () => {
    const run = join(tmp, 'bad.run')
    writeFileSync(run, 'q01 Q0 doc0001 1 3.0 t\nq01 Q0 doc0002 1\n')
    const r = cli(['evaluate', DEMO[0]!, run, '-m', 'AP'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('bad.run:2: expected 6 fields')
  })
})
