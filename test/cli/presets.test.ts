import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

describe('trecscore presets', () => {
  it('lists every preset, RETECO and NeuCLIR included', () => {
    const r = cli(['presets'])
    expect(r.code).toBe(0)
    for (const id of [
      'dl21-passage',
      'dl21-doc',
      'dl21-passage-pash',
      'neuclir23-zho',
      'neuclir23-mlir',
      'reteco-1a',
      'reteco-2c',
    ])
      expect(r.stdout).toContain(id)
    expect(r.stdout).not.toMatch(/Not implemented yet/)
  })
  it('show NAME prints the official evaluator with version and every convention', () => {
    const r = cli(['presets', 'show', 'dl21-passage'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('tool: trec_eval')
    expect(r.stdout).toContain('version: v9.0.8')
    expect(r.stdout).toContain('-l 2 QRELS RUN')
    for (const k of [
      'ordering',
      'score precision',
      'duplicate docs',
      'missing queries',
      'relevance level',
      'gains',
      'rounding of printed values',
    ])
      expect(r.stdout).toContain(`${k}: `)
    expect(cli(['presets', 'show', 'reteco-1b']).stdout).toContain(
      'trecscore score --preset reteco-1b --data DIR',
    )
  })
  it('an unknown preset: one clear line, exit 2, no stack trace', () => {
    const r = cli(['presets', 'show', 'dl22-passage'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      "trecscore: unknown preset 'dl22-passage'; known presets: dl21-passage, dl21-doc, dl21-passage-pash, skillret, skillret-fusion, neuclir23-zho, neuclir23-fas, neuclir23-rus, neuclir23-mlir, reteco-1a, reteco-1b, reteco-2a, reteco-2c\n",
    )
  })
})

describe('trecscore score --preset dl21-…', () => {
  const D = 'test/fixtures/presets/dl21'
  const expected = (run: string): { trec_eval: Record<string, { stdout: string }> } =>
    JSON.parse(readFileSync(`${D}/expected/${run}.json`, 'utf8'))
  const tmp = mkdtempSync(join(tmpdir(), 'trecscore-presets-'))

  it('prints exactly the official trec_eval output (summary and -q), no warnings', () => {
    const r = cli([
      'score',
      '--preset',
      'dl21-passage',
      '--qrels',
      `${D}/qrels.pass.txt`,
      `${D}/runs/p_ties.txt`,
    ])
    expect([r.code, r.stderr, r.stdout]).toEqual([
      0,
      '',
      expected('p_ties').trec_eval.summary_c!.stdout,
    ])
    const q = cli([
      'score',
      '--preset',
      'dl21-doc',
      '--qrels',
      `${D}/qrels.docs.txt`,
      `${D}/runs/d_missing.txt`,
      '-q',
    ])
    expect([q.code, q.stdout]).toEqual([0, expected('d_missing').trec_eval.per_query_c!.stdout])
  })
  it('zero-filled and ignored topics are announced on stderr (as the NeuCLIR presets); stdout stays the official output', () => {
    const r = cli([
      'score',
      '--preset',
      'dl21-doc',
      '--qrels',
      `${D}/qrels.docs.txt`,
      `${D}/runs/d_missing.txt`,
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(expected('d_missing').trec_eval.summary_c!.stdout)
    expect(r.stderr).toBe(
      `trecscore: note: ${D}/runs/d_missing.txt: 3 qrels topic(s) absent from the run, scored 0: 1044637, 401331, 8941\n` +
        `trecscore: note: ${D}/runs/d_missing.txt: 1 run topic(s) not in the qrels, ignored: 9999999\n`,
    )
    const j = JSON.parse(
      cli([
        'score',
        '--preset',
        'dl21-doc',
        '--qrels',
        `${D}/qrels.docs.txt`,
        `${D}/runs/d_missing.txt`,
        '-f',
        'json',
      ]).stdout,
    )
    expect(j.topics).toEqual([
      {
        run: `${D}/runs/d_missing.txt`,
        averaged: 20,
        qrels_topics_missing_from_run: ['1044637', '401331', '8941'],
        run_topics_not_in_qrels: ['9999999'],
      },
    ])
    expect(j.notes).toHaveLength(2)
  })
  it('json of every TREC-qrels preset starts with a schema field (trecscore.preset-score/1) and carries notes and topics', () => {
    for (const [preset, qrels, run] of [
      ['dl21-passage', 'qrels.pass.txt', 'p_good.txt'],
      ['dl21-passage-pash', 'qrels.pass.txt', 'p_good.txt'],
      ['dl21-doc', 'qrels.docs.txt', 'd_good.txt'],
    ] as const) {
      const j = JSON.parse(
        cli([
          'score',
          '--preset',
          preset,
          '--qrels',
          `${D}/${qrels}`,
          `${D}/runs/${run}`,
          '-f',
          'json',
        ]).stdout,
      )
      expect(Object.keys(j).slice(0, 2)).toEqual(['schema', 'preset'])
      expect(j.schema).toBe('trecscore.preset-score/1')
      expect(j.notes).toEqual([])
      expect(j.topics[0].qrels_topics_missing_from_run).toEqual([])
    }
  })
  it('json carries the preset, official evaluator and full-precision values; markdown is a leaderboard', () => {
    const j = JSON.parse(
      cli([
        'score',
        '--preset',
        'dl21-passage-pash',
        '--qrels',
        `${D}/qrels.pass.txt`,
        `${D}/runs/p_good.txt`,
        '--format',
        'json',
      ]).stdout,
    )
    expect(j.preset).toBe('dl21-passage-pash')
    expect(j.official.tool).toMatch(/ir_measures/)
    const m = cli([
      'score',
      '--preset',
      'dl21-doc',
      '--qrels',
      `${D}/qrels.docs.txt`,
      `${D}/runs/d_good.txt`,
      `${D}/runs/d_bm25.txt`,
      '-f',
      'markdown',
    ])
    expect(m.stdout).toMatch(/^\| run \| nDCG@10 \| AP \| RR \| R@100 \| R@1000 \| P@10 \|/)
    expect(m.stdout.split('\n').filter((l) => l.includes('d\\_')).length).toBe(2)
  })
  it('warns on task mix-up, "-no1" qrels and runs deeper than 100, and still scores', () => {
    const mix = cli([
      'score',
      '--preset',
      'dl21-passage',
      '--qrels',
      `${D}/qrels.pass.txt`,
      `${D}/runs/d_good.txt`,
    ])
    expect(mix.code).toBe(0)
    expect(mix.stderr).toMatch(
      /warning: .*d_good\.txt: 2000 doc id\(s\) start with 'msmarco_doc_'.*use dl21-doc/,
    )
    const back = cli([
      'score',
      '--preset',
      'dl21-doc',
      '--qrels',
      `${D}/qrels.docs.txt`,
      `${D}/runs/p_good.txt`,
    ])
    expect(back.stderr).toMatch(/start with 'msmarco_passage_'.*use dl21-passage/)
    const no1 = join(tmp, 'qrels-no1.txt')
    writeFileSync(
      no1,
      readFileSync(`${D}/qrels.pass.txt`, 'utf8')
        .split('\n')
        .filter((l) => l && !l.endsWith(' 1'))
        .join('\n') + '\n',
    )
    const deep = join(tmp, 'deep.txt')
    writeFileSync(
      deep,
      readFileSync(`${D}/runs/p_good.txt`, 'utf8') + '3686 Q0 msmarco_passage_00_1 101 -5 t\n',
    )
    const w = cli(['score', '--preset', 'dl21-passage', '--qrels', no1, deep])
    expect(w.code).toBe(0)
    expect(w.stderr).toMatch(/qrels-no1\.txt: the qrels look like the "-no1" variant/)
    expect(w.stderr).toMatch(
      /deep\.txt: 1 query retrieves more than 100 documents \(deepest: 3686 with 101\)/,
    )
  })
  it('bad input: missing --qrels, a malformed run, duplicate docs: exit 2, clear message, no stack trace', () => {
    const noQrels = cli(['score', '--preset', 'dl21-passage', `${D}/runs/p_good.txt`])
    expect([noQrels.code, noQrels.stderr]).toEqual([
      2,
      expect.stringMatching(/preset 'dl21-passage' needs --qrels <file>/),
    ])
    const bad = join(tmp, 'bad.txt')
    writeFileSync(bad, '3686 Q0 x 1\n')
    const b = cli(['score', '--preset', 'dl21-doc', '--qrels', `${D}/qrels.docs.txt`, bad])
    expect([b.code, b.stderr]).toEqual([2, expect.stringMatching(/bad\.txt:1: expected 6 fields/)])
    const dup = join(tmp, 'dup.txt')
    const lines = readFileSync(`${D}/runs/p_good.txt`, 'utf8')
    writeFileSync(dup, lines + lines.split('\n')[0] + '\n')
    const d = cli(['score', '--preset', 'dl21-passage', '--qrels', `${D}/qrels.pass.txt`, dup])
    expect([d.code, d.stdout, d.stderr]).toEqual([
      2,
      '',
      expect.stringMatching(
        /query "3686": document "msmarco_passage_21_74202142" retrieved more than once/,
      ),
    ])
    const data = cli([
      'score',
      '--preset',
      'dl21-doc',
      '--qrels',
      `${D}/qrels.docs.txt`,
      '--data',
      D,
      '--split',
      'test',
      `${D}/runs/d_good.txt`,
    ])
    expect([data.code, data.stdout, data.stderr]).toEqual([
      2,
      '',
      expect.stringMatching(
        /^trecscore score: --data, --split apply to the RETECO presets only, not to 'dl21-doc'/,
      ),
    ])
    for (const r of [noQrels, b, d]) expect(r.stderr).not.toMatch(/at .*\.js:\d+/)
    const reteco = cli(['score', '--preset', 'reteco-1a', `${D}/runs/p_good.txt`])
    expect([reteco.code, reteco.stderr]).toEqual([
      2,
      expect.stringMatching(/^trecscore score: required option '--data <dir>' not specified/),
    ])
  })
})
