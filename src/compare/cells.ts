/** The cells of the comparison tables (main table and pairs table), shared by every renderer. */
import { formatFixed } from '../report/printf.js'
import type { CompareResult, MeasureComparison, PairComparison } from './types.js'

/** One cell of the main table: value, best flag, superscript letters. */
export interface MainCell {
  readonly value: string
  readonly best: boolean
  readonly beats: string
}

/** The main table (rows: runs; columns: measures) of one scope. */
export function mainCells(
  r: CompareResult,
  measures: readonly MeasureComparison[],
  digits: number,
): MainCell[][] {
  return r.runs.map((_, i) =>
    measures.map((m) => {
      const v = m.means[i]
      return {
        value: v === null || v === undefined ? 'undef' : formatFixed(v, digits),
        best: m.best.includes(i) && r.runs.length > 1,
        beats: m.beats[i]!.map((j) => r.runs[j]!.letter).join(''),
      }
    }),
  )
}

/** A p-value for reading: 4 decimals, or 2 significant digits below 0.001. */
export function formatP(p: number | null): string {
  if (p === null) return '-'
  if (p === 0) return '0'
  if (p >= 0.001) return formatFixed(p, 4)
  return p.toExponential(1)
}

function signed(x: number, digits: number): string {
  const s = formatFixed(x, digits)
  return x >= 0 && !s.startsWith('-') ? `+${s}` : s
}

/** Header of the pairs table: one row per compared pair and measure; two p columns per test. */
export function pairHeader(r: CompareResult): string[] {
  const corr = r.settings.correction
  return [
    'A',
    'B',
    'measure',
    'n',
    'mean A',
    'mean B',
    'A-B',
    '95% CI',
    'd_z',
    'W/T/L',
    ...r.settings.tests.flatMap((t) => [`${t} p`, `${t} p ${corr === 'none' ? '(raw)' : corr}`]),
  ]
}

/** One row of the pairs table (aligned with {@link pairHeader}); ` *` after a significant adjusted p. */
export function pairRow(
  r: CompareResult,
  m: MeasureComparison,
  p: PairComparison,
  digits: number,
): string[] {
  const e = p.effect
  return [
    r.runs[p.a]!.letter,
    r.runs[p.b]!.letter,
    m.measure,
    String(p.n),
    formatFixed(p.meanA, digits),
    formatFixed(p.meanB, digits),
    signed(e.meanDifference, digits),
    e.ci95 ? `[${signed(e.ci95[0], digits)}, ${signed(e.ci95[1], digits)}]` : '-',
    e.cohensDz === null ? '-' : formatFixed(e.cohensDz, 2),
    `${p.wins}/${p.ties}/${p.losses}`,
    ...p.tests.flatMap((t) => [
      formatP(t.p),
      `${formatP(t.pAdjusted)}${t.significant ? ' *' : ''}`,
    ]),
  ]
}
