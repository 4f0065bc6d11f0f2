/**
 * A faithful TypeScript port of the RETECO organizers' `format_checker.py` (starter kit,
 * `levinhthuanle/RETECO@bb1f9343`, 3,594 characters), so that `trecscore validate --preset
 * reteco-*` can say what the official checker would answer and why its own verdict differs.
 *
 * The checker, per non-blank line (Python `str.strip()`, `str.split()`):
 * - error `expected 6 columns, got N` (line skipped);
 * - error `rank must be a positive integer, got 'R'` (Python `int()`, then `> 0`);
 * - error `score must be a float, got 'S'` (Python `float()`: `nan`, `inf`, `1_0` pass; line skipped);
 * - warning `topic 'Q' not in qrels` (with `--qrels`), `docid 'D' not in corpus` (with `--corpus`);
 * - error `duplicate rank R in topic 'Q'` (any rank `int()` reads, even 0 or negative);
 * - warning `score increases with rank in topic 'Q'` when the score exceeds the previous line's
 *   score of the topic (file order, whatever the ranks) by more than 1e-9.
 * It prints `lines: N  topics: T  errors: E  warnings: W`, the first 50 errors and 20 warnings,
 * then `RESULT: VALID|INVALID` (exit 1 on any error). An empty file is VALID.
 *
 * Known deviations (documented, all on inputs the generic validator already reports): lines are
 * split on `\n` only (Python also ends a line at a bare CR); Python's non-ASCII digits in `int()`
 * and `float()` are not accepted; invalid UTF-8 makes Python stop with a `UnicodeDecodeError`
 * (reported here as `crashed`).
 */
import { decodeId, latin1 } from '../../../io/bytes.js'
import { firstInvalidUtf8 } from '../../../validate/utf8.js'

/** One finding of `format_checker.py`, keyed by `kind`, with the line (1-based, physical). */
export type FormatCheckerFinding =
  | { readonly kind: 'columns'; readonly line: number; readonly found: number }
  | { readonly kind: 'rank'; readonly line: number; readonly found: string }
  | { readonly kind: 'score'; readonly line: number; readonly found: string }
  | {
      readonly kind: 'duplicate_rank'
      readonly line: number
      readonly queryId: string
      readonly rank: string
    }
  | {
      readonly kind: 'score_increases'
      readonly line: number
      readonly queryId: string
      readonly score: string
      readonly previousScore: string
      readonly previousLine: number
    }
  | { readonly kind: 'unknown_topic'; readonly line: number; readonly queryId: string }
  | { readonly kind: 'unknown_doc'; readonly line: number; readonly docId: string }

/** Kinds the checker counts as errors (the others are warnings). */
export const FORMAT_CHECKER_ERROR_KINDS: ReadonlySet<FormatCheckerFinding['kind']> = new Set([
  'columns',
  'rank',
  'score',
  'duplicate_rank',
])

/**
 * One non-blank line as the checker splits it, for layers that check more (RETECO validate):
 * the Python-split fields (binary strings) with their byte offsets, and what `int()` /
 * `float()` made of the rank and score (when there are 6 fields). The object is reused: it is
 * valid only during the `onLine` call (copy what you keep).
 */
export interface CheckedLine {
  readonly line: number
  /** The raw line without `\n` (binary string), made on demand. */
  raw(): string
  readonly fields: readonly string[]
  /** 0-based byte offset of each field in the line. */
  readonly offsets: readonly number[]
  /**
   * Python `int(rank)` when the line has 6 fields and it parses (any sign); else `null`. A
   * number when it is a safe integer, a bigint beyond (so equal ranks are equal keys).
   */
  readonly rank: number | bigint | null
  /** Python `float(score)` when the line has 6 fields and it parses; else `null`. */
  readonly score: number | null
  /** What the checker found on this line. */
  readonly findings: readonly FormatCheckerFinding[]
}

const NO_FINDINGS: FormatCheckerFinding[] = []

