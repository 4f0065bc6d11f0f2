/**
 * One table model and its renderers: a {@link Table} (columns and rows of plain cells) rendered as
 * an aligned text table, Markdown, CSV, TSV, JSON, LaTeX (booktabs) or an HTML `<table>`. Numbers in human formats (table, markdown)
 * are written by `printf.ts` (`%.Nf`, ties to even); machine formats (csv, tsv, json) carry full
 * precision (the shortest text that reads back as the same double). `null` is an undefined value:
 * `-` in human formats, empty in csv/tsv, `null` in JSON.
 *
 * Emphasis is data, not markup in cells: {@link Table.bold} (the best value), {@link Table.marks}
 * (superscripts, e.g. the letters of the runs a value significantly beats) and
 * {@link Table.rules} (rules between groups of rows); each format writes them its own way.
 */
import {
  csvField,
  escapeControlChars,
  escapeHtml,
  escapeLatex,
  escapeMarkdown,
  latexSuperscript,
  tsvField,
  visibleText,
} from './escape.js'
import { formatFixed } from './printf.js'

/** A cell: text, a number, or undefined (`null`). */
export type Cell = string | number | null

/** A column of a {@link Table}. */
export interface Column {
  /** Key of the column in JSON output. */
  readonly key: string
  /** Header shown in human formats and csv/tsv. */
  readonly header: string
  /** Alignment in the text table; default: right for columns whose cells are numbers. */
  readonly align?: 'left' | 'right'
  /** Decimals of this column's numbers in table and markdown output (default: the table's). */
  readonly digits?: number
  /**
   * A fixed width in the text table, as printf's `%-Ns` / `%Ns`: cells are padded to it and a
   * longer one overflows (the column does not widen). Default: the widest cell or header.
   */
  readonly width?: number
  /** HTML: the `class` of this column's body cells (e.g. `name`, for a wrapping name column). */
  readonly cellClass?: string
}

/** A table: columns, rows of cells (one per column), and note lines printed under it. */
export interface Table {
  readonly columns: readonly Column[]
  readonly rows: readonly (readonly Cell[])[]
  /**
   * Lines under a text/markdown table (e.g. the conventions); `%` comments above a LaTeX tabular;
   * left out of csv, tsv, JSON and HTML rows.
   */
  readonly notes?: readonly string[]
  /**
   * Cells set in bold, e.g. the best mean, aligned with rows: a `*` after the cell in the text
   * table, `**…**` in Markdown, `\textbf` in LaTeX, `<strong>` in HTML; not in csv, tsv, JSON.
   */
  readonly bold?: readonly (readonly boolean[])[]
  /**
   * Superscripts after cells, aligned with rows (`''` or absent: none), e.g. the letters of the
   * runs a value significantly beats: `^ab` in the text table, `<sup>ab</sup>` in Markdown and
   * HTML, `$^{ab}$` in LaTeX ({@link latexSuperscript}: `†` as `$^\dagger$`); not in csv, tsv, JSON.
   */
  readonly marks?: readonly (readonly string[])[]
  /**
   * Rows (indices ≥ 1) with a rule above them, closing a group of rows: a dashed line in the text
   * table, `\midrule` in LaTeX, a new `<tbody>` in HTML; not in Markdown (which has none), csv,
   * tsv, JSON.
   */
  readonly rules?: readonly number[]
}

/** The formats {@link renderTable} writes. */
export const TABLE_FORMATS = ['table', 'markdown', 'csv', 'tsv', 'json', 'latex', 'html'] as const
/** A format {@link renderTable} writes. */
export type TableFormat = (typeof TABLE_FORMATS)[number]

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** Decimals of numbers in table and markdown output (default 4). */
  readonly digits?: number
  /** Text table: the dashed line under the header (default true). */
  readonly headerRule?: boolean
  /** Text table: written before every line, e.g. two spaces for a table under a heading (default none). */
  readonly indent?: string
  /**
   * LaTeX: begin with the `% requires \usepackage{booktabs}` line and the notes as `%` comments
   * (default true); false gives the tabular alone, for a caller that writes its own `table`
   * environment and preamble.
   */
  readonly preamble?: boolean
  /** HTML: the `<table>` element's `class`. */
  readonly htmlClass?: string
  /** HTML: a `<caption>` (text, escaped) as the table's first child. */
  readonly caption?: string
}

/** A Markdown table cell ({@link escapeMarkdown}): line breaks as spaces, control characters visible. */
export function markdownCell(text: string): string {
  return escapeMarkdown(visibleText(text.replace(/[\r\n]+/g, ' ')))
}

function machine(cell: Cell): string {
  if (cell === null) return ''
  return typeof cell === 'number' ? String(cell) : cell
}

function rightAligned(table: Table, i: number): boolean {
  const c = table.columns[i]!
  if (c.align !== undefined) return c.align === 'right'
  return table.rows.length > 0 && table.rows.every((r) => r[i] === null || typeof r[i] === 'number')
}

function human(cell: Cell, digits: number): string {
  if (cell === null) return '-'
  return typeof cell === 'number' ? formatFixed(cell, digits) : cell
}

function ruleAbove(table: Table, r: number): boolean {
  return r > 0 && (table.rules?.includes(r) ?? false)
}

