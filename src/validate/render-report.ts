/**
 * Renderers of a {@link RunValidationReport}: pure `(report) => string`. Messages come from
 * `format-run-problem.ts`; this module only lays them out.
 */
import { binaryBytes, decodeId } from '../io/bytes.js'
import { formatRunProblem } from './format-run-problem.js'
import { hasWhere, type RunProblem, severityOf, type Where } from './run-problem.js'
import { utf8SequenceLength } from './utf8.js'
import type { RunValidationReport } from './validate-run.js'

/** Name and version of the JSON layout (as `trecscore.evaluate/1`); bumped on incompatible changes. */
export const VALIDATE_JSON_SCHEMA = 'trecscore.validate/1'

function hex2(b: number): string {
  return b.toString(16).toUpperCase().padStart(2, '0')
}

/**
 * A raw line (binary string) made printable: valid UTF-8 is decoded, invalid bytes become `\xNN`,
 * control characters `\0`, `\r` or `\xNN` (tabs stay), a byte order mark `\uFEFF`. Returns the
 * text and, for a 1-based byte column, the matching 0-based index in the text.
 */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true })

export function displayLine(raw: string, column = 0): { text: string; at: number } {
  const bytes = binaryBytes(raw)
  let out = ''
  let at = -1
  let i = 0
  while (i < bytes.length) {
    if (i + 1 === column) at = out.length
    const c = bytes[i]!
    if (c >= 0x20 && c < 0x7f) {
      out += String.fromCharCode(c)
      i++
    } else if (c === 0x09) {
      out += '\t'
      i++
    } else if (c === 0) {
      out += '\\0'
      i++
    } else if (c === 0x0d) {
      out += '\\r'
      i++
    } else if (c < 0x80) {
      out += `\\x${hex2(c)}`
      i++
    } else {
      const len = utf8SequenceLength(bytes, i)
      if (len === 0) {
        out += `\\x${hex2(c)}`
        i++
      } else {
        const ch = UTF8.decode(bytes.subarray(i, i + len))
        out += ch === '\ufeff' ? '\\uFEFF' : ch
        i += len
      }
    }
  }
  if (at < 0) at = out.length
  return { text: out, at }
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

function position(file: string, p: RunProblem): string {
  return hasWhere(p) ? `${file}:${p.line}:${p.column}` : file
}

function quoted(w: Where): string {
  const { text, at } = displayLine(w.text, w.column)
  const more = w.lineBytes > w.text.length ? `… (${w.lineBytes} bytes)` : ''
  const caret =
    w.column <= w.text.length + 1 ? `\n    ${text.slice(0, at).replace(/[^\t]/g, ' ')}^` : ''
  return `    ${text}${more}${caret}\n`
}

/**
 * Human-readable report: one problem per line (`file:line:column: error|warning: message`), the
 * raw line indented below with a caret under the column, then a note per code whose listing was
 * cut, then a summary line (`file: ok|failed: N errors, M warnings in L lines, Q queries`).
 */
export function renderValidationText(report: RunValidationReport): string {
  let out = ''
  for (const p of report.problems) {
    out += `${position(report.file, p)}: ${severityOf(p)}: ${formatRunProblem(p)}\n`
    if (hasWhere(p)) out += quoted(p)
  }
  for (const c of report.counts) {
    if (c.listed < c.count)
      out += `${report.file}: note: listed ${c.listed} of ${c.count} ${c.code} ${c.severity}s\n`
  }
  const verdict = report.ok ? 'ok' : report.errors > 0 ? 'failed' : 'failed (--strict)'
  out += `${report.file}: ${verdict}: ${count(report.errors, 'error')}, ${count(report.warnings, 'warning')} in ${count(report.lines, 'line')}, ${count(report.queries, 'query', 'queries')}\n`
  return out
}

/** Binary-string fields of problems, decoded to UTF-8 text in JSON. */
const ID_FIELDS = new Set(['queryId', 'docId', 'found', 'tag', 'firstTag'])

/**
 * The report as JSON (one object, then a newline). Layout {@link VALIDATE_JSON_SCHEMA}:
 *
 * ```
 * { schema: 'trecscore.validate/1', file, ok, strict, errors, warnings, queries, lines, runLines, blankLines,
 *   commentLines, bytes, tags: string[],
 *   counts: { [code]: { severity, count, listed } },
 *   problems: [{ severity, code, line, column, message, text, lineBytes, ...fields }] }
 * ```
 *
 * `ok` is true exactly when the exit status is 0. `problems` lists at most `--max-listed` per
 * code, by line; `counts` has every code found with its exact total. `line`, `column` (1-based,
 * in bytes), `text` (the raw line decoded as UTF-8, invalid bytes as U+FFFD, cut after 400
 * bytes) and `lineBytes` are null for file-level problems (`empty_file`, `no_run_lines`,
 * `cannot_read`). Other fields depend on `code` (`queryId`, `docId`, `firstLine`, `found`, ...);
 * ids are decoded as UTF-8.
 */
export function renderValidationJson(report: RunValidationReport): string {
  const counts: Record<string, { severity: string; count: number; listed: number }> = {}
  for (const c of report.counts)
    counts[c.code] = { severity: c.severity, count: c.count, listed: c.listed }
  const problems = report.problems.map((p) => {
    const o: Record<string, unknown> = {
      severity: severityOf(p),
      code: p.code,
      line: hasWhere(p) ? p.line : null,
      column: hasWhere(p) ? p.column : null,
      message: formatRunProblem(p),
      text: hasWhere(p) ? decodeId(p.text) : null,
      lineBytes: hasWhere(p) ? p.lineBytes : null,
    }
    for (const [k, v] of Object.entries(p)) {
      if (k in o) continue
      o[k] = ID_FIELDS.has(k) && typeof v === 'string' ? decodeId(v) : v
    }
    return o
  })
  const json = {
    schema: VALIDATE_JSON_SCHEMA,
    file: report.file,
    ok: report.ok,
    strict: report.strict,
    errors: report.errors,
    warnings: report.warnings,
    queries: report.queries,
    lines: report.lines,
    runLines: report.runLines,
    blankLines: report.blankLines,
    commentLines: report.commentLines,
    bytes: report.bytes,
    tags: report.tags.map(decodeId),
    counts,
    problems,
  }
  return JSON.stringify(json, null, 2) + '\n'
}