/** The reused {@link CheckedLine}. */
class LineView implements CheckedLine {
  buf: Buffer = Buffer.alloc(0)
  start = 0
  end = 0
  line = 0
  fields: readonly string[] = []
  offsets: readonly number[] = []
  rank: number | bigint | null = null
  score: number | null = null
  findings: readonly FormatCheckerFinding[] = NO_FINDINGS
  raw(): string {
    return latin1(this.buf, this.start, this.end)
  }
}

/** 1 for the ASCII bytes Python's `str.split()` treats as whitespace. */
const ASCII_SPACE: Uint8Array = (() => {
  const t = new Uint8Array(128)
  for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20]) t[c] = 1
  return t
})()

/** Options of {@link FormatChecker}. */
export interface FormatCheckerOptions {
  /** Topic ids of `--qrels` (binary strings); absent: no topic check. */
  readonly topics?: ReadonlySet<string>
  /** Document ids of `--corpus` (binary strings); absent: no doc id check. */
  readonly docs?: { has(id: string): boolean }
  /** Called for every non-blank line, after the checker's own checks. */
  readonly onLine?: (line: CheckedLine) => void
}

/** What `format_checker.py` reports for a file. */
export interface FormatCheckerResult {
  /** Non-blank lines. */
  readonly lines: number
  /** Topics of lines whose score parsed. */
  readonly topics: number
  /** The errors the checker prints: the first 50 (all are counted in `errorCount`). */
  readonly errors: readonly FormatCheckerFinding[]
  /** The warnings the checker prints: the first 20. */
  readonly warnings: readonly FormatCheckerFinding[]
  readonly errorCount: number
  readonly warningCount: number
  /** Findings per kind (all of them). */
  readonly kinds: Readonly<Record<FormatCheckerFinding['kind'], number>>
  /** `RESULT: VALID` (exit 0). False when there are errors or the checker crashed. */
  readonly valid: boolean
  /**
   * Why Python would stop with a traceback (exit 1, nothing on stdout), or `null`. The other
   * fields then count every line, also those after the one Python stopped at.
   */
  readonly crashed: string | null
}

/** Byte length of the Python (`str.isspace`) whitespace character at `buf[i]`, or 0. */
function spaceLength(buf: Uint8Array, i: number, end: number): number {
  const c = buf[i]!
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)) return 1
  if (c < 0xc2) return 0
  const c1 = i + 1 < end ? buf[i + 1]! : -1
  if (c === 0xc2) return c1 === 0x85 || c1 === 0xa0 ? 2 : 0
  const c2 = i + 2 < end ? buf[i + 2]! : -1
  if (c === 0xe1) return c1 === 0x9a && c2 === 0x80 ? 3 : 0
  if (c === 0xe2) {
    if (c1 === 0x80)
      return (c2 >= 0x80 && c2 <= 0x8a) || c2 === 0xa8 || c2 === 0xa9 || c2 === 0xaf ? 3 : 0
    return c1 === 0x81 && c2 === 0x9f ? 3 : 0
  }
  if (c === 0xe3) return c1 === 0x80 && c2 === 0x80 ? 3 : 0
  return 0
}

