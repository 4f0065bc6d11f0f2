import type { NegativeJudgments } from '../conventions/conventions.js'
import type { InputIssue } from '../errors/issues.js'
import type { Qrels, SubtopicJudgments } from '../model/types.js'
import { JudgmentStoreBuilder } from '../rank/judgment-store.js'
import { binaryString, parseCLong } from './bytes.js'
import { DEFAULT_MAX_LINE_BYTES, hasBareCr, LineSplitter, splitFields } from './lines.js'
import { readInteger } from './numbers.js'

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
  /** Grade syntax: `strict` integers (`io/numbers.ts`) or C `atol` (the drop-in). @default 'strict' */
  readonly syntax?: 'strict' | 'c'
  /** Longest line accepted. @default 16 MiB (see `io/limits.ts`) */
  readonly maxLineBytes?: number
  /**
   * `adhoc`: `qid iter docno rel`. `diversity`: ndeval's `topic subtopic docno judgment`; a
   * judgment > 0 makes the doc relevant to the subtopic, a negative one is an error (ndeval's
   * convention), a doc's grade for the other measures is its highest judgment. @default 'adhoc'
   */
  readonly format?: QrelsFormat
  /**
   * Negative labels (ad hoc qrels): kept as judged non-relevant, dropped (the doc is then
   * unjudged; counted in `negativeJudgments.dropped`; the query stays, with no judgment if all
   * of its lines go), or each reported as an issue.
   * @default 'nonrelevant'
   */
  readonly negativeJudgments?: NegativeJudgments
}

/** The layouts of a qrels file (see {@link QrelsParseOptions.format}). */
export type QrelsFormat = 'adhoc' | 'diversity'

/** The qrels formats, for flags and messages. */
export const QRELS_FORMATS: readonly QrelsFormat[] = ['adhoc', 'diversity']

/** Result of {@link parseQrels}: the value when `ok`, and every issue found. */
export interface QrelsParseResult {
  readonly ok: boolean
  readonly value: Qrels
  readonly issues: readonly InputIssue[]
  /** trec_eval's own count for "Malformed line N" (non-comment lines read so far). */
  readonly malformedLineNumber?: number
}

/** Largest grade accepted: grades index a dense array (trec_eval allocates one slot per level). */
export const MAX_GRADE = 1_000_000

/**
 * Streaming parser for TREC qrels (`qid iter docno rel`, exactly four C-whitespace-separated
 * fields per line). Blank lines are malformed, as in trec_eval. Grades are integers
 * (`io/numbers.ts`), or read like C `atol` with `syntax: 'c'` (the drop-in: `1.5` is 1, `abc` 0).
 * Feed it byte chunks (memory holds the judgments, not the file), then `end()`.
 */
export class QrelsParser {
  /** Every problem found (capped at `maxIssues`). */
  readonly issues: InputIssue[] = []
  /** trec_eval's count for "Malformed line N": non-comment lines up to the first bad one. */
  malformedLineNumber: number | undefined
  commentLines = 0
  judgmentLines = 0
  /** Negative judgment lines dropped (`negativeJudgments: 'unjudged'`). */
  negativeDropped = 0
  /** Set once a problem made the parser stop reading. */
  stopped = false
  private counted = 0
  private readonly file: string
  private readonly comments: boolean
  private readonly strict: boolean
  private readonly maxIssues: number
  private readonly stopAtFirst: boolean
  private readonly remap: ReadonlyMap<number, number> | undefined
  private readonly negative: NegativeJudgments
  private readonly store = new JudgmentStoreBuilder()
  private readonly lines: LineSplitter
  private readonly f: number[] = []
  /** Diversity qrels: per query, per doc, its first line and highest judgment; per subtopic, the relevant docs. */
  private readonly div: Map<
    string,
    {
      readonly docs: Map<string, { line: number; grade: number }>
      readonly subtopics: Map<string, Set<string>>
      readonly seen: Map<string, number>
    }
  > | null
  private nulBuf: Uint8Array | null = null
  private nextNul = -1

  constructor(options: QrelsParseOptions = {}) {
    this.file = options.file ?? 'qrels'
    this.comments = options.comments ?? true
    this.strict = (options.syntax ?? 'strict') === 'strict'
    this.maxIssues = options.maxIssues ?? 50
    this.stopAtFirst = options.stopAtFirstError ?? false
    this.remap = options.remap
    this.negative = options.negativeJudgments ?? 'nonrelevant'
    this.div = options.format === 'diversity' ? new Map() : null
    this.lines = new LineSplitter(
      (buf, start, end, line) => this.onLine(buf, start, end, line),
      options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    )
  }

  /** Parse the complete lines of `chunk`. */
  feed(chunk: Buffer): void {
    this.lines.feed(chunk)
    this.checkTooLong()
  }

  /** Parse a last line without newline. */
  end(): void {
    this.lines.end()
    this.checkTooLong()
  }

  /** The judgments and every issue (call after {@link end}). */
  result(): QrelsParseResult {
    const subtopics = this.div ? this.finishDiversity() : undefined
    const value: Qrels = {
      queries: this.store.finish(),
      commentLines: this.commentLines,
      judgmentLines: this.judgmentLines,
      negativeJudgments: { policy: this.negative, dropped: this.negativeDropped },
      ...(subtopics ? { subtopics } : {}),
    }
    return this.malformedLineNumber === undefined
      ? { ok: this.issues.length === 0, value, issues: this.issues }
      : { ok: false, value, issues: this.issues, malformedLineNumber: this.malformedLineNumber }
  }

