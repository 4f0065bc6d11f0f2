/**
 * `trecscore fuse` end to end on the demo runs (built CLI): the fused run flows into `evaluate`,
 * the RRF value of the top document is recomputed here from the two input files, and bad
 * options exit 2 with every problem listed.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../cli/helpers.js'

/** Rank of each doc of query q in a run file, ordered by score descending then doc id descending. */
function ranks(file: string, q: string): Map<string, number> {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(/\s+/))
    .filter((f) => f[0] === q)
    .map((f) => ({ doc: f[2]!, score: Number(f[4]) }))
  rows.sort((a, b) => b.score - a.score || (a.doc < b.doc ? 1 : -1))
  return new Map(rows.map((r, i) => [r.doc, i + 1]))
}

describe('trecscore fuse (CLI)', () => {
  it('writes a six-column run that evaluate reads; RRF of the top doc = Σ 1/(60 + rank)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trecscore-fuse-'))
    const out = join(dir, 'rrf.run')
    const r = cli([
      'fuse',
      'demo/runs/bm25.run',
      'demo/runs/dense.run',
      '--method',
      'rrf',
      '--tag',
      'rrf60',
      '--out',
      out,
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(
      'trecscore: fuse: 2 runs, 30 queries; runs lacking a query: 0; duplicate docs removed: 0',
    )
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n')
    const first = lines[0]!.split(' ')
    expect(first[0]).toBe('q01')
    expect(first[3]).toBe('1')
    expect(first[5]).toBe('rrf60')
    const a = ranks('demo/runs/bm25.run', 'q01').get(first[2]!)
    const b = ranks('demo/runs/dense.run', 'q01').get(first[2]!)
    const expected = (a ? 1 / (60 + a) : 0) + (b ? 1 / (60 + b) : 0)
    expect(Number(first[4])).toBeCloseTo(expected, 15)
    for (const l of lines) expect(l.split(' ')).toHaveLength(6)
    const ev = cli(['evaluate', 'demo/qrels.txt', out, '-m', 'nDCG@10', '-f', 'json'])
    expect(ev.code).toBe(0)
    const json = JSON.parse(ev.stdout) as {
      runs: { tag: string; counts: { duplicatesRemoved: number } }[]
    }
    expect(json.runs[0]!.tag).toBe('rrf60')
    expect(json.runs[0]!.counts.duplicatesRemoved).toBe(0)
  })
  it('writes to stdout by default; scores strictly decrease within each query', () => {
    const r = cli([
      'fuse',
      'demo/runs/bm25.run',
      'demo/runs/dense.run',
      'demo/runs/hybrid.run',
      '--method',
      'combmnz',
      '--norm',
      'zscore',
      '--depth',
      '5',
    ])
    expect(r.code).toBe(0)
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split(' '))
    expect(lines).toHaveLength(30 * 5)
    for (let i = 1; i < lines.length; i++)
      if (lines[i]![0] === lines[i - 1]![0])
        expect(Number(lines[i]![4])).toBeLessThan(Number(lines[i - 1]![4]))
  })
  it('--optimize reports the chosen weights and warns about leakage', () => {
    const r = cli([
      'fuse',
      'demo/runs/bm25.run',
      'demo/runs/dense.run',
      '--method',
      'wsum',
      '--optimize',
      'nDCG@10',
      '--train-qrels',
      'demo/qrels.txt',
      '--step',
      '0.5',
    ])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(
      /--optimize nDCG@10 on demo\/qrels\.txt: chose weights [0-9.]+,[0-9.]+ .* over 3 weight vectors/,
    )
    expect(r.stderr).toContain('is leakage')
  })
  it('bad options exit 2 and name every problem', () => {
    const r = cli([
      'fuse',
      'demo/runs/bm25.run',
      'demo/runs/dense.run',
      '--method',
      'wsum',
      '--weights',
      '1,x,3',
      '--depth',
      '0',
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      '--weights: expected 2 weights, one per run in the order given, found "1,NaN,3"',
    )
    expect(r.stderr).toContain('--depth: expected an integer >= 1, found "0"')
    expect(r.stderr).not.toContain('    at ')
    const o = cli(['fuse', 'demo/runs/bm25.run', '--optimize', 'AP'])
    expect(o.code).toBe(2)
    expect(o.stderr).toContain('--optimize: expected --method wsum')
    expect(o.stderr).toContain('--train-qrels FILE as well')
    expect(cli(['fuse', 'demo/runs/bm25.run', '--method', 'nope']).code).toBe(2)
    expect(cli(['fuse', 'no-such.run']).code).toBe(2)
  })
  it('RETECO 2a fixtures: fused per-domain files score under the preset; wsum 1,0 over 2a_perfect and 2a_random keeps the perfect ranking (nDCG@10 = 1)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trecscore-fuse-reteco-'))
    for (const domain of ['biology', 'drones', 'earth_science']) {
      const r = cli([
        'fuse',
        `test/fixtures/reteco/runs/2a_perfect/${domain}.trec`,
        `test/fixtures/reteco/runs/2a_random/${domain}.trec`,
        '--method',
        'wsum',
        '--weights',
        '1,0',
        '--out',
        join(dir, `${domain}.trec`),
      ])
      expect(r.code).toBe(0)
    }
    const s = cli([
      'score',
      '--preset',
      'reteco-2a',
      '--data',
      'test/fixtures/reteco/data',
      dir,
      '-f',
      'json',
    ])
    expect(s.code).toBe(0)
    const report = (
      JSON.parse(s.stdout) as { reports: { headline: { value: number }; errors: string[] }[] }
    ).reports[0]!
    expect(report.errors).toEqual([])
    expect(report.headline.value).toBe(1)
  })
  it('--help documents every flag', () => {
    const r = cli(['fuse', '--help'])
    expect(r.code).toBe(0)
    for (const f of [
      '--method',
      '--norm',
      '--k',
      '--weights',
      '--depth',
      '--tag',
      '--keep-ties',
      '--out',
      '--optimize',
      '--train-qrels',
      '--step',
    ])
      expect(r.stdout).toContain(f)
  })
})