const PY_INT = /^[+-]?[0-9](?:_?[0-9])*$/
const PY_FLOAT =
  /^[+-]?(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/
const PY_FLOAT_WORD = /^([+-]?)(inf|infinity|nan)$/i

/**
 * Python `int(text)` for ASCII text, or `null` where Python raises `ValueError`: a number when
 * it is a safe integer, else a bigint.
 */
function pythonInt(text: string): number | bigint | null {
  if (!PY_INT.test(text)) return null
  const digits = text.includes('_') ? text.replace(/_/g, '') : text
  if (digits.length <= 16) {
    const n = Number(digits)
    if (Number.isSafeInteger(n)) return n === 0 ? 0 : n
  }
  return BigInt(digits)
}

/** Python `float(text)` for ASCII text, or `null` where Python raises `ValueError`. */
function pythonFloat(text: string): number | null {
  if (PY_FLOAT.test(text)) return Number(text.replace(/_/g, ''))
  const w = PY_FLOAT_WORD.exec(text)
  if (!w) return null
  if (w[2]!.toLowerCase() === 'nan') return NaN
  return w[1] === '-' ? -Infinity : Infinity
}

/**
 * Streaming emulation of `format_checker.py`: {@link feed} chunks in order, then {@link end}.
 *
 * @example
 * const c = new FormatChecker()
 * c.feed(Buffer.from('q1 Q0 d1 1 0.5 run\nq1 Q0 d2 1 0.7 run\n'))
 * renderFormatCheckerOutput(c.end()) // 'lines: 2  topics: 1  errors: 1  warnings: 1\n  ERROR   L2: duplicate rank 1 …'
 */
export class FormatChecker {
  private readonly topicIds: ReadonlySet<string> | undefined
  private readonly docIds: { has(id: string): boolean } | undefined
  private readonly onLine: ((line: CheckedLine) => void) | undefined
  private readonly errors: FormatCheckerFinding[] = []
  private readonly warnings: FormatCheckerFinding[] = []
  private errorCount = 0
  private warningCount = 0
  private readonly kinds: Record<FormatCheckerFinding['kind'], number> = {
    columns: 0,
    rank: 0,
    score: 0,
    duplicate_rank: 0,
    score_increases: 0,
    unknown_topic: 0,
    unknown_doc: 0,
  }
  /** Per topic: the ranks seen (Python ints) and the last line's score (text, line). */
  private readonly perTopic = new Map<
    string,
    { readonly ranks: Set<number | bigint>; score: number; text: string; line: number }
  >()
  private findings: FormatCheckerFinding[] = NO_FINDINGS
  private readonly view = new LineView()
  private readonly fields: string[] = []
  private readonly offsets: number[] = []
  private carry: Buffer | null = null
  private line = 0
  private lines = 0
  private crashed: string | null = null

  constructor(options: FormatCheckerOptions = {}) {
    this.topicIds = options.topics
    this.docIds = options.docs
    this.onLine = options.onLine
  }

  /** Check the complete lines of `chunk`; a last line without `\n` waits for more. */
  feed(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let data = buf
    if (this.carry) {
      data = Buffer.concat([this.carry, buf])
      this.carry = null
    }
    let pos = 0
    for (;;) {
      const nl = data.indexOf(0x0a, pos)
      if (nl < 0) break
      this.checkLine(data, pos, nl)
      pos = nl + 1
    }
    if (pos < data.length) this.carry = Buffer.from(data.subarray(pos))
  }

  /** Finish (a last line without newline counts) and return what the checker reports. */
  end(): FormatCheckerResult {
    if (this.carry) {
      const c = this.carry
      this.carry = null
      this.checkLine(c, 0, c.length)
    }
    return {
      lines: this.lines,
      topics: this.perTopic.size,
      errors: this.errors,
      warnings: this.warnings,
      errorCount: this.errorCount,
      warningCount: this.warningCount,
      kinds: { ...this.kinds },
      valid: this.errorCount === 0 && this.crashed === null,
      crashed: this.crashed,
    }
  }

  private report(f: FormatCheckerFinding, error: boolean): void {
    if (this.findings === NO_FINDINGS) this.findings = []
    this.findings.push(f)
    this.kinds[f.kind]++
    if (error) {
      if (++this.errorCount <= 50) this.errors.push(f)
    } else if (++this.warningCount <= 20) this.warnings.push(f)
  }

  private checkLine(buf: Buffer, start: number, end: number): void {
    const lineNo = ++this.line
    if (this.crashed === null && firstInvalidUtf8(buf, start, end) >= 0)
      this.crashed = `UnicodeDecodeError: invalid UTF-8 on line ${lineNo}`
    // Python stops at the crash; the port reads on (the counts then go past what Python saw,
    // which prints nothing) so that `onLine` layers see every line.
    const fields = this.fields
    const offsets = this.offsets
    fields.length = 0
    offsets.length = 0
    let i = start
    while (i < end) {
      const c = buf[i]!
      const w = c < 0x80 ? ASCII_SPACE[c]! : spaceLength(buf, i, end)
      if (w > 0) {
        i += w
        continue
      }
      const s = i
      for (;;) {
        i++
        if (i >= end) break
        const d = buf[i]!
        if (d < 0x80 ? ASCII_SPACE[d] : spaceLength(buf, i, end)) break
      }
      fields.push(latin1(buf, s, i))
      offsets.push(s - start)
    }
    if (fields.length === 0) return
    this.findings = NO_FINDINGS
    let rank: number | bigint | null = null
    let score: number | null = null
    if (fields.length !== 6) {
      this.lines++
      this.report({ kind: 'columns', line: lineNo, found: fields.length }, true)
    } else {
      this.lines++
      const qid = fields[0]!
      const docid = fields[2]!
      const rankText = fields[3]!
      const scoreText = fields[4]!
      rank = pythonInt(rankText)
      if (rank === null || rank <= 0)
        this.report({ kind: 'rank', line: lineNo, found: rankText }, true)
      score = pythonFloat(scoreText)
      if (score === null) this.report({ kind: 'score', line: lineNo, found: scoreText }, true)
      else {
        if (this.topicIds && !this.topicIds.has(qid))
          this.report({ kind: 'unknown_topic', line: lineNo, queryId: qid }, false)
        if (this.docIds && !this.docIds.has(docid))
          this.report({ kind: 'unknown_doc', line: lineNo, docId: docid }, false)
        let t = this.perTopic.get(qid)
        if (!t) this.perTopic.set(qid, (t = { ranks: new Set(), score: NaN, text: '', line: 0 }))
        if (rank !== null) {
          if (t.ranks.has(rank))
            this.report(
              { kind: 'duplicate_rank', line: lineNo, queryId: qid, rank: rank.toString() },
              true,
            )
          t.ranks.add(rank)
        }
        if (t.line > 0 && score > t.score + 1e-9) {
          this.report(
            {
              kind: 'score_increases',
              line: lineNo,
              queryId: qid,
              score: scoreText,
              previousScore: t.text,
              previousLine: t.line,
            },
            false,
          )
        }
        t.score = score
        t.text = scoreText
        t.line = lineNo
      }
    }
    if (this.onLine) {
      const l = this.view
      l.buf = buf
      l.start = start
      l.end = end
      l.line = lineNo
      l.fields = fields
      l.offsets = offsets
      l.rank = rank
      l.score = score
      l.findings = this.findings
      this.onLine(l)
    }
  }
}

/** The checker's message for a finding (`L12: …`), ids decoded as UTF-8 like Python prints them. */
export function formatCheckerMessage(f: FormatCheckerFinding): string {
  switch (f.kind) {
    case 'columns':
      return `L${f.line}: expected 6 columns, got ${f.found}`
    case 'rank':
      return `L${f.line}: rank must be a positive integer, got '${decodeId(f.found)}'`
    case 'score':
      return `L${f.line}: score must be a float, got '${decodeId(f.found)}'`
    case 'duplicate_rank':
      return `L${f.line}: duplicate rank ${f.rank} in topic '${decodeId(f.queryId)}'`
    case 'score_increases':
      return `L${f.line}: score increases with rank in topic '${decodeId(f.queryId)}'`
    case 'unknown_topic':
      return `L${f.line}: topic '${decodeId(f.queryId)}' not in qrels`
    case 'unknown_doc':
      return `L${f.line}: docid '${decodeId(f.docId)}' not in corpus`
    default: {
      const never: never = f
      return String(never)
    }
  }
}

/** Exactly what `format_checker.py` prints on stdout (empty when it crashes). */
export function renderFormatCheckerOutput(r: FormatCheckerResult): string {
  if (r.crashed) return ''
  let out = `lines: ${r.lines}  topics: ${r.topics}  errors: ${r.errorCount}  warnings: ${r.warningCount}\n`
  for (const e of r.errors) out += `  ERROR   ${formatCheckerMessage(e)}\n`
  for (const w of r.warnings) out += `  warn    ${formatCheckerMessage(w)}\n`
  out += r.errorCount > 0 ? 'RESULT: INVALID\n' : 'RESULT: VALID\n'
  return out
}