  /** Diversity qrels: one judgment per doc into the store (its highest), and the subtopic sets. */
  private finishDiversity(): Map<string, SubtopicJudgments> {
    const out = new Map<string, SubtopicJudgments>()
    for (const [qid, q] of this.div!) {
      for (const [doc, d] of q.docs) this.store.add(qid, doc, d.grade, d.line)
      const relevant = [...q.subtopics.values()].filter((docs) => docs.size > 0)
      const docs = new Map<string, number[]>()
      relevant.forEach((set, s) => {
        for (const doc of set) {
          const l = docs.get(doc)
          if (l) l.push(s)
          else docs.set(doc, [s])
        }
      })
      out.set(qid, {
        count: relevant.length,
        docs,
        relevantPerSubtopic: relevant.map((set) => set.size),
      })
    }
    this.div!.clear()
    return out
  }

  private checkTooLong(): void {
    const at = this.lines.tooLongLine
    if (at === undefined || this.stopped) return
    this.malformedLineNumber ??= this.counted + 1
    this.issues.push({
      code: 'line_too_long',
      file: this.file,
      line: at,
      limit: this.lines.maxLineBytes,
    })
    this.stopped = true
  }

  /** Record a problem; false when reading should stop. */
  private problem(issue: InputIssue, malformed = true): boolean {
    if (malformed) this.malformedLineNumber ??= this.counted
    if (this.issues.length < this.maxIssues) this.issues.push(issue)
    if (this.stopAtFirst || this.issues.length >= this.maxIssues) this.stopped = true
    return !this.stopped
  }

  private onLine(buf: Uint8Array, start: number, end: number, line: number): boolean {
    const file = this.file
    if (this.comments && buf[start] === 0x23) {
      this.commentLines++
      return true
    }
    this.counted++
    if (this.nulBuf !== buf || (this.nextNul >= 0 && this.nextNul < start)) {
      this.nulBuf = buf
      this.nextNul = buf.indexOf(0, start)
    }
    const text = (): string => binaryString(buf, start, Math.min(end, start + 400))
    if (this.nextNul >= 0 && this.nextNul < end) {
      return this.problem({
        code: 'nul_byte',
        file,
        line,
        text: binaryString(buf, start, Math.min(end, start + 200)),
      })
    }
    const f = this.f
    const count = splitFields(buf, start, end, f)
    if (count !== 4) {
      if (this.strict && hasBareCr(buf, start, end))
        return this.problem({ code: 'bare_cr', file, line, text: text() })
      return this.problem({
        code: 'field_count',
        file,
        line,
        expected: '4 fields (qid iter docno rel)',
        found: count,
        text: text(),
      })
    }
    const g0 = f[6]!
    const g1 = f[7]!
    let grade: number
    if (this.strict) {
      const v = readInteger(buf, g0, g1)
      if (v === null)
        return this.problem({
          code: 'not_an_integer',
          field: 'grade',
          file,
          line,
          found: binaryString(buf, g0, Math.min(g1, g0 + 100)),
          text: text(),
        })
      grade = v
    } else grade = parseCLong(buf, g0, g1)
    if (this.remap) grade = this.remap.get(grade) ?? grade
    if (grade > MAX_GRADE) {
      return this.problem({
        code: 'grade_too_large',
        file,
        line,
        found: binaryString(buf, g0, Math.min(g1, g0 + 100)),
        limit: MAX_GRADE,
        text: text(),
      })
    }
    if (this.div) return this.addSubtopicJudgment(buf, f, grade, line, text)
    if (grade < 0 && this.negative !== 'nonrelevant') {
      if (this.negative === 'error')
        return this.problem(
          {
            code: 'negative_judgment',
            file,
            line,
            found: binaryString(buf, g0, Math.min(g1, g0 + 100)),
            text: text(),
            convention: true,
          },
          false,
        )
      // The query stays known, judged only negative if every line of it goes.
      this.store.addQuery(binaryString(buf, f[0]!, f[1]!))
      this.negativeDropped++
      return true
    }
    this.judgmentLines++
    this.store.add(binaryString(buf, f[0]!, f[1]!), binaryString(buf, f[4]!, f[5]!), grade, line)
    return true
  }

  private addSubtopicJudgment(
    buf: Uint8Array,
    f: readonly number[],
    grade: number,
    line: number,
    text: () => string,
  ): boolean {
    if (grade < 0)
      return this.problem({
        code: 'negative_judgment',
        file: this.file,
        line,
        found: String(grade),
        text: text(),
      })
    const qid = binaryString(buf, f[0]!, f[1]!)
    const subtopic = binaryString(buf, f[2]!, f[3]!)
    const doc = binaryString(buf, f[4]!, f[5]!)
    let q = this.div!.get(qid)
    if (!q) {
      q = { docs: new Map(), subtopics: new Map(), seen: new Map() }
      this.div!.set(qid, q)
    }
    const key = `${subtopic}\u0000${doc}`
    const d = q.docs.get(doc)
    const first = q.seen.get(key)
    if (first !== undefined)
      return this.problem({
        code: 'duplicate_judgment',
        file: this.file,
        line,
        queryId: qid,
        docId: doc,
        firstLine: first,
      })
    q.seen.set(key, line)
    this.judgmentLines++
    if (d) d.grade = Math.max(d.grade, grade)
    else q.docs.set(doc, { line, grade })
    let set = q.subtopics.get(subtopic)
    if (!set) q.subtopics.set(subtopic, (set = new Set()))
    if (grade > 0) set.add(doc)
    return true
  }
}

/** Parse a whole qrels file held in memory (see {@link QrelsParser}). */
export function parseQrels(bytes: Buffer, options: QrelsParseOptions = {}): QrelsParseResult {
  const p = new QrelsParser(options)
  p.feed(bytes)
  p.end()
  return p.result()
}
