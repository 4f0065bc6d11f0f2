/**
 * The one place where run-validation problems are worded for people: one message per problem
 * (what was found, what was expected) and one summary line per code (for `--help`). Both are
 * exhaustive switches over {@link RunProblem}.
 */
import { decodeId } from '../io/bytes.js'
import type { RunProblem, RunProblemCode } from './run-problem.js'

/** An id or found text (binary string) as a quoted, readable, clipped string. */
function q(text: string, max = 80): string {
  const t = decodeId(text)
  return JSON.stringify(t.length > max ? `${t.slice(0, max)}…` : t)
}

function hex(byte: number): string {
  return '0x' + byte.toString(16).toUpperCase().padStart(2, '0')
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** The message of a problem (no file, line or severity: renderers add those). */
export function formatRunProblem(p: RunProblem): string {
  switch (p.code) {
    case 'empty_file':
      return 'the file is empty; expected lines of "qid iter docno rank score tag"'
    case 'no_run_lines':
      return `no run lines (${plural(p.blankLines, 'blank line')}, ${plural(p.commentLines, 'comment line')}); expected lines of "qid iter docno rank score tag"`
    case 'cannot_read':
      return `cannot read: ${p.reason}${p.afterLine > 0 ? ` (after line ${p.afterLine}; the rest was not checked)` : ''}`
    case 'line_too_long':
      return `line longer than ${p.limit} bytes (${p.lineBytes} bytes; binary data or missing newlines?); the line was skipped (limit: --max-line-bytes)`
    case 'nul_byte':
      return 'NUL byte (binary data?); expected text, the line was not checked further'
    case 'invalid_utf8':
      return `byte ${hex(p.byte)} is not valid UTF-8 (Latin-1 or mixed encodings?); ids are compared byte by byte, so they must be encoded exactly as in the qrels`
    case 'utf16':
      return `the file starts with a ${p.encoding} byte order mark; expected UTF-8 or ASCII text (trec_eval reads UTF-16 as binary junk): convert it to UTF-8`
    case 'bom':
      return 'UTF-8 byte order mark (EF BB BF) at the start of the file; trec_eval reads it as part of the first query id'
    case 'crlf':
      return `Windows line endings (CR LF) on ${plural(p.count, 'line')}; trec_eval reads the CR as a space, but other tools keep it in the run tag`
    case 'bare_cr':
      return 'carriage return (CR) not followed by a newline; trec_eval reads it as a space, so the text after it becomes extra fields that are ignored (old Mac line endings lose every record but the first)'
    case 'field_count':
      return `expected at least 6 fields (qid iter docno rank score tag), found ${p.found}`
    case 'score_not_a_number':
      return `score ${q(p.found)} is not a number; expected a decimal number such as 12.5 or -3.2e-4 (trec_eval would read ${q(p.found)} as the number in its prefix, or 0)`
    case 'score_not_finite':
      return `score ${q(p.found)} is not finite; expected a finite decimal number (trec_eval sorts NaN and infinite scores unpredictably)`
    case 'rank_not_an_integer':
      return `rank ${q(p.found)} is not an integer; expected a whole number such as 1`
    case 'duplicate_rank':
      return `rank ${p.rank} repeated for topic ${q(p.queryId)} (first at line ${p.firstLine}); expected each rank once per topic`
    case 'rank_score_order':
      return `rank ${p.rank} has score ${p.score} but rank ${p.previousRank} (line ${p.previousLine}) has score ${p.previousScore} for topic ${q(p.queryId)}; expected scores not to increase with rank (trec_eval ranks by score and ignores the rank column)`
    case 'mixed_tags':
      return `run tag ${q(p.tag)} differs from ${q(p.firstTag)} (line ${p.firstLine}); expected one tag for the whole run`
    case 'duplicate_doc':
      return `document ${q(p.docId)} repeated for topic ${q(p.queryId)} (first at line ${p.firstLine}); expected each document once per topic`
    case 'unknown_topic':
      return `topic ${q(p.queryId)} is not in the qrels (--qrels); it will not be evaluated`
    case 'unknown_doc':
      return `document ${q(p.docId)} (topic ${q(p.queryId)}) is not in the corpus (--corpus)`
    case 'too_deep':
      return `topic ${q(p.queryId)} has ${p.count} documents, more than --max-depth ${p.limit}; this line is the first beyond the limit`
    default: {
      const never: never = p
      return String(never)
    }
  }
}

/** One line per code saying what it checks (for `--help`). */
export function describeRunProblemCode(code: RunProblemCode): string {
  switch (code) {
    case 'empty_file':
      return 'the file has no bytes'
    case 'no_run_lines':
      return 'only blank or comment lines'
    case 'cannot_read':
      return 'the file cannot be read (missing, a directory, truncated .gz)'
    case 'line_too_long':
      return 'a line longer than --max-line-bytes (skipped in bounded memory)'
    case 'nul_byte':
      return 'a NUL byte in a line (binary data)'
    case 'utf16':
      return 'a UTF-16 byte order mark at the start'
    case 'bare_cr':
      return 'a CR not followed by LF (old Mac line endings)'
    case 'field_count':
      return 'fewer than 6 fields: qid iter docno rank score tag'
    case 'score_not_a_number':
      return 'a score that is not a decimal number'
    case 'score_not_finite':
      return 'a score of nan, inf or out of double range'
    case 'rank_not_an_integer':
      return 'a rank that is not an integer'
    case 'duplicate_rank':
      return 'a rank used twice in one topic'
    case 'duplicate_doc':
      return 'a document retrieved twice for one topic (with the first line)'
    case 'too_deep':
      return 'more than --max-depth documents for a topic'
    case 'invalid_utf8':
      return 'bytes that are not UTF-8 (Latin-1, mixed encodings, binary data)'
    case 'bom':
      return 'a UTF-8 byte order mark at the start (becomes part of the first qid)'
    case 'crlf':
      return 'Windows CR LF line endings (counted once for the file)'
    case 'rank_score_order':
      return 'a line whose rank and score disagree with the previous line of its topic'
    case 'mixed_tags':
      return 'more than one run tag (once per extra tag)'
    case 'unknown_topic':
      return 'a topic not in --qrels (once per topic)'
    case 'unknown_doc':
      return 'a document not in --corpus'
    default: {
      const never: never = code
      return String(never)
    }
  }
}
