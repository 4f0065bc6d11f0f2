import { IS_SPACE, latin1, parseCDouble } from './bytes.js'

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

const SLAB_BYTES = 1 << 20

/** Chunks with fewer bytes of complete lines than this skip the kernel (copying costs more). */
const KERNEL_MIN_BYTES = 4096

const FIELD = 0
const SPACE = 1
const NEWLINE = 2
/** Byte classes for the one-pass scanner: C isspace minus `\n`, `\n`, everything else. */
const CLASS: Uint8Array = (() => {
  const t = new Uint8Array(256)
  for (let b = 0; b < 256; b++) t[b] = b === 0x0a ? NEWLINE : IS_SPACE[b] ? SPACE : FIELD
  return t
})()

import type { InputIssue } from '../errors/issues.js'
import type { RunQuery } from '../model/types.js'
import { HASH_SEED, hashFinish, hashStep } from '../rank/id-hash.js'
import { DEFAULT_MAX_LINE_BYTES, hasBareCr, splitFields } from './lines.js'
import { readScore } from './numbers.js'
import {
  RUN_SCAN_KERNEL,
  type RunScanKernel,
  SCAN_COMMENTS,
  SCAN_HAVE_QID,
  SCAN_STRICT,
} from './run-scan.js'

/** Options of {@link TrecRunParser}. */
export interface RunParseOptions {
  /** File name used in messages. */
  readonly file?: string
  /** Skip lines whose first non-blank byte is `#` (trec_eval 10). @default true */
  readonly comments?: boolean
  /** Round scores to float32 (trec_eval 9, pytrec_eval) instead of keeping float64. */
  readonly float32?: boolean
  /** Also parse the rank column and collect distinct tags (rank ordering, validation). @default false */
  readonly keepRanks?: boolean
  /** Stop at the first malformed line, as trec_eval does. @default false */
  readonly stopAtFirstError?: boolean
  /** Most issues collected before stopping. @default 50 */
  readonly maxIssues?: number
  /** Longest line accepted. @default 16 MiB (see `io/limits.ts`) */
  readonly maxLineBytes?: number
  /**
   * `strict` (default): exactly six fields, scores in the decimal syntax of `io/numbers.ts` and
   * finite, a CR inside a line refused. `c`: trec_eval's reading (extra fields ignored, scores
   * read like C `atof`, so `abc` is 0): the drop-in.
   */
  readonly syntax?: 'strict' | 'c'
  /**
   * Keep doc ids as bytes (`RunQuery.docBytes`) instead of one string per line: much less work
   * and garbage for evaluation, which rarely needs the ids as text. @default false
   */
  readonly compactIds?: boolean
  /**
   * How lines in the usual shape are taken: with the WebAssembly kernel (`io/run-scan.ts`) for
   * chunks of at least 4 KiB where it is available (`auto`), with it for every chunk (`true`),
   * or with the JavaScript loop that does the same (`false`). The tests compare them; the
   * results are the same. @default 'auto'
   */
  readonly kernel?: boolean | 'auto'
}

/** A maximal block of consecutive run lines with the same query id. */
export type RunGroup = RunQuery

/**
 * Streaming parser for TREC runs (`qid iter docno rank score tag`, six C-whitespace fields;
 * blank lines skipped). Feed it byte chunks; it calls `onGroup` with each block of consecutive
 * lines of one query as soon as the block ends, so memory stays bounded for runs grouped by
 * query. Scores follow `io/numbers.ts`, or C `atof` with extra fields ignored under
 * `syntax: 'c'` (the drop-in).
 */
/** A DataView over exactly the bytes of `b` (for reading doc ids 4 bytes at a time). */
function viewOf(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength)
}

export class TrecRunParser {
  /** Every problem found (capped at `maxIssues`). */
  readonly issues: InputIssue[] = []
  /** trec_eval's count for "Malformed line N": content lines up to the first bad one. */
  malformedLineNumber: number | undefined
  /** Content (non-blank, non-comment) lines seen. */
  contentLines = 0
  /** Blank or whitespace-only lines skipped. */
  blankLines = 0
  /** Comment lines skipped. */
  commentLines = 0
  /** Run tag of the last content line. */
  lastTag = ''
  /** Distinct run tags in order of first appearance (capped at 100; only with `keepRanks`). */
  readonly tags: string[] = []
  /** Set once a problem made the parser stop reading. */
  stopped = false

