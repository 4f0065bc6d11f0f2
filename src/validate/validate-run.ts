/**
 * Check a TREC run file (`qid iter docno rank score tag`) and report every problem at once, each
 * with its physical line, byte column and raw line. Pure: bytes in, a report out, no I/O.
 *
 * Lines are split on `\n` and fields on C `isspace`, as trec_eval does; blank lines and lines
 * whose first field starts with `#` are skipped (trec_eval 10). Memory stays bounded by
 * `maxLineBytes` however the input is shaped (a multi-GB file without newlines is skipped, not
 * buffered), plus a compact record of each topic's documents for the duplicate checks.
 */
import { binaryString, IS_SPACE, parseCDouble, parseCLong } from '../io/bytes.js'
import {
  DEFAULT_MAX_LINE_BYTES,
  LINE_LF,
  LineSplitter,
  type LinesTaken,
  splitFields,
} from '../io/lines.js'
import { isDecimal, isInteger, isNanOrInf } from '../io/numbers.js'
import {
  RUN_SCAN_KERNEL,
  type RunScanKernel,
  SCAN_COMMENTS,
  SCAN_HAVE_QID,
} from '../io/run-scan.js'
import {
  hasWhere,
  MAX_TEXT_BYTES,
  RUN_PROBLEM_CODES,
  RUN_PROBLEM_SEVERITY,
  type RunProblem,
  type RunProblemCode,
  type RunProblemOf,
  type Severity,
  type Where,
} from './run-problem.js'
import { hashBytes, OpenTopic, type TopicArchive } from './topic-docs.js'
import { firstInvalidUtf8 } from './utf8.js'

/** Options of {@link validateRun} and {@link RunValidator}. */
export interface ValidateRunOptions {
  /** File name used in the report. @default 'run' */
  readonly file?: string
  /** Most documents a topic may have (`too_deep` beyond). @default no limit */
  readonly maxDepth?: number
  /** Longest line checked; longer lines are skipped and reported. @default 16 MiB */
  readonly maxLineBytes?: number
  /** Known topic ids (binary strings, e.g. from the qrels); others get `unknown_topic`. */
  readonly topics?: ReadonlySet<string>
  /** Known document ids (binary strings, e.g. a corpus list); others get `unknown_doc`. */
  readonly docs?: ReadonlySet<string>
  /** Problems listed per code; every problem is counted regardless. @default 20 */
  readonly maxListed?: number
  /** Warnings make the report fail (`ok` false) too. @default false */
  readonly strict?: boolean
  /**
   * A line of more than 6 fields is an `extra_fields` error (`evaluate` and the presets refuse it;
   * trec_eval ignores the extra fields). `false` leaves it to the caller. @default true
   */
  readonly extraFields?: boolean
  /**
   * How lines in the usual shape are checked: with the WebAssembly kernel (`io/run-scan.ts`
   * `check`) for chunks with at least 4 KiB of complete lines where it is available (`auto`),
   * for every chunk (`true`), or never (`false`). The report is the same; the tests compare them.
   * @default 'auto'
   */
  readonly kernel?: boolean | 'auto'
}

/** Chunks with fewer bytes of complete lines than this skip the kernel (copying costs more). */
const KERNEL_MIN_BYTES = 4096

const NOTHING_TAKEN: LinesTaken = { lines: 0, end: 0 }

/** How many problems of one code were found and how many of them are listed. */
export interface ProblemCount {
  readonly code: RunProblemCode
  readonly severity: Severity
  readonly count: number
  readonly listed: number
}

