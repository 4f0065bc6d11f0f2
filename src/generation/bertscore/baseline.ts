/**
 * BERTScore rescale baselines in bert_score's `rescale_baseline/<lang>/<model>.tsv` layout.
 * Despite the extension these files are comma-separated: a header `LAYER,P,R,F`, then one row
 * per layer 0..N (roberta-large: 25 rows). bert_score reads row `iloc[num_layers]`, i.e. the row
 * at position `num_layers`, and uses its P, R and F (`en/roberta-large.tsv` layer 17:
 * P = 0.83150584, R = 0.8314941, F = 0.83122575). Pure: the caller reads the file.
 *
 * bert_score converts the row to float32 (`.float()`); we keep the decimal values as float64,
 * a difference below 3e-8 in the baseline.
 */

import type { InputIssue } from '../../errors/issues.js'
import { InputError } from '../../errors/trecscore-error.js'
import { isDecimalText } from '../../io/numbers.js'
import type { RescaleBaseline } from './bertscore.js'

/** One row of a baseline file. */
export interface BaselineRow extends RescaleBaseline {
  readonly layer: number
}

/** A parsed baseline file. */
export interface BaselineTable {
  readonly file: string
  readonly rows: readonly BaselineRow[]
}

/** The baselines bert_score 0.3.13 ships for `en/roberta-large.tsv`, row 17 (MIT, Tiiiger/bert_score). */
export const ROBERTA_LARGE_L17_BASELINE: RescaleBaseline = {
  precision: 0.83150584,
  recall: 0.8314941,
  f1: 0.83122575,
}

/**
 * Parses a baseline file's text; every problem is reported at once as an {@link InputError}
 * (a header other than `LAYER,P,R,F`, a row without 4 fields, a field that is not a number,
 * a LAYER out of sequence).
 */
export function parseBaselineTable(text: string, file: string): BaselineTable {
  const issues: InputIssue[] = []
  const lines = text.split(/\r?\n/)
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  const header = (lines[0] ?? '').replace(/^\uFEFF/, '').trim()
  if (lines.length === 0 || header.length === 0) {
    throw new InputError([{ code: 'empty_file', file }])
  }
  if (
    header
      .split(',')
      .map((h) => h.trim())
      .join(',') !== 'LAYER,P,R,F'
  ) {
    issues.push({
      code: 'field_count',
      file,
      line: 1,
      expected: 'the header LAYER,P,R,F (bert_score rescale_baseline layout)',
      found: header.split(',').length,
      text: header.slice(0, 200),
    })
  }
  const rows: BaselineRow[] = []
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!
    if (raw.trim() === '') continue
    const fields = raw.split(',').map((f) => f.trim())
    if (fields.length !== 4) {
      issues.push({
        code: 'field_count',
        file,
        line: i + 1,
        expected: '4 comma-separated fields LAYER,P,R,F',
        found: fields.length,
        text: raw.slice(0, 200),
      })
      continue
    }
    const names = ['LAYER', 'P', 'R', 'F']
    const values = fields.map((f, k) => {
      if (!isDecimalText(f)) {
        issues.push({
          code: 'bad_argument',
          option: `${file}:${i + 1} (column ${names[k]})`,
          found: f.slice(0, 200),
          expected: 'a decimal number',
        })
        return NaN
      }
      return Number(f)
    })
    if (values.some(Number.isNaN)) continue
    const layer = values[0]!
    if (layer !== rows.length) {
      issues.push({
        code: 'bad_argument',
        option: `${file}:${i + 1} (column LAYER)`,
        found: fields[0]!,
        expected: `layer ${rows.length} (one row per layer, 0, 1, 2, … in order)`,
      })
      continue
    }
    rows.push({ layer, precision: values[1]!, recall: values[2]!, f1: values[3]! })
  }
  if (issues.length > 0)
    throw new InputError(
      issues,
      `${issues.length} problem(s) in the BERTScore baseline file ${file}`,
    )
  return { file, rows }
}

/** The baseline row for `layer` (bert_score's `iloc[num_layers]`), or an {@link InputError}. */
export function baselineForLayer(table: BaselineTable, layer: number): BaselineRow {
  const row = table.rows[layer]
  if (row === undefined) {
    throw new InputError([
      {
        code: 'bad_argument',
        option: 'layer',
        found: String(layer),
        expected: `a layer with a row in ${table.file} (0..${table.rows.length - 1})`,
      },
    ])
  }
  return row
}
