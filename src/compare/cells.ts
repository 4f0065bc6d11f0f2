/** The cells of the main comparison table, shared by every renderer. */
import { formatFixed } from '../report/printf.js'
import type { CompareResult, MeasureComparison } from './types.js'

/** One cell of the main table: value, best flag, superscript letters. */
export interface MainCell {
  readonly value: string
  readonly best: boolean
  readonly beats: string
}

/** The main table (rows: runs; columns: measures) of one scope. */
export function mainCells(r: CompareResult, measures: readonly MeasureComparison[], digits: number): MainCell[][] {
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

