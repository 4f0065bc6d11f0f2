/**
 * `score --preset`: run labels (`--name`, `LABEL=PATH`, `--names-from`) in every format of every
 * preset family, the path as typed by default (the official tools' tables stay byte-identical),
 * and `--explain` (stderr next to JSON, after the table otherwise).
 */
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const DL = 'test/fixtures/presets/dl21'
const NC = 'test/fixtures/presets/neuclir23'
const SR = 'test/fixtures/presets/skillret'
const RT = 'test/fixtures/reteco'

const trecEvalBlock = (values: readonly string[]): string =>
  ['map', 'recip_rank', 'P_10', 'recall_100', 'recall_1000', 'ndcg_cut_10']
    .map((m, i) => `${m.padEnd(22)}\tall\t${values[i]}\n`)
    .join('')
const BM25 = trecEvalBlock(['0.1307', '0.6613', '0.3400', '0.3985', '0.3985', '0.3901'])
const GOOD = trecEvalBlock(['0.4132', '0.7292', '0.5400', '0.7738', '0.7738', '0.6446'])

describe('score --preset dl21-*: run labels and --explain', () => {
  const dl = (...args: string[]) =>
    cli(['score', '--preset', 'dl21-passage', '--qrels', `${DL}/qrels.pass.txt`, ...args])

  it('names runs by the path as typed by default, by LABEL=PATH or --name when given', () => {
    expect(dl(`${DL}/runs/p_bm25.txt`, `${DL}/runs/p_good.txt`).stdout).toBe(
      `# ${DL}/runs/p_bm25.txt\n${BM25}\n# ${DL}/runs/p_good.txt\n${GOOD}`,
    )
    expect(dl(`BM25=${DL}/runs/p_bm25.txt`, `${DL}/runs/p_good.txt`).stdout).toBe(
      `# BM25\n${BM25}\n# ${DL}/runs/p_good.txt\n${GOOD}`,
    )
    expect(
      dl(`${DL}/runs/p_bm25.txt`, `${DL}/runs/p_good.txt`, '--name', 'one', '--name', 'two').stdout,
    ).toBe(`# one\n${BM25}\n# two\n${GOOD}`)
    expect(
      dl(`${DL}/runs/p_bm25.txt`, `${DL}/runs/p_good.txt`, '--names-from', 'file').stdout,
    ).toBe(`# p_bm25.txt\n${BM25}\n# p_good.txt\n${GOOD}`)
  })

  it('labels reach JSON (results and topics) and markdown rows', () => {
    const j = JSON.parse(dl(`${DL}/runs/p_missing.txt`, '--names-from', 'tag', '-f', 'json').stdout)
    expect(j.topics[0].run).toBe('p_missing')
    expect(j.results.runs.map((r: { run: string }) => r.run)).toEqual(['p_missing'])
    const md = dl(`M=${DL}/runs/p_missing.txt`, '-f', 'markdown', '-q').stdout
    // The zero-filled topic 1047046 is a row of the run too.
    expect(md.split('\n').slice(2, 4)).toEqual([
      '| M | 1004158 | 0.5622 | 0.3700 | 1.0000 | 0.6667 | 0.6667 | 0.5000 |',
      '| M | 1047046 | 0.0000 | 0.0000 | 0.0000 | 0.0000 | 0.0000 | 0.0000 |',
    ])
  })

  it('--explain: the preset conventions, rounding, official tool and what was zero-filled, after the table', () => {
    const r = dl(`Missing=${DL}/runs/p_missing.txt`, '--explain')
    expect(r.code).toBe(0)
    const [table, explain] = r.stdout.split('\n\n')
    expect(table + '\n').toBe(
      trecEvalBlock(['0.3226', '0.6708', '0.4350', '0.6060', '0.6060', '0.5238']),
    )
    expect(explain).toBe('preset dl21-passage: TREC 2021 Deep Learning, passage ranking (official)')
    expect(r.stdout).toContain('  version: v9.0.8 (d95ca64e; prints 9.0.7 for -v)\n')
    expect(r.stdout).toContain('  missing queries: zero\n')
    expect(r.stdout).toContain(
      '  rounding of printed values: 4 decimals (C printf %.Nf: exact binary value, ties to even)\n',
    )
    expect(r.stdout).toContain(
      'run Missing (tag p_missing):\n  queries: 20 declared, 18 in run, 17 evaluated\n  missing from run: 3 (1047046, 4814, 901160) → scored 0 (zero-filled)\n  run queries without qrels (ignored): 1\n',
    )
    // Without --explain the table alone.
    expect(dl(`${DL}/runs/p_missing.txt`).stdout).toBe(table + '\n')
  })
})

describe('score --preset neuclir23-*: run labels and --explain', () => {
  const fas = (...args: string[]) =>
    cli(['score', '--preset', 'neuclir23-fas', '--qrels', `${NC}/qrels.final.gains.fas`, ...args])

  it('--names-from tag names both runs; --explain goes to stderr next to JSON, with the RBP tie rule and its counts', () => {
    const r = fas(
      `${NC}/runs/fas-good.txt`,
      `${NC}/runs/fas-weak.txt`,
      '--names-from',
      'tag',
      '-f',
      'json',
      '--explain',
    )
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.results.runs.map((x: { run: string }) => x.run)).toEqual(['fas-good', 'fas-weak'])
    expect(r.stderr).toContain('preset neuclir23-fas: ')
    expect(r.stderr).toContain('  cwl_eval: RBP(rel=1)\n')
    expect(r.stderr).toContain(
      'run fas-good (tag fas-good):\n  queries: 15 declared, 18 in run, 15 evaluated\n',
    )
    expect(r.stderr).toContain('  run queries without qrels (ignored): 3\n')
    expect(r.stderr).toContain(
      '  RBP(rel=1) (tie rule cwl_eval): duplicate docs removed: 0; docs below the depth cut: 0\n',
    )
    expect(r.stdout).not.toContain('tie rule cwl_eval):')
  })

  it('labels the ir_measures blocks and the per-query rows of markdown', () => {
    const two = fas(`G=${NC}/runs/fas-good.txt`, `W=${NC}/runs/fas-weak.txt`).stdout
    expect(two).toMatch(/^# G\nnDCG@20\t0\.\d{4}\n/)
    expect(two).toContain('\n\n# W\nnDCG@20\t')
    const md = fas(`${NC}/runs/fas-good.txt`, '--name', 'Good', '-f', 'markdown', '-q').stdout
    expect(md.split('\n')[2]).toBe('| Good | 203 | 0.2949 | 0.1660 | 0.4355 | 0.3448 | 0.7931 |')
  })
})