  private readonly file: string
  private readonly comments: boolean
  private readonly float32: boolean
  private readonly keepRanks: boolean
  private readonly stopAtFirst: boolean
  private readonly maxIssues: number
  private readonly maxLine: number
  private readonly compact: boolean
  private readonly strict: boolean
  private readonly kernelMin: number
  /** Doc id bytes of consecutive queries share large slabs; each query's ids are one slice. */
  private slab: Buffer = Buffer.alloc(0)
  private slabView: DataView = new DataView(new ArrayBuffer(0))
  private base = 0
  private arenaUsed = 0
  private readonly onGroup: (g: RunGroup) => void
  private line = 0
  private carry: Buffer | null = null
  /*
   * The current group (block of lines of one query). Scores, hashes and id offsets go into
   * scratch arrays reused from group to group and copied out at their exact size when the group
   * ends; line numbers are kept as the first one while they are consecutive.
   */
  private curQueryId: string | null = null
  private curQidBuf: Uint8Array = new Uint8Array(0)
  private count = 0
  private firstLine = 0
  private curLines: number[] | null = null
  private curDocIds: string[] = []
  private curRanks: number[] | null = null
  private readonly scoreScratch: number[] = new Array<number>(1024).fill(0.5)
  private readonly hashScratch: number[] = new Array<number>(1024).fill(0)
  private readonly offsetScratch: number[] = new Array<number>(1025).fill(0)
  /** Where the last content line's tag starts (its end is found when the tag is needed). */
  private lastTagBuf: Buffer | null = null
  private lastTagStart = 0

  constructor(onGroup: (g: RunGroup) => void, options: RunParseOptions = {}) {
    this.onGroup = onGroup
    this.file = options.file ?? 'run'
    this.comments = options.comments ?? true
    this.float32 = options.float32 ?? false
    this.keepRanks = options.keepRanks ?? false
    this.stopAtFirst = options.stopAtFirstError ?? false
    this.maxIssues = options.maxIssues ?? 50
    this.maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
    this.compact = options.compactIds ?? false
    this.strict = (options.syntax ?? 'strict') === 'strict'
    const kernel = options.kernel ?? 'auto'
    this.kernelMin = kernel === 'auto' ? KERNEL_MIN_BYTES : kernel ? 1 : Infinity
  }

  /** Parse the complete lines of `chunk`; an unfinished last line is kept for the next call. */
  feed(chunk: Buffer): void {
    if (this.stopped) return
    let pos = 0
    if (this.carry) {
      const nl = chunk.indexOf(0x0a)
      if (nl < 0) {
        if (this.carry.length + chunk.length > this.maxLine) {
          this.tooLong()
          return
        }
        this.carry = Buffer.concat([this.carry, chunk])
        return
      }
      const joined = Buffer.concat([this.carry, chunk.subarray(0, nl)])
      this.carry = null
      if (this.parseLine(joined, viewOf(joined), 0, joined.length, true, joined.indexOf(0)) === -2)
        return
      pos = nl + 1
    }
    // NUL bytes: find the next one once and move on only when a line passes it (linear time).
    let nextNul = chunk.indexOf(0, pos)
    const n = chunk.length
    const view = viewOf(chunk)
    // Every line that starts before the chunk's last newline is complete: those go through the
    // fast loop first.
    const lastNl = chunk.lastIndexOf(0x0a)
    if (lastNl >= pos && !this.keepRanks && !this.stopped) {
      const k = RUN_SCAN_KERNEL
      if (
        k &&
        !k.busy &&
        lastNl + 1 - pos >= this.kernelMin &&
        this.curQidBuf.length <= k.qidBytes
      ) {
        k.busy = true
        try {
          pos = this.kernelLines(k, chunk, view, pos, lastNl + 1, nextNul)
        } finally {
          k.busy = false
        }
      } else pos = this.fastLines(chunk, view, pos, lastNl + 1, nextNul)
      nextNul = chunk.indexOf(0, pos)
    }
    while (pos < n && !this.stopped) {
      if (nextNul >= 0 && nextNul < pos) nextNul = chunk.indexOf(0, pos)
      const nl = this.parseLine(chunk, view, pos, n, false, nextNul)
      if (nl === -2) break
      if (nl === -1) {
        if (n - pos > this.maxLine) this.tooLong()
        else this.carry = Buffer.from(chunk.subarray(pos))
        break
      }
      pos = nl + 1
    }
    this.flushTag()
  }

