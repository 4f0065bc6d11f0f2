import { TrecscoreError } from '../../errors/trecscore-error.js'

/**
 * Line-by-line JSONL reading for the agreement inputs (pure; bytes in, records and problems
 * out). Lines are split on "\n" (a trailing "\r" is dropped); blank lines are skipped and
 * counted; each line is decoded as strict UTF-8 and parsed as JSON on its own, so one bad line
 * never hides the others.
 */

/** One bad input line: where, the offending text, what is wrong and what was expected. */
export interface AgreementInputProblem {
  readonly file: string
  /** Physical 1-based line; 0 for a problem about the whole file. */
  readonly line: number
  readonly text: string
  readonly message: string
  readonly expected: string
}

export interface JsonLine {
  readonly line: number
  readonly text: string
  readonly value: unknown
}

/** Longest text quoted back in a problem. */
const SHOW = 160

/** The text shown for a line in a problem (clipped, with its full length). */
export function clip(text: string): string {
  return text.length > SHOW ? `${text.slice(0, SHOW)}… (${text.length} characters)` : text
}

/** Splits bytes into JSON values per line; bad lines become problems. */
export function readJsonLines(bytes: Uint8Array, file: string): { lines: JsonLine[]; problems: AgreementInputProblem[]; blank: number } {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
  const lenient = new TextDecoder('utf-8')
  const lines: JsonLine[] = []
  const problems: AgreementInputProblem[] = []
  let blank = 0
  let start = 0
  let lineNo = 0
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start)
    if (end < 0) end = bytes.length
    lineNo++
    let stop = end
    if (stop > start && bytes[stop - 1] === 0x0d) stop--
    const slice = bytes.subarray(start, stop)
    start = end + 1
    let text: string
    try {
      text = decoder.decode(slice)
    } catch {
      problems.push({ file, line: lineNo, text: clip(lenient.decode(slice)), message: 'invalid UTF-8', expected: 'a UTF-8 encoded line' })
      continue
    }
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    if (text.trim() === '') {
      blank++
      continue
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      problems.push({ file, line: lineNo, text: clip(text), message: `invalid JSON (${e instanceof Error ? e.message : String(e)})`, expected: 'one JSON object per line' })
      continue
    }
    lines.push({ line: lineNo, text, value })
  }
  return { lines, problems, blank }
}

/** Formats a problem for people: FILE:LINE: message: "text" (expected …). */
export function formatAgreementInputProblem(p: AgreementInputProblem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}` : p.file
  return `${where}: ${p.message}${p.text ? `: ${JSON.stringify(p.text)}` : ''} (expected ${p.expected})`
}

/** Bad input for an agreement computation: every problem at once. CLI exit code 2. */
export class AgreementInputError extends TrecscoreError {
  readonly problems: readonly AgreementInputProblem[]
  constructor(problems: readonly AgreementInputProblem[], maxListed = 50) {
    const listed = problems.slice(0, maxListed).map(formatAgreementInputProblem)
    const more = problems.length > maxListed ? [`… and ${problems.length - maxListed} more problem(s)`] : []
    super([`${problems.length} problem(s) in the input:`, ...listed, ...more].join('\n  '), 2)
    this.problems = problems
  }
}
