/**
 * SkillRet presets against test/fixtures/presets/skillret (copied from
 * shared/conformance/presets/skillret; see its README): the official evaluator's dict exactly
 * (Python round(v, 5) of the float64 sum in the run's key order), its unrounded means and
 * per-query values within 1e-12, the same function on the TREC copies, and the fusion convention.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSkillRetData, type SkillRetRunScore, scoreSkillRet } from '../../src/internal.js'
import { cli } from '../cli/helpers.js'

const DIR = join(import.meta.dirname, '..', 'fixtures', 'presets', 'skillret')
const DATA = join(DIR, 'data')
const TOL = 1e-12

type Dict = Record<string, number>
interface Expected {
  official: Dict
  official_unrounded: Dict
  official_num_queries: number
  official_query_order: string[]
  official_per_query: Record<string, Dict>
  official_from_trec_file: {
    run: string
    num_queries: number
    official: Dict
    official_unrounded: Dict
  }
  fusion: Dict
  fusion_num_queries: number
  fusion_per_query: Record<string, Dict>
}

const CASES = readdirSync(join(DIR, 'expected'))
  .filter((f) => f.endsWith('.json'))
  .map(
    (f) =>
      [
        f.replace(/\.json$/, ''),
        JSON.parse(readFileSync(join(DIR, 'expected', f), 'utf8')) as Expected,
      ] as const,
  )

function dict(r: SkillRetRunScore, values: readonly number[]): Dict {
  return Object.fromEntries(r.measures.map((m, i) => [m, values[i]!]))
}

function expectClose(got: Dict, want: Dict): void {
  expect(Object.keys(got)).toEqual(Object.keys(want))
  for (const [m, v] of Object.entries(want))
    expect(Math.abs(got[m]! - v), m).toBeLessThanOrEqual(TOL)
}

function expectPerQuery(r: SkillRetRunScore, want: Record<string, Dict>): void {
  expect([...r.perQuery.keys()].sort()).toEqual(Object.keys(want).sort())
  for (const [q, vals] of r.perQuery) expectClose(dict(r, vals), want[q]!)
}

describe('SkillRet presets: conformance fixtures', () => {
  it('has every run of the fixture README', () => {
    expect(CASES.map(([n]) => n).sort()).toEqual([
      'empty_rankings',
      'good',
      'missing_queries',
      'mixed',
      'perfect',
      'random',
      'ties',
    ])
  })

  for (const [name, exp] of CASES) {
    describe(name, () => {
      it('skillret (JSON run): the official dict exactly, unrounded and per query within 1e-12, n and summation order', async () => {
        const s = await scoreSkillRet('skillret', DATA, [join(DIR, 'runs', `${name}.json`)], {
          unknownQueries: 'ignore',
        })
        const r = s.runs[0]!
        expect(dict(r, r.rounded)).toEqual(exp.official)
        expectClose(dict(r, r.values), exp.official_unrounded)
        expect(r.numQueries).toBe(exp.official_num_queries)
        expect(r.queryOrder).toEqual(exp.official_query_order)
        expectPerQuery(r, exp.official_per_query)
      })

      it('skillret (TREC copy): the official dict exactly', async () => {
        const s = await scoreSkillRet('skillret', DATA, [join(DIR, 'runs', `${name}.trec`)])
        const r = s.runs[0]!
        expect(r.format).toBe('trec')
        expect(dict(r, r.rounded)).toEqual(exp.official_from_trec_file.official)
        expectClose(dict(r, r.values), exp.official_from_trec_file.official_unrounded)
        expect(r.numQueries).toBe(exp.official_from_trec_file.num_queries)
      })

      it('skillret-fusion: every qrels query, MRR@5/@10, full precision within 1e-12', async () => {
        const s = await scoreSkillRet(
          'skillret-fusion',
          DATA,
          [join(DIR, 'runs', `${name}.json`)],
          { unknownQueries: 'ignore' },
        )
        const r = s.runs[0]!
        expectClose(dict(r, r.values), exp.fusion)
        expect(r.numQueries).toBe(exp.fusion_num_queries)
        expectPerQuery(r, exp.fusion_per_query)
      })
    })
  }

  it('the ties run: Precision@15 sums to 0.07812500000000001 in run key order and rounds to 0.07813', async () => {
    const s = await scoreSkillRet('skillret', DATA, [join(DIR, 'runs', 'ties.json')])
    const r = s.runs[0]!
    const i = r.measures.indexOf('Precision@15')
    expect(r.values[i]).toBe(0.07812500000000001)
    expect(r.rounded[i]).toBe(0.07813)
    expect(r.rounded[r.measures.indexOf('Completeness@10')]).toBe(0.35938)
  })

  it('qrels rebuilt from skill_ids equal the qrels config and qrels.txt', async () => {
    const data = await readSkillRetData(DATA)
    expect(data.queryIds.length).toBe(64)
    const lines = readFileSync(join(DIR, 'qrels.txt'), 'utf8').trim().split('\n')
    let n = 0
    for (const l of lines) {
      const [q, , d, g] = l.split(/\s+/)
      expect(data.qrels.queries.get(q!)?.grades.get(d!)).toBe(Number(g))
      n++
    }
    expect([...data.qrels.queries.values()].reduce((a, q) => a + q.grades.size, 0)).toBe(n)
  })

  it('custom cutoffs (--k 5,10,20) give @20 measures', async () => {
    const s = await scoreSkillRet('skillret', DATA, [join(DIR, 'runs', 'perfect.json')], {
      cutoffs: [5, 10, 20],
    })
    const r = s.runs[0]!
    expect(r.measures).toContain('NDCG@20')
    expect(r.rounded[r.measures.indexOf('Completeness@20')]).toBe(1)
  })

  it('run queries not in the queries file: ignored and listed by default (the official numbers), an error naming file and ids with unknownQueries: error', async () => {
    const file = join(DIR, 'runs', 'missing_queries.json')
    const exp = CASES.find(([n]) => n === 'missing_queries')![1]
    const r = (await scoreSkillRet('skillret', DATA, [file])).runs[0]!
    expect(dict(r, r.rounded)).toEqual(exp.official)
    expect(r.numQueries).toBe(exp.official_num_queries)
    expect(r.unknownQueries).toEqual(['q-90001', 'q-90002'])
    await expect(
      scoreSkillRet('skillret', DATA, [file], { unknownQueries: 'error' }),
    ).rejects.toThrow(`${file}: 2 query id(s) not in the queries file`)
    // The TREC copy is held to the same rule.
    await expect(
      scoreSkillRet('skillret', DATA, [join(DIR, 'runs', 'missing_queries.trec')], {
        unknownQueries: 'error',
      }),
    ).rejects.toThrow('"q-90001", "q-90002"')
  })
})

describe('trecscore score --preset skillret|skillret-fusion (CLI)', () => {
  const run = (n: string): string => join(DIR, 'runs', n)
  it('prints the official 5-decimal values', () => {
    const r = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      DATA,
      run('mixed.json'),
      '--ignore-unknown-queries',
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/NDCG@5/)
    expect(r.stdout).toContain('0.21486')
    expect(r.stdout).toContain(' 60 ')
  })

  it('json: rounded and full values; --k adds cut-offs; fusion adds MRR', () => {
    const r = cli([
      'score',
      '--preset',
      'skillret-fusion',
      '--data',
      DATA,
      run('good.json'),
      '--k',
      '5,10,20',
      '--format',
      'json',
    ])
    expect(r.code).toBe(0)
    const body = JSON.parse(r.stdout) as { runs: { num_queries: number; values: Dict }[] }
    expect(body.runs[0]!.num_queries).toBe(64)
    expect(Object.keys(body.runs[0]!.values)).toContain('NDCG@20')
    expect(Object.keys(body.runs[0]!.values)).toContain('MRR@10')
  })

  it('--explain says how many queries differ and why', () => {
    const r = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      DATA,
      run('missing_queries.json'),
      '--ignore-unknown-queries',
      '--explain',
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('9 queries differ between skillret and skillret-fusion')
    expect(r.stdout).toContain('official n = 55')
    expect(r.stdout).toContain('run queries not in the qrels (ignored by both): 2')
  })

  it('unknown query ids: the official numbers and a note on stderr by default; --strict exits 2 with file and ids', () => {
    const exp = CASES.find(([n]) => n === 'missing_queries')![1]
    const r = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      DATA,
      run('missing_queries.json'),
      '--format',
      'json',
    ])
    expect(r.code).toBe(0)
    const body = JSON.parse(r.stdout) as {
      schema: string
      runs: { num_queries: number; rounded: Dict; unknown_queries: string[] }[]
    }
    expect(body.schema).toBe('trecscore.skillret-score/1')
    expect(body.runs[0]!.rounded).toEqual(exp.official)
    expect(body.runs[0]!.num_queries).toBe(exp.official_num_queries)
    expect(body.runs[0]!.unknown_queries).toEqual(['q-90001', 'q-90002'])
    expect(r.stderr).toBe(
      `trecscore: note: ${run('missing_queries.json')}: 2 run queries not in the queries file, ignored as the official evaluator does (--strict refuses them): q-90001, q-90002\n`,
    )
    // --ignore-unknown-queries is the default, kept as an alias: same stdout.
    expect(
      cli([
        'score',
        '--preset',
        'skillret',
        '--data',
        DATA,
        run('missing_queries.json'),
        '--format',
        'json',
        '--ignore-unknown-queries',
      ]).stdout,
    ).toBe(r.stdout)
    const strict = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      DATA,
      run('missing_queries.json'),
      '--strict',
    ])
    expect(strict.code).toBe(2)
    expect(strict.stderr).toContain('missing_queries.json: 2 query id(s) not in the queries file')
    expect(strict.stderr).toContain('"q-90001", "q-90002"')
    expect(
      cli([
        'score',
        '--preset',
        'skillret',
        '--data',
        DATA,
        run('missing_queries.json'),
        '--strict',
        '--ignore-unknown-queries',
      ]).code,
    ).toBe(2)
    expect(cli(['score', '--preset', 'dl21-passage', '--qrels', 'x', 'y', '--strict']).code).toBe(2)
  })

  it('--k and --explain are refused for other presets; --qrels for SkillRet', () => {
    expect(cli(['score', '--preset', 'dl21-passage', '--qrels', 'x', 'y', '--k', '5']).code).toBe(2)
    expect(
      cli(['score', '--preset', 'skillret', '--data', DATA, '--qrels', 'x', run('good.json')]).code,
    ).toBe(2)
  })
})