  /** Finish: parse a last line without newline and emit the last group. */
  end(): void {
    if (this.carry && !this.stopped) {
      const c = this.carry
      this.carry = null
      this.parseLine(c, viewOf(c), 0, c.length, true, c.indexOf(0))
      this.flushTag()
    }
    this.emit()
  }

  /**
   * Parse the lines of `buf[pos, stop)`, where `stop - 1` is a newline, with the kernel: each
   * window of complete lines is copied into its memory once and scanned; the lines it does not
   * take go to {@link parseLine} one at a time, and scanning goes on after them. Returns where
   * reading stopped, as {@link fastLines} does.
   */
  private kernelLines(
    k: RunScanKernel,
    buf: Buffer,
    view: DataView,
    pos: number,
    stop: number,
    nul: number,
  ): number {
    let nextNul = nul
    const flags = (this.strict ? SCAN_STRICT : 0) | (this.comments ? SCAN_COMMENTS : 0)
    while (pos < stop) {
      let wEnd = stop
      if (wEnd - pos > k.windowBytes) wEnd = buf.lastIndexOf(0x0a, pos + k.windowBytes - 1) + 1
      if (wEnd <= pos) {
        // One line longer than the window: the full reader takes it.
        if (nextNul >= 0 && nextNul < pos) nextNul = buf.indexOf(0, pos)
        const nl = this.parseLine(buf, view, pos, buf.length, false, nextNul)
        if (nl < 0 || this.stopped) return nl === -2 ? stop : pos
        pos = nl + 1
        continue
      }
      const len = wEnd - pos
      k.u8.set(buf.subarray(pos, wEnd), k.input)
      let from = 0
      while (from < len) {
        let qidLen = 0
        let f = flags
        if (this.curQueryId !== null) {
          qidLen = this.curQidBuf.length
          if (qidLen > k.qidBytes) return this.fastLines(buf, view, pos + from, stop, nextNul)
          k.u8.set(this.curQidBuf, k.qid)
          f |= SCAN_HAVE_QID
        }
        const n = k.scan(from, len, qidLen, f, this.maxLine)
        const at = k.stopPos
        if (n > 0) this.takeRecords(k, buf, pos, n)
        from = at
        if (at >= len || n > 0) continue
        // A line the kernel does not take.
        const start = pos + at
        if (nextNul >= 0 && nextNul < start) nextNul = buf.indexOf(0, start)
        const nl = this.parseLine(buf, view, start, buf.length, false, nextNul)
        if (nl < 0 || this.stopped) return nl === -2 ? stop : start
        from = nl + 1 - pos
      }
      pos = wEnd
    }
    return pos
  }

  /**
   * Add the kernel's `n` records (lines of the window that starts at `buf[base]`, in order and
   * consecutive) to the current group, starting a new group where the kernel saw a new query id.
   */
  private takeRecords(k: RunScanKernel, buf: Buffer, base: number, n: number): void {
    const i32 = k.i32
    const groups = k.groups
    const g0 = k.group
    const firstLine = this.line + 1
    this.line += n
    this.contentLines += n
    let r = 0
    let gi = 0
    while (r < n) {
      if (gi < groups && i32[g0 + 3 * gi] === r) {
        const q0 = base + i32[g0 + 3 * gi + 1]!
        const q1 = base + i32[g0 + 3 * gi + 2]!
        this.startGroup(buf, q0, q1, firstLine + r)
        gi++
      }
      const end = gi < groups ? i32[g0 + 3 * gi]! : n
      this.appendRecords(k, buf, base, r, end, firstLine + r)
      r = end
    }
    const t = k.lastTag
    if (t >= 0) {
      this.lastTagBuf = buf
      this.lastTagStart = base + t
    }
  }

