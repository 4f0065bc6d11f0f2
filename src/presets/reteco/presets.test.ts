import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describePreset } from '../describe.js'
import { findPreset } from '../registry.js'
import { runPreset } from '../run-preset.js'
import { PLAN_METRICS } from './aggregate.js'
import { loadRetecoData } from './data.js'
import { scorePlan } from './plan.js'
import { RETECO_PRESET_VALUES, RETECO_PRESETS } from './presets.js'
import { readRetecoRun } from './runs.js'

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'reteco')
const DATA = join(FIXTURES, 'data')
const run = (name: string): string => join(FIXTURES, 'runs', name)
const planRef = (name: string): { scores: Record<string, Record<string, number | null>> } =>
  JSON.parse(readFileSync(join(FIXTURES, 'expected', name, 'plan_ref.json'), 'utf8'))

describe('the RETECO presets are definePreset values run by runPreset', () => {
  it('every sub-track is registered, reads a RETECO data folder and aggregates as table data', () => {
    expect([...RETECO_PRESET_VALUES.keys()]).toEqual([...RETECO_PRESETS])
    for (const id of RETECO_PRESETS) {
      const p = findPreset(id)!
      expect(p.input).toEqual({ qrels: 'reteco-data', runs: 'reteco-run' })
      expect(p.conventions.queryKey).toBe('group-qid')
      expect(p.aggregations!.every((a) => a.kind === 'table')).toBe(true)
    }
    // The report columns (PLAN_METRICS) first, then 1a's coverage pair and the unlabelled count.
    expect(findPreset('reteco-1a')!.labels).toEqual([
      ...PLAN_METRICS,
      'TC@10',
      'nDCG|FC@10',
      'unlabelled',
    ])
    expect(findPreset('reteco-2a')!.measures.slice(0, 8)).toEqual(
      ['nDCG', 'AP', 'R', 'P', 'RR', 'TP', 'TR', 'TP_TEMPO'].map((m) =>
        m === 'RR' ? m : `${m}@10`,
      ),
    )
  })

  it("reteco-1a: runPreset's query macro and domain macro are plan_ref.json's, to the bit", async () => {
    const r = await runPreset('reteco-1a', { data: DATA, runs: [run('1a_random')] })
    const ref = planRef('1a_random').scores
    const q = r.runs[0]!.aggregates['query-macro']!
    expect(q.slice(0, 5).map((a) => a.value)).toEqual(
      ['nDCG@10', 'MAP@10', 'Recall@10', 'P@10', 'MRR'].map((m) => ref['query_macro']![m]),
    )
    expect(q[8]!.value).toBe(ref['query_macro']!['TC@10'])
    expect([q[8]!.queries, q[9]!.value]).toEqual([32, null])
    expect(r.runs[0]!.aggregates['domain-macro']![0]!.value).toBe(ref['domain_macro']!['nDCG@10'])
    // Per-query rows carry their domain; 35 queries over bitcoin, history and law.
    const groups = r.runs[0]!.queries.map((x) => x.group)
    expect([groups.length, [...new Set(groups)]]).toEqual([35, ['bitcoin', 'history', 'law']])
    expect(r.runs[0]!.tables!['per-domain']!.map((x) => x.split['group'])).toEqual([
      'bitcoin',
      'history',
      'law',
    ])
  })

  for (const [id, name, agg] of [
    ['reteco-1b', '1b_missing_steps_dups', 'query-macro'],
    ['reteco-2a', '2a_missing_turns_unknown', 'turn-macro'],
  ] as const) {
    it(`${id}: runPreset gives scorePlan's headline (${name})`, async () => {
      const subtrack = id === 'reteco-1b' ? '1b' : '2a'
      const data = await loadRetecoData(DATA, {
        split: 'dev',
        tracks: [subtrack === '1b' ? 'track1_tempo' : 'track2_recor'],
      })
      const domains = subtrack === '1b' ? data.track1 : data.track2
      const plan = await scorePlan({
        data,
        subtrack,
        run: await readRetecoRun(run(name), { domains, subtrack }),
      })
      const r = await runPreset(id, { data: DATA, runs: [run(name)] })
      expect(r.runs[0]!.aggregates[agg]![0]!.value).toBe(plan.scores!.headline)
      expect(r.runs[0]!.counts.duplicatesRemoved).toBe(
        plan.counts.reduce((n, c) => n + c.duplicateRows, 0),
      )
    })
  }

  it('describePreset shows its data folder, its convention sets and every plan convention', () => {
    const show = describePreset(findPreset('reteco-2a')!)
    expect(show).toContain('input: qrels reteco-data (--data DIR), runs reteco-run\n')
    expect(show).toContain('  query key: group-qid\n')
    expect(show).toContain('  duplicate docs: keep-first-ranked\n')
    expect(show).toContain(
      'run: trecscore score --preset reteco-2a --data DIR RUN... [--split dev] [--labels FILE] [--conventions plan|official-baseline|scorer-py]',
    )
  })

  it('refuses a malformed run and inputs of other presets (exit 2, one line)', async () => {
    await expect(runPreset('reteco-1a', { data: DATA, runs: [run('bad_score')] })).rejects.toThrow(
      /the run cannot be scored: .*:\d+/,
    )
    await expect(
      runPreset('reteco-1a', { data: DATA, qrels: 'x.qrels', runs: [run('1a_random')] }),
    ).rejects.toThrow("preset 'reteco-1a' reads a RETECO data folder: qrels does not apply")
  })
})
