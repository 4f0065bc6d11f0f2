import { parseCLong } from './bytes.js'
import { splitFields } from './lines.js'
import type { InputIssue } from '../errors/issues.js'
import type { Qrels, QueryJudgments } from '../model/types.js'
import { IdTable } from '../rank/id-hash.js'

/** Options of {@link parseQrels}. */
export interface QrelsParseOptions {
  /** File name used in messages. */
  readonly file?: string
  /** Skip lines whose first byte is `#` (trec_eval 10); v9 has no comments. @default true */
  readonly comments?: boolean
  /** Map applied to every grade as it is read (e.g. 4-point to 3-point). */
  readonly remap?: ReadonlyMap<number, number>
  /** Stop at the first malformed line (trec_eval does). @default false */
  readonly stopAtFirstError?: boolean
  /** Most issues collected before giving up. @default 50 */
  readonly maxIssues?: number
}

/** Result of {@link parseQrels}: the value when `ok`, and every issue found. */
export interface QrelsParseResult {
  readonly ok: boolean
  readonly value: Qrels
  readonly issues: readonly InputIssue[]
  /** trec_eval's own count for "Malformed line N" (non-comment lines read so far). */
  readonly malformedLineNumber?: number
}

interface Building {
  queryId: string
  grades: Map<string, number>
  lines: Map<string, number>
  relLevels: number[]
  maxJudgment: number
  duplicates: string[]
}

/** Largest grade accepted: grades index a dense array (trec_eval allocates one slot per level). */
export const MAX_GRADE = 1_000_000

/**
 * Parse TREC qrels (`qid iter docno rel`, exactly four C-whitespace-separated fields per line,
 * `rel` read like C `atol`). Blank lines are malformed, as in trec_eval.
 */
export function parseQrels(bytes: Buffer, options: QrelsParseOptions = {}): QrelsParseResult {
  const file = options.file ?? 'qrels'
  const comments = options.comments ?? true
  const maxIssues = options.maxIssues ?? 50
  const issues: InputIssue[] = []
  const queries = new Map<string, Building>()
  const f: number[] = []
  let line = 0
  let counted = 0
  let commentLines = 0
  let judgmentLines = 0
  let malformedAt: number | undefined
  let pos = 0
  const n = bytes.length
  let nextNul = bytes.indexOf(0)
  while (pos < n) {
    let nl = bytes.indexOf(0x0a, pos)
    if (nl < 0) nl = n
    const start = pos
    const end = nl
    pos = nl + 1
    line++
    if (comments && bytes[start] === 0x23) {
      commentLines++
      continue
    }
    counted++
    if (nextNul >= 0 && nextNul < start) nextNul = bytes.indexOf(0, start)
    if (nextNul >= 0 && nextNul < end) {
      malformedAt ??= counted
      issues.push({ code: 'nul_byte', file, line, text: bytes.toString('latin1', start, Math.min(end, start + 200)) })
      if (options.stopAtFirstError || issues.length >= maxIssues) break
      continue
    }
    const count = splitFields(bytes, start, end, f)
    if (count !== 4) {
      malformedAt ??= counted
      issues.push({
        code: 'field_count',
        file,
        line,
        expected: '4 fields (qid iter docno rel)',
        found: count,
        text: bytes.toString('latin1', start, Math.min(end, start + 400)),
      })
      if (options.stopAtFirstError || issues.length >= maxIssues) break
      continue
    }
    judgmentLines++
    const qid = bytes.toString('latin1', f[0]!, f[1]!)
    const docId = bytes.toString('latin1', f[4]!, f[5]!)
    let grade = parseCLong(bytes, f[6]!, f[7]!)
    if (options.remap) grade = options.remap.get(grade) ?? grade
    if (grade > MAX_GRADE) {
      issues.push({ code: 'not_a_number', field: 'grade', file, line, found: bytes.toString('latin1', f[6]!, f[7]!), text: bytes.toString('latin1', start, Math.min(end, start + 400)) })
      if (options.stopAtFirstError || issues.length >= maxIssues) break
      continue
    }
    let q = queries.get(qid)
    if (!q) {
      q = { queryId: qid, grades: new Map(), lines: new Map(), relLevels: [], maxJudgment: -Infinity, duplicates: [] }
      queries.set(qid, q)
    }
    if (q.grades.has(docId)) {
      q.duplicates.push(docId)
    } else {
      q.grades.set(docId, grade)
      q.lines.set(docId, line)
    }
    if (grade > q.maxJudgment) q.maxJudgment = grade
    if (grade >= 0) {
      while (q.relLevels.length <= grade) q.relLevels.push(0)
      q.relLevels[grade]!++
    }
  }
  const value: Qrels = {
    queries: new Map(
      [...queries].map(([k, q]) => [
        k,
        {
          queryId: q.queryId,
          grades: q.grades,
          lines: q.lines,
          relLevels: q.relLevels,
          maxJudgment: q.maxJudgment,
          duplicateDocs: q.duplicates.sort(),
          table: new IdTable([...q.grades.keys()], [...q.grades.values()]),
        } satisfies QueryJudgments,
      ]),
    ),
    commentLines,
    judgmentLines,
  }
  return malformedAt === undefined
    ? { ok: issues.length === 0, value, issues }
    : { ok: false, value, issues, malformedLineNumber: malformedAt }
}
