import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../cli/helpers.js'

const DEMO = ['demo/qrels.txt', 'demo/runs/bm25.run', 'demo/runs/dense.run', 'demo/runs/hybrid.run']
const F = 'test/fixtures/reteco'
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-compare-'))

describe('trecscore compare', () => {
  it('demo: letters, superscripts, pairs and legend (plain text)', () => {
    const r = cli(['compare', ...DEMO, '-m', 'nDCG@10', '-m', 'AP'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^c {2}hybrid\.run\s+0\.7805\*\^ab\s+0\.5084\*\^ab$/m)
    expect(r.stdout).toMatch(/^a {2}b {2}nDCG@10 {2}30 /m)
    expect(r.stdout).toContain('queries: 30 (qrels demo/qrels.txt, profile trec-eval conventions)')
    expect(r.stdout).toContain('zero-filled (query missing from the run, scored 0): none')
  })

  it('demo: LaTeX table with booktabs, bold best and superscript letters', () => {
    const r = cli(['compare', ...DEMO, '-m', 'nDCG@10', '-f', 'latex'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('c & hybrid.run & \\textbf{0.7805}$^{ab}$ \\\\')
    expect(r.stdout).toContain('\\bottomrule')
  })

  it('JSON with a baseline and every test; settings echoed', () => {
    const r = cli([
      'compare',
      ...DEMO,
      '-m',
      'P@5',
      '--baseline',
      'bm25.run',
      '--test',
      't,permutation',
      '--test',
      'bootstrap',
      '--test',
      'wilcoxon',
      '--permutations',
      '2000',
      '--bootstrap',
      '500',
      '--seed',
      '7',
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schema).toBe('trecscore.compare/1')
    expect(j.settings).toMatchObject({
      tests: ['t', 'permutation', 'bootstrap', 'wilcoxon'],
      baseline: 'bm25.run',
      permutations: 2000,
      bootstrap: 500,
      seed: 7,
    })
    expect(j.overall[0].pairs.map((p: { a: number; b: number }) => [p.a, p.b])).toEqual([
      [1, 0],
      [2, 0],
    ])
    expect(j.overall[0].pairs[0].tests[1].method).toContain(
      'sampled, 2000 random sign vectors (seed 7)',
    )
    // the same command twice gives the same bytes (seeded)
    expect(
      cli([
        'compare',
        ...DEMO,
        '-m',
        'P@5',
        '--baseline',
        'bm25.run',
        '--test',
        't,permutation',
        '--test',
        'bootstrap',
        '--test',
        'wilcoxon',
        '--permutations',
        '2000',
        '--bootstrap',
        '500',
        '--seed',
        '7',
        '-f',
        'json',
      ]).stdout,
    ).toBe(r.stdout)
  })

  it('a run missing queries: zero-filled and counted in the legend', () => {
    const lines = readFileSync('demo/runs/dense.run', 'utf8').split('\n')
    const partial = join(tmp, 'partial.run')
    writeFileSync(partial, lines.filter((l) => /^q0[1-5] /.test(l)).join('\n') + '\n')
    const r = cli(['compare', DEMO[0]!, DEMO[1]!, partial, '-m', 'AP', '-f', 'json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.runs[1].zeroFilled).toBe(25)
    expect(j.notes).toContain('zero-filled (query missing from the run, scored 0): partial.run 25')
    expect(j.notes[0]).toContain('profile trec-eval conventions skip them')
  })

  it('non-finite per-query values (an infinite gain): one-line error, exit 2, no stack trace', () => {
    const r = cli(['compare', ...DEMO, '-m', 'nDCG(gains={0:0,1:1e400,2:3})'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('-f html: the main table, the pairs table the legend describes, and the legend', () => {
    const r = cli(['compare', ...DEMO, '-m', 'nDCG@10', '-f', 'html'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('<table class="trecscore-compare-pairs">')
    expect(
      r.stdout.match(/<tr><td>[ab]<\/td><td>[bc]<\/td><td>nDCG@10<\/td><td class="num">30<\/td>/g),
    ).toHaveLength(3)
    expect(r.stdout).toContain(
      '<li>wins/ties/losses: queries where A &gt; B, A = B (exactly), A &lt; B</li>',
    )
  })

  it('usage errors: every problem at once, exit 2, no stack trace', () => {
    const r = cli([
      'compare',
      ...DEMO,
      '-m',
      'AP',
      '--alpha',
      '2',
      '--seed',
      'x',
      '--test',
      'foo',
      '--by',
      'nope',
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--alpha: expected a number strictly between 0 and 1, found "2"')
    expect(r.stderr).toContain('--seed: expected an integer')
    expect(r.stderr).toContain('--test: expected t, permutation, bootstrap, wilcoxon, found "foo"')
    expect(r.stderr).toContain('--by: expected domain, turn-depth, step, found "nope"')
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(cli(['compare', ...DEMO, '-m', 'AP', '--by', 'domain']).stderr).toContain(
      'plain qrels define no groups',
    )
    expect(cli(['compare', ...DEMO, '-m', 'AP', '--baseline', 'nope']).code).toBe(2)
    expect(cli(['compare', DEMO[0]!, DEMO[1]!, '-m', 'AP']).stderr).toContain('at least 2 runs')
  })

  it('binary junk as a run: exit 2 with file:line problems, no crash', () => {
    const junk = join(tmp, 'junk.run')
    writeFileSync(junk, Buffer.from([0, 1, 2, 255, 10, 0x71, 0x30, 10]))
    const r = cli(['compare', DEMO[0]!, DEMO[1]!, junk, '-m', 'AP'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${junk}:1`)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('RETECO 2a fixtures: --preset reteco-2a --data DIR with domain and turn-depth breakdowns', () => {
    const r = cli([
      'compare',
      '--preset',
      'reteco-2a',
      '--data',
      `${F}/data`,
      `${F}/runs/2a_random`,
      `${F}/runs/2a_ties_rank`,
      `${F}/runs/2a_perfect`,
      '--by',
      'domain,turn-depth',
      '-m',
      'nDCG@10',
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.breakdowns.map((b: { by: string }) => b.by)).toEqual(['domain', 'turn-depth'])
    expect(j.overall[0].beats[2]).toEqual([0, 1])
    expect(j.source).toContain('preset reteco-2a (plan conventions)')
    expect(
      cli(['compare', '--preset', 'reteco-2a', `${F}/runs/2a_random`, `${F}/runs/2a_perfect`])
        .stderr,
    ).toContain('needs --data <dir>')
    expect(
      cli([
        'compare',
        '--preset',
        'reteco-2a',
        '--data',
        `${F}/data`,
        `${F}/runs/2a_random`,
        `${F}/runs/2a_perfect`,
        '--depth',
        '5',
      ]).stderr,
    ).toContain('--depth: RETECO runs are scored under the evaluation plan')
  })
})
