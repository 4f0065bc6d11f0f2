/**
 * `score --preset … -f csv|tsv`: every preset family through the one table model, full precision,
 * equal to the reference tools' unrounded numbers; `--explain` goes to stderr beside them, and for
 * SkillRet it states the preset's conventions as well as why skillret and skillret-fusion differ.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const DL = 'test/fixtures/presets/dl21'
const SR = 'test/fixtures/presets/skillret'
const RT = 'test/fixtures/reteco'
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'))

const parseCsv = (text: string, sep: string) =>
  text
    .trimEnd()
    .split(/\r?\n/)
    .map((l) => l.split(sep))

describe('score --preset -f csv|tsv', () => {
  it('DL21: one row per run, full precision, equal to trec_eval 9.0.8 (the fixture), tsv as csv', () => {
    const want = json(`${DL}/expected/p_bm25.json`).aggregate as Record<string, number>
    for (const [format, sep] of [
      ['csv', ','],
      ['tsv', '\t'],
    ] as const) {
      const r = cli([
        'score',
        '--preset',
        'dl21-passage',
        '--qrels',
        `${DL}/qrels.pass.txt`,
        `BM25=${DL}/runs/p_bm25.txt`,
        '-f',
        format,
      ])
      expect(r.code, r.stderr).toBe(0)
      const [head, row, ...rest] = parseCsv(r.stdout, sep)
      expect(head).toEqual(['run', 'nDCG@10', 'AP', 'RR', 'R@100', 'R@1000', 'P@10'])
      expect(rest).toEqual([])
      expect(row![0]).toBe('BM25')
      expect(row!.slice(1).map(Number)).toEqual([
        want['ndcg_cut_10'],
        want['map'],
        want['recip_rank'],
        want['recall_100'],
        want['recall_1000'],
        want['P_10'],
      ])
    }
  })

  it('DL21 with -q: per-query rows, then the run as query "all"', () => {
    const fx = json(`${DL}/expected/p_bm25.json`)
    const rows = parseCsv(
      cli([
        'score',
        '--preset',
        'dl21-passage',
        '--qrels',
        `${DL}/qrels.pass.txt`,
        `B=${DL}/runs/p_bm25.txt`,
        '-f',
        'csv',
        '-q',
      ]).stdout,
      ',',
    )
    expect(rows[0]).toEqual(['run', 'query', 'nDCG@10', 'AP', 'RR', 'R@100', 'R@1000', 'P@10'])
    const per = fx.per_query as Record<string, Record<string, number>>
    expect(rows.length).toBe(1 + Object.keys(per).length + 1)
    const q3686 = rows.find((r) => r[1] === '3686')!
    expect(Number(q3686[2])).toBe(per['3686']!['ndcg_cut_10'])
    expect(rows.at(-1)!.slice(0, 2)).toEqual(['B', 'all'])
    expect(Number(rows.at(-1)![2])).toBe(fx.aggregate.ndcg_cut_10)
  })

  it('SkillRet: the unrounded official values; --explain on stderr with the conventions and the skillret/fusion difference', () => {
    const want = json(`${SR}/expected/missing_queries.json`).official_unrounded as Record<
      string,
      number
    >
    const r = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      `${SR}/data`,
      `M=${SR}/runs/missing_queries.json`,
      '-f',
      'csv',
      '--explain',
    ])
    expect(r.code, r.stderr).toBe(0)
    const [head, row] = parseCsv(r.stdout, ',')
    expect(head!.slice(1)).toEqual(Object.keys(want))
    expect(row!.slice(1).map(Number)).toEqual(Object.values(want))
    expect(r.stdout).not.toContain('skillret-fusion')
    expect(r.stderr).toContain('preset skillret: SkillRet skill retrieval')
    expect(r.stderr).toContain(
      '\nconventions:\n  ordering: score-docid-desc\n  score precision: float32\n',
    )
    expect(r.stderr).toMatch(
      /\nM: \d+ quer(y differs|ies differ) between skillret and skillret-fusion/,
    )
    // JSON carries no explanation field any more: the text is on stderr.
    const j = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      `${SR}/data`,
      `${SR}/runs/good.json`,
      '-f',
      'json',
      '--explain',
    ])
    expect(JSON.parse(j.stdout).explain).toBeUndefined()
    expect(j.stderr).toContain('0 queries differ between skillret and skillret-fusion')
  })

  it('RETECO: the headline and diagnostics per run, as the JSON report has them', () => {
    const args = ['score', '--preset', 'reteco-1a', '--data', `${RT}/data`, `W=${RT}/runs/1a_weak`]
    const rep = JSON.parse(cli([...args, '-f', 'json']).stdout).reports[0]
    const [head, row] = parseCsv(cli([...args, '-f', 'csv']).stdout, ',')
    expect(head![0]).toBe('run')
    expect(head![1]).toBe(rep.headline.measure)
    expect(row![0]).toBe('W')
    expect(Number(row![1])).toBe(rep.headline.value)
    for (const [k, v] of Object.entries(rep.diagnostics as Record<string, number | null>)) {
      const cell = row![head!.indexOf(k)]
      expect(cell, k).toBe(v === null ? '' : String(v))
    }
  })
})