/** What {@link validateRun} returns. */
export interface RunValidationReport {
  /** The file name given in the options. */
  readonly file: string
  /** No errors (and, when `strict`, no warnings either). */
  readonly ok: boolean
  /** Whether warnings fail the report. */
  readonly strict: boolean
  /** Number of errors found (all of them, listed or not). */
  readonly errors: number
  /** Number of warnings found (all of them, listed or not). */
  readonly warnings: number
  /** Distinct topic (query) ids. */
  readonly queries: number
  /** Physical lines (a last line without newline counts). */
  readonly lines: number
  /** Lines that are neither blank nor comments. */
  readonly runLines: number
  /** Blank (whitespace-only) lines. */
  readonly blankLines: number
  /** Comment lines (first field starting with `#`). */
  readonly commentLines: number
  /** Bytes read. */
  readonly bytes: number
  /** Distinct run tags in order of first appearance (binary strings; the first 100). */
  readonly tags: readonly string[]
  /** Codes found at least once, in documentation order. */
  readonly counts: readonly ProblemCount[]
  /** The listed problems (at most `maxListed` per code), by line then column. */
  readonly problems: readonly RunProblem[]
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

/** Byte classes for the one-pass line scan. */
const SPACE = 1
const NUL = 2
const HIGH = 4
const CLASS: Uint8Array = (() => {
  const t = new Uint8Array(256)
  for (let c = 0; c < 256; c++) if (IS_SPACE[c]) t[c] = SPACE
  t[0] = NUL
  for (let c = 0x80; c < 256; c++) t[c] = HIGH
  return t
})()

/** Does `a` hold the same bytes as `buf[s, e)`? (A loop: ids are short, `Buffer.compare` is not.) */
function sameBytes(a: Uint8Array, buf: Uint8Array, s: number, e: number): boolean {
  if (a.length !== e - s) return false
  for (let k = 0; k < a.length; k++) if (a[k] !== buf[s + k]) return false
  return true
}

interface TopicState {
  readonly queryId: string
  count: number
  /** The documents and ranks of an ended block (null while the block is open or never ended). */
  archive: TopicArchive | null
  /** Last line of the topic with a valid rank and score (for the order check). */
  lastLine: number
  lastRank: number
  lastScore: number
  /** Where the first document beyond `maxDepth` is (only when listed). */
  deep: Where | null
}

/**
 * Streaming run validator: {@link feed} byte chunks in order (chunks may be reused by the caller
 * afterwards), then {@link end} for the report. Use {@link fail} when the input could not be read
 * to its end. {@link validateRun} wraps it for bytes held in memory.
 */
export class RunValidator {
  private readonly file: string
  private readonly maxDepth: number
  private readonly maxLine: number
  private readonly knownTopics: ReadonlySet<string> | undefined
  private readonly knownDocs: ReadonlySet<string> | undefined
  private readonly maxListed: number
  private readonly strict: boolean
  private readonly extraFields: boolean

  private line = 0
  private bytes = 0
  private runLines = 0
  private blankLines = 0
  private commentLines = 0
  private readonly lines: LineSplitter
  private failed: { reason: string; afterLine: number } | null = null
  private ended = false

  private readonly counts = new Map<RunProblemCode, number>()
  private readonly listed: RunProblem[] = []
  private crlfCount = 0
  private crlfWhere: Where | null = null

  private readonly topics = new Map<string, TopicState>()
  private cur: TopicState | null = null
  /** The documents and ranks of `cur`'s open block. */
  private readonly open = new OpenTopic()
  /** A view of the buffer the last line came in (doc ids are hashed 4 bytes at a time). */
  private view: DataView = new DataView(new ArrayBuffer(0))
  private viewOf: Uint8Array | null = null
  private curQid: Uint8Array = new Uint8Array(0)

  private firstTag: string | null = null
  private firstTagLine = 0
  private prevTag: Uint8Array = new Uint8Array(0)
  private readonly tags = new Set<string>()

  private readonly fs = new Int32Array(6)
  private readonly fe = new Int32Array(6)

  private readonly kernelMin: number
  /** The kernel, held during one {@link feed} (null: the lines go through {@link checkLine}). */
  private kernel: RunScanKernel | null = null
  private kernelView: DataView | null = null
  /** The bytes in the kernel's input window: `winBuf[winStart, winEnd)` (null: none). */
  private winBuf: Uint8Array | null = null
  private winStart = 0
  private winEnd = 0
  /** Where the window starts in the kernel's memory (lines of kernel records start there or later). */
  private winBase = 0
  private readonly taken = { lines: 0, end: 0 }

