import { describe, expect, it } from 'vitest'
import { compareTable, scoreRetecoRuns, tableFromRetecoReports } from '../../src/internal.js'

const F = 'test/fixtures/reteco'

describe('compare on RETECO (plan per-topic values; copied synthetic fixtures)', () => {
  it("2a: turn topics with domain and turn-depth groups; means equal each run's headline (turn macro); zero-filled turns counted", async () => {
    const runs = ['2a_random', '2a_missing_turns_unknown', '2a_perfect'].map(
      (r) => `${F}/runs/${r}`,
    )
    const reports = await scoreRetecoRuns({ preset: 'reteco-2a', data: `${F}/data`, runs })
    const table = tableFromRetecoReports(reports, ['nDCG@10', 'MRR'], 'reteco')
    expect(table.groupings).toEqual(['domain', 'turn-depth'])
    const r = compareTable(table, { by: ['domain', 'turn-depth'], baseline: '2a_random' })
    reports.forEach((rep, i) => expect(r.overall[0]!.means[i]).toBeCloseTo(rep.headline.value!, 12))
    const missing = reports[1]!.counts.reduce((s, c) => s + c.missing.length, 0)
    expect(missing).toBeGreaterThan(0)
    expect(r.runs[1]!.zeroFilled).toBe(missing)
    expect(r.breakdowns.map((b) => b.by)).toEqual(['domain', 'turn-depth'])
    expect(r.breakdowns[0]!.groups.map((g) => g.group)).toEqual([
      'biology',
      'drones',
      'earth_science',
    ])
    expect(
      r.breakdowns[1]!.groups.map((g) => g.group).every((g) => /^T([1-4]|5\+|\?)$/.test(g)),
    ).toBe(true)
    expect(r.breakdowns[1]!.groups.reduce((s, g) => s + g.size, 0)).toBe(r.queries.length)
    // the perfect run (c) beats the random baseline (a) overall and in every tested domain
    expect(r.overall[0]!.beats[2]).toEqual([0])
    for (const g of r.breakdowns[0]!.groups)
      if (g.tested) expect(g.measures[0]!.beats[2]).toEqual([0])
  })

  it('1b: step topics grouped by step number and domain', async () => {
    const reports = await scoreRetecoRuns({
      preset: 'reteco-1b',
      data: `${F}/data`,
      runs: [`${F}/runs/1b_perfect`, `${F}/runs/1b_random_ties`],
    })
    const table = tableFromRetecoReports(reports, ['nDCG@10'], 'reteco')
    expect(table.groupings).toEqual(['domain', 'step'])
    expect(table.queries.every((q) => /^step\d+$/.test(q.groups.step!))).toBe(true)
    const r = compareTable(table, { by: ['step'] })
    expect(r.breakdowns[0]!.groups[0]!.group).toBe('step1')
  })

  it('refuses a measure the plan does not compute, and a malformed run', async () => {
    const reports = await scoreRetecoRuns({
      preset: 'reteco-1a',
      data: `${F}/data`,
      runs: [`${F}/runs/1a_perfect`, `${F}/runs/bad_score`],
    })
    expect(() => tableFromRetecoReports(reports.slice(0, 1), ['AP'], 'x')).toThrow(
      /-m AP: not a per-topic measure of RETECO 1a; available: nDCG@10/,
    )
    expect(() => tableFromRetecoReports(reports, ['nDCG@10'], 'x')).toThrow(/cannot be scored/)
  })
})
