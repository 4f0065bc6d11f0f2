/**
 * A board as CSV, Markdown and LaTeX, each built from the same {@link Board} the pages and the
 * JSON show: a hidden phase exports the header only until it is released, and anonymous teams
 * appear by their alias, without run name (the CSV export is where other platforms leaked).
 *
 * - CSV (RFC 4180), full precision: cells are quoted when needed, and a text cell starting
 *   with = + - @ (a spreadsheet formula) is prefixed with ' so it stays text.
 * - Markdown (a GFM table), 4 decimals as on the page: every ASCII punctuation character of a
 *   team or run name (and of the header) is backslash-escaped (CommonMark renders it literally, so no markup, link or raw
 *   HTML can come from a name), line breaks become spaces.
 * - LaTeX (a `tabular`, no package needed), 4 decimals: the ten special characters and `<`,
 *   `>`, `|` are written as commands, line breaks become spaces.
 */
import { csvFieldFormulaSafe, escapeLatex, escapeMarkdownStrict } from '../../internal.js'
import type { Board } from '../board.js'
import { num } from './html.js'

type Cell = string | number | boolean | null

/** The tier columns, after the measures, when the board has tiers (CSV also gives the two corrected p-values). */
function tierHead(b: Board, withP: boolean): string[] {
  return b.tierPolicy === null ? [] : withP ? ['tier', 'p_vs_tier_head', 'p_vs_above'] : ['tier']
}

function head(b: Board, withP = false): string[] {
  return ['rank', 'team', 'baseline', 'run', 'submitted', ...b.columns, ...tierHead(b, withP)]
}

function rows(b: Board, value: (v: number | null) => Cell, withP = false): Cell[][] {
  return b.entries.map((e) => [
    e.rank,
    e.team,
    e.baseline,
    e.run,
    e.submittedAt,
    ...b.columns.map((c) => value(e.columns[c] ?? null)),
    ...(b.tierPolicy === null ? [] : withP ? [e.tier, e.pTierHead, e.pAbove] : [e.tier]),
  ])
}

function csvCell(v: Cell): string {
  if (v === null) return ''
  return typeof v === 'string' ? csvFieldFormulaSafe(v) : String(v)
}

/** The board's rows: rank, team, baseline, run, submitted, then one column per measure (full precision). */
export function boardCsv(b: Board): string {
  return (
    [head(b, true), ...rows(b, (v) => v, true)].map((r) => r.map(csvCell).join(',')).join('\r\n') +
    '\r\n'
  )
}

function mdCell(v: Cell): string {
  return v === null ? '' : escapeMarkdownStrict(String(v))
}

/** The board as a Markdown table (values to 4 decimals; em dash for none). */
export function boardMarkdown(b: Board): string {
  const h = head(b)
  const lines = [
    h,
    h.map((_, i) => (i === 0 || i >= 5 ? '---:' : '---')),
    ...rows(b, (v) => num(v)),
  ]
  // Only text from people (team, run: columns 1 and 3) and the header are escaped; ranks, instants and values are the server's own.
  return (
    lines
      .map(
        (r, i) =>
          `| ${r.map((c, j) => (i === 1 || (i > 1 && j !== 1 && j !== 3) ? String(c ?? '') : mdCell(c))).join(' | ')} |`,
      )
      .join('\n') + '\n'
  )
}

/** The board as a LaTeX `tabular` (values to 4 decimals; -- for none). */
export function boardLatex(b: Board): string {
  const h = head(b)
  const cell = (v: Cell): string => (v === null ? '' : escapeLatex(String(v)))
  const body = rows(b, (v) => (v === null || !Number.isFinite(v) ? '--' : num(v))).map(
    (r) => `${r.map(cell).join(' & ')} \\\\`,
  )
  return (
    [
      `\\begin{tabular}{rllll${'r'.repeat(b.columns.length + tierHead(b, false).length)}}`,
      '\\hline',
      `${h.map(cell).join(' & ')} \\\\`,
      '\\hline',
      ...body,
      '\\hline',
      '\\end{tabular}',
    ].join('\n') + '\n'
  )
}