  constructor(options: ValidateRunOptions = {}) {
    this.file = options.file ?? 'run'
    this.maxDepth = options.maxDepth ?? Infinity
    this.maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
    this.knownTopics = options.topics
    this.knownDocs = options.docs
    this.maxListed = options.maxListed ?? 20
    this.strict = options.strict ?? false
    this.extraFields = options.extraFields ?? true
    const kernel = options.kernel ?? 'auto'
    this.kernelMin = kernel === 'auto' ? KERNEL_MIN_BYTES : kernel ? 1 : Infinity
    this.lines = new LineSplitter(
      (buf, start, end, _line, flags) => this.checkLine(buf, start, end, (flags & LINE_LF) !== 0),
      {
        maxLineBytes: this.maxLine,
        tooLong: 'skip',
        headBytes: MAX_TEXT_BYTES,
        onTooLong: (head, lineBytes, line) => this.tooLong(head, lineBytes, line),
        onLines: (buf, start, end, line) => this.kernelLines(buf, start, end, line),
      },
    )
  }

  /** Check the complete lines of `chunk`; an unfinished last line waits for the next chunk. */
  feed(chunk: Uint8Array): void {
    if (this.ended || this.failed) return
    this.bytes += chunk.length
    const k = RUN_SCAN_KERNEL
    if (k === null || k.busy || this.kernelMin === Infinity) {
      this.lines.feed(chunk)
      return
    }
    // The kernel's memory is this thread's scratch space: held for this call only.
    k.busy = true
    this.kernel = k
    this.kernelView ??= new DataView(k.u8.buffer)
    try {
      this.lines.feed(chunk)
    } finally {
      k.busy = false
      this.kernel = null
      this.winBuf = null
    }
  }

  /** Record that the input could not be read to its end (`reason` as worded by the reader). */
  fail(reason: string): void {
    if (this.ended || this.failed) return
    this.failed = { reason, afterLine: this.line }
    this.lines.stop()
  }

  /**
   * The distinct topic ids seen so far (binary strings), in order of first appearance; a last
   * line without newline is only seen by {@link end}.
   */
  queryIds(): string[] {
    return [...this.topics.keys()]
  }

  /** Finish: check a last line without newline, then build the report. */
  end(): RunValidationReport {
    if (!this.ended) this.finish()
    this.ended = true
    const counts: ProblemCount[] = []
    let errors = 0
    let warnings = 0
    const listedBy = new Map<RunProblemCode, number>()
    for (const p of this.listed) listedBy.set(p.code, (listedBy.get(p.code) ?? 0) + 1)
    for (const code of RUN_PROBLEM_CODES) {
      const count = this.counts.get(code) ?? 0
      if (count === 0) continue
      const severity = RUN_PROBLEM_SEVERITY[code]
      if (severity === 'error') errors += count
      else warnings += count
      counts.push({ code, severity, count, listed: listedBy.get(code) ?? 0 })
    }
    const order = new Map(RUN_PROBLEM_CODES.map((c, i) => [c, i]))
    const key = (p: RunProblem): number =>
      hasWhere(p) ? p.line : p.code === 'cannot_read' ? Infinity : 0
    const problems = [...this.listed].sort(
      (a, b) =>
        key(a) - key(b) ||
        (hasWhere(a) ? a.column : 0) - (hasWhere(b) ? b.column : 0) ||
        order.get(a.code)! - order.get(b.code)!,
    )
    return {
      file: this.file,
      ok: errors === 0 && !(this.strict && warnings > 0),
      strict: this.strict,
      errors,
      warnings,
      queries: this.topics.size,
      lines: this.line,
      runLines: this.runLines,
      blankLines: this.blankLines,
      commentLines: this.commentLines,
      bytes: this.bytes,
      tags: [...this.tags].slice(0, 100),
      counts,
      problems,
    }
  }

  private finish(): void {
    this.lines.end()
    if (this.failed) {
      this.add({
        code: 'cannot_read',
        reason: this.failed.reason,
        afterLine: this.failed.afterLine,
      })
    } else if (this.bytes === 0) {
      this.add({ code: 'empty_file' })
    } else if (this.runLines === 0) {
      this.add({
        code: 'no_run_lines',
        blankLines: this.blankLines,
        commentLines: this.commentLines,
      })
    }
    if (this.crlfWhere) this.add({ ...this.crlfWhere, code: 'crlf', count: this.crlfCount })
    for (const t of this.topics.values()) {
      if (t.deep)
        this.listed.push({
          ...t.deep,
          code: 'too_deep',
          queryId: t.queryId,
          limit: this.maxDepth,
          count: t.count,
        })
    }
  }

