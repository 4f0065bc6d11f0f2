/**
 * The tables of a comparison as {@link Table}s of the one table model (`report/table.ts`), read
 * by every format of render.ts and render-html.ts.
 */
import { escapeControlChars as show } from '../report/escape.js'
import type { Table } from '../report/table.js'
import { mainCells, pairHeader, pairRow } from './cells.js'
import type { CompareResult, MeasureComparison } from './types.js'

/**
 * The main table of one scope as a {@link Table}: a letter and a run per row, a column per
 * measure; the best mean bold, the letters of the runs it significantly beats as marks. Names and
 * measures are shown with control characters as escapes (`\xNN`, `\u{NNNN}`) before the format's
 * own escaping.
 */
export function mainTable(
  r: CompareResult,
  ms: readonly MeasureComparison[],
  digits: number,
  runHeader: string,
): Table {
  const cells = mainCells(r, ms, digits)
  return {
    columns: [
      { key: 'letter', header: '', align: 'left' },
      { key: 'run', header: runHeader, align: 'left' },
      ...r.measures.map((m) => ({ key: m, header: show(m), align: 'right' as const })),
    ],
    rows: cells.map((row, i) => [
      r.runs[i]!.letter,
      show(r.runs[i]!.name),
      ...row.map((c) => c.value),
    ]),
    bold: cells.map((row) => [false, false, ...row.map((c) => c.best)]),
    marks: cells.map((row) => ['', '', ...row.map((c) => c.beats)]),
  }
}

/** The compared pairs over all queries as a {@link Table} ({@link pairHeader}, {@link pairRow}). */
export function comparePairsTable(r: CompareResult, digits: number): Table {
  return {
    columns: pairHeader(r).map((h, i) => ({
      key: h,
      header: show(h),
      align: i < 3 ? ('left' as const) : ('right' as const),
    })),
    rows: r.overall.flatMap((m) => m.pairs.map((p) => pairRow(r, m, p, digits).map(show))),
  }
}
