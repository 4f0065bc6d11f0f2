import { decodeId } from '../io/bytes.js'
import type { InputIssue } from './issues.js'

function show(text: string, max = 120): string {
  const t = decodeId(text)
  const clipped = t.length > max ? `${t.slice(0, max)}… (${t.length} characters)` : t
  return JSON.stringify(clipped)
}

/** The one place where input problems are worded for people. */
export function formatIssue(issue: InputIssue): string {
  switch (issue.code) {
    case 'field_count':
      return `${issue.file}:${issue.line}: expected ${issue.expected}, found ${issue.found} field(s): ${show(issue.text)}`
    case 'not_a_number':
      return `${issue.file}:${issue.line}: ${issue.field} is not a number: ${show(issue.found)} in ${show(issue.text)}`
    case 'not_finite':
      return `${issue.file}:${issue.line}: ${issue.field} is not finite: ${show(issue.found)} in ${show(issue.text)}`
    case 'not_an_integer':
      return `${issue.file}:${issue.line}: ${issue.field} is not an integer: ${show(issue.found)} in ${show(issue.text)}`
    case 'grade_too_large':
      return `${issue.file}:${issue.line}: grade ${show(issue.found)} is larger than ${issue.limit}, the largest grade accepted, in ${show(issue.text)}`
    case 'negative_judgment':
      if (issue.convention)
        return `${issue.file}:${issue.line}: negative judgment ${show(issue.found)} refused (--negative-judgments error): ${show(issue.text)}`
      return `${issue.file}:${issue.line}: negative judgment ${show(issue.found)} in diversity qrels (ndeval rejects them; judgments are 0 or more) in ${show(issue.text)}`
    case 'bare_cr':
      return `${issue.file}:${issue.line}: carriage return (CR) not followed by a newline (old Mac line endings?); lines must end with LF or CRLF: ${show(issue.text)}`
    case 'duplicate_doc':
      return `${issue.file}:${issue.line}: document ${show(issue.docId)} already retrieved for query ${show(issue.queryId)} at line ${issue.firstLine}`
    case 'duplicate_judgment':
      return `${issue.file}:${issue.line}: document ${show(issue.docId)} already judged for query ${show(issue.queryId)} at line ${issue.firstLine}`
    case 'nul_byte':
      return `${issue.file}:${issue.line}: NUL byte in line (binary data?): ${show(issue.text.replace(/\0/g, '\\0'))}`
    case 'line_too_long':
      return `${issue.file}:${issue.line}: line longer than ${issue.limit} bytes (binary data or a missing newline?)`
    case 'invalid_utf8':
      return `${issue.file}:${issue.line}: invalid UTF-8: ${show(issue.text)}`
    case 'empty_file':
      return `${issue.file}: the file is empty`
    case 'cannot_read':
      return `${issue.file}: cannot read: ${issue.reason}`
    case 'unknown_measure':
      return `unknown measure ${JSON.stringify(issue.found)} at character ${issue.position + 1}${
        issue.suggestions.length
          ? `; did you mean ${issue.suggestions.map((s) => JSON.stringify(s)).join(' or ')}?`
          : ''
      }`
    case 'bad_argument':
      return `${issue.option}: expected ${issue.expected}, found ${JSON.stringify(issue.found)}`
    default: {
      const never: never = issue
      return String(never)
    }
  }
}
