/**
 * Measure names from the command line: edge names that are Object.prototype keys, parameter
 * ranges and empty lists are one-line usage errors (exit 2; the drop-in keeps trec_eval's exit 1
 * and wording) in evaluate, compare, report and trec-eval, never a TypeError.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const QRELS = 'demo/qrels.txt'
const RUNS = ['demo/runs/bm25.run', 'demo/runs/dense.run']
const out = join(mkdtempSync(join(tmpdir(), 'trecscore-names-')), 'r.html')

const commands: Record<string, (m: string) => string[]> = {
  evaluate: (m) => ['evaluate', QRELS, ...RUNS, '-m', m],
  compare: (m) => ['compare', QRELS, ...RUNS, '-m', m],
  report: (m) => ['report', QRELS, ...RUNS, '-m', m, '--out', out],
}

function expectUsageError(args: string[], pattern: RegExp): void {
  const r = cli(args)
  expect([args.join(' '), r.code]).toEqual([args.join(' '), 2])
  expect(r.stderr).not.toMatch(/TypeError| {4}at /)
  expect(r.stderr.trim().split('\n')).toHaveLength(1)
  expect(r.stderr).toMatch(pattern)
}

describe('edge measure names', () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    for (const [cmd, args] of Object.entries(commands)) {
      it(`${cmd} -m ${name}: unknown measure, exit 2`, () =>
        expectUsageError(args(name), /unknown measure/))
    }
    it(`trec-eval -m ${name}: trec_eval's illegal measure, exit 1`, () => {
      const r = cli(['trec-eval', '-m', name, QRELS, RUNS[0]!])
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(`trec_eval: illegal measure '${name}'\n`)
    })
  }
  it('a parameter named like a prototype key is an unknown parameter', () => {
    expectUsageError(
      commands['evaluate']!('P(constructor=1)@5'),
      /unknown measure "P\(constructor=…\)"/,
    )
  })
})

describe('parameter ranges and NaN', () => {
  for (const [cmd, args] of Object.entries(commands)) {
    it(`${cmd}: RBP(p=2) and RBP(p=-1) name the valid range`, () => {
      expectUsageError(args('RBP(p=2)'), /p of RBP in \[0, 1\)/)
      expectUsageError(args('RBP(p=-1)'), /p of RBP in \[0, 1\)/)
    })
  }
  it('evaluate: set_F.1.0,0.5,2.4 is three measures, none NaN', () => {
    const r = cli(['evaluate', QRELS, RUNS[0]!, '-m', 'set_F.1.0,0.5,2.4', '-f', 'json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.measures).toEqual(['SetF', 'SetF(beta=0.5)', 'SetF(beta=2.4)'])
    for (const m of j.measures) expect(Number.isFinite(j.runs[0].aggregates[m].value)).toBe(true)
    // Each beta as trec_eval computes it alone.
    for (const [m, beta] of [
      ['SetF', '1.0'],
      ['SetF(beta=0.5)', '0.5'],
      ['SetF(beta=2.4)', '2.4'],
    ] as const) {
      const te = cli(['trec-eval', '-m', `set_F.${beta}`, QRELS, RUNS[0]!]).stdout
      expect([m, j.runs[0].aggregates[m].value.toFixed(4)]).toEqual([m, /\t(\S+)\n$/.exec(te)![1]])
    }
  })
  it('evaluate: set_F.nan and P@1e400 are refused', () => {
    expectUsageError(commands['evaluate']!('set_F.nan'), /set_F betas as numbers/)
    expectUsageError(commands['evaluate']!('P@1e400'), /a finite number/)
  })
})

describe("an empty measure list (-m '') is a usage error", () => {
  for (const [cmd, args] of Object.entries(commands)) {
    it(cmd, () => expectUsageError(args(''), /at least one measure name/))
  }
})

describe('bare trec_eval names in evaluate expand like the drop-in', () => {
  it('ndcg_cut, map_cut, recall and P give the nine default cutoffs with the drop-in values', () => {
    const r = cli([
      'evaluate',
      QRELS,
      RUNS[0]!,
      '-m',
      'ndcg_cut',
      '-m',
      'map_cut',
      '-m',
      'recall',
      '-m',
      'P',
      '-f',
      'json',
    ])
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    const te = cli([
      'trec-eval',
      '-m',
      'ndcg_cut',
      '-m',
      'map_cut',
      '-m',
      'recall',
      '-m',
      'P',
      QRELS,
      RUNS[0]!,
    ]).stdout
    const ref = new Map(
      te
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .map((f) => [f[0]!.trim(), f[2]!]),
    )
    const cuts = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
    expect(j.measures).toHaveLength(36)
    for (const [ours, theirs] of [
      ['nDCG', 'ndcg_cut'],
      ['AP', 'map_cut'],
      ['R', 'recall'],
      ['P', 'P'],
    ] as const) {
      for (const k of cuts)
        expect([`${ours}@${k}`, j.runs[0].aggregates[`${ours}@${k}`].value.toFixed(4)]).toEqual([
          `${ours}@${k}`,
          ref.get(`${theirs}_${k}`),
        ])
    }
  })
  it("P_5,10, ndcg_cut_5,10 and ir_measures' cutoff= parse", () => {
    const r = cli([
      'evaluate',
      QRELS,
      RUNS[0]!,
      '-m',
      'P_5,10',
      '-m',
      'ndcg_cut_5,10',
      '-m',
      "nDCG(dcg='exp-log2', cutoff=20)",
      '-m',
      'IPrec(recall=0.5)',
      '-f',
      'json',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).measures).toEqual([
      'P@5',
      'P@10',
      'nDCG@5',
      'nDCG@10',
      "nDCG(dcg='exp-log2')@20",
      'IPrec@0.5',
    ])
  })
})

describe('trecscore measures NAME documents ranges and cutoff=', () => {
  it('RBP shows p in [0, 1)', () => {
    const r = cli(['measures', 'RBP'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('p (float, in [0, 1), default 0.8)')
    expect(r.stdout).toContain('rank cutoff k (also cutoff=k)')
  })
  it('an edge name is an unknown measure', () => {
    const r = cli(['measures', 'constructor'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/unknown measure 'constructor'/)
  })
})
