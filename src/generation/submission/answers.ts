/**
 * Checks a RETECO 2b/2c generation answer file (pure; bytes in, report out): UTF-8 JSONL, one
 * object per line, exactly `{"turn_id": "<conv>_turn_<t>", "answer": "..."}`. Every problem is
 * reported with its physical 1-based line number; nothing stops the check early, so one bad
 * line never hides another. Answers are measured in Unicode code points.
 *
 * Errors (the file fails): invalid UTF-8, invalid JSON, a line that is not an object, a missing
 * or extra field, a field of the wrong type, a turn that is not a target turn of the domain,
 * a turn answered twice, an answer over the length limit, a line over the byte limit.
 * Warnings (the file passes unless strict): a target turn with no answer (it scores zero), an
 * empty or whitespace-only answer (judged as given: it will score low).
 * Lines are read by the shared JSONL conventions of `src/io/jsonl.ts` (CRLF, BOM, blank lines).
 */
import type { AnswerIssue } from '../../errors/answer-issues.js'
import { ISSUE_SEVERITY, toIssue } from '../../errors/to-issue.js'
import { jsonlLines } from '../../io/jsonl.js'

export const ANSWER_PROBLEM_CODES = [
  'invalid_utf8',
  'invalid_json',
  'not_an_object',
  'missing_field',
  'extra_field',
  'wrong_type',
  'unknown_turn',
  'duplicate_turn',
  'answer_too_long',
  'line_too_long',
  'empty_answer',
  'missing_turn',
] as const
export type AnswerProblemCode = (typeof ANSWER_PROBLEM_CODES)[number]

// the code list and the issue union name the same codes
const _sameCodes: [AnswerProblemCode, AnswerIssue['code']] extends [
  AnswerIssue['code'],
  AnswerProblemCode,
]
  ? true
  : never = true
void _sameCodes

/** Severity of each code: the `answer` row of the one severity table (`errors/to-issue.ts`). */
export const ANSWER_PROBLEM_SEVERITY: Readonly<Record<AnswerProblemCode, 'error' | 'warning'>> =
  ISSUE_SEVERITY.answer

export const ANSWER_PROBLEM_DESCRIPTIONS: Readonly<Record<AnswerProblemCode, string>> = {
  invalid_utf8: 'the line is not valid UTF-8',
  invalid_json: 'the line is not valid JSON',
  not_an_object: 'the line is JSON but not an object',
  missing_field: 'turn_id or answer is missing',
  extra_field: 'a field other than turn_id and answer',
  wrong_type: 'turn_id or answer is not a string',
  unknown_turn: 'turn_id is not a target turn of this domain and split',
  duplicate_turn: 'the turn was already answered on an earlier line',
  answer_too_long: 'the answer is longer than the limit (--max-answer-chars, code points)',
  line_too_long: 'the line is longer than the byte limit and was not parsed',
  empty_answer: 'the answer is empty or whitespace only',
  missing_turn: 'a target turn has no answer: it scores zero',
}

/** One problem. `line` is 0 for missing_turn (no line has it). */
export interface AnswerProblem {
  readonly code: AnswerProblemCode
  readonly severity: 'error' | 'warning'
  readonly line: number
  /** The offending text (clipped), where there is one. */
  readonly text: string
  readonly message: string
  readonly turnId?: string
  /** duplicate_turn: the line of the first answer. */
  readonly firstLine?: number
}

export interface AnswerCheckOptions {
  /** Target turn ids, in the order they are listed when missing. */
  readonly turns: readonly string[]
  /** Longest answer in Unicode code points. @default 4000 */
  readonly maxAnswerChars?: number
  /** Longest line in bytes; longer lines are reported, not parsed. @default 16 MiB */
  readonly maxLineBytes?: number
  /** unknown_turn hints: turn ids that exist elsewhere (another domain or split) → where. */
  readonly elsewhere?: ReadonlyMap<string, string>
}

export interface AnswerFileReport {
  readonly file: string
  readonly lines: number
  readonly blankLines: number
  readonly bytes: number
  /** Target turns, answered turns (first answer of each target turn), and missing ones. */
  readonly targetTurns: number
  readonly answeredTurns: number
  readonly missingTurns: number
  readonly errors: number
  readonly warnings: number
  readonly counts: Readonly<Record<AnswerProblemCode, number>>
  /** Every problem, in line order, missing turns last. */
  readonly problems: readonly AnswerProblem[]
  /** Longest answer seen, in code points (0 when none). */
  readonly longestAnswer: number
}

export const DEFAULT_MAX_ANSWER_CHARS = 4000
const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024
const SHOW = 120

function clip(text: string): string {
  return text.length > SHOW ? `${text.slice(0, SHOW)}… (${text.length} characters)` : text
}

/** Code points in s, counting no further than limit + 1. */
function codePoints(s: string, limit: number): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    if (++n > limit) return n
  }
  return n
}

function fullCodePoints(s: string): number {
  return codePoints(s, Number.MAX_SAFE_INTEGER)
}