  /** Count a problem; true when it is to be listed too. */
  private hit(code: RunProblemCode): boolean {
    const n = (this.counts.get(code) ?? 0) + 1
    this.counts.set(code, n)
    return n <= this.maxListed
  }

  private add(p: RunProblem): void {
    if (this.hit(p.code)) this.listed.push(p)
  }

  /**
   * Take what the kernel takes of the complete lines `buf[start, end)`, the first numbered
   * `line` (see `BulkLineHandler`): their records are checked by {@link record}; the line it
   * stops at goes through {@link checkLine}, and the rest is offered again.
   */
  private kernelLines(buf: Uint8Array, start: number, end: number, line: number): LinesTaken {
    const k = this.kernel
    if (k === null || end - start < this.kernelMin) return NOTHING_TAKEN
    const tagLen = this.prevTag.length
    if (this.firstTag === null || tagLen > k.tagBytes) return NOTHING_TAKEN
    let qidLen = 0
    let flags = SCAN_COMMENTS
    if (this.cur !== null) {
      qidLen = this.curQid.length
      if (qidLen > k.qidBytes) return NOTHING_TAKEN
    }
    if (buf !== this.winBuf || start < this.winStart || start >= this.winEnd) {
      let wEnd = end
      if (wEnd - start > k.windowBytes) wEnd = buf.lastIndexOf(0x0a, start + k.windowBytes - 1) + 1
      if (wEnd <= start) return NOTHING_TAKEN
      k.u8.set(buf.subarray(start, wEnd), k.input)
      this.winBuf = buf
      this.winStart = start
      this.winEnd = wEnd
    }
    if (qidLen > 0) {
      k.u8.set(this.curQid, k.qid)
      flags |= SCAN_HAVE_QID
    }
    k.u8.set(this.prevTag, k.tag)
    const from = start - this.winStart
    const n = k.check(from, this.winEnd - this.winStart, qidLen, tagLen, flags, this.maxLine)
    if (n === 0) return NOTHING_TAKEN
    this.takeRecords(k, n, line)
    this.taken.lines = n
    this.taken.end = this.winStart + k.stopPos
    return this.taken
  }

  /** Check the kernel's `n` records (consecutive lines of its window, the first numbered `line`). */
  private takeRecords(k: RunScanKernel, n: number, line: number): void {
    const u8 = k.u8
    const i32 = k.i32
    const f64 = k.f64
    const view = this.kernelView!
    const base = k.input
    const groups = k.groups
    const g0 = k.group
    const hash = k.hash
    const idEnd = k.idEnd
    const docStart = k.docStart
    const rank = k.rank
    const score = k.score
    this.winBase = base
    this.runLines += n
    let gi = 0
    let nextGroup = groups > 0 ? i32[g0]! : n
    let t = this.cur
    let prevEnd = 0
    for (let r = 0; r < n; r++) {
      // Problems are worded at this.line (see where()).
      this.line = line + r
      if (r === nextGroup) {
        const q0 = base + i32[g0 + 3 * gi + 1]!
        t = this.topicOf(u8, q0, -1, q0, base + i32[g0 + 3 * gi + 2]!)
        gi++
        nextGroup = gi < groups ? i32[g0 + 3 * gi]! : n
      }
      const e = i32[idEnd + r]!
      const d0 = base + i32[docStart + r]!
      const d1 = d0 + e - prevEnd
      prevEnd = e
      this.record(
        t!,
        u8,
        view,
        -1,
        -1,
        this.line,
        d0,
        d1,
        i32[hash + r]!,
        f64[rank + r]!,
        f64[score + r]!,
      )
    }
  }

  /**
   * Where a problem at byte `at` of line `buf[start, e)` is. A bound of -1 is not known yet
   * (a kernel record); it is found from `at`, which lies in the line.
   */
  private where(buf: Uint8Array, start: number, end: number, at: number): Where {
    if (start < 0 || end < 0) {
      const f = this.fieldsOf(buf, start, end, at)
      start = f[0]!
      end = f[1]!
    }
    return {
      line: this.line,
      column: at - start + 1,
      text: binaryString(buf, start, Math.min(end, start + MAX_TEXT_BYTES)),
      lineBytes: end - start,
    }
  }

