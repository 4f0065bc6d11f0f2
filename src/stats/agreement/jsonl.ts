import type { AgreementIssue } from '../../errors/agreement-issues.js'
import { wordIssue } from '../../errors/format-issue.js'
import { TrecscoreError } from '../../errors/trecscore-error.js'
import { jsonlLines } from '../../io/jsonl.js'

/**
 * Line-by-line JSONL reading for the agreement inputs (pure; bytes in, records and problems
 * out), by the shared conventions of `src/io/jsonl.ts`: lines are split on "\n" (a trailing
 * "\r" is dropped); blank lines are skipped and counted; each line is decoded as strict UTF-8
 * and parsed as JSON on its own, so one bad line never hides the others. No line-length limit.
 */

export type { AgreementAt, AgreementSource } from '../../errors/agreement-issues.js'

/**
 * One bad input line, as data keyed by `code`: where (physical 1-based line; 0 for a problem
 * about the whole file), the offending text and what was found; worded by the one table.
 */
export type AgreementInputProblem = AgreementIssue

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
      problems.push({ code: 'invalid_utf8', file, line: l.line, text: clip(l.text) })
    else if (l.kind === 'blank') blank++
    else if (l.kind === 'invalid_json')
      problems.push({
        code: 'invalid_json',
        file,
        line: l.line,
        text: clip(l.text),
        error: l.error,
      })
    else if (l.kind === 'value') lines.push({ line: l.line, text: l.text, value: l.value })
  }
  return { lines, problems, blank }
}

/** Formats a problem for people: FILE:LINE: message: "text" (expected …). */
export function formatAgreementInputProblem(p: AgreementInputProblem): string {
  return wordIssue('agreement', p)
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
