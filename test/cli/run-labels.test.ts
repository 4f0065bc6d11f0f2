/** Run labels: `--name`, `LABEL=PATH`, `--names-from`, and the shortest unambiguous default. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defaultRunLabels, resolveRunLabels } from '../../src/internal.js'
import { cli } from './helpers.js'

const Q = 'demo/qrels.txt'
const BM25 = 'demo/runs/bm25.run'
const DENSE = 'demo/runs/dense.run'
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-labels-'))

describe('defaultRunLabels', () => {
  it('is the file name when the file names differ', () => {
    expect(defaultRunLabels(['demo/runs/bm25.run', './x/dense.run', 'hybrid.run'])).toEqual([
      'bm25.run',
      'dense.run',
      'hybrid.run',
    ])
  })
  it('is the shortest distinguishing suffix otherwise, per run', () => {
    expect(defaultRunLabels(['a/x/run.txt', 'b/x/run.txt', 'c/other.txt'])).toEqual([
      'a/x/run.txt',
      'b/x/run.txt',
      'other.txt',
    ])
    expect(defaultRunLabels(['sys1/run.trec', 'sys2/run.trec'])).toEqual([
      'sys1/run.trec',
      'sys2/run.trec',
    ])
  })
  it('numbers the same path given twice', () => {
    expect(defaultRunLabels(['r.run', 'r.run', './r.run'])).toEqual([
      'r.run',
      'r.run #2',
      'r.run #3',
    ])
  })
  it('property: labels are unique, each a suffix of its path', () => {
    const seg = fc.constantFrom('a', 'b', 'run', 'x.run')
    fc.assert(
      fc.property(
        fc.array(fc.array(seg, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        (parts) => {
          const paths = parts.map((p) => p.join('/'))
          const labels = defaultRunLabels(paths)
          expect(new Set(labels).size).toBe(labels.length)
          labels.forEach((l, i) => expect(paths[i]!.endsWith(l.replace(/ #\d+$/, ''))).toBe(true))
        },
      ),
    )
  })
})

describe('resolveRunLabels', () => {
  it('takes LABEL=PATH, --name in order, and --names-from', async () => {
    expect(await resolveRunLabels([`BM25=${BM25}`, DENSE])).toEqual([
      { path: BM25, name: 'BM25' },
      { path: DENSE, name: 'dense.run' },
    ])
    expect(
      (await resolveRunLabels([BM25, DENSE], { names: ['A', 'B'] })).map((r) => r.name),
    ).toEqual(['A', 'B'])
    expect((await resolveRunLabels([BM25, DENSE], { from: 'path' })).map((r) => r.name)).toEqual([
      BM25,
      DENSE,
    ])
    expect((await resolveRunLabels([BM25, DENSE], { from: 'file' })).map((r) => r.name)).toEqual([
      'bm25.run',
      'dense.run',
    ])
    expect((await resolveRunLabels([BM25, DENSE], { from: 'tag' })).map((r) => r.name)).toEqual([
      'bm25',
      'dense',
    ])
  })
  it('an existing file whose name holds = is a path', async () => {
    const f = join(tmp, 'a=b.run')
    writeFileSync(f, 'q01 Q0 d 1 1 t\n')
    expect(await resolveRunLabels([f])).toEqual([{ path: f, name: 'a=b.run' }])
  })
  it('refuses too many --name, a label given twice over, and two runs under one label', async () => {
    await expect(resolveRunLabels([BM25], { names: ['a', 'b'] })).rejects.toThrow(
      /--name given 2 times for 1 run/,
    )
    await expect(resolveRunLabels([`x=${BM25}`], { names: ['a'] })).rejects.toThrow(
      /labelled twice/,
    )
    await expect(resolveRunLabels([BM25, DENSE], { names: ['same', 'same'] })).rejects.toThrow(
      /two runs are labelled "same"/,
    )
    mkdirSync(join(tmp, 'd1'), { recursive: true })
    mkdirSync(join(tmp, 'd2'), { recursive: true })
    writeFileSync(join(tmp, 'd1', 'r.run'), 'q01 Q0 d 1 1 tagx\n')
    writeFileSync(join(tmp, 'd2', 'r.run'), 'q01 Q0 d 1 1 tagx\n')
    await expect(
      resolveRunLabels([join(tmp, 'd1', 'r.run'), join(tmp, 'd2', 'r.run')], { from: 'tag' }),
    ).rejects.toThrow(/two runs are labelled "tagx"/)
  })
})

describe('run labels on the command line', () => {
  it('evaluate prints the labels', () => {
    const r = cli(['evaluate', Q, `BM25=${BM25}`, `Dense=${DENSE}`, '-m', 'AP', '-f', 'csv'])
    expect(r.stdout).toBe('run,AP\nBM25,0.21314507254945114\nDense,0.3263785229379458\n')
    const n = cli([
      'evaluate',
      Q,
      BM25,
      DENSE,
      '-m',
      'AP',
      '-f',
      'csv',
      '--name',
      'one',
      '--name',
      'two',
    ])
    expect(
      n.stdout
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(',')[0]),
    ).toEqual(['one', 'two'])
    const t = cli(['evaluate', Q, BM25, DENSE, '-m', 'AP', '-f', 'csv', '--names-from', 'tag'])
    expect(
      t.stdout
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(',')[0]),
    ).toEqual(['bm25', 'dense'])
  })
  it('compare prints the labels and takes --baseline by label or path', () => {
    const a = JSON.parse(
      cli([
        'compare',
        Q,
        `BM25=${BM25}`,
        `Dense=${DENSE}`,
        '-m',
        'AP',
        '-f',
        'json',
        '--baseline',
        'BM25',
      ]).stdout,
    )
    expect(a.settings.baseline).toBe('BM25')
    expect(a.runs.map((r: { name: string }) => r.name)).toEqual(['BM25', 'Dense'])
    const b = JSON.parse(
      cli(['compare', Q, BM25, DENSE, '-m', 'AP', '-f', 'json', '--baseline', BM25]).stdout,
    )
    expect(b.settings.baseline).toBe('bm25.run')
  })
  it('report shows the labels', () => {
    const out = join(tmp, 'r.html')
    const r = cli([
      'report',
      '--qrels',
      Q,
      BM25,
      DENSE,
      '-m',
      'AP',
      '--name',
      'Lexical',
      '--name',
      'Neural',
      '-o',
      out,
      '--baseline',
      DENSE,
    ])
    expect(r.code, r.stderr).toBe(0)
    const html = readHtml(out)
    expect(html).toContain('Lexical')
    expect(html).toContain('Neural')
  })
  it('fuse names the runs on stderr', () => {
    const r = cli([
      'fuse',
      `A=${BM25}`,
      `B=${DENSE}`,
      '--method',
      'wsum',
      '--weights',
      '1,2',
      '-o',
      join(tmp, 'f.run'),
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('trecscore: fuse: runs: A (weight 1), B (weight 2)')
  })
})

function readHtml(file: string): string {
  return readFileSync(file, 'utf8')
}