describe('trecscore fuse output (streamed)', () => {
  it('writes a long tag on every line, to stdout and to --out, identically', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trecscore-fuse-tag-'))
    const tag = 't'.repeat(100_000)
    const out = join(dir, 'long.run')
    const a = cli([
      'fuse',
      'demo/runs/bm25.run',
      'demo/runs/dense.run',
      '--tag',
      tag,
      '--depth',
      '20',
      '--out',
      out,
    ])
    expect(a.code).toBe(0)
    const b = cli([
      'fuse',
      'demo/runs/bm25.run',
      'demo/runs/dense.run',
      '--tag',
      tag,
      '--depth',
      '20',
    ])
    expect(b.code).toBe(0)
    const text = readFileSync(out, 'latin1')
    expect(b.stdout).toBe(text)
    const lines = text.trimEnd().split('\n')
    expect(lines.length).toBe(30 * 20)
    for (const l of lines) expect(l.endsWith(` ${tag}`)).toBe(true)
  })

  it('a failed write (missing folder, a directory, a full disk) is one line, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trecscore-fuse-fail-'))
    for (const [out, why] of [
      [join(dir, 'no', 'such', 'x.run'), 'no such directory'],
      [dir, 'is a directory, expected a file'],
      ['/dev/full', 'no space left on device'],
    ] as const) {
      const r = cli(['fuse', 'demo/runs/bm25.run', 'demo/runs/dense.run', '--out', out])
      expect(r.code, out).toBe(2)
      expect(r.stderr.trim().split('\n')).toEqual([`trecscore: ${out}: cannot write: ${why}`])
    }
  })
})