  /** Append records `[a, b)` of the kernel to the current group; record `a` is line `lineNo`. */
  private appendRecords(
    k: RunScanKernel,
    buf: Buffer,
    base: number,
    a: number,
    b: number,
    lineNo: number,
  ): void {
    const n0 = this.count
    const m = b - a
    if (this.curLines) for (let j = 0; j < m; j++) this.curLines.push(lineNo + j)
    else if (lineNo !== this.firstLine + n0) {
      const lines = new Array<number>(n0 + m)
      for (let j = 0; j < n0; j++) lines[j] = this.firstLine + j
      for (let j = 0; j < m; j++) lines[n0 + j] = lineNo + j
      this.curLines = lines
    }
    const scores = this.scoreScratch
    const hashes = this.hashScratch
    const offsets = this.offsetScratch
    while (scores.length < n0 + m) {
      scores.push(0.5)
      hashes.push(0)
      offsets.push(0)
    }
    const f64 = k.f64
    const i32 = k.i32
    const s = k.score + a
    if (this.float32) for (let j = 0; j < m; j++) scores[n0 + j] = Math.fround(f64[s + j]!)
    else for (let j = 0; j < m; j++) scores[n0 + j] = f64[s + j]!
    const h = k.hash + a
    for (let j = 0; j < m; j++) hashes[n0 + j] = i32[h + j]!
    const e = k.idEnd + a
    const id0 = a === 0 ? 0 : i32[e - 1]!
    if (this.compact) {
      const id1 = i32[e + m - 1]!
      const at = this.reserve(id1 - id0)
      this.slab.set(k.u8.subarray(k.ids + id0, k.ids + id1), at)
      const shift = this.arenaUsed - id0
      for (let j = 0; j < m; j++) offsets[n0 + j + 1] = shift + i32[e + j]!
      this.arenaUsed += id1 - id0
    } else {
      const d = k.docStart + a
      let prev = id0
      for (let j = 0; j < m; j++) {
        const end = i32[e + j]!
        const d0 = base + i32[d + j]!
        this.curDocIds.push(latin1(buf, d0, d0 + end - prev))
        prev = end
      }
    }
    this.count = n0 + m
  }

  /**
   * Parse the lines of `buf[pos, stop)`, where `stop - 1` is a newline, so that no scan needs a
   * bounds check: each stops at that newline at the latest (the 4-byte doc id loop reads at most
   * to the end of `buf`). Lines in the usual shape (a field first, single-line plain decimal
   * score, no NUL, not too long, six fields when strict) are taken here; any other line goes to
   * {@link parseLine}, which reads it exactly as it would without this loop. Returns where
   * reading stopped (`stop`, or earlier once the parser stopped).
   */
  private fastLines(buf: Buffer, view: DataView, pos: number, stop: number, nul: number): number {
    const strict = this.strict
    const comments = this.comments
    const maxLine = this.maxLine
    const bufLen = buf.length
    let nextNul = nul
    while (pos < stop) {
      if (nextNul >= 0 && nextNul < pos) nextNul = buf.indexOf(0, pos)
      const start = pos
      let i = pos
      let ok = CLASS[buf[i]!] === FIELD && !(comments && buf[i] === 0x23)
      // The query id, compared with the previous line's while scanning (see parseLine).
      const q0 = i
      const qb = this.curQidBuf
      const ql = qb.length
      let same = false
      if (this.curQueryId !== null && CLASS[buf[q0 + ql]!] === SPACE) {
        let k = 0
        while (k < ql && qb[k] === buf[q0 + k]) k++
        same = k === ql
      }
      if (same) i = q0 + ql
      else while (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD) i++
      const q1 = i
      ok = ok && CLASS[buf[i]!] === SPACE
      while (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE) i++
      while (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD) i++ // iter
      ok = ok && CLASS[buf[i]!] === SPACE
      while (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE) i++
      const d0 = i
      let h = HASH_SEED
      while (i + 4 <= bufLen) {
        const w = view.getInt32(i, true)
        if (((w - 0x21212121) & ~w & 0x80808080) !== 0) break
        h = hashStep(h, w)
        i += 4
      }
      let k = i
      while (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD) i++
      const d1 = i
      ok = ok && d1 > d0 && CLASS[buf[i]!] === SPACE
      while (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE) i++
      const r0 = i
      while (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD) i++ // rank
      ok = ok && i > r0 && CLASS[buf[i]!] === SPACE
      while (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE) i++
      let mant = 0
      let digits = 0
      let frac = -1
      for (;;) {
        const b = buf[i]!
        if (b >= 0x30 && b <= 0x39) {
          mant = mant * 10 + (b - 0x30)
          digits++
          if (frac >= 0) frac++
        } else if (b === 0x2e && frac < 0) frac = 0
        else break
        i++
      }
      ok = ok && digits > 0 && digits <= 15 && CLASS[buf[i]!] === SPACE
      while (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE) i++
      const t0 = i
      ok = ok && CLASS[buf[i]!] === FIELD
      if (strict) {
        while (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD) i++
        while (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE) i++
        ok = ok && buf[i] === 0x0a
      }
      while (buf[i] !== 0x0a) i++
      const end = i
      ok = ok && end - start <= maxLine && !(nextNul >= 0 && nextNul < end)
      if (!ok) {
        // Not the usual shape: the full reader takes this line.
        const nl = this.parseLine(buf, view, start, bufLen, false, nextNul)
        if (nl < 0 || this.stopped) return nl === -2 ? stop : start
        pos = nl + 1
        continue
      }
      for (; k + 4 <= d1; k += 4) h = hashStep(h, view.getInt32(k, true))
      for (; k < d1; k++) h = hashStep(h, buf[k]!)
      const lineNo = ++this.line
      this.contentLines++
      this.accept(buf, view, lineNo, same, q0, q1, d0, d1, h, frac > 0 ? mant / POW10[frac]! : mant)
      this.lastTagBuf = buf
      this.lastTagStart = t0
      pos = end + 1
    }
    return pos
  }

