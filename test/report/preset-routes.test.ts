/**
 * The report and judge modules import no preset family: a family that reads its own data folder
 * (RETECO) comes in as a route. Without one its presets are refused; with one, the route gets
 * the checked request (baseline first, split defaulted) and its answer is used as is.
 */
import { describe, expect, it } from 'vitest'
import { type JudgeItemsRoute, resolveJudgeItems } from '../../src/entries/judge.js'
import {
  buildReportData,
  type DataPresetReportRequest,
  type DataPresetReportRoute,
} from '../../src/entries/presets.js'
import type { ReportData } from '../../src/entries/report.js'

describe('preset routes passed in', () => {
  it('report: no route, no data-folder preset; a route gets the checked request', async () => {
    await expect(
      buildReportData({ preset: 'fam-1', data: 'DIR', runs: ['a.run'] }),
    ).rejects.toMatchObject({
      issues: [
        { code: 'bad_argument', option: 'QRELS' },
        {
          code: 'bad_argument',
          option: '--data',
          expected: '--data only with a SkillRet preset (skillret, skillret-fusion)',
        },
        {
          code: 'bad_argument',
          option: '--preset',
          expected: 'a preset read from TREC qrels (see trecscore presets)',
        },
      ],
    })
    const seen: DataPresetReportRequest[] = []
    const stub = { title: 'stub' } as ReportData
    const route: DataPresetReportRoute = {
      family: 'FAM',
      presets: ['fam-1'],
      checkMeasures: (ms) =>
        ms
          .filter((m) => m !== 'ok')
          .map((m) => ({ code: 'bad_argument', option: '-m', found: m, expected: 'ok' })),
      build: async (req) => {
        seen.push(req)
        return stub
      },
    }
    expect(
      await buildReportData({
        preset: 'fam-1',
        data: 'DIR',
        runs: ['a.run', 'b.run'],
        baseline: 'b.run',
        routes: [route],
      }),
    ).toBe(stub)
    expect(seen).toEqual([
      { preset: 'fam-1', data: 'DIR', split: 'dev', runs: ['b.run', 'a.run'], baseline: 'b.run' },
    ])
    await expect(
      buildReportData({
        preset: 'fam-1',
        data: 'DIR',
        runs: ['a.run'],
        measures: ['bad'],
        routes: [route],
      }),
    ).rejects.toMatchObject({ issues: [{ option: '-m', found: 'bad' }] })
    await expect(
      buildReportData({ qrels: 'q', data: 'DIR', runs: ['a.run'], routes: [route] }),
    ).rejects.toMatchObject({
      issues: [
        {
          option: '--data',
          expected:
            '--data only with a FAM preset (fam-1) or a SkillRet preset (skillret, skillret-fusion)',
        },
      ],
    })
  })

  it('judge: a preset needs its route; the route builds the items', async () => {
    await expect(
      resolveJudgeItems({ preset: 'fam-2b', data: 'DIR', answers: 'ANS' }),
    ).rejects.toThrow(/fam-2b: not a preset judge items are built for/)
    const route: JudgeItemsRoute = {
      presets: ['fam-2b'],
      build: async (o) => ({
        items: [],
        source: `${o.preset} on ${o.data}`,
        notes: [String(o.retrieval)],
      }),
    }
    expect(
      await resolveJudgeItems({ preset: 'fam-2b', data: 'DIR', answers: 'ANS', routes: [route] }),
    ).toEqual({ items: [], source: 'fam-2b on DIR', notes: ['null'] })
    await expect(resolveJudgeItems({ routes: [route] })).rejects.toThrow(
      /give an items JSONL file, or --preset fam-2b --data DIR ANSWERS/,
    )
  })
})