  /** A line over the limit: counted as a run line, reported, not checked. */
  private tooLong(head: Uint8Array, lineBytes: number, line: number): void {
    this.line = line
    this.runLines++
    const text = binaryString(head, 0, Math.min(head.length, MAX_TEXT_BYTES))
    this.add({
      code: 'line_too_long',
      line,
      column: this.maxLine + 1,
      text,
      lineBytes,
      limit: this.maxLine,
    })
  }

  /** One line `buf[start, end)` (no `\n`); `newline`: it was ended by a `\n`. */
  private checkLine(buf: Uint8Array, start: number, end: number, newline: boolean): void {
    const lineNo = ++this.line
    let e = end
    if (newline && e > start && buf[e - 1] === 0x0d) {
      e--
      this.crlfCount++
      this.crlfWhere ??= this.where(buf, start, e, e)
    }
    // One pass: field boundaries (first six), field count, NUL, CR, bytes >= 0x80.
    const fs = this.fs
    const fe = this.fe
    let nf = 0
    let inField = false
    let nul = -1
    let cr = -1
    let high = false
    for (let i = start; i < e; i++) {
      const c = buf[i]!
      if (c > 0x20 && c < 0x80) {
        // A plain field byte (class 0): take the run of them at once.
        if (!inField) {
          nf++
          if (nf <= 6) fs[nf - 1] = i
          inField = true
        }
        while (i + 1 < e) {
          const d = buf[i + 1]!
          if (d <= 0x20 || d >= 0x80) break
          i++
        }
        continue
      }
      const k = CLASS[c]!
      if (k === SPACE) {
        if (inField) {
          if (nf <= 6) fe[nf - 1] = i
          inField = false
        }
        if (c === 0x0d && cr < 0) cr = i
      } else {
        if (!inField) {
          nf++
          if (nf <= 6) fs[nf - 1] = i
          inField = true
        }
        if (k === NUL) {
          if (nul < 0) nul = i
        } else if (k === HIGH) high = true
      }
    }
    if (inField && nf <= 6) fe[nf - 1] = e

    if (lineNo === 1) {
      if (
        e - start >= 3 &&
        buf[start] === 0xef &&
        buf[start + 1] === 0xbb &&
        buf[start + 2] === 0xbf
      ) {
        this.add({ ...this.where(buf, start, e, start), code: 'bom' })
      } else if (
        e - start >= 2 &&
        ((buf[start] === 0xff && buf[start + 1] === 0xfe) ||
          (buf[start] === 0xfe && buf[start + 1] === 0xff))
      ) {
        this.add({
          ...this.where(buf, start, e, start),
          code: 'utf16',
          encoding: buf[start] === 0xff ? 'UTF-16LE' : 'UTF-16BE',
        })
      }
    }
    if (cr >= 0 && this.hit('bare_cr'))
      this.listed.push({ ...this.where(buf, start, e, cr), code: 'bare_cr' })
    if (high) {
      const bad = firstInvalidUtf8(buf, start, e)
      if (bad >= 0 && this.hit('invalid_utf8'))
        this.listed.push({
          ...this.where(buf, start, e, bad),
          code: 'invalid_utf8',
          byte: buf[bad]!,
        })
    }
    if (nf === 0) {
      this.blankLines++
      return
    }
    if (nul >= 0) {
      this.runLines++
      if (this.hit('nul_byte'))
        this.listed.push({ ...this.where(buf, start, e, nul), code: 'nul_byte' })
      return
    }
    if (buf[fs[0]!] === 0x23) {
      this.commentLines++
      return
    }
    this.runLines++
    if (nf < 6) {
      if (this.hit('field_count'))
        this.listed.push({
          ...this.where(buf, start, e, fe[nf - 1]!),
          code: 'field_count',
          found: nf,
        })
      return
    }
    // A bare CR (reported as bare_cr) glues lines together; their fields are not extra fields.
    if (nf > 6 && this.extraFields && cr < 0) {
      if (this.hit('extra_fields'))
        this.listed.push({ ...this.where(buf, start, e, fs[5]!), code: 'extra_fields', found: nf })
    }
    this.checkRecord(buf, start, e, lineNo)
  }

