/**
 * The registry entries of the two compatibility sets, on the conformance fixtures loaded with
 * the RETECO loaders: headline, printed output, errors and the KeyError case; and a single-file
 * run gives the same result as the per-domain directory.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadRetecoData } from '../data.js'
import { readRetecoRun } from '../runs.js'
import type { RetecoSubtrack } from '../types.js'
import { officialBaselineConventionSet, scorerPyConventionSet } from './compat-sets.js'

const ROOT = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'reteco')

async function request(name: string, subtrack: RetecoSubtrack, runPath = join(ROOT, 'runs', name)) {
  const track = subtrack === '2a' ? 'track2_recor' : 'track1_tempo'
  const index = JSON.parse(readFileSync(join(ROOT, 'runs', 'index.json'), 'utf8')) as {
    runs: { name: string; domains: string[] }[]
  }
  const domains = index.runs.find((r) => r.name === name)!.domains
  const data = await loadRetecoData(join(ROOT, 'data'), { split: 'dev', tracks: [track], domains })
  const scored = track === 'track1_tempo' ? data.track1 : data.track2
  const run = await readRetecoRun(runPath, { domains: scored, subtrack })
  return { data, subtrack, run, labels: null }
}

function expected(name: string, file: string): Record<string, any> {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  return JSON.parse(readFileSync(join(ROOT, 'expected', name, file), 'utf8'))
}

describe('official-baseline convention set', () => {
  it.each([
    ['1a_random', '1a'],
    ['1b_missing_steps_dups', '1b'],
    ['2a_missing_turns_unknown', '2a'],
  ] as const)(
    '%s: headline is the official 5-decimal macro; printed summary line',
    async (name, sub) => {
      const r = await officialBaselineConventionSet.score(await request(name, sub))
      const e = expected(name, 'pytrec_official.json')
      expect(r.conventionSet).toBe('official-baseline')
      expect(r.headline.value).toBe(e['official_macro']['NDCG@10'])
      expect(r.printed).toContain(e['official_main_aggregation']['stdout_tail'][1])
      expect(r.errors).toEqual([])
    },
  )
  it('1a_domain_empty: no headline, KeyError reported, macro over non-empty domains given', async () => {
    const r = await officialBaselineConventionSet.score(await request('1a_domain_empty', '1a'))
    expect(r.headline.value).toBeNull()
    expect(r.warnings.join('\n')).toContain("KeyError: 'NDCG@1'")
    const row = r.tables[0]!.rows.find((x) => x.label === 'macro over non-empty domains')!
    expect(row.values['nDCG@10']).toBe(
      expected('1a_domain_empty', 'pytrec_official.json')['macro_over_nonempty_domains']['NDCG@10'],
    )
  })
  it('bad_5cols: the run cannot be read into the dict: an error', async () => {
    const r = await officialBaselineConventionSet.score(await request('bad_5cols', '1a'))
    expect(r.headline.value).toBeNull()
    expect(r.errors).toEqual([
      'bitcoin: the run cannot be read into the dataset-card dict: ValueError: not enough values to unpack (expected 6, got 5)',
    ])
  })
})

describe('scorer-py convention set', () => {
  it('Track 1: headline and printed output are the pooled scorer.py call', async () => {
    const r = await scorerPyConventionSet.score(await request('1a_dups_unknown', '1a'))
    const e = expected('1a_dups_unknown', 'scorer_py.json')['pooled_all_domains']
    expect(r.headline.value).toBe(e['json']['result']['nDCG@10'])
    expect(r.printed).toBe(e['text']['stdout'])
    expect(r.perTopic.length).toBe(35)
  })
  it('Track 2: per-domain printed output; headline the mean over scored turns', async () => {
    const r = await scorerPyConventionSet.score(await request('2a_missing_turns_unknown', '2a'))
    const e = expected('2a_missing_turns_unknown', 'scorer_py.json')['per_domain']
    for (const d of ['biology', 'drones', 'earth_science'])
      expect(r.printed).toContain(e[d]['text']['stdout'])
    const topics = ['biology', 'drones', 'earth_science'].flatMap((d) =>
      Object.values(e[d]['per_topic'] as Record<string, { nDCG: number }>).map((t) => t.nDCG),
    )
    expect(r.headline.value).toBeCloseTo(topics.reduce((s, x) => s + x, 0) / topics.length, 12)
  })
  it('bad_rank: scorer.py crashes: an error, no headline', async () => {
    const r = await scorerPyConventionSet.score(await request('bad_rank', '1a'))
    expect(r.headline.value).toBeNull()
    expect(r.errors).toEqual([
      "bitcoin: scorer.py crashes: ValueError: invalid literal for int() with base 10: '3.0'",
    ])
  })
  it('a single file for all Track 1 domains gives the per-domain result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reteco-compat-'))
    const single = join(dir, 'run.trec')
    writeFileSync(
      single,
      Buffer.concat(
        ['bitcoin', 'history', 'law'].map((d) =>
          readFileSync(join(ROOT, 'runs', '1a_ties_rank', `${d}.trec`)),
        ),
      ),
    )
    const perDomain = await request('1a_ties_rank', '1a')
    const oneFile = await request('1a_ties_rank', '1a', single)
    for (const set of [scorerPyConventionSet, officialBaselineConventionSet]) {
      const a = await set.score(perDomain)
      const b = await set.score(oneFile)
      expect(b.headline).toEqual(a.headline)
      expect(b.printed).toBe(a.printed)
    }
  })
})