const FIELDS = new Set(['turn_id', 'answer'])

/** Checks one answer file's bytes against the target turns. */
export function checkAnswerFile(
  bytes: Uint8Array,
  file: string,
  options: AnswerCheckOptions,
): AnswerFileReport {
  const maxChars = options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const targets = new Set(options.turns)
  const lenient = new TextDecoder('utf-8')
  const problems: AnswerProblem[] = []
  const counts = Object.fromEntries(ANSWER_PROBLEM_CODES.map((c) => [c, 0])) as Record<
    AnswerProblemCode,
    number
  >
  // the report keeps each problem as before: code, severity, line, text, message (worded by the
  // one table from the issue), then turnId and firstLine where the code has them
  const add = (issue: AnswerIssue, line: number, text: string): void => {
    const code = issue.code
    counts[code]++
    const { severity, message } = toIssue('answer', issue, { file, line })
    problems.push({
      code,
      severity: severity as AnswerProblem['severity'],
      line,
      text: clip(text),
      message,
      ...('turnId' in issue && issue.turnId !== undefined ? { turnId: issue.turnId } : {}),
      ...('firstLine' in issue ? { firstLine: issue.firstLine } : {}),
    })
  }
  const answered = new Map<string, number>()
  let lines = 0
  let blank = 0
  let longest = 0
  for (const l of jsonlLines(bytes, { maxLineBytes })) {
    const lineNo = (lines = l.line)
    if (l.kind === 'too_long') {
      add(
        { code: 'line_too_long', lineBytes: l.lineBytes, limit: maxLineBytes },
        lineNo,
        lenient.decode(l.bytes.subarray(0, SHOW * 4)),
      )
      continue
    }
    if (l.kind === 'invalid_utf8') {
      add({ code: 'invalid_utf8' }, lineNo, l.text)
      continue
    }
    if (l.kind === 'blank') {
      blank++
      continue
    }
    const text = l.text
    if (l.kind === 'invalid_json') {
      add({ code: 'invalid_json', error: l.error }, lineNo, text)
      continue
    }
    const value = l.value
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const found = Array.isArray(value)
        ? 'an array'
        : value === null
          ? 'null'
          : `a ${typeof value}`
      add({ code: 'not_an_object', found }, lineNo, text)
      continue
    }
    const o = value as Record<string, unknown>
    for (const k of Object.keys(o))
      if (!FIELDS.has(k)) add({ code: 'extra_field', field: k }, lineNo, text)
    const turnId = o['turn_id']
    const answer = o['answer']
    if (turnId === undefined) add({ code: 'missing_field', field: 'turn_id' }, lineNo, text)
    else if (typeof turnId !== 'string')
      add({ code: 'wrong_type', field: 'turn_id', found: JSON.stringify(turnId) }, lineNo, text)
    if (answer === undefined) add({ code: 'missing_field', field: 'answer' }, lineNo, text)
    else if (typeof answer !== 'string') {
      const found =
        answer === null ? 'null' : Array.isArray(answer) ? 'an array' : `a ${typeof answer}`
      add({ code: 'wrong_type', field: 'answer', found }, lineNo, text)
    }
    if (typeof answer === 'string') {
      if (answer.trim() === '')
        add(
          { code: 'empty_answer', ...(typeof turnId === 'string' ? { turnId } : {}) },
          lineNo,
          text,
        )
      const n = codePoints(answer, maxChars)
      if (n > maxChars) {
        const full = fullCodePoints(answer)
        longest = Math.max(longest, full)
        add(
          {
            code: 'answer_too_long',
            chars: full,
            limit: maxChars,
            ...(typeof turnId === 'string' ? { turnId } : {}),
          },
          lineNo,
          text,
        )
      } else longest = Math.max(longest, n)
    }
    if (typeof turnId === 'string') {
      if (!targets.has(turnId)) {
        const elsewhere = options.elsewhere?.get(turnId)
        add({ code: 'unknown_turn', turnId, ...(elsewhere ? { elsewhere } : {}) }, lineNo, text)
      } else if (typeof answer === 'string') {
        // only a line with an answer answers its turn (a broken line leaves the turn missing)
        const first = answered.get(turnId)
        if (first !== undefined)
          add({ code: 'duplicate_turn', turnId, firstLine: first }, lineNo, text)
        else answered.set(turnId, lineNo)
      }
    }
  }
  let missing = 0
  for (const t of options.turns) {
    if (answered.has(t)) continue
    missing++
    add({ code: 'missing_turn', turnId: t }, 0, '')
  }
  let errors = 0
  let warnings = 0
  for (const c of ANSWER_PROBLEM_CODES)
    ANSWER_PROBLEM_SEVERITY[c] === 'error' ? (errors += counts[c]) : (warnings += counts[c])
  return {
    file,
    lines,
    blankLines: blank,
    bytes: bytes.length,
    targetTurns: targets.size,
    answeredTurns: answered.size,
    missingTurns: missing,
    errors,
    warnings,
    counts,
    problems,
    longestAnswer: longest,
  }
}