  /** A line with at least six fields (boundaries in `fs`/`fe`). */
  private checkRecord(buf: Uint8Array, start: number, e: number, lineNo: number): void {
    const fs = this.fs
    const fe = this.fe
    const t = this.topicOf(buf, start, e, fs[0]!, fe[0]!)

    // Score
    const s0 = fs[4]!
    const s1 = fe[4]!
    let score = NaN
    // Plain decimals (digits, one '.', at most 15 digits) are read exactly as parseCDouble would.
    let mant = 0
    let digits = 0
    let frac = -1
    let k = s0
    for (; k < s1; k++) {
      const b = buf[k]!
      if (b >= 0x30 && b <= 0x39) {
        mant = mant * 10 + (b - 0x30)
        digits++
        if (frac >= 0) frac++
      } else if (b === 0x2e && frac < 0) frac = 0
      else break
    }
    if (k === s1 && digits > 0 && digits <= 15) score = frac > 0 ? mant / POW10[frac]! : mant
    else if (isDecimal(buf, s0, s1)) {
      score = parseCDouble(buf, s0, s1)
      if (!Number.isFinite(score)) {
        score = NaN
        if (this.hit('score_not_finite'))
          this.listed.push({
            ...this.where(buf, start, e, s0),
            code: 'score_not_finite',
            found: binaryString(buf, s0, s1),
          })
      }
    } else {
      const found = binaryString(buf, s0, Math.min(s1, s0 + MAX_TEXT_BYTES))
      const code = isNanOrInf(found) ? 'score_not_finite' : 'score_not_a_number'
      if (this.hit(code)) this.listed.push({ ...this.where(buf, start, e, s0), code, found })
    }

    // Rank
    const r0 = fs[3]!
    const r1 = fe[3]!
    let rank = NaN
    if (isInteger(buf, r0, r1)) {
      rank = r1 - r0 <= 15 ? parseCLong(buf, r0, r1) : Number(binaryString(buf, r0, r1))
    } else if (this.hit('rank_not_an_integer')) {
      this.listed.push({
        ...this.where(buf, start, e, r0),
        code: 'rank_not_an_integer',
        found: binaryString(buf, r0, Math.min(r1, r0 + MAX_TEXT_BYTES)),
      })
    }

    // Document
    const d0 = fs[2]!
    const d1 = fe[2]!
    if (buf !== this.viewOf) {
      this.viewOf = buf
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
    }
    const view = this.view
    this.record(t, buf, view, start, e, lineNo, d0, d1, hashBytes(buf, view, d0, d1), rank, score)

    // Run tag
    const g0 = fs[5]!
    const g1 = fe[5]!
    if (!sameBytes(this.prevTag, buf, g0, g1)) {
      const tag = binaryString(buf, g0, g1)
      this.prevTag = Uint8Array.from(buf.subarray(g0, g1))
      if (this.firstTag === null) {
        this.firstTag = tag
        this.firstTagLine = lineNo
        this.tags.add(tag)
      } else if (!this.tags.has(tag)) {
        if (this.tags.size < 10_000) this.tags.add(tag)
        if (this.hit('mixed_tags')) {
          this.listed.push({
            ...this.where(buf, start, e, g0),
            code: 'mixed_tags',
            tag,
            firstTag: this.firstTag,
            firstLine: this.firstTagLine,
          })
        }
      }
    }
  }

