/**
 * Readers for trec_eval's preference formats.
 *
 * - `-R prefs`: `qid jg jsg docno rel_level`, five fields. Within a judgment subgroup (jsg) of a
 *   judgment group (jg), every doc with a higher `rel_level` is preferred to every doc with a
 *   lower one; `rel_level` 0 means "judged non-relevant".
 * - `-R qrels_prefs`: an ordinary qrels file `qid iter docno rel` read as prefs, with the iter
 *   field as the judgment group and one subgroup (`0`) per group.
 *
 * `rel_level` is read like C `atof`. Lines whose first byte is `#` are comments (v10).
 */

import type { InputIssue } from '../../errors/issues.js'
import { parseCDouble } from '../../io/bytes.js'
import { field, forEachFieldLine } from './field-lines.js'
import type { PrefJudgment } from './pref-counts.js'

export type { PrefJudgment } from './pref-counts.js'

/** Preference judgments by query id (binary strings, see `io/bytes.ts`), lines in file order. */
export type PrefsByQuery = ReadonlyMap<string, readonly PrefJudgment[]>

/** Which preference layout a file uses. */
export type PrefsFormat = 'prefs' | 'qrels_prefs'

/** Outcome of {@link parsePrefs}; `malformedLine` is trec_eval's number for its message. */
export type PrefsParseResult =
  | { readonly ok: true; readonly value: PrefsByQuery }
  | { readonly ok: false; readonly malformedLine: number; readonly issue: InputIssue }

/** The subgroup every `qrels_prefs` judgment belongs to. */
const QRELS_PREFS_JSG = '0'

/** Parse a `prefs` or `qrels_prefs` file (see the module comment). */
export function parsePrefs(
  bytes: Buffer,
  options: { readonly file: string; readonly format: PrefsFormat; readonly comments: boolean },
): PrefsParseResult {
  const byQuery = new Map<string, PrefJudgment[]>()
  const five = options.format === 'prefs'
  const result = forEachFieldLine(
    bytes,
    {
      file: options.file,
      fields: five ? 5 : 4,
      expected: five
        ? '5 fields (qid jg jsg docno rel_level)'
        : '4 fields (qid jg docno rel_level)',
      comments: options.comments,
    },
    (f) => {
      const qid = field(bytes, f, 0)
      const docField = five ? 3 : 2
      const relField = docField + 1
      const judgment: PrefJudgment = {
        jg: field(bytes, f, 1),
        jsg: five ? field(bytes, f, 2) : QRELS_PREFS_JSG,
        docId: field(bytes, f, docField),
        relLevel: parseCDouble(bytes, f[2 * relField]!, f[2 * relField + 1]!),
      }
      let list = byQuery.get(qid)
      if (!list) byQuery.set(qid, (list = []))
      list.push(judgment)
      return undefined
    },
  )
  return result.ok ? { ok: true, value: byQuery } : result
}
