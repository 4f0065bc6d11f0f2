/**
 * A board as CSV (RFC 4180): built from the same {@link Board} the pages show, so a hidden
 * phase exports no rows until it is released. Cells are quoted when needed, and a text cell
 * starting with = + - @ (a spreadsheet formula) is prefixed with ' so it stays text.
 */
import type { Board } from '../board.js'

function cell(v: string | number | boolean | null): string {
  if (v === null) return ''
  if (typeof v !== 'string') return String(v)
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The board's rows: rank, team, baseline, run, submitted, then one column per measure (full precision). */
export function boardCsv(b: Board): string {
  const head = ['rank', 'team', 'baseline', 'run', 'submitted', ...b.columns]
  const rows = b.entries.map((e) => [e.rank, e.teamName, e.baseline, e.runName, e.createdAt, ...b.columns.map((c) => e.columns[c] ?? null)])
  return [head, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n'
}