  /**
   * The checks of one record whose fields are read: depth, duplicate and unknown documents,
   * duplicate ranks, rank and score order. Doc id `buf[d0, d1)` with hash `h`; `rank` and `score`
   * are NaN when they could not be read. A line bound of -1 is not known (see {@link where}).
   */
  private record(
    t: TopicState,
    buf: Uint8Array,
    view: DataView,
    start: number,
    e: number,
    lineNo: number,
    d0: number,
    d1: number,
    h: number,
    rank: number,
    score: number,
  ): void {
    t.count++
    if (t.count === this.maxDepth + 1 && this.hit('too_deep'))
      t.deep = this.whereField(buf, start, e, d0, 0)
    const first = this.open.addHashed(buf, view, d0, d1, h, lineNo)
    if (first !== 0 && this.hit('duplicate_doc'))
      this.listed.push({
        ...this.where(buf, start, e, d0),
        code: 'duplicate_doc',
        queryId: t.queryId,
        docId: binaryString(buf, d0, d1),
        firstLine: first,
      })
    if (this.knownDocs) {
      const docId = binaryString(buf, d0, d1)
      if (!this.knownDocs.has(docId) && this.hit('unknown_doc')) {
        this.listed.push({
          ...this.where(buf, start, e, d0),
          code: 'unknown_doc',
          queryId: t.queryId,
          docId,
        })
      }
    }
    if (Number.isNaN(rank)) return
    const firstRank = this.open.addRank(rank, lineNo)
    if (firstRank !== 0 && this.hit('duplicate_rank')) {
      const f = this.fieldsOf(buf, start, e, d0)
      this.listed.push({
        ...this.where(buf, f[0]!, f[1]!, f[8]!),
        code: 'duplicate_rank',
        queryId: t.queryId,
        rank: binaryString(buf, f[8]!, f[9]!),
        firstLine: firstRank,
      })
    }
    if (Number.isNaN(score)) return
    if (
      t.lastLine > 0 &&
      ((rank > t.lastRank && score > t.lastScore) || (rank < t.lastRank && score < t.lastScore)) &&
      this.hit('rank_score_order')
    ) {
      this.listed.push({
        ...this.whereField(buf, start, e, d0, 4),
        code: 'rank_score_order',
        queryId: t.queryId,
        rank,
        score,
        previousLine: t.lastLine,
        previousRank: t.lastRank,
        previousScore: t.lastScore,
      })
    }
    t.lastLine = lineNo
    t.lastRank = rank
    t.lastScore = score
  }

  /**
   * The line holding byte `at` and its fields: `[start, end, s0, e0, s1, e1, …]`, a -1 bound
   * found as {@link where} does (only for a problem that is listed).
   */
  private fieldsOf(buf: Uint8Array, start: number, end: number, at: number): number[] {
    const s = start >= 0 ? start : Math.max(this.winBase, buf.lastIndexOf(0x0a, at - 1) + 1)
    const e = end >= 0 ? end : buf.indexOf(0x0a, at)
    const fields: number[] = []
    splitFields(buf, s, e, fields)
    return [s, e, ...fields]
  }

  /** {@link where} at the start of field `k` (0-based) of the line holding byte `at`. */
  private whereField(buf: Uint8Array, start: number, end: number, at: number, k: number): Where {
    const f = this.fieldsOf(buf, start, end, at)
    return this.where(buf, f[0]!, f[1]!, f[2 + 2 * k]!)
  }

  /** The topic of a record, switching blocks when the query id changes. */
  private topicOf(buf: Uint8Array, start: number, e: number, q0: number, q1: number): TopicState {
    const cur = this.cur
    if (cur !== null && sameBytes(this.curQid, buf, q0, q1)) return cur
    if (cur) cur.archive = this.open.archive()
    this.curQid = Uint8Array.from(buf.subarray(q0, q1))
    const queryId = binaryString(buf, q0, q1)
    let t = this.topics.get(queryId)
    if (t) {
      this.open.reload(t.archive!)
      t.archive = null
    } else {
      t = {
        queryId,
        count: 0,
        archive: null,
        lastLine: 0,
        lastRank: 0,
        lastScore: 0,
        deep: null,
      }
      this.topics.set(queryId, t)
      if (this.knownTopics && !this.knownTopics.has(queryId) && this.hit('unknown_topic')) {
        this.listed.push({ ...this.where(buf, start, e, q0), code: 'unknown_topic', queryId })
      }
    }
    this.cur = t
    return t
  }
}

/**
 * Validate a whole run held in memory (one buffer or a sequence of chunks).
 *
 * @example
 * const report = validateRun(Buffer.from('301 Q0 d1 1 2.5 bm25\n301 Q0 d1 2 2.1 bm25\n'))
 * report.problems[0] // { code: 'duplicate_doc', line: 2, column: 8, firstLine: 1, ... }
 */
export function validateRun(
  input: Uint8Array | Iterable<Uint8Array>,
  options: ValidateRunOptions = {},
): RunValidationReport {
  const v = new RunValidator(options)
  if (input instanceof Uint8Array) v.feed(input)
  else for (const chunk of input) v.feed(chunk)
  return v.end()
}

/** The problems of a report with a given code (typed). */
export function problemsOf<C extends RunProblemCode>(
  report: RunValidationReport,
  code: C,
): RunProblemOf<C>[] {
  return report.problems.filter((p): p is RunProblemOf<C> => p.code === code)
}