  /** Record an overlong line and stop; returns -2 (see `parseLine`). */
  private tooLong(): number {
    this.issues.push({
      code: 'line_too_long',
      file: this.file,
      line: this.line + 1,
      limit: this.maxLine,
    })
    this.stopped = true
    this.carry = null
    return -2
  }

  /** Make `lastTag` the tag of the last content line (its buffer may be reused after `feed`). */
  private flushTag(): void {
    const buf = this.lastTagBuf
    if (buf) {
      let e = this.lastTagStart
      while (e < buf.length && CLASS[buf[e]!] === FIELD) e++
      this.lastTag = buf.toString('latin1', this.lastTagStart, e)
      this.lastTagBuf = null
    }
  }

  private emit(): void {
    const queryId = this.curQueryId
    if (queryId === null) return
    this.curQueryId = null
    const n = this.count
    let lines = this.curLines
    if (!lines) {
      lines = new Array<number>(n)
      for (let k = 0, l = this.firstLine; k < n; k++) lines[k] = l++
    }
    const scores = this.scoreScratch.slice(0, n)
    const docHashes = this.hashScratch.slice(0, n)
    if (!this.compact) {
      this.onGroup({
        queryId,
        docIds: this.curDocIds,
        scores,
        ranks: this.curRanks,
        lines,
        docHashes,
      })
      return
    }
    const bytes = this.slab.subarray(this.base, this.base + this.arenaUsed)
    const offsets = this.offsetScratch.slice(0, n + 1)
    // The emitted slice is handed over and never written again; the next query starts after it.
    this.base += this.arenaUsed
    this.arenaUsed = 0
    // One literal, not a spread of the other shape: V8 allocated spread copies in the old
    // generation here, about 180 bytes of garbage a query that only a full GC reclaims.
    this.onGroup({
      queryId,
      docIds: [],
      scores,
      ranks: this.curRanks,
      lines,
      docHashes,
      docBytes: { bytes, offsets },
    })
  }

  private problem(issue: InputIssue): void {
    if (this.issues.length < this.maxIssues) this.issues.push(issue)
    if (this.stopAtFirst || this.issues.length >= this.maxIssues) this.stopped = true
  }

