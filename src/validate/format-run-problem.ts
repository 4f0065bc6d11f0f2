/**
 * One summary line per run-problem code (for `--help`) and the RETECO checker differences, as
 * exhaustive switches over the codes. The message of each problem is in the one wording table,
 * `errors/format-issue.ts` (re-exported here as {@link formatRunProblem}).
 */
import type { RunProblemCode } from './run-problem.js'

export { formatRunProblem } from '../errors/format-issue.js'

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
    case 'extra_fields':
      return 'more than 6 fields (RETECO wants exactly 6, as format_checker.py)'
    case 'comment_line':
      return 'a line starting with # (format_checker.py reads it as a run line)'
    case 'rank_not_positive':
      return 'a rank of 0 or less'
    case 'no_known_topics':
      return 'no topic of the file belongs to the sub-track (once per file)'
    case 'score_rises':
      return "a score greater than the previous line's in its topic (format_checker.py's rule)"
    case 'rank_order_differs':
      return 'a topic whose rank column and scores give different orders (once per topic)'
    case 'duplicate_doc_dropped':
      return 'a document retrieved twice for one topic (the plan keeps one copy)'
    case 'deeper_than_limit':
      return 'more than 1,000 documents for a topic'
    case 'not_a_topic':
      return 'a topic not in the sub-track, with a hint (step id, pilot #turn id, other split/domain)'
    case 'doc_not_in_corpus':
      return "a document not in the domain's documents.jsonl"
    case 'missing_topic':
      return 'a topic of the sub-track with no line (scores 0)'
    case 'missing_domain_file':
      return 'a run directory without the file of a domain'
    case 'stray_file':
      return 'a file in a run directory named after no domain'
    default: {
      const never: never = code
      return String(never)
    }
  }
}

/**
 * Why `trecscore validate --preset reteco-*` and the organizers' `format_checker.py` can reach
 * different verdicts because of a code: the checker's behaviour for what we report as an error
 * (or `null` when the checker reports it too).
 */
export function explainCheckerDifference(code: RunProblemCode): string | null {
  switch (code) {
    case 'empty_file':
      return 'format_checker.py accepts an empty file (VALID, 0 lines): every topic of the domain would be missing'
    case 'no_run_lines':
      return 'format_checker.py accepts a file of blank lines (VALID, 0 lines)'
    case 'cannot_read':
      return 'the file could not be read to its end'
    case 'line_too_long':
      return 'format_checker.py reads lines of any length'
    case 'nul_byte':
      return 'format_checker.py reads NUL bytes as ordinary characters'
    case 'utf16':
      return 'format_checker.py stops with a UnicodeDecodeError or reads junk on UTF-16 input'
    case 'bare_cr':
      return 'Python reads a bare CR as a line end (universal newlines); trec_eval and pytrec_eval read it as a space'
    case 'score_not_a_number':
      return 'Python float() accepts this form (for example 1_000 or Unicode digits)'
    case 'score_not_finite':
      return 'Python float() accepts nan and inf; the scorers order such scores unpredictably'
    case 'rank_not_an_integer':
      return 'Python int() accepts this form (for example 1_000 or Unicode digits)'
    case 'comment_line':
      return 'format_checker.py reads a # line as a run line and accepts it when it has 6 valid columns'
    case 'no_known_topics':
      return 'format_checker.py only warns about topics not in the qrels (and only with --qrels)'
    case 'too_deep':
    case 'duplicate_doc':
      return 'format_checker.py does not check this'
    default:
      return null
  }
}
