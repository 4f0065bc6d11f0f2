/**
 * trec_eval's `-Z zscores_file`: per-query values are replaced by z-scores before they are
 * printed and averaged,
 *
 *   z = (value − mean_{q,m}) / stddev_{q,m}
 *
 * with the mean and standard deviation of measure m on query q read from lines
 * `qid measure_name mean stddev` (four fields, `atof`, no comment lines; `measure_name` as printed,
 * e.g. `P_10`). When stddev is 0, z is 0 if the value equals the mean. A query absent from the
 * file, a measure absent for the query, or a non-matching value with stddev 0 gives
 * {@link MISSING_ZSCORE}. Every value is converted, `gm_map`'s per-query log included.
 */

import type { InputIssue } from '../errors/issues.js'
import { parseCDouble } from '../io/bytes.js'
import { field, forEachFieldLine, readWholeFile, reportMalformed } from './prefs/field-lines.js'
import type { ActiveMeasure, TrecEvalIO } from './types.js'

/** The value trec_eval prints when no z-score can be formed. */
export const MISSING_ZSCORE = -1000000

/** Mean and standard deviation of one measure on one query. */
export interface ZscoreEntry {
  readonly measure: string
  readonly mean: number
  readonly stddev: number
}

/** Per query id, its entries sorted by measure name (byte order; stable, so file order for ties). */
export type Zscores = ReadonlyMap<string, readonly ZscoreEntry[]>

/** Outcome of {@link parseZscores}; `malformedLine` is trec_eval's number for its message. */
export type ZscoresParseResult =
  | { readonly ok: true; readonly value: Zscores }
  | { readonly ok: false; readonly malformedLine: number; readonly issue: InputIssue }

/** Parse a z-score file (see the module comment). */
export function parseZscores(bytes: Buffer, file: string): ZscoresParseResult {
  const byQuery = new Map<string, ZscoreEntry[]>()
  const result = forEachFieldLine(
    bytes,
    { file, fields: 4, expected: '4 fields (qid measure mean stddev)', comments: false },
    (f) => {
      const qid = field(bytes, f, 0)
      let list = byQuery.get(qid)
      if (!list) byQuery.set(qid, (list = []))
      list.push({
        measure: field(bytes, f, 1),
        mean: parseCDouble(bytes, f[4]!, f[5]!),
        stddev: parseCDouble(bytes, f[6]!, f[7]!),
      })
      return undefined
    },
  )
  if (!result.ok) return result
  for (const list of byQuery.values())
    list.sort((a, b) => (a.measure < b.measure ? -1 : a.measure > b.measure ? 1 : 0))
  return { ok: true, value: byQuery }
}

/**
 * Read a `-Z` z-score file. On a missing, empty or malformed file prints trec_eval's message
 * and gives null.
 */
export async function readZscores(file: string, io: TrecEvalIO): Promise<Zscores | null> {
  const bytes = await readWholeFile(file, 'trec_eval.get_zscores', 'zscores', io)
  if (!bytes) return null
  const parsed = parseZscores(bytes, file)
  if (parsed.ok) return parsed.value
  reportMalformed('trec_eval.get_zscores', parsed, io)
  return null
}

/**
 * Look `measure` up in a query's sorted entries by trec_eval's own bisection, so that which of
 * several entries for one measure wins is the same as there.
 */
function findEntry(entries: readonly ZscoreEntry[], measure: string): ZscoreEntry | undefined {
  let start = 0
  let end = entries.length
  while (start <= end) {
    const current = (start + end) >> 1
    // trec_eval's upper bound is one past the end; that slot holds no entry of this query.
    const e = entries[current]
    if (!e) return undefined
    if (measure < e.measure) end = current - 1
    else if (measure > e.measure) start = current + 1
    else return e
  }
  return undefined
}

/** Replace the per-query values of `qid` (laid out as `active`'s names) by z-scores, in place. */
export function applyZscores(
  z: Zscores,
  qid: string,
  active: readonly ActiveMeasure[],
  values: Float64Array,
): void {
  const entries = z.get(qid)
  let off = 0
  for (const m of active) {
    for (const name of m.names) {
      const e = entries && findEntry(entries, name)
      const v = values[off]!
      if (!e) values[off] = MISSING_ZSCORE
      else if (e.stddev !== 0) values[off] = (v - e.mean) / e.stddev
      else values[off] = v === e.mean ? 0 : MISSING_ZSCORE
      off++
    }
  }
}
