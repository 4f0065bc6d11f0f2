/**
 * The one place where run-validation problems are worded for people: one message per problem
 * (what was found, what was expected) and one summary line per code (for `--help`). Both are
 * exhaustive switches over {@link RunProblem}.
 */
import { decodeId } from '../io/bytes.js'
import type { RunProblem, RunProblemCode, TopicHint } from './run-problem.js'

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
    case 'extra_fields':
      return `expected exactly 6 fields (qid Q0 docno rank score tag), found ${p.found}; evaluate and RETECO's format_checker.py refuse the line ("expected 6 columns, got ${p.found}"), trec_eval ignores the extra fields`
    case 'comment_line':
      return `a comment line (starting with #); RETECO runs have none: format_checker.py reads it as a run line of ${p.found} ${p.found === 1 ? 'column' : 'columns'}`
    case 'rank_not_positive':
      return `rank ${q(p.found)} is not positive; expected 1, 2, 3, … (format_checker.py: "rank must be a positive integer")`
    case 'score_rises':
      return `score ${q(p.score)} is greater than ${q(p.previousScore)} on line ${p.previousLine}, the previous line of topic ${q(p.queryId)}; expected scores not to increase down the file (format_checker.py: "score increases with rank")`
    case 'rank_order_differs':
      return `the rank column orders topic ${q(p.queryId)} differently from the scores (position ${p.position}: ${q(p.byRank)} by rank, ${q(p.byScore)} by score); pytrec_eval and the plan rank by score, scorer.py by the rank column, so they will disagree`
    case 'duplicate_doc_dropped':
      return `document ${q(p.docId)} repeated for topic ${q(p.queryId)} (first at line ${p.firstLine}); the plan keeps only its highest-scored occurrence, scorer.py counts every copy and pytrec_eval keeps the last`
    case 'deeper_than_limit':
      return `topic ${q(p.queryId)} has ${p.count} documents, more than the ${p.limit} a RETECO run may have; this line is the first beyond the limit`
    case 'not_a_topic':
      return `topic ${q(p.queryId)} is not a ${p.subtrack} topic${p.domain === null ? '' : ` of ${p.domain}`}${topicHint(p.hint, p.suggestion)}; it will not be scored`
    case 'doc_not_in_corpus':
      return `document ${q(p.docId)} (topic ${q(p.queryId)}) is not in the ${p.domain === null ? '' : `${p.domain} `}corpus; the plan discards it before the top-10 cut, pytrec_eval and scorer.py rank it as non-relevant`
    case 'missing_topic':
      return `topic ${q(p.queryId)} (${p.subtrack}, ${p.domain}) has no lines; the plan scores it 0 (format_checker.py, pytrec_eval and scorer.py skip it)`
    case 'missing_domain_file':
      return `no run file for domain ${p.domain} (expected a file named ${p.domain}.trec or ${p.domain}.<ext>); its ${plural(p.topics, 'topic')} score 0`
    case 'stray_file':
      return `file ${q(p.path, 200)} is named after no domain (expected ${p.domains
        .slice(0, 3)
        .map((d) => `${d}.trec`)
        .join(', ')}${p.domains.length > 3 ? ', …' : ''}); it is not validated or scored`
    case 'no_known_topics':
      return `${p.topics === 1 ? 'the only topic in the file is not' : `none of the ${p.topics} topics in the file is`} a ${p.subtrack} topic${p.domain === null ? '' : ` of ${p.domain}`}: nothing would be scored (wrong sub-track, split or domain?)`
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

/** The `; …` clause of a {@link TopicHint}. */
function topicHint(hint: TopicHint | null, suggestion: string | null): string {
  const s = suggestion === null ? '' : q(suggestion)
  switch (hint) {
    case null:
      return ''
    case 'step_id':
      return `; it is a 1b step id: a 1a run ranks for whole queries${suggestion === null ? '' : ` (query ${s})`}`
    case 'query_id':
      return `; it is a 1a query id: a 1b run ranks for each step${suggestion === null ? '' : ` (${s}, …)`}`
    case 'pilot_turn':
      return `; it uses the pilot's "#turn" spelling${suggestion === null ? '' : `: write ${s}`}`
    case 'other_split':
      return `; it is a topic of the ${suggestion ?? 'other'} split`
    case 'other_domain':
      return `; it is a topic of ${suggestion ?? 'another domain'}: put it in that domain's file`
    case 'other_subtrack':
      return `; it is a ${suggestion ?? 'different sub-track'} topic`
    case 'other_track':
      return `; it is a ${suggestion ?? 'topic of the other track'}`
    case 'unknown_step':
      return `; its query has no such step${suggestion === null ? '' : ` (its steps: ${suggestion})`}`
    case 'unknown_turn':
      return `; its conversation has no such target turn${suggestion === null ? '' : ` (its turns: ${suggestion})`}`
    default: {
      const never: never = hint
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