  /**
   * Parse the line starting at `start`, scanning for its end as it goes (one pass over the bytes).
   * Returns the index of its `\n` (or `limit` for a final line), -1 when the line is not
   * complete before `limit` (nothing is recorded then), or -2 when it is too long (reading
   * stops). `nul` is the next NUL byte, -1 if none.
   */
  private parseLine(
    buf: Buffer,
    view: DataView,
    start: number,
    limit: number,
    final: boolean,
    nul: number,
  ): number {
    let i = start
    while (i < limit && (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE)) i++
    if (i < limit && buf[i] === 0x0a) return this.blank(start, i)
    if (i >= limit) return final ? this.blank(start, limit) : -1
    if (this.comments && buf[i] === 0x23) {
      while (i < limit && buf[i] !== 0x0a) i++
      if (i >= limit && !final) return -1
      if (i - start > this.maxLine) return this.tooLong()
      this.line++
      this.commentLines++
      return i
    }
    // Field boundaries: qid, iter, docno, rank, score, tag.
    // Most lines repeat the previous line's query id: compare with it while scanning.
    const q0 = i
    const qb = this.curQidBuf
    const ql = qb.length
    let same = false
    if (this.curQueryId !== null && q0 + ql < limit && CLASS[buf[q0 + ql]!] === SPACE) {
      let k = 0
      while (k < ql && qb[k] === buf[q0 + k]) k++
      same = k === ql
    }
    if (same) i = q0 + ql
    else while (i < limit && (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD)) i++
    const q1 = i
    while (i < limit && (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE)) i++
    while (i < limit && (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD)) i++ // iter
    while (i < limit && (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE)) i++
    // The doc id is scanned and hashed (see rank/id-hash.ts) 4 bytes at a time while no byte of
    // the word can end it (none below 0x21: the classic "has less" test on the word), then byte
    // by byte; the bytes after the last whole word are hashed as the hash defines them.
    const d0 = i
    let h = HASH_SEED
    while (i + 4 <= limit) {
      const w = view.getInt32(i, true)
      if (((w - 0x21212121) & ~w & 0x80808080) !== 0) break
      h = hashStep(h, w)
      i += 4
    }
    let k = i
    while (i < limit && (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD)) i++
    const d1 = i
    for (; k + 4 <= d1; k += 4) h = hashStep(h, view.getInt32(k, true))
    for (; k < d1; k++) h = hashStep(h, buf[k]!)
    while (i < limit && (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE)) i++
    const r0 = i
    while (i < limit && (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD)) i++
    const r1 = i
    while (i < limit && (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE)) i++
    const s0 = i
    // Plain decimal scores (digits, at most one '.', up to 15 digits) are read while scanning;
    // anything else goes to parseCDouble below.
    let mant = 0
    let digits = 0
    let frac = -1
    let plain = true
    while (i < limit) {
      const b = buf[i]!
      if (b >= 0x30 && b <= 0x39) {
        mant = mant * 10 + (b - 0x30)
        digits++
        if (frac >= 0) frac++
      } else if (b === 0x2e && frac < 0) frac = 0
      else if (CLASS[b] === FIELD) plain = false
      else break
      i++
    }
    const s1 = i
    while (i < limit && (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE)) i++
    const t0 = i
    // The tag only has to be there; the rest of the line is skipped (extra fields are an error
    // when strict, ignored otherwise).
    const hasTag = i < limit && CLASS[buf[i]!] === FIELD
    let extra = false
    if (this.strict && hasTag) {
      while (i < limit && (buf[i]! > 0x20 || CLASS[buf[i]!] === FIELD)) i++
      while (i < limit && (buf[i] === 0x20 || CLASS[buf[i]!] === SPACE)) i++
      extra = i < limit && buf[i] !== 0x0a
    }
    while (i < limit && buf[i] !== 0x0a) i++
    if (i >= limit && !final) return -1
    const end = i
    if (end - start > this.maxLine) return this.tooLong()
    const lineNo = ++this.line
    const counted = ++this.contentLines
    const hasNul = nul >= 0 && nul < end
    if (hasNul) {
      this.malformedLineNumber ??= counted
      this.problem({
        code: 'nul_byte',
        file: this.file,
        line: lineNo,
        text: buf.toString('latin1', start, Math.min(end, start + 200)),
      })
      return end
    }
    if (!hasTag || extra) {
      this.malformedLineNumber ??= counted
      if (this.strict && hasBareCr(buf, start, end)) {
        this.problem({
          code: 'bare_cr',
          file: this.file,
          line: lineNo,
          text: buf.toString('latin1', start, Math.min(end, start + 400)),
        })
        return end
      }
      this.problem({
        code: 'field_count',
        file: this.file,
        line: lineNo,
        expected: '6 fields (qid iter docno rank score tag)',
        found: splitFields(buf, start, end, []),
        text: buf.toString('latin1', start, Math.min(end, start + 400)),
      })
      return end
    }
    let score: number
    if (plain && digits > 0 && digits <= 15) score = frac > 0 ? mant / POW10[frac]! : mant
    else if (this.strict) {
      const r = readScore(buf, s0, s1)
      if (!r.ok) {
        this.malformedLineNumber ??= counted
        const found = buf.toString('latin1', s0, Math.min(s1, s0 + 100))
        const text = buf.toString('latin1', start, Math.min(end, start + 400))
        this.problem(
          r.code === 'not_finite'
            ? { code: 'not_finite', field: 'score', file: this.file, line: lineNo, found, text }
            : { code: 'not_a_number', field: 'score', file: this.file, line: lineNo, found, text },
        )
        return end
      }
      score = r.value
    } else score = parseCDouble(buf, s0, s1)
    this.accept(buf, view, lineNo, same, q0, q1, d0, d1, h, score)
    if (this.curRanks) {
      const text = buf.toString('latin1', r0, r1)
      this.curRanks.push(/^[+-]?\d+$/.test(text) ? Number(text) : NaN)
      let t1 = t0
      while (t1 < end && CLASS[buf[t1]!] === FIELD) t1++
      const tag = buf.toString('latin1', t0, t1)
      if (this.tags.length < 100 && !this.tags.includes(tag)) this.tags.push(tag)
    }
    this.lastTagBuf = buf
    this.lastTagStart = t0
    return end
  }