describe('score --preset skillret: run labels', () => {
  it('prints the label in the table, markdown, JSON and the --explain text', () => {
    const t = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      `${SR}/data`,
      `Good=${SR}/runs/good.json`,
      '--explain',
    ])
    expect(t.stdout.split('\n')[1]).toMatch(/^Good {2}64 {2}0\.38796 {2}0\.42142 /)
    expect(t.stdout).toContain('\nGood: 0 queries differ between skillret and skillret-fusion\n')
    const md = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      `${SR}/data`,
      `${SR}/runs/good.json`,
      '--name',
      'G',
      '-f',
      'markdown',
    ]).stdout
    expect(md.split('\n')[2]).toMatch(/^\| G \| 64 \| 0\.38796 \|/)
    const j = JSON.parse(
      cli([
        'score',
        '--preset',
        'skillret',
        '--data',
        `${SR}/data`,
        `${SR}/runs/good.json`,
        `${SR}/runs/mixed.json`,
        '--names-from',
        'file',
        '-f',
        'json',
      ]).stdout,
    )
    expect(j.runs.map((r: { run: string }) => r.run)).toEqual(['good.json', 'mixed.json'])
  })
})

describe('score --preset reteco-*: run labels and --explain', () => {
  it('labels the report heading and JSON; --names-from tag reads a run directory', () => {
    const t = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      `${RT}/data`,
      `${RT}/runs/1a_weak`,
      '--names-from',
      'tag',
    ])
    expect(t.stdout.split('\n')[0]).toBe('RETECO 1a: weak')
    const md = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      `${RT}/data`,
      `Weak run=${RT}/runs/1a_weak`,
      '-f',
      'markdown',
    ])
    expect(md.stdout.split('\n')[0]).toBe('### RETECO 1a: Weak run')
    const j = JSON.parse(
      cli([
        'score',
        '--preset',
        'reteco-1a',
        '--data',
        `${RT}/data`,
        `${RT}/runs/1a_weak`,
        `${RT}/runs/1a_random`,
        '--name',
        'w',
        '--name',
        'r',
        '-f',
        'json',
      ]).stdout,
    )
    expect(j.reports.map((r: { run: string }) => r.run)).toEqual(['w', 'r'])
    // By default the path as typed, as before.
    expect(
      cli([
        'score',
        '--preset',
        'reteco-1a',
        '--data',
        `${RT}/data`,
        `${RT}/runs/1a_weak`,
      ]).stdout.split('\n')[0],
    ).toBe(`RETECO 1a: ${RT}/runs/1a_weak`)
  })

  it('--explain: the convention set, conventions in force, and per domain what was removed, ignored or zero-filled', () => {
    const r = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      `${RT}/data`,
      `D=${RT}/runs/1a_dups_unknown`,
      '--explain',
    ])
    expect(r.code).toBe(0)
    const at = r.stdout.indexOf('\n\nrun D: RETECO 1a, convention set plan (')
    expect(at).toBeGreaterThan(0)
    const explain = r.stdout.slice(at + 2)
    expect(explain).toContain(
      '  headline: nDCG@10, query macro; printed with 4 decimals (--digits), JSON unrounded\n',
    )
    expect(explain).toContain(
      "    unknown doc ids: discarded (not in the domain's documents.jsonl) before the cut at 10\n",
    )
    expect(explain).toContain(
      '  bitcoin: 12 topics, 584 lines; missing from the run: 0; empty after cleaning: 1; duplicates removed: 5; unknown docs discarded: 17; run topics without qrels (ignored): 2 (10 lines)\n',
    )
    const j = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      `${RT}/data`,
      `${RT}/runs/1a_weak`,
      '--conventions',
      'scorer-py',
      '-f',
      'json',
      '--explain',
    ])
    expect(JSON.parse(j.stdout).reports[0].conventionSet).toBe('scorer-py')
    expect(j.stderr).toMatch(
      /^run test\/fixtures\/reteco\/runs\/1a_weak: RETECO 1a, convention set scorer-py \(the organizers' scorer\.py: /,
    )
    expect(j.stderr).toContain("the reference output is the tool's own")
  })

  it('refuses more --name than runs and two runs under one label (exit 2, one line)', () => {
    const r = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      `${RT}/data`,
      `${RT}/runs/1a_weak`,
      '--name',
      'a',
      '--name',
      'b',
    ])
    expect([r.code, r.stderr]).toEqual([
      2,
      'trecscore: --name given 2 times for 1 run(s); give one --name per run, in the order of the runs\n',
    ])
    const d = cli([
      'score',
      '--preset',
      'dl21-passage',
      '--qrels',
      `${DL}/qrels.pass.txt`,
      `x=${DL}/runs/p_bm25.txt`,
      `x=${DL}/runs/p_good.txt`,
    ])
    expect(d.code).toBe(2)
    expect(d.stderr).toContain('two runs are labelled "x"')
  })
})
