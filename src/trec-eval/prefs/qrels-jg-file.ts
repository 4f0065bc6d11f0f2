/**
 * Reader for trec_eval's `-R qrels_jg` format: `qid jg docno rel`, a qrels file whose second
 * field names a judgment group (for instance one assessor). Each group of a query is judged on
 * its own and the `*_avgjg` measures average over the groups. `rel` is read like C `atol`;
 * lines whose first byte is `#` are comments (v10). A doc judged twice within one group of one
 * query is an error (trec_eval reports the smallest by (qid, jg, docno)).
 */

import type { InputIssue } from '../../errors/issues.js'
import { parseCLong } from '../../io/bytes.js'
import { MAX_GRADE } from '../../io/trec-qrels.js'
import type { QueryJudgments } from '../../model/types.js'
import { field, forEachFieldLine } from './field-lines.js'

/** Judgment groups by query id; each query's groups in byte order of their ids. */
export type QrelsJgByQuery = ReadonlyMap<string, readonly QueryJudgments[]>

/** Outcome of {@link parseQrelsJg}. */
export type QrelsJgParseResult =
  | { readonly ok: true; readonly value: QrelsJgByQuery }
  | { readonly ok: false; readonly malformedLine: number; readonly issue: InputIssue }
  | { readonly ok: false; readonly duplicateDoc: string; readonly issue: InputIssue }

interface Group {
  readonly jg: string
  readonly grades: Map<string, number>
  readonly lines: Map<string, number>
  readonly relLevels: number[]
  maxJudgment: number
}

/** Parse a `qrels_jg` file (see the module comment). */
export function parseQrelsJg(
  bytes: Buffer,
  options: { readonly file: string; readonly comments: boolean },
): QrelsJgParseResult {
  const byQuery = new Map<string, Map<string, Group>>()
  // Assigned inside the callback (the cast keeps TypeScript from narrowing it to null).
  let duplicate = null as {
    qid: string
    jg: string
    issue: Extract<InputIssue, { code: 'duplicate_judgment' }>
  } | null
  const result = forEachFieldLine(
    bytes,
    {
      file: options.file,
      fields: 4,
      expected: '4 fields (qid jg docno rel)',
      comments: options.comments,
    },
    (f, line) => {
      const grade = parseCLong(bytes, f[6]!, f[7]!)
      const text = (): string => bytes.toString('latin1', f[0]!, f[7]!)
      if (grade > MAX_GRADE)
        return {
          code: 'not_a_number',
          field: 'grade',
          file: options.file,
          line,
          found: field(bytes, f, 3),
          text: text(),
        }
      const qid = field(bytes, f, 0)
      const jg = field(bytes, f, 1)
      const docId = field(bytes, f, 2)
      let groups = byQuery.get(qid)
      if (!groups) byQuery.set(qid, (groups = new Map()))
      let g = groups.get(jg)
      if (!g)
        groups.set(
          jg,
          (g = { jg, grades: new Map(), lines: new Map(), relLevels: [], maxJudgment: -Infinity }),
        )
      const first = g.lines.get(docId)
      if (first !== undefined) {
        if (
          !duplicate ||
          qid < duplicate.qid ||
          (qid === duplicate.qid &&
            (jg < duplicate.jg || (jg === duplicate.jg && docId < duplicate.issue.docId)))
        ) {
          duplicate = {
            qid,
            jg,
            issue: {
              code: 'duplicate_judgment',
              file: options.file,
              line,
              queryId: qid,
              docId,
              firstLine: first,
            },
          }
        }
        return undefined
      }
      g.grades.set(docId, grade)
      g.lines.set(docId, line)
      if (grade > g.maxJudgment) g.maxJudgment = grade
      if (grade >= 0) {
        while (g.relLevels.length <= grade) g.relLevels.push(0)
        g.relLevels[grade]!++
      }
      return undefined
    },
  )
  if (!result.ok) return result
  if (duplicate) return { ok: false, duplicateDoc: duplicate.issue.docId, issue: duplicate.issue }
  const value = new Map<string, QueryJudgments[]>()
  for (const [qid, groups] of byQuery) {
    const sorted = [...groups.values()].sort((a, b) => (a.jg < b.jg ? -1 : a.jg > b.jg ? 1 : 0))
    value.set(
      qid,
      sorted.map((g) => ({
        queryId: qid,
        grades: g.grades,
        lines: g.lines,
        relLevels: g.relLevels,
        maxJudgment: g.maxJudgment,
        duplicateDocs: [],
      })),
    )
  }
  return { ok: true, value }
}
