import { TrecscoreError } from '../../errors/trecscore-error.js'
import { jsonlLines } from '../../io/jsonl.js'

/**
 * Line-by-line JSONL reading for the agreement inputs (pure; bytes in, records and problems
 * out), by the shared conventions of `src/io/jsonl.ts`: lines are split on "\n" (a trailing
 * "\r" is dropped); blank lines are skipped and counted; each line is decoded as strict UTF-8
 * and parsed as JSON on its own, so one bad line never hides the others. No line-length limit.
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
export function readJsonLines(
  bytes: Uint8Array,
  file: string,
): { lines: JsonLine[]; problems: AgreementInputProblem[]; blank: number } {
  const lines: JsonLine[] = []
  const problems: AgreementInputProblem[] = []
  let blank = 0
  for (const l of jsonlLines(bytes)) {
    if (l.kind === 'invalid_utf8')
      problems.push({
        file,
        line: l.line,
        text: clip(l.text),
        message: 'invalid UTF-8',
        expected: 'a UTF-8 encoded line',
      })
    else if (l.kind === 'blank') blank++
    else if (l.kind === 'invalid_json')
      problems.push({
        file,
        line: l.line,
        text: clip(l.text),
        message: `invalid JSON (${l.error})`,
        expected: 'one JSON object per line',
      })
    else if (l.kind === 'value') lines.push({ line: l.line, text: l.text, value: l.value })
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
    const more =
      problems.length > maxListed ? [`… and ${problems.length - maxListed} more problem(s)`] : []
    super([`${problems.length} problem(s) in the input:`, ...listed, ...more].join('\n  '), 2)
    this.problems = problems
  }
}