  /**
   * Add one well-formed line to the current group (a new group when its query id differs):
   * `q0..q1` the query id, `d0..d1` the doc id and `h` its hash so far, `score` as read.
   */
  private accept(
    buf: Buffer,
    view: DataView,
    lineNo: number,
    same: boolean,
    q0: number,
    q1: number,
    d0: number,
    d1: number,
    h: number,
    score: number,
  ): void {
    if (this.float32) score = Math.fround(score)
    if (!same) this.startGroup(buf, q0, q1, lineNo)
    const n = this.count
    if (n === this.scoreScratch.length) {
      this.scoreScratch.push(score)
      this.hashScratch.push(0)
      this.offsetScratch.push(0)
    } else this.scoreScratch[n] = score
    if (this.curLines) this.curLines.push(lineNo)
    else if (lineNo !== this.firstLine + n) {
      // A blank or comment line inside the group: from now on line numbers are listed.
      const lines = new Array<number>(n + 1)
      for (let k = 0; k < n; k++) lines[k] = this.firstLine + k
      lines[n] = lineNo
      this.curLines = lines
    }
    // The doc id: copied 4 bytes at a time in compact mode.
    let k = d0
    if (this.compact) {
      let at = this.reserve(d1 - d0)
      const slab = this.slab
      const sv = this.slabView
      for (; k + 4 <= d1; k += 4) {
        sv.setInt32(at, view.getInt32(k, true), true)
        at += 4
      }
      for (; k < d1; k++) slab[at++] = buf[k]!
      this.arenaUsed = at - this.base
      this.offsetScratch[n + 1] = this.arenaUsed
    } else this.curDocIds.push(latin1(buf, d0, d1))
    this.hashScratch[n] = hashFinish(h)
    this.count = n + 1
  }

  /** End the current group and start one for the query id `buf[q0, q1)` at line `lineNo`. */
  private startGroup(buf: Buffer, q0: number, q1: number, lineNo: number): void {
    this.emit()
    this.curQidBuf = Uint8Array.from(buf.subarray(q0, q1))
    this.curQueryId = latin1(buf, q0, q1)
    this.count = 0
    this.firstLine = lineNo
    this.curLines = null
    if (!this.compact) this.curDocIds = []
    this.curRanks = this.keepRanks ? [] : null
  }

  /** Room for `len` more doc id bytes in the slab; returns where they go. */
  private reserve(len: number): number {
    const at = this.base + this.arenaUsed
    if (at + len <= this.slab.length) return at
    // A new slab; the bytes of the current query so far move to its start.
    const slab = Buffer.allocUnsafe(Math.max(SLAB_BYTES, 2 * (this.arenaUsed + len)))
    this.slab.copy(slab, 0, this.base, at)
    this.slab = slab
    this.slabView = viewOf(slab)
    this.base = 0
    return this.arenaUsed
  }

  private blank(start: number, end: number): number {
    if (end - start > this.maxLine) return this.tooLong()
    this.line++
    this.blankLines++
    return end
  }
}