/** Renders a {@link Table}; the result ends with a newline. */
export function renderTable(table: Table, format: TableFormat, options: TableOptions = {}): string {
  const digits = options.digits ?? 4
  const notes = table.notes ?? []
  switch (format) {
    case 'json': {
      const rows = table.rows.map((r) =>
        Object.fromEntries(table.columns.map((c, i) => [c.key, r[i] ?? null])),
      )
      return `${JSON.stringify(rows)}\n`
    }
    case 'csv':
      return [
        table.columns.map((c) => csvField(c.header)),
        ...table.rows.map((r) => r.map((x) => csvField(machine(x)))),
      ]
        .map((l) => l.join(',') + '\n')
        .join('')
    case 'tsv':
      return [
        table.columns.map((c) => tsvField(c.header)),
        ...table.rows.map((r) => r.map((x) => tsvField(machine(x)))),
      ]
        .map((l) => l.join('\t') + '\n')
        .join('')
    case 'markdown': {
      const right = table.columns.map((_c, i) => rightAligned(table, i))
      const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |\n`
      const cell = (x: Cell, r: number, i: number): string => {
        const t = markdownCell(human(x, table.columns[i]?.digits ?? digits))
        const mark = table.marks?.[r]?.[i]
        return (
          (table.bold?.[r]?.[i] ? `**${t}**` : t) + (mark ? `<sup>${markdownCell(mark)}</sup>` : '')
        )
      }
      return (
        line(table.columns.map((c) => markdownCell(c.header))) +
        line(right.map((r) => (r ? '---:' : '---'))) +
        table.rows.map((row, r) => line(row.map((x, i) => cell(x, r, i)))).join('') +
        notes.map((n) => `\n${markdownCell(n)}\n`).join('')
      )
    }
    case 'latex': {
      const right = table.columns.map((_c, i) => rightAligned(table, i))
      const cell = (text: string, r: number, i: number): string => {
        const t = escapeLatex(escapeControlChars(text))
        const mark = table.marks?.[r]?.[i]
        return (
          (table.bold?.[r]?.[i] ? `\\textbf{${t}}` : t) +
          (mark ? latexSuperscript(escapeControlChars(mark)) : '')
        )
      }
      const line = (cells: readonly string[]): string => `${cells.join(' & ')} \\\\\n`
      return (
        (options.preamble === false
          ? ''
          : '% requires \\usepackage{booktabs}\n' +
            notes.map((n) => `% ${escapeControlChars(n).replace(/[\r\n]+/g, ' ')}\n`).join('')) +
        `\\begin{tabular}{${right.map((r) => (r ? 'r' : 'l')).join('')}}\n\\toprule\n` +
        line(table.columns.map((c) => escapeLatex(escapeControlChars(c.header)))) +
        '\\midrule\n' +
        table.rows
          .map(
            (row, r) =>
              (ruleAbove(table, r) ? '\\midrule\n' : '') +
              line(row.map((x, i) => cell(human(x, table.columns[i]?.digits ?? digits), r, i))),
          )
          .join('') +
        '\\bottomrule\n\\end{tabular}\n'
      )
    }
    case 'html': {
      const right = table.columns.map((_c, i) => rightAligned(table, i))
      const attr = (i: number): string => (right[i] ? ' class="num"' : '')
      const text = (t: string): string => escapeHtml(escapeControlChars(t))
      const cell = (x: Cell, r: number, i: number): string => {
        const t = text(human(x, table.columns[i]?.digits ?? digits))
        const mark = table.marks?.[r]?.[i]
        const sup = mark ? `<sup>${text(mark)}</sup>` : ''
        const c = table.columns[i]?.cellClass
        const at = c !== undefined ? ` class="${text(c)}${right[i] ? ' num' : ''}"` : attr(i)
        return `<td${at}>${table.bold?.[r]?.[i] ? `<strong>${t}</strong>` : t}${sup}</td>`
      }
      const open =
        (options.htmlClass !== undefined
          ? `<table class="${text(options.htmlClass)}">\n`
          : '<table>\n') +
        (options.caption !== undefined ? `<caption>${text(options.caption)}</caption>\n` : '')
      return (
        `${open}<thead><tr>` +
        table.columns.map((c, i) => `<th${attr(i)}>${text(c.header)}</th>`).join('') +
        '</tr></thead>\n<tbody>\n' +
        table.rows
          .map(
            (row, r) =>
              (ruleAbove(table, r) ? '</tbody>\n<tbody>\n' : '') +
              `<tr>${row.map((x, i) => cell(x, r, i)).join('')}</tr>\n`,
          )
          .join('') +
        '</tbody>\n</table>\n'
      )
    }
    case 'table': {
      const cell = (x: Cell, r: number, i: number): string => {
        const mark = table.marks?.[r]?.[i]
        return (
          visibleText(human(x, table.columns[i]?.digits ?? digits)) +
          (table.bold?.[r]?.[i] ? '*' : '') +
          (mark ? `^${visibleText(mark)}` : '')
        )
      }
      const cells = [
        table.columns.map((c) => visibleText(c.header)),
        ...table.rows.map((row, r) => row.map((x, i) => cell(x, r, i))),
      ]
      const widths = table.columns.map(
        (c, i) => c.width ?? Math.max(...cells.map((r) => r[i]!.length)),
      )
      const right = table.columns.map((_c, i) => rightAligned(table, i))
      const pad = (s: string, i: number): string =>
        right[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!)
      const indent = options.indent ?? ''
      const text = (r: readonly string[]): string => indent + r.map(pad).join('  ').trimEnd() + '\n'
      const rule = indent + widths.map((w) => '-'.repeat(w)).join('  ') + '\n'
      return (
        text(cells[0]!) +
        (options.headerRule === false ? '' : rule) +
        cells
          .slice(1)
          .map((r, i) => (ruleAbove(table, i) ? rule : '') + text(r))
          .join('') +
        notes.map((n) => `${indent}${visibleText(n)}\n`).join('')
      )
    }
  }
}
