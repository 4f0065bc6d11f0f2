/**
 * `score --preset … -f csv|tsv`: a preset's numbers as one {@link Table} (the one table model,
 * rendered by `report/table.ts`), full precision. Pure: results in, table out.
 *
 * - Presets run by `runPreset`: one row per run and aggregation (`aggregation` column only when
 *   the preset has more than one), one column per measure (the preset's printed names); with
 *   `perQuery`, the run's per-query rows first (`query` column), then its aggregate rows as
 *   query `all`, as `trec_eval -q` does.
 * - RETECO: one row per run with the headline and the diagnostics; with `perQuery`, one row per
 *   topic (`domain`, `topic`) before it.
 */
import type { Cell, Column, Table } from '../report/table.js'
import type { RetecoReport } from './reteco/report-model.js'
import type { PresetResult } from './run-preset.js'

/** The machine formats `score` adds beside table, markdown and json. */
export const SCORE_TABLE_FORMATS = ['csv', 'tsv'] as const
export type ScoreTableFormat = (typeof SCORE_TABLE_FORMATS)[number]

/** A preset result as a table (see the module comment). */
export function presetScoreTable(result: PresetResult, perQuery: boolean): Table {
  const several = result.aggregations.length > 1
  const columns: Column[] = [
    { key: 'run', header: 'run', align: 'left' },
    ...(perQuery ? [{ key: 'query', header: 'query', align: 'left' as const }] : []),
    ...(several ? [{ key: 'aggregation', header: 'aggregation', align: 'left' as const }] : []),
    ...result.labels.map((l) => ({ key: l, header: l })),
  ]
  const rows: Cell[][] = []
  for (const r of result.runs) {
    if (perQuery)
      for (const q of r.queries)
        rows.push([
          r.name,
          q.group === undefined ? q.queryId : `${q.group}/${q.queryId}`,
          ...(several ? [''] : []),
          ...q.values,
        ])
    for (const a of result.aggregations) {
      const values = r.aggregates[a.id] ?? []
      rows.push([
        r.name,
        ...(perQuery ? ['all'] : []),
        ...(several ? [a.id] : []),
        ...result.measures.map((_, i) => values[i]?.value ?? null),
      ])
    }
  }
  return { columns, rows }
}

/** RETECO reports as a table (see the module comment). */
export function retecoScoreTable(reports: readonly RetecoReport[], perQuery: boolean): Table {
  const keys: string[] = []
  const add = (k: string): void => {
    if (!keys.includes(k)) keys.push(k)
  }
  for (const r of reports) {
    add(r.headline.measure)
    for (const k of Object.keys(r.diagnostics)) add(k)
  }
  const topicKeys: string[] = []
  if (perQuery)
    for (const r of reports)
      for (const t of r.perTopic)
        for (const k of Object.keys(t.values)) if (!topicKeys.includes(k)) topicKeys.push(k)
  const measureKeys = perQuery ? [...keys, ...topicKeys.filter((k) => !keys.includes(k))] : keys
  const columns: Column[] = [
    { key: 'run', header: 'run', align: 'left' },
    ...(perQuery
      ? [
          { key: 'domain', header: 'domain', align: 'left' as const },
          { key: 'topic', header: 'topic', align: 'left' as const },
        ]
      : []),
    ...measureKeys.map((k) => ({ key: k, header: k })),
  ]
  const rows: Cell[][] = []
  for (const r of reports) {
    if (perQuery)
      for (const t of r.perTopic)
        rows.push([r.run, t.domain, t.topic, ...measureKeys.map((k) => t.values[k] ?? null)])
    const all: Record<string, number | null> = {
      ...r.diagnostics,
      [r.headline.measure]: r.headline.value,
    }
    rows.push([
      r.run,
      ...(perQuery ? ['all', 'all'] : []),
      ...measureKeys.map((k) => all[k] ?? null),
    ])
  }
  return { columns, rows }
}
