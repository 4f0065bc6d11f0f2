/**
 * The command-line surface (issue 10): one-line usage errors, `-m` one value per flag, write
 * failures, `--digits` range, escaped control characters, machine formats at full precision.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const Q = 'demo/qrels.txt'
const BM25 = 'demo/runs/bm25.run'
const DENSE = 'demo/runs/dense.run'
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-surface-'))

function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n')
  expect(lines, stderr).toHaveLength(1)
  return lines[0]!
}

describe('usage errors are one line with a pointer to --help (exit 2)', () => {
  const cases: [string, string[], string][] = [
    ['missing -m', ['evaluate', Q, BM25], 'trecscore evaluate'],
    ['missing argument', ['evaluate', '-m', 'AP'], 'trecscore evaluate'],
    ['unknown option', ['evaluate', Q, BM25, '-m', 'AP', '--bogus'], 'trecscore evaluate'],
    ['bad choice', ['evaluate', Q, BM25, '-m', 'AP', '-f', 'xml'], 'trecscore evaluate'],
    ['unknown command', ['evalute'], 'trecscore'],
    ['nested command', ['judge', 'run', '--nope'], 'trecscore judge run'],
    [
      'compare',
      ['compare', '--correction', 'nope', Q, BM25, DENSE, '-m', 'AP'],
      'trecscore compare',
    ],
    ['report without --out', ['report', Q, BM25], 'trecscore report'],
    ['fuse', ['fuse', BM25, '--method', 'nope'], 'trecscore fuse'],
    ['score', ['score', BM25], 'trecscore score'],
    ['validate', ['validate'], 'trecscore validate'],
    ['textsim', ['textsim', 'x.jsonl', '--metric', 'bleu'], 'trecscore textsim'],
    ['reteco sample', ['reteco', 'sample'], 'trecscore reteco sample'],
    ['judge agreement', ['judge', 'agreement'], 'trecscore judge agreement'],
    ['presets show', ['presets', 'show'], 'trecscore presets show'],
  ]
  for (const [what, args, path] of cases) {
    it(what, () => {
      const r = cli(args)
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      const line = oneLine(r.stderr)
      expect(line.startsWith(`${path}: `), line).toBe(true)
      expect(line.endsWith(`; see \`${path} --help\``), line).toBe(true)
      expect(line).not.toMatch(/Usage:|Options:/)
    })
  }
  it('says what was wrong', () => {
    expect(cli(['evaluate', Q, BM25]).stderr).toContain(
      "required option '-m, --measure <names>' not specified",
    )
    expect(cli(['evaluate', Q, BM25, '-m', 'AP', '--bogus']).stderr).toContain(
      "unknown option '--bogus'",
    )
    expect(cli(['evalute']).stderr).toContain("unknown command 'evalute' (Did you mean evaluate?)")
  })
  it('--help and --version still exit 0 with their full text', () => {
    const h = cli(['evaluate', '--help'])
    expect(h.code).toBe(0)
    expect(h.stdout).toContain('Usage: trecscore evaluate')
    expect(cli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })
})

describe('-m takes one value per flag', () => {
  it('does not swallow the files that follow it', () => {
    const r = cli(['evaluate', '-m', 'nDCG@10', Q, BM25])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^run\s+nDCG@10\n/)
    expect(r.stdout).toMatch(/^bm25\.run\s+0\.3999$/m)
  })
  it('a comma or space list inside one value still works, and repeats add up', () => {
    const a = JSON.parse(
      cli(['evaluate', '-m', 'nDCG@10,AP', '-m', 'P@5 RR', Q, BM25, '-f', 'json']).stdout,
    )
    expect(a.measures).toEqual(['nDCG@10', 'AP', 'P@5', 'RR'])
    const b = JSON.parse(
      cli(['evaluate', '-m', 'nDCG(gains={0:0,1:1,2:3})@10', Q, BM25, '-f', 'json']).stdout,
    )
    expect(b.measures).toHaveLength(1)
  })
  it('in compare and report too', () => {
    const c = cli(['compare', '-m', 'AP', Q, BM25, DENSE, '-f', 'json'])
    expect(c.code, c.stderr).toBe(0)
    expect(JSON.parse(c.stdout).measures).toEqual(['AP'])
    const out = join(tmp, 'm.html')
    const r = cli(['report', '-m', 'AP', Q, BM25, DENSE, '-o', out])
    expect(r.code, r.stderr).toBe(0)
    expect(existsSync(out)).toBe(true)
  })
  it('compare --test and --by take one value per flag as well', () => {
    const c = cli(['compare', '--test', 't', Q, BM25, DENSE, '-m', 'AP', '-f', 'json'])
    expect(c.code, c.stderr).toBe(0)
    expect(JSON.parse(c.stdout).settings.tests).toEqual(['t'])
  })
})

describe('write failures are one line, exit 2', () => {
  const dir = join(tmp, 'adir')
  mkdirSync(dir, { recursive: true })
  const targets: [string, string, RegExp][] = [
    ['a directory', dir, /is a directory/],
    ['a missing folder', join(tmp, 'missing', 'x.out'), /no such (file or )?directory/],
    ['a full disk', '/dev/full', /no space left on (the )?device/],
  ]
  const commands: [string, (out: string) => string[]][] = [
    ['fuse --out', (o) => ['fuse', BM25, DENSE, '-o', o]],
    ['report --out', (o) => ['report', Q, BM25, '-m', 'AP', '-o', o]],
    ['textsim --out', (o) => ['textsim', join(tmp, 'pairs.jsonl'), '--metric', 'rougeL', '-o', o]],
  ]
  writeFileSync(
    join(tmp, 'pairs.jsonl'),
    '{"id":"a","prediction":"the cat","references":["the cat sat"]}\n',
  )
  for (const [cmd, args] of commands) {
    for (const [where, out, reason] of targets) {
      it(`${cmd} to ${where}`, () => {
        if (out === '/dev/full' && !existsSync('/dev/full')) return
        const r = cli(args(out))
        expect(r.code, r.stderr).toBe(2)
        const line = oneLine(
          r.stderr
            .split('\n')
            .filter((l) => !/^(textsim|trecscore: fuse|trecscore: note):? /.test(l))
            .join('\n'),
        )
        expect(line).toMatch(reason)
        expect(line).toContain(out)
        expect(line).not.toMatch(/\n\s+at /)
      })
    }
  }
})

describe('evaluate output', () => {
  it('--digits outside 0..17 is a usage error naming the range', () => {
    for (const d of ['101', '-1', '1.5', 'x']) {
      const r = cli(['evaluate', Q, BM25, '-m', 'AP', '--digits', d])
      expect(r.code).toBe(2)
      expect(oneLine(r.stderr)).toContain('expected an integer from 0 to 17')
    }
    expect(cli(['evaluate', Q, BM25, '-m', 'AP', '--digits', '17']).stdout).toMatch(
      /^bm25\.run\s+0\.21314507254945114$/m,
    )
    expect(cli(['evaluate', Q, BM25, '-m', 'AP', '--digits', '0']).stdout).toMatch(
      /^bm25\.run\s+0$/m,
    )
  })
  it('machine formats print full precision unless --digits is given', () => {
    expect(cli(['evaluate', Q, BM25, '-m', 'AP', '-f', 'tsv']).stdout).toBe(
      'run\tAP\nbm25.run\t0.21314507254945114\n',
    )
    expect(cli(['evaluate', Q, BM25, '-m', 'AP', '-f', 'csv', '--digits', '3']).stdout).toBe(
      'run,AP\nbm25.run,0.213\n',
    )
    expect(
      JSON.parse(cli(['evaluate', Q, BM25, '-m', 'AP', '-f', 'json']).stdout).runs[0].aggregates.AP
        .value,
    ).toBe(0.21314507254945114)
  })
  it('latex carries the conventions as a % comment', () => {
    const t = cli(['evaluate', Q, BM25, '-m', 'AP', '-f', 'latex']).stdout
    expect(t).toMatch(
      /^% conventions: ordering score-docid-desc; scores float64; duplicates error; .*relevant grade >= 1; gains grade/m,
    )
  })
  it('control characters in ids are escaped in table and markdown, exact in machine formats', () => {
    const run = join(tmp, 'ctl.run')
    const qrels = join(tmp, 'ctl.qrels')
    writeFileSync(qrels, 'q\x1b[2J 0 d1 1\n')
    writeFileSync(run, 'q\x1b[2J Q0 d1 1 1.0 t\n')
    const table = cli(['evaluate', qrels, run, '-m', 'AP', '-q'])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).not.toContain('\x1b')
    expect(table.stdout).toMatch(/^ctl\.run\s+q\\x1b\[2J\s+1\.0000$/m)
    expect(cli(['evaluate', qrels, run, '-m', 'AP', '-q', '-f', 'markdown']).stdout).not.toContain(
      '\x1b',
    )
    expect(cli(['evaluate', qrels, run, '-m', 'AP', '-q', '-f', 'tsv']).stdout).toContain(
      'ctl.run\tq\x1b[2J\t1\n',
    )
    expect(
      JSON.parse(cli(['evaluate', qrels, run, '-m', 'AP', '-q', '-f', 'json']).stdout).runs[0]
        .perQuery[0].query,
    ).toBe('q\x1b[2J')
  })
  it('--explain goes to stderr with machine formats, stdout stays machine-readable', () => {
    const r = cli(['evaluate', Q, BM25, '-m', 'AP', '-f', 'csv', '--explain'])
    expect(r.stdout).toBe('run,AP\nbm25.run,0.21314507254945114\n')
    expect(r.stderr).toContain('missing queries: skip')
    const t = cli(['evaluate', Q, BM25, '-m', 'AP', '--explain'])
    expect(t.stdout).toContain('missing queries: skip')
    expect(t.stderr).toBe('')
    expect(readFileSync(BM25, 'latin1').length).toBeGreaterThan(0)
  })
})
