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
import { decodeId, latin1 } from '../../io/bytes.js'
import { firstInvalidUtf8 } from '../../validate/utf8.js'

/** One finding of `format_checker.py`, keyed by `kind`, with the line (1-based, physical). */
export type FormatCheckerFinding =
  | { readonly kind: 'columns'; readonly line: number; readonly found: number }
  | { readonly kind: 'rank'; readonly line: number; readonly found: string }
  | { readonly kind: 'score'; readonly line: number; readonly found: string }
  | { readonly kind: 'duplicate_rank'; readonly line: number; readonly queryId: string; readonly rank: string }
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
export const FORMAT_CHECKER_ERROR_KINDS: ReadonlySet<FormatCheckerFinding['kind']> = new Set(['columns', 'rank', 'score', 'duplicate_rank'])

/**
 * One non-blank line as the checker splits it, for layers that check more (RETECO validate):
 * the raw bytes as a binary string, the Python-split fields (binary strings) with their byte
 * offsets, and what `int()` / `float()` made of the rank and score (when there are 6 fields).
 */
export interface CheckedLine {
  readonly line: number
  /** The raw line without `\n` (binary string). */
  readonly raw: string
  readonly fields: readonly string[]
  /** 0-based byte offset of each field in `raw`. */
  readonly offsets: readonly number[]
  /** Python `int(rank)` when the line has 6 fields and it parses (any sign); else `null`. */
  readonly rank: bigint | null
  /** Python `float(score)` when the line has 6 fields and it parses; else `null`. */
  readonly score: number | null
  /** What the checker found on this line. */
  readonly findings: readonly FormatCheckerFinding[]
}

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
  readonly errors: readonly FormatCheckerFinding[]
  readonly warnings: readonly FormatCheckerFinding[]
  /** `RESULT: VALID` (exit 0). False when there are errors or the checker crashed. */
  readonly valid: boolean
  /** Why Python would stop with a traceback (exit 1, nothing on stdout), or `null`. */
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
    if (c1 === 0x80) return (c2 >= 0x80 && c2 <= 0x8a) || c2 === 0xa8 || c2 === 0xa9 || c2 === 0xaf ? 3 : 0
    return c1 === 0x81 && c2 === 0x9f ? 3 : 0
  }
  if (c === 0xe3) return c1 === 0x80 && c2 === 0x80 ? 3 : 0
  return 0
}

const PY_INT = /^[+-]?[0-9](?:_?[0-9])*$/
const PY_FLOAT = /^[+-]?(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/
const PY_FLOAT_WORD = /^([+-]?)(inf|infinity|nan)$/i

/** Python `int(text)` for ASCII text, or `null` where Python raises `ValueError`. */
function pythonInt(text: string): bigint | null {
  return PY_INT.test(text) ? BigInt(text.replace(/_/g, '')) : null
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
  private readonly ranks = new Map<string, Set<bigint>>()
  private readonly last = new Map<string, { score: number; text: string; line: number }>()
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
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
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
      topics: this.ranks.size,
      errors: this.errors,
      warnings: this.warnings,
      valid: this.errors.length === 0 && this.crashed === null,
      crashed: this.crashed,
    }
  }

  private checkLine(buf: Buffer, start: number, end: number): void {
    const lineNo = ++this.line
    if (this.crashed) return
    if (firstInvalidUtf8(buf, start, end) >= 0) {
      this.crashed = `UnicodeDecodeError: invalid UTF-8 on line ${lineNo}`
      return
    }
    const fields: string[] = []
    const offsets: number[] = []
    let i = start
    while (i < end) {
      const w = spaceLength(buf, i, end)
      if (w > 0) {
        i += w
        continue
      }
      const s = i
      while (i < end && spaceLength(buf, i, end) === 0) i++
      fields.push(latin1(buf, s, i))
      offsets.push(s - start)
    }
    if (fields.length === 0) return
    this.lines++
    const findings: FormatCheckerFinding[] = []
    let rank: bigint | null = null
    let score: number | null = null
    const report = (f: FormatCheckerFinding, error: boolean): void => {
      findings.push(f)
      ;(error ? this.errors : this.warnings).push(f)
    }
    if (fields.length !== 6) {
      report({ kind: 'columns', line: lineNo, found: fields.length }, true)
    } else {
      const [qid, , docid, rankText, scoreText] = fields as [string, string, string, string, string, string]
      rank = pythonInt(rankText)
      if (rank === null || rank <= 0n) report({ kind: 'rank', line: lineNo, found: rankText }, true)
      score = pythonFloat(scoreText)
      if (score === null) report({ kind: 'score', line: lineNo, found: scoreText }, true)
      else {
        if (this.topicIds && !this.topicIds.has(qid)) report({ kind: 'unknown_topic', line: lineNo, queryId: qid }, false)
        if (this.docIds && !this.docIds.has(docid)) report({ kind: 'unknown_doc', line: lineNo, docId: docid }, false)
        let ranks = this.ranks.get(qid)
        if (!ranks) this.ranks.set(qid, (ranks = new Set()))
        if (rank !== null) {
          if (ranks.has(rank)) report({ kind: 'duplicate_rank', line: lineNo, queryId: qid, rank: rank.toString() }, true)
          ranks.add(rank)
        }
        const prev = this.last.get(qid)
        if (prev && score > prev.score + 1e-9) {
          report({ kind: 'score_increases', line: lineNo, queryId: qid, score: scoreText, previousScore: prev.text, previousLine: prev.line }, false)
        }
        this.last.set(qid, { score, text: scoreText, line: lineNo })
      }
    }
    this.onLine?.({ line: lineNo, raw: latin1(buf, start, end), fields, offsets, rank, score, findings })
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
  let out = `lines: ${r.lines}  topics: ${r.topics}  errors: ${r.errors.length}  warnings: ${r.warnings.length}\n`
  for (const e of r.errors.slice(0, 50)) out += `  ERROR   ${formatCheckerMessage(e)}\n`
  for (const w of r.warnings.slice(0, 20)) out += `  warn    ${formatCheckerMessage(w)}\n`
  out += r.errors.length > 0 ? 'RESULT: INVALID\n' : 'RESULT: VALID\n'
  return out
}
