/**
 * Line reader shared by trec_eval's small whitespace-separated formats (`-R prefs`,
 * `-R qrels_prefs`, `-R qrels_jg`, the `-Z` z-score file): the whole file is read (so these
 * files are limited to 512 MiB, see `io/limits.ts`), every line must have exactly N fields
 * separated by C `isspace` and at most the line limit in bytes, and trec_eval numbers a malformed
 * line by counting the data lines (comments excluded) up to it.
 */

import { formatIssue } from '../../errors/format-issue.js'
import type { InputIssue } from '../../errors/issues.js'
import { LineSplitter, splitFields } from '../../io/lines.js'
import { inputLimits, readAll, SourceError } from '../../io/source.js'
import type { TrecEvalIO } from '../types.js'

/** Options of {@link forEachFieldLine}. */
export interface FieldLinesOptions {
  /** File name used in issues. */
  readonly file: string
  /** Exact number of fields of a data line. */
  readonly fields: number
  /** What a line should hold, for messages: `5 fields (qid jg jsg docno rel_level)`. */
  readonly expected: string
  /** Skip lines whose first byte is `#` (trec_eval 10). An indented `#` is data. */
  readonly comments: boolean
  /** Longest line accepted. @default the limit in force (`io/limits.ts`) */
  readonly maxLineBytes?: number
}

/** Outcome of {@link forEachFieldLine}: `malformedLine` is trec_eval's count for its message. */
export type FieldLinesResult =
  | { readonly ok: true; readonly dataLines: number }
  | { readonly ok: false; readonly malformedLine: number; readonly issue: InputIssue }

/**
 * Call `onRow` with the field boundaries (`[s0, e0, s1, e1, …]` into `bytes`) of every data line,
 * stopping at the first malformed one. A blank line is malformed (as in trec_eval); so is a line
 * holding a NUL byte. `onRow` may reject a line by returning an issue.
 */
export function forEachFieldLine(
  bytes: Buffer,
  options: FieldLinesOptions,
  onRow: (f: readonly number[], line: number) => InputIssue | undefined,
): FieldLinesResult {
  const f: number[] = []
  const file = options.file
  const maxLine = options.maxLineBytes ?? inputLimits().maxLineBytes
  let data = 0
  let nul = bytes.indexOf(0)
  let failed: Extract<FieldLinesResult, { ok: false }> | undefined
  const fail = (issue: InputIssue): false => {
    failed = { ok: false, malformedLine: data, issue }
    return false
  }
  // Lines as trec_eval sees them: bytes kept as they are (a CR is white space, a BOM is data).
  const lines = new LineSplitter(
    (_buf, start, end, line) => {
      if (options.comments && bytes[start] === 0x23) return true
      data++
      const text = (): string => bytes.toString('latin1', start, Math.min(end, start + 400))
      if (nul >= 0 && nul < start) nul = bytes.indexOf(0, start)
      if (nul >= 0 && nul < end) return fail({ code: 'nul_byte', file, line, text: text() })
      const count = splitFields(bytes, start, end, f)
      if (count !== options.fields)
        return fail({
          code: 'field_count',
          file,
          line,
          expected: options.expected,
          found: count,
          text: text(),
        })
      const rejected = onRow(f, line)
      return rejected ? fail(rejected) : true
    },
    {
      maxLineBytes: maxLine,
      tooLong: 'skip',
      headBytes: 1,
      onTooLong: (head, _bytes, line) => {
        if (options.comments && head[0] === 0x23) return true
        data++
        return fail({ code: 'line_too_long', file, line, limit: maxLine })
      },
    },
  )
  // One buffer, fed whole: every line stays in place, so offsets index `bytes`.
  lines.feed(bytes, true)
  return failed ?? { ok: true, dataLines: data }
}

/** The bytes of field `k` of a row as a binary string (one char per byte). */
export function field(bytes: Buffer, f: readonly number[], k: number): string {
  return bytes.toString('latin1', f[2 * k]!, f[2 * k + 1]!)
}

/**
 * Read a whole input file for one of these formats. An unreadable or empty file prints
 * `<who>: Cannot read <noun> file '<file>'` (trec_eval's wording, plus the reason) and gives null.
 */
export async function readWholeFile(
  file: string,
  who: string,
  noun: string,
  io: TrecEvalIO,
): Promise<Buffer | null> {
  try {
    const bytes = await readAll(file)
    if (bytes.length > 0) return bytes
    io.err(`${who}: Cannot read ${noun} file '${file}'\n`)
  } catch (e) {
    if (!(e instanceof SourceError)) throw e
    io.err(`${who}: Cannot read ${noun} file '${file}'\ntrecscore: ${e.message}\n`)
  }
  return null
}

/** Print trec_eval's `Malformed line N` message for a failed read, with trecscore's detail line. */
export function reportMalformed(
  who: string,
  result: Extract<FieldLinesResult, { ok: false }>,
  io: TrecEvalIO,
): void {
  io.err(
    `${who}: Malformed line ${result.malformedLine}\ntrecscore: ${formatIssue(result.issue)}\n`,
  )
}
