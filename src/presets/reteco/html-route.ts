/**
 * RETECO route of `trecscore report`: the plan convention set's reports (one per run, from
 * `scoreRetecoRuns`) as HTML report data, with their comparison when there are several runs.
 * Passed to `buildReportData` as a {@link DataPresetReportRoute} (the report module imports no
 * preset family).
 */

import { compareTable, runLetter as letter } from '../../compare/compare.js'
import type { InputIssue } from '../../errors/issues.js'
import { runInputName, runInputPath } from '../../io/run-labels.js'
import {
  chooseBaseline,
  type GroupRow,
  type ReportBuildOptions,
  type ReportData,
  significanceOf,
} from '../../report/html/model.js'
import { type DataPresetReportRoute, tryCompare } from '../report-file.js'
import { PLAN_METRICS } from './aggregate.js'
import { tableFromRetecoReports } from './compare-route.js'
import type { RetecoReport } from './report-model.js'
import { RETECO_PRESETS, type RetecoPreset, scoreRetecoRuns } from './score-runs.js'

function tableRows(report: RetecoReport, key: string): GroupRow[] {
  const t = report.tables.find((x) => x.key === key)
  if (!t) return []
  return t.rows.map((row) => {
    const n = row.values['n']
    return {
      run: report.run,
      group: row.label,
      values: Object.fromEntries(Object.entries(row.values).filter(([k]) => k !== 'n')),
      n: typeof n === 'number' ? n : null,
    }
  })
}

/**
 * Report data from RETECO preset reports (`score --preset reteco-…`): the headline aggregation
 * row as the leaderboard, per-topic values, per-domain and (2a/2c) turn-depth tables.
 */
export function reportFromReteco(
  reports: readonly RetecoReport[],
  measures: readonly string[],
  source: string,
  options: ReportBuildOptions = {},
): ReportData {
  const names = reports.map((r) => r.run)
  const { sig, beats } = significanceOf(options.comparison, names, measures)
  const first = reports[0]
  const conversational = first?.subtrack === '2a' || first?.subtrack === '2c'
  const headlineRow = (r: RetecoReport): Readonly<Record<string, number | null>> =>
    r.tables.find((t) => t.key === 'aggregations')?.rows[0]?.values ?? {}
  const sum = (r: RetecoReport, pick: (c: RetecoReport['counts'][number]) => number): number =>
    r.counts.reduce((a, c) => a + pick(c), 0)
  return {
    schema: 'trecscore.report/1',
    title: options.title ?? `trecscore report: RETECO ${first?.subtrack ?? ''}`.trim(),
    source,
    measures,
    primary:
      first?.headline.measure && measures.includes(first.headline.measure)
        ? first.headline.measure
        : (measures[0] ?? ''),
    runs: reports.map((r, i) => ({ name: r.run, tag: '', letter: letter(i) })),
    leaderboard: reports.map((r, i) => ({
      run: i,
      values: measures.map((m) => (r.errors.length ? null : (headlineRow(r)[m] ?? null))),
      beats: beats[i]!,
    })),
    conventions: first
      ? first.conventions.some((c) => c[0] === 'headline')
        ? first.conventions
        : [
            ...first.conventions,
            ['headline', `${first.headline.measure}, ${first.headline.aggregation}`],
          ]
      : [],
    counts: reports.map((r) => ({
      run: r.run,
      items: [
        ['topics in the run', sum(r, (c) => c.topics)],
        ['qrels topics missing from the run (see conventions)', sum(r, (c) => c.missing.length)],
        ['topics empty after cleaning', sum(r, (c) => c.emptyAfterCleaning.length)],
        ['duplicate docs removed', sum(r, (c) => c.duplicatesRemoved)],
        ['unknown docs discarded', sum(r, (c) => c.unknownDocsDiscarded)],
        ['unknown topics (lines ignored)', sum(r, (c) => c.unknownTopicLines)],
        ['rank column disagreements', sum(r, (c) => c.rankDisagreements)],
        ['errors (run not scored)', r.errors.length],
      ],
    })),
    perQuery: reports.flatMap((r) =>
      r.perTopic.map((t) => ({
        run: r.run,
        query: t.topic,
        group: t.domain,
        depth: t.info['bucket'] ?? null,
        values: Object.fromEntries(measures.map((m) => [m, t.values[m] ?? null])),
      })),
    ),
    domains: reports.flatMap((r) => tableRows(r, 'per_domain')),
    turnDepth: conversational ? reports.flatMap((r) => tableRows(r, 'turn_depth')) : null,
    baseline: chooseBaseline(names, options.baseline),
    significance: sig,
    notes: [
      ...reports.flatMap((r) => [
        ...r.warnings.map((w) => `${r.run}: ${w}`),
        ...r.errors.map((e) => `${r.run}: ${e}`),
      ]),
      ...(options.notes ?? []),
    ],
  }
}

/** `trecscore report --preset reteco-… --data DIR`: scored with the plan conventions; measures are plan metrics (default all). */
export const retecoReportRoute: DataPresetReportRoute = {
  family: 'RETECO',
  presets: RETECO_PRESETS,
  checkMeasures(measures) {
    const issues: InputIssue[] = []
    for (const m of measures)
      if (!(PLAN_METRICS as readonly string[]).includes(m))
        issues.push({
          code: 'bad_argument',
          option: '-m',
          found: m,
          expected: `a RETECO plan metric (${PLAN_METRICS.join(', ')})`,
        })
    return issues
  },
  async build(req) {
    const measures = req.measures ?? [...PLAN_METRICS]
    const scored = await scoreRetecoRuns({
      preset: req.preset as RetecoPreset,
      data: req.data,
      split: req.split,
      runs: req.runs.map(runInputPath),
      conventions: 'plan',
    })
    const reports = scored.map((r, i) => ({ ...r, run: runInputName(req.runs[i]!) }))
    const source = `preset ${req.preset} (plan conventions) on ${req.data}, split ${req.split}`
    const { comparison, notes } =
      reports.length > 1
        ? tryCompare(() =>
            compareTable(tableFromRetecoReports(reports, measures, source), {
              baseline: req.baseline ?? null,
            }),
          )
        : { comparison: null, notes: [] }
    return reportFromReteco(reports, measures, source, {
      comparison,
      notes,
      ...(req.baseline !== undefined ? { baseline: req.baseline } : {}),
      ...(req.title !== undefined ? { title: req.title } : {}),
    })
  },
}
