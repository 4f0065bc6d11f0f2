/**
 * Rendering of a convention sensitivity report ({@link SensitivityReport}): aligned text tables
 * (scores and deltas per convention, alternative, run and measure; then the ranking of the runs)
 * or the model itself as JSON. Pure: `(report) => string`.
 */
import type { SensitivityCell, SensitivityReport } from '../evaluate/sensitivity.js'
import { visibleText } from './escape.js'
import { formatFixed } from './printf.js'
import { renderTable, type Table } from './table.js'

/** The formats {@link renderSensitivity} writes. */
export const SENSITIVITY_FORMATS = ['table', 'json'] as const
/** A format {@link renderSensitivity} writes. */
export type SensitivityFormat = (typeof SENSITIVITY_FORMATS)[number]

/** Options of {@link renderSensitivity}. */
export interface SensitivityRenderOptions {
  readonly format: SensitivityFormat
  /** Decimals of the text tables. @default 4 */
  readonly digits?: number
}

function noteOf(c: SensitivityCell): string {
  if (c.note === 'chosen') return 'the measure’s own value'
  if (c.note === 'measure-fixes') return 'fixed by the measure'
  return c.failedQueries ? `${c.failedQueries} failed` : ''
}

/** One row per convention, alternative, run and measure: chosen score, score, delta, queries changed. */
export function sensitivityTable(report: SensitivityReport): Table {
  const rows: (string | number | null)[][] = []
  for (const k of report.conventions)
    for (const a of k.alternatives)
      a.cells.forEach((row, r) =>
        row.forEach((c, m) =>
          rows.push([
            k.label,
            a.value,
            report.runs[r]!,
            report.measures[m]!,
            c.chosen,
            c.score,
            c.delta,
            c.changedQueries,
            noteOf(c),
          ]),
        ),
      )
  return {
    columns: [
      { key: 'convention', header: 'convention', align: 'left' },
      { key: 'alternative', header: 'alternative', align: 'left' },
      { key: 'run', header: 'run', align: 'left' },
      { key: 'measure', header: 'measure', align: 'left' },
      { key: 'chosen', header: 'chosen', align: 'right' },
      { key: 'score', header: 'score', align: 'right' },
      { key: 'delta', header: 'delta', align: 'right' },
      { key: 'changedQueries', header: 'queries changed', align: 'right', digits: 0 },
      { key: 'note', header: 'note', align: 'left' },
    ],
    rows,
  }
}

/** One row per convention, alternative and measure: Kendall's tau between run orderings, and the pairs that swap. */
export function rankingTable(report: SensitivityReport, digits = 4): Table {
  const rows: (string | number | null)[][] = []
  for (const k of report.conventions)
    for (const a of k.alternatives)
      for (const g of a.rankings)
        rows.push([
          k.label,
          a.value,
          g.measure,
          g.tau === null ? 'n/a' : formatFixed(g.tau, digits),
          g.swaps.length
            ? g.swaps
                .map(([ahead, after]) => `${ahead} > ${after} becomes ${after} > ${ahead}`)
                .join('; ')
            : 'none',
        ])
  return {
    columns: [
      { key: 'convention', header: 'convention', align: 'left' },
      { key: 'alternative', header: 'alternative', align: 'left' },
      { key: 'measure', header: 'measure', align: 'left' },
      { key: 'tau', header: 'Kendall tau', align: 'right' },
      { key: 'swaps', header: 'pairs that swap', align: 'left' },
    ],
    rows,
  }
}

/** `t` with the leading `n` cells left blank where they repeat the row above (text tables). */
function blankRepeats(t: Table, n: number): Table {
  return {
    ...t,
    rows: t.rows.map((r, i) => {
      const prev = t.rows[i - 1]
      let same = prev !== undefined
      return r.map((c, k) => {
        if (k >= n) return c
        same = same && prev![k] === c
        return same ? '' : c
      })
    }),
  }
}

/** The lines above the tables: what was varied, the chosen values, what was left out. */
function header(report: SensitivityReport): string[] {
  return [
    `convention sensitivity: ${report.runs.length} run(s), ${report.measures.length} measure(s); each convention varied alone, the others as chosen`,
    ...report.conventions.map((k) => `  ${k.label}: chosen ${k.chosen}`),
    ...report.skipped.map((s) => `  not varied: ${s.label} (${s.reason})`),
    ...report.notes.map((n) => `  note: ${n}`),
  ]
}

/**
 * Render a sensitivity report: `table` (the chosen conventions, a scores table, and with several
 * runs a ranking table: Kendall's tau and the pairs that swap) or `json` (the model,
 * `trecscore.sensitivity/1`).
 */
export function renderSensitivity(
  report: SensitivityReport,
  options: SensitivityRenderOptions,
): string {
  if (options.format === 'json') return `${JSON.stringify(report, null, 2)}\n`
  const digits = options.digits ?? 4
  const out = [
    header(report).map(visibleText).join('\n'),
    '',
    renderTable(blankRepeats(sensitivityTable(report), 3), 'table', { digits }),
  ]
  if (report.runs.length > 1) {
    const changed = report.conventions.flatMap((k) =>
      k.alternatives.flatMap((a) =>
        a.rankings.filter((g) => g.swaps.length).map((g) => `${k.label} ${a.value} (${g.measure})`),
      ),
    )
    out.push(
      `ranking of the runs: ${changed.length ? `changes under ${changed.join(', ')}` : 'unchanged under every alternative'}`,
      '',
      renderTable(blankRepeats(rankingTable(report, digits), 2), 'table', { digits }),
    )
  }
  return out.join('\n')
}
