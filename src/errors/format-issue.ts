/**
 * The one wording table: every issue code of every module (`IssueKinds` in `issues.ts`) with the
 * sentence people read. A mapped type over the module unions, so a code without wording, or
 * wording for no code, does not compile. Messages carry no severity; run messages carry no file
 * or line either (renderers add those), input messages do (`file:line: what`).
 */
import { decodeId } from '../io/bytes.js'
import type { AgreementAt, AgreementIssue, AgreementSource } from './agreement-issues.js'
import type { AnswerIssue } from './answer-issues.js'
import type { ConfigProblem } from './config-issues.js'
import type { InputIssue, IssueKind, IssueKinds, ModuleIssue } from './issues.js'
import type { JudgeFieldProblem, JudgeIssue } from './judge-issues.js'
import type { PrepareFailure, PrepareIssue } from './prepare-issues.js'
import type { PresetFinding } from './preset-issues.js'
import type { RetecoRunProblem as RetecoPlanProblem } from './reteco-plan-issues.js'
import type { RunProblem, TopicHint } from './run-issues.js'
import type { TextsimFieldProblem, TextsimIssue, TextsimScoreProblem } from './textsim-issues.js'

/** Words each code of one module's union `U`. */
export type Wording<U extends { readonly code: string }> = {
  readonly [C in U['code']]: (issue: Extract<U, { readonly code: C }>) => string
}

/** An id or found text (binary string) as a quoted, readable string, clipped with its length. */
function show(text: string, max = 120): string {
  const t = decodeId(text)
  const clipped = t.length > max ? `${t.slice(0, max)}… (${t.length} characters)` : t
  return JSON.stringify(clipped)
}

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

const INPUT: Wording<InputIssue> = {
  field_count: (issue) =>
    `${issue.file}:${issue.line}: expected ${issue.expected}, found ${issue.found} field(s): ${show(issue.text)}`,
  not_a_number: (issue) =>
    `${issue.file}:${issue.line}: ${issue.field} is not a number: ${show(issue.found)} in ${show(issue.text)}`,
  not_finite: (issue) =>
    `${issue.file}:${issue.line}: ${issue.field} is not finite: ${show(issue.found)} in ${show(issue.text)}`,
  not_an_integer: (issue) =>
    `${issue.file}:${issue.line}: ${issue.field} is not an integer: ${show(issue.found)} in ${show(issue.text)}`,
  grade_too_large: (issue) =>
    `${issue.file}:${issue.line}: grade ${show(issue.found)} is larger than ${issue.limit}, the largest grade accepted, in ${show(issue.text)}`,
  negative_judgment: (issue) =>
    issue.convention
      ? `${issue.file}:${issue.line}: negative judgment ${show(issue.found)} refused (--negative-judgments error): ${show(issue.text)}`
      : `${issue.file}:${issue.line}: negative judgment ${show(issue.found)} in diversity qrels (ndeval rejects them; judgments are 0 or more) in ${show(issue.text)}`,
  bare_cr: (issue) =>
    `${issue.file}:${issue.line}: carriage return (CR) not followed by a newline (old Mac line endings?); lines must end with LF or CRLF: ${show(issue.text)}`,
  duplicate_doc: (issue) =>
    `${issue.file}:${issue.line}: document ${show(issue.docId)} already retrieved for query ${show(issue.queryId)} at line ${issue.firstLine}`,
  duplicate_judgment: (issue) =>
    `${issue.file}:${issue.line}: document ${show(issue.docId)} already judged for query ${show(issue.queryId)} at line ${issue.firstLine}`,
  nul_byte: (issue) =>
    `${issue.file}:${issue.line}: NUL byte in line (binary data?): ${show(issue.text.replace(/\0/g, '\\0'))}`,
  line_too_long: (issue) =>
    `${issue.file}:${issue.line}: line longer than ${issue.limit} bytes (binary data or a missing newline?)`,
  invalid_utf8: (issue) => `${issue.file}:${issue.line}: invalid UTF-8: ${show(issue.text)}`,
  empty_file: (issue) => `${issue.file}: the file is empty`,
  cannot_read: (issue) => `${issue.file}: cannot read: ${issue.reason}`,
  unknown_measure: (issue) =>
    `unknown measure ${JSON.stringify(issue.found)} at character ${issue.position + 1}${
      issue.suggestions.length
        ? `; did you mean ${issue.suggestions.map((s) => JSON.stringify(s)).join(' or ')}?`
        : ''
    }`,
  bad_argument: (issue) =>
    `${issue.option}: expected ${issue.expected}, found ${JSON.stringify(issue.found)}`,
}

const RUN: Wording<RunProblem> = {
  empty_file: () => 'the file is empty; expected lines of "qid iter docno rank score tag"',
  no_run_lines: (p) =>
    `no run lines (${plural(p.blankLines, 'blank line')}, ${plural(p.commentLines, 'comment line')}); expected lines of "qid iter docno rank score tag"`,
  cannot_read: (p) =>
    `cannot read: ${p.reason}${p.afterLine > 0 ? ` (after line ${p.afterLine}; the rest was not checked)` : ''}`,
  line_too_long: (p) =>
    `line longer than ${p.limit} bytes (${p.lineBytes} bytes; binary data or missing newlines?); the line was skipped (limit: --max-line-bytes)`,
  nul_byte: () => 'NUL byte (binary data?); expected text, the line was not checked further',
  invalid_utf8: (p) =>
    `byte ${hex(p.byte)} is not valid UTF-8 (Latin-1 or mixed encodings?); ids are compared byte by byte, so they must be encoded exactly as in the qrels`,
  utf16: (p) =>
    `the file starts with a ${p.encoding} byte order mark; expected UTF-8 or ASCII text (trec_eval reads UTF-16 as binary junk): convert it to UTF-8`,
  bom: () =>
    'UTF-8 byte order mark (EF BB BF) at the start of the file; trec_eval reads it as part of the first query id',
  crlf: (p) =>
    `Windows line endings (CR LF) on ${plural(p.count, 'line')}; trec_eval reads the CR as a space, but other tools keep it in the run tag`,
  bare_cr: () =>
    'carriage return (CR) not followed by a newline; trec_eval reads it as a space, so the text after it becomes extra fields that are ignored (old Mac line endings lose every record but the first)',
  field_count: (p) =>
    `expected at least 6 fields (qid iter docno rank score tag), found ${p.found}`,
  score_not_a_number: (p) =>
    `score ${q(p.found)} is not a number; expected a decimal number such as 12.5 or -3.2e-4 (trec_eval would read ${q(p.found)} as the number in its prefix, or 0)`,
  score_not_finite: (p) =>
    `score ${q(p.found)} is not finite; expected a finite decimal number (trec_eval sorts NaN and infinite scores unpredictably)`,
  rank_not_an_integer: (p) =>
    `rank ${q(p.found)} is not an integer; expected a whole number such as 1`,
  duplicate_rank: (p) =>
    `rank ${p.rank} repeated for topic ${q(p.queryId)} (first at line ${p.firstLine}); expected each rank once per topic`,
  rank_score_order: (p) =>
    `rank ${p.rank} has score ${p.score} but rank ${p.previousRank} (line ${p.previousLine}) has score ${p.previousScore} for topic ${q(p.queryId)}; expected scores not to increase with rank (trec_eval ranks by score and ignores the rank column)`,
  mixed_tags: (p) =>
    `run tag ${q(p.tag)} differs from ${q(p.firstTag)} (line ${p.firstLine}); expected one tag for the whole run`,
  duplicate_doc: (p) =>
    `document ${q(p.docId)} repeated for topic ${q(p.queryId)} (first at line ${p.firstLine}); expected each document once per topic`,
  unknown_topic: (p) =>
    `topic ${q(p.queryId)} is not in the qrels (--qrels); it will not be evaluated`,
  unknown_doc: (p) =>
    `document ${q(p.docId)} (topic ${q(p.queryId)}) is not in the corpus (--corpus)`,
  too_deep: (p) =>
    `topic ${q(p.queryId)} has ${p.count} documents, more than --max-depth ${p.limit}; this line is the first beyond the limit`,
  extra_fields: (p) =>
    `expected exactly 6 fields (qid Q0 docno rank score tag), found ${p.found}; evaluate and RETECO's format_checker.py refuse the line ("expected 6 columns, got ${p.found}"), trec_eval ignores the extra fields`,
  comment_line: (p) =>
    `a comment line (starting with #); RETECO runs have none: format_checker.py reads it as a run line of ${p.found} ${p.found === 1 ? 'column' : 'columns'}`,
  rank_not_positive: (p) =>
    `rank ${q(p.found)} is not positive; expected 1, 2, 3, … (format_checker.py: "rank must be a positive integer")`,
  score_rises: (p) =>
    `score ${q(p.score)} is greater than ${q(p.previousScore)} on line ${p.previousLine}, the previous line of topic ${q(p.queryId)}; expected scores not to increase down the file (format_checker.py: "score increases with rank")`,
  rank_order_differs: (p) =>
    `the rank column orders topic ${q(p.queryId)} differently from the scores (position ${p.position}: ${q(p.byRank)} by rank, ${q(p.byScore)} by score); pytrec_eval and the plan rank by score, scorer.py by the rank column, so they will disagree`,
  duplicate_doc_dropped: (p) =>
    `document ${q(p.docId)} repeated for topic ${q(p.queryId)} (first at line ${p.firstLine}); the plan keeps only its highest-scored occurrence, scorer.py counts every copy and pytrec_eval keeps the last`,
  deeper_than_limit: (p) =>
    `topic ${q(p.queryId)} has ${p.count} documents, more than the ${p.limit} a RETECO run may have; this line is the first beyond the limit`,
  not_a_topic: (p) =>
    `topic ${q(p.queryId)} is not a ${p.subtrack} topic${p.domain === null ? '' : ` of ${p.domain}`}${topicHint(p.hint, p.suggestion)}; it will not be scored`,
  doc_not_in_corpus: (p) =>
    `document ${q(p.docId)} (topic ${q(p.queryId)}) is not in the ${p.domain === null ? '' : `${p.domain} `}corpus; the plan discards it before the top-10 cut, pytrec_eval and scorer.py rank it as non-relevant`,
  missing_topic: (p) =>
    `topic ${q(p.queryId)} (${p.subtrack}, ${p.domain}) has no lines; the plan scores it 0 (format_checker.py, pytrec_eval and scorer.py skip it)`,
  missing_domain_file: (p) =>
    `no run file for domain ${p.domain} (expected a file named ${p.domain}.trec or ${p.domain}.<ext>); its ${plural(p.topics, 'topic')} score 0`,
  stray_file: (p) =>
    `file ${q(p.path, 200)} is named after no domain (expected ${p.domains
      .slice(0, 3)
      .map((d) => `${d}.trec`)
      .join(', ')}${p.domains.length > 3 ? ', …' : ''}); it is not validated or scored`,
  no_known_topics: (p) =>
    `${p.topics === 1 ? 'the only topic in the file is not' : `none of the ${p.topics} topics in the file is`} a ${p.subtrack} topic${p.domain === null ? '' : ` of ${p.domain}`}: nothing would be scored (wrong sub-track, split or domain?)`,
}

const ANSWER: Wording<AnswerIssue> = {
  line_too_long: (a) => `line of ${a.lineBytes} bytes is longer than ${a.limit} bytes; not parsed`,
  invalid_utf8: () => 'invalid UTF-8; expected a UTF-8 encoded line',
  invalid_json: (a) =>
    `invalid JSON (${a.error}); expected {"turn_id": "<conv>_turn_<t>", "answer": "..."}`,
  not_an_object: (a) => `found ${a.found}; expected an object {"turn_id": ..., "answer": ...}`,
  extra_field: (a) =>
    `unexpected field ${JSON.stringify(a.field)}; expected only "turn_id" and "answer"`,
  missing_field: (a) =>
    a.field === 'turn_id'
      ? 'no "turn_id"; expected "turn_id": "<conv>_turn_<t>"'
      : 'no "answer"; expected "answer": "..." (a string)',
  wrong_type: (a) =>
    a.field === 'turn_id'
      ? `"turn_id" is ${a.found}; expected a string "<conv>_turn_<t>"`
      : `"answer" is ${a.found}; expected a string`,
  empty_answer: (a) =>
    `empty answer${a.turnId === undefined ? '' : ` for turn ${JSON.stringify(a.turnId)}`}; it is judged as given and will score low`,
  answer_too_long: (a) => `answer of ${a.chars} characters is longer than ${a.limit}`,
  unknown_turn: (a) =>
    `turn ${JSON.stringify(a.turnId)} is not a target turn${/^.+_turn_\d+$/.test(a.turnId) ? '' : ' (not of the form <conv>_turn_<t>)'}${a.elsewhere ? `; it is ${a.elsewhere}` : ''}`,
  duplicate_turn: (a) => `turn ${JSON.stringify(a.turnId)} already answered at line ${a.firstLine}`,
  missing_turn: (a) => `no answer for target turn ${JSON.stringify(a.turnId)}: it scores zero`,
}

function textsimField(f: TextsimFieldProblem): string {
  switch (f.code) {
    case 'missing':
      return `missing "${f.field}"`
    case 'wrong_type':
      return `"${f.field}" must be ${f.field === 'references' ? 'an array of strings' : 'a string'}, found ${f.found}`
    case 'no_references':
      return '"references" is empty: ROUGE score_multi and METEOR need at least one reference'
    case 'reference_not_a_string':
      return `"references"[${f.index}] must be a string, found ${f.found}`
  }
}

/** Why a pair cannot be scored (the message of `TextsimItemError`). */
const TEXTSIM_SCORE: Wording<TextsimScoreProblem> = {
  no_references: (t) => `no references: ${t.scorer} needs at least one`,
  lcs_too_large: (t) =>
    `LCS table of ${t.rows} × ${t.columns} tokens exceeds the limit of ${t.limit} cells`,
  alignment_too_large: (t) =>
    `METEOR alignment of ${t.hypothesis} × ${t.reference} tokens exceeds the limit of ${t.limit} pairs`,
  morphy_too_large: (t) =>
    `WordNet morphy of a ${t.tokenLength}-character token generates over ${t.limit} characters of candidate forms`,
}

/** Why a text-similarity pair cannot be scored (`no references: METEOR needs at least one`). */
export function formatTextsimScoreProblem(problem: TextsimScoreProblem): string {
  const word = TEXTSIM_SCORE[problem.code] as (p: TextsimScoreProblem) => string
  return word(problem)
}

/** A pair-line problem (without the place, id and text: `formatTextsimIssue` adds them). */
const TEXTSIM: Wording<TextsimIssue> = {
  invalid_utf8: () => 'invalid UTF-8',
  line_too_long: (t) => `line longer than ${t.limit} bytes (binary data or a missing newline?)`,
  invalid_json: (t) => `invalid JSON (${t.error})`,
  not_an_object: (t) =>
    `expected a JSON object {"id", "prediction", "references"}, found ${t.found}`,
  bad_fields: (t) => t.problems.map(textsimField).join('; '),
  duplicate_id: (t) => `duplicate id (first at line ${t.firstLine})`,
  cannot_score: (t) => formatTextsimScoreProblem(t.problem),
}

/** A query that cannot be prepared, with its id first. */
const PREPARE: Wording<PrepareIssue> = {
  duplicate_doc: (f) =>
    `query ${JSON.stringify(decodeId(f.queryId))}: document ${JSON.stringify(decodeId(f.docId))} retrieved more than once`,
  duplicate_judgment: (f) =>
    `query ${JSON.stringify(decodeId(f.queryId))}: document ${JSON.stringify(decodeId(f.docId))} judged more than once in the qrels`,
  no_judgments: (f) =>
    `query ${JSON.stringify(decodeId(f.queryId))}: only negative (unjudged) judgments`,
}

/** At most 10 items, then how many in all. */
function listed(items: readonly string[]): string {
  return `${items.slice(0, 10).join(', ')}${items.length > 10 ? `, … (${items.length} in all)` : ''}`
}

/** A preset check's finding, file (and line where known) first. */
const PRESET: Wording<PresetFinding> = {
  bad_doc_lang_line: (p) =>
    `${p.file}:${p.line}: expected "docid language" (or a qrels line "topic language docid grade"), found ${p.found} field(s): ${show(p.text, 160)}`,
  doc_not_in_candidates: (p) =>
    `${p.file}: topic ${p.topic}: ${p.count} document(s) outside its candidate list in ${p.candidatesFile}: ${p.outside.map((o) => `${o.docId} (line ${o.line})`).join(', ')}${p.count > p.outside.length ? ', …' : ''}`,
  candidate_count: (p) =>
    p.topic === null
      ? `${p.file}: ${p.absent.length} topic(s) of ${p.candidatesFile} are absent from the run (0 documents, fewer than their candidate list): ${listed(p.absent)}`
      : `${p.file}: topic ${p.topic}: ${p.count} document(s), but its candidate list in ${p.candidatesFile} has ${p.want} (${p.count < p.want ? 'fewer' : 'more'})`,
  topic_without_candidates: (p) =>
    `${p.file}: ${p.topics.length} topic(s) have no candidate list in ${p.candidatesFile}: ${listed(p.topics)}`,
  rank_restarts: (p) =>
    `${p.file}: topic ${p.topic}: rank 1 again at line${p.lines.length === 1 ? '' : 's'} ${listed(p.lines.map(String))} (the rank restarts, as in per-language lists concatenated); an MLIR run is one ranked list per topic`,
  too_many_docs: (p) =>
    `${p.file}: topic ${p.topic}: ${p.count} documents, more than ${p.depth} (per-language lists concatenated? an MLIR run ranks at most ${p.depth} documents per topic over all languages)`,
  one_language: (p) =>
    `${p.file}: topic ${p.topic}: all ${p.count} document(s) of known language are '${p.language}', but ${p.judged.join(', ')} are ${p.fromQrels ? 'judged for this topic' : 'in the language map'} (a single-language list is not an MLIR ranking)`,
  doc_id_prefix: (p) =>
    `${p.file}: ${p.count} doc id(s) start with '${p.prefix}' (first: ${p.first}): ${p.note}`,
  too_deep: (p) =>
    `${p.file}: ${p.count} quer${p.count === 1 ? 'y retrieves' : 'ies retrieve'} more than ${p.depth} documents (deepest: ${p.deepest} with ${p.deepestCount}): ${p.note}`,
  qrels_missing_grade: (p) => `${p.file}: ${p.note}`,
  qrels_language: (p) => {
    switch (p.part) {
      case 'line':
        return `${p.file}:${p.line}: language ${show(p.found, 160)} in column 2, but preset '${p.preset}' expects ${p.languages.map((l) => `'${l}'`).join(' or ')}: ${show(p.text, 160)}`
      case 'more':
        return `${p.file}: ${p.more} more line(s) with a language other than ${p.languages.join('/')} (${p.total} in all)`
      case 'note':
        return `(${p.note})`
    }
  },
  forbidden_grade: (p) =>
    `${p.file}: ${p.count} judgment(s) of grade ${p.grade}${p.remapped ? ' after --rel-map' : ''} (first: line ${p.line}: ${JSON.stringify(decodeId(p.text.slice(0, 160)))}): ${p.note}${p.force ? ' [--force: scored as they are]' : ''}`,
  qrels_topics_missing: (p) =>
    `${p.file}: ${p.topics.length} qrels topic(s) absent from the run, ${p.policy}: ${p.topics.join(', ')}`,
  run_topics_ignored: (p) =>
    `${p.file}: ${p.topics.length} run topic(s) not in the qrels, ignored: ${p.topics.join(', ')}`,
  cut_by_depth: (p) =>
    `${p.file}: ${p.measures.join(', ')}: ${p.count} document(s) below rank ${p.depth} not counted (the other measures use them)`,
}

/** `FILE:LINE: what: "text" (expected …)` (the file alone for a whole-file problem). */
function agreementLine(a: AgreementAt, what: string, expected: string): string {
  const where = a.line > 0 ? `${a.file}:${a.line}` : a.file
  return `${where}: ${what}${a.text ? `: ${JSON.stringify(a.text)}` : ''} (expected ${expected})`
}

/** What each field of a label or judgment line is expected to hold. */
function agreementField(of: AgreementSource, field: string, scale: string): string {
  const common: Readonly<Record<string, string>> = {
    turn_id: '"turn_id": "<conversation>_turn_<n>"',
  }
  const labels: Readonly<Record<string, string>> = {
    dimension: '"dimension": a dimension name such as "correctness"',
    score: `"score": an integer in ${scale}`,
    conversation_id: '"conversation_id": a string, or no such field',
    annotator: '"annotator": a string, or no such field',
    domain: '"domain": a non-empty string such as "finance", or no such field',
  }
  const judgments: Readonly<Record<string, string>> = {
    conversation_id: '"conversation_id": a string',
    dimension: '"dimension": a dimension name',
    status: '"status": "ok", "invalid" or "missing"',
    score: `"score": an integer in ${scale} when the status is "ok"`,
    config_hash: '"config_hash": the content hash of the judge config',
    attempts: '"attempts": an integer >= 0',
    domain: '"domain": a string or null',
    turn_depth: '"turn_depth": an integer >= 1 or null',
    rationale: '"rationale": a string or null',
  }
  return common[field] ?? (of === 'labels' ? labels : judgments)[field] ?? `"${field}"`
}

/** ` in domain "x"`, or nothing when there is no domain. */
function inDomain(domain: string | null): string {
  return domain === null ? '' : ` in domain ${JSON.stringify(domain)}`
}

/** ` (…, annotator "x")`, or nothing without an annotator. */
function byAnnotator(annotator: string | null): string {
  return annotator ? `, annotator ${JSON.stringify(annotator)}` : ''
}

/** A bad `judge agreement` input, as one line: `FILE:LINE: what: "text" (expected …)`. */
const AGREEMENT: Wording<AgreementIssue> = {
  invalid_utf8: (a) => agreementLine(a, 'invalid UTF-8', 'a UTF-8 encoded line'),
  invalid_json: (a) => agreementLine(a, `invalid JSON (${a.error})`, 'one JSON object per line'),
  not_an_object: (a) =>
    agreementLine(
      a,
      'not a JSON object',
      a.of === 'labels'
        ? '{"turn_id", "dimension", "score", "conversation_id"?, "domain"?, "annotator"?}'
        : '{"turn_id", "conversation_id", "dimension", "score", "status", "config_hash", "attempts", …}',
    ),
  unknown_fields: (a) =>
    agreementLine(
      a,
      `unknown field(s) ${a.fields.map((k) => JSON.stringify(k)).join(', ')}`,
      'only turn_id, dimension, score, conversation_id, domain, annotator',
    ),
  missing_field: (a) =>
    agreementLine(a, `missing "${a.field}"`, agreementField(a.of, a.field, a.scale)),
  not_a_string: (a) =>
    agreementLine(
      a,
      `"${a.field}" is not a non-empty string`,
      agreementField(a.of, a.field, a.scale),
    ),
  bad_value: (a) =>
    agreementLine(a, `"${a.field}" is ${a.found}`, agreementField(a.of, a.field, a.scale)),
  score_with_status: (a) =>
    agreementLine(
      a,
      `"score" is ${a.found} with status ${JSON.stringify(a.status)}`,
      a.status === 'ok'
        ? `"score": an integer in ${a.scale} when the status is "ok"`
        : `"score": null when the status is "${a.status}"`,
    ),
  no_conversation: (a) =>
    agreementLine(
      a,
      `no "conversation_id" and turn id ${JSON.stringify(a.turnId)} is not <conversation>_turn_<n>`,
      a.of === 'labels'
        ? 'a "conversation_id" field or a turn id of the form <conversation>_turn_<n>'
        : 'a "conversation_id" field',
    ),
  duplicate_label: (a) =>
    agreementLine(
      a,
      `duplicate label for turn ${JSON.stringify(a.turnId)}${inDomain(a.domain)}, dimension ${JSON.stringify(a.dimension)}${byAnnotator(a.annotator)} (first at line ${a.firstLine})`,
      'one label per annotator, domain, turn and dimension',
    ),
  duplicate_judgment: (a) =>
    agreementLine(
      a,
      `duplicate judgment for turn ${JSON.stringify(a.turnId)}${inDomain(a.domain)}, dimension ${JSON.stringify(a.dimension)} (first at line ${a.firstLine})`,
      'one judgment per domain, turn and dimension',
    ),
  no_records: (a) =>
    a.of === 'labels'
      ? agreementLine(a, 'no labels in the file', 'one JSON label per line')
      : agreementLine(a, 'no judgments in the file', 'one JSON judgment per line'),
  mixed_configs: (a) =>
    agreementLine(
      a,
      `judgments made under ${a.configs.length} different judge configs: ${a.configs.map((c) => `${c.hash} (${c.count} line(s), first at line ${c.first})`).join(', ')}`,
      'every judgment made under one judge config (one config_hash); rerun or split the file',
    ),
  unknown_dimension: (a) =>
    agreementLine(
      a,
      `dimension ${JSON.stringify(a.dimension)} is in neither file`,
      `one of ${a.dimensions.map((x) => JSON.stringify(x)).join(', ') || '(no dimensions found)'}`,
    ),
  ambiguous_domain: (a) =>
    agreementLine(
      a,
      `turn ${JSON.stringify(a.turnId)} is judged in domains ${a.judged.map((c) => c.domain ?? '(no domain)').join(', ')} (${a.judged.map((c) => `${a.judgmentsFile}:${c.line}`).join(', ')}); add "domain" to the label`,
      `a "domain" field naming which of these domains the label is for (dimension ${JSON.stringify(a.dimension)})`,
    ),
  same_turn_labelled: (a) =>
    agreementLine(
      a,
      `label for turn ${JSON.stringify(a.turnId)}${inDomain(a.domain)}, dimension ${JSON.stringify(a.dimension)}${byAnnotator(a.annotator)} labels the same turn as line ${a.firstLine} (a label without "domain" pairs with the only domain that judged the turn)`,
      'one label per annotator, domain, turn and dimension',
    ),
  conversation_differs: (a) =>
    agreementLine(
      a,
      `turn ${JSON.stringify(a.turnId)} is in conversation ${JSON.stringify(a.conversationId)} here but ${JSON.stringify(a.judgedConversationId)} in ${a.judgmentsFile}:${a.judgedLine}`,
      'the same conversation id in both files',
    ),
}

/** A config value as JSON, clipped to 60 characters (`nothing` when absent). */
function showValue(v: unknown): string {
  if (v === undefined) return 'nothing'
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 60 ? `${s.slice(0, 57)}...` : s
}

/** A judge-config problem, its JSON path first (`$.retry.jitter: expected …`). */
const CONFIG: Wording<ConfigProblem> = {
  not_an_object: (c) => `${c.path}: expected an object, found ${showValue(c.found)}`,
  unknown_field: (c) => `${c.path}: unknown field (expected one of ${c.keys.join(', ')})`,
  not_a_string: (c) => `${c.path}: expected a non-empty string, found ${showValue(c.found)}`,
  not_a_number: (c) =>
    `${c.path}: expected ${c.integer ? 'an integer' : 'a number'} ${c.max === undefined ? `≥ ${c.min}` : `in [${c.min}, ${c.max}]`}, found ${showValue(c.found)}`,
  not_one_of: (c) =>
    `${c.path}: expected one of ${c.values.map((x) => JSON.stringify(x)).join(', ')}, found ${showValue(c.found)}`,
  not_a_boolean: (c) => `${c.path}: expected true or false, found ${showValue(c.found)}`,
  not_an_array: (c) => `${c.path}: expected an array, found ${showValue(c.found)}`,
  unknown_placeholder: (c) =>
    `${c.path}: unknown placeholder {{${c.placeholder}}} (expected one of ${c.fields.map((f) => `{{${f}}}`).join(', ')})`,
  no_answer_placeholder: (c) =>
    `${c.path}: the template never shows the answer: expected a {{answer}} placeholder`,
  no_score_property: (c) => `${c.path}: expected a JSON Schema object with a "score" property`,
  not_dimensions: (c) =>
    `${c.path}: expected an array of the five dimensions, found ${showValue(c.found)}`,
  duplicate_dimension: (c) => `${c.path}: dimension ${JSON.stringify(c.dimension)} given twice`,
  missing_dimension: (c) =>
    `${c.path}: dimension ${JSON.stringify(c.dimension)} is missing (all five are required)`,
  bad_rubric: (c) =>
    `${c.path}: expected 5 non-empty anchor strings for the scores 1..5, found ${showValue(c.found)}`,
  bad_requirement: (c) =>
    `${c.path}: expected "passages", "reference" or "history", found ${showValue(c.found)}`,
  cap_below_base: (c) => `${c.path}: expected at least backoff_base_ms (${c.base}), found ${c.cap}`,
}

/** Python-style quoting of a field (binary string), as the plan's scripts print it: `'3.0'`. */
function pyQuote(text: string): string {
  return `'${decodeId(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/** A RETECO plan run-file problem (no file, line or text: `formatRunProblem` adds them). */
const RETECO_PLAN: Wording<RetecoPlanProblem> = {
  columns: (p) => `expected 6 columns, got ${p.found}`,
  rank: (p) => `rank is not an integer: ${pyQuote(p.found)}`,
  score: (p) => `score is not a number: ${pyQuote(p.found)}`,
  duplicate_rank: (p) => `duplicate rank ${p.rank} in topic ${pyQuote(p.topic)}`,
  nonpositive_rank: (p) => `rank ${p.rank} is not positive in topic ${pyQuote(p.topic)}`,
}

/** The start of a judge JSONL line, quoted and clipped to 60 characters with `…`. */
function judgeText(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)
}

/** The start of an unreadable judge JSONL line (bad bytes as U+FFFD), quoted, 60 characters. */
function judgeBytes(text: string): string {
  return JSON.stringify(text.slice(0, 60))
}

/** ` (domain d)` where a judge item or judgment has a domain. */
function judgeDomain(domain: string | null): string {
  return domain ? ` (domain ${domain})` : ''
}

/** What is wrong with a judge record (without the place: `bad_record` adds it). */
const JUDGE_FIELD: Wording<JudgeFieldProblem> = {
  not_an_object: (f) =>
    `expected a JSON object${f.found === undefined ? '' : `, found ${f.found}`}`,
  unknown_field: (f) => `unknown field "${f.field}" (expected ${f.known.join(', ')})`,
  bad_value: (f) =>
    `"${f.field}"${f.index === undefined ? '' : `[${f.index}]`}: expected ${f.expected}, found ${f.found}`,
  same_answers: () => '"better" and "worse" are the same text',
  no_answers: () => 'cannot build the two answers',
}

/** What is wrong with a judge record (`"turn_depth": expected an integer ≥ 1, found 0`). */
export function formatJudgeFieldProblem(problem: JudgeFieldProblem): string {
  const word = JUDGE_FIELD[problem.code] as (p: JudgeFieldProblem) => string
  return word(problem)
}

/** A bad judge input, its file (and line) first: `file:line: what: "text"`. */
const JUDGE: Wording<JudgeIssue> = {
  config_unreadable: (j) => `${j.file}: cannot read the judge config (${j.reason})`,
  config_not_json: (j) => `${j.file}: the judge config is not valid JSON (${j.error})`,
  config_too_deep: (j) =>
    `${j.file}: the judge config is nested deeper than ${j.limit} levels (expected a judge config object)`,
  config_invalid: (j) => `${j.file}: ${wordIssue('config', j.problem)}`,
  not_a_file: (j) => `${j.file}: not a file`,
  cannot_read: (j) => `${j.file}: cannot read (${j.reason})`,
  too_many_problems: (j) => `${j.file}: … stopped after ${j.limit} problems`,
  line_too_long: (j) =>
    `${j.file}:${j.line}: line longer than ${j.limit} bytes (raise the limit with TRECSCORE_MAX_LINE_BYTES)`,
  nul_byte: (j) =>
    `${j.file}:${j.line}: NUL byte in line (binary data?), expected one JSON object per line: ${judgeBytes(j.text)}`,
  invalid_utf8: (j) =>
    `${j.file}:${j.line}: invalid UTF-8, expected UTF-8 text: ${judgeBytes(j.text)}`,
  invalid_json: (j) =>
    `${j.file}:${j.line}: not valid JSON (${j.error.slice(0, 100)}): ${judgeText(j.text)}`,
  bad_record: (j) =>
    `${j.file}:${j.line}: ${formatJudgeFieldProblem(j.problem)}: ${judgeText(j.text)}`,
  duplicate_item: (j) =>
    `${j.file}:${j.line}: turn ${JSON.stringify(j.turnId)}${judgeDomain(j.domain)} already given at line ${j.firstLine}: ${judgeText(j.text)}`,
  duplicate_judgment: (j) =>
    `${j.file}:${j.line}: turn ${JSON.stringify(j.turnId)}${j.domain !== null ? ` (domain ${j.domain})` : ''} already has a ${j.dimension} judgment at line ${j.firstLine}; expected one judgment per turn and dimension: ${judgeText(j.text)}`,
  duplicate_case: (j) =>
    `${j.file}:${j.line}: case ${JSON.stringify(j.id)} already given at line ${j.firstLine}: ${judgeText(j.text)}`,
  no_records: (j) => `${j.file}: no ${j.of}`,
  mixed_configs: (j) =>
    `${j.file}: judgments of ${j.hashes.length} different judge configs are mixed (${j.hashes.join(', ')}); refusing to use them together`,
  out_other_config: (j) =>
    `${j.file}: holds judgments made under judge config ${j.found}, not ${j.expected}; refusing to overwrite or mix them (choose another --out)`,
  out_exists: (j) =>
    `${j.file}: already exists; refusing to overwrite it (pass --force to replace it: finished judgments come from the cache, so a rerun makes no new calls for them)`,
  cannot_write: (j) => `${j.file}: cannot write (${j.reason})`,
  cache_unopenable: (j) => `${j.file}: cannot open the judgment cache as SQLite (${j.reason})`,
  cache_other_config: (j) =>
    `${j.file}: this judgment cache was made under judge config ${j.found}, not ${j.expected}; judgments of different configs are never mixed (use another --cache file)`,
  batch_reply_too_large: (j) => `batch API: ${j.path}: reply larger than ${j.limit} bytes`,
  batch_unreachable: (j) => `batch API: ${j.path}: ${j.reason}`,
  batch_http: (j) => `batch API: ${j.what}: HTTP ${j.status}: ${j.body}`,
  batch_not_json: (j) => `batch API: ${j.what}: the reply is not JSON: ${j.body}`,
  batch_no_id: (j) => `batch API: the ${j.of} returned no id`,
  items_and_preset: (j) =>
    `give either an items file or --preset ${j.preset} with --data and the answers file, not both`,
  preset_needs_data: (j) =>
    `--preset ${j.preset} needs --data DIR and the submission's answers (a directory with one <domain>.jsonl per domain)`,
  not_a_judge_preset: (j) =>
    `--preset ${j.preset}: not a preset judge items are built for${j.presets ? ` (${j.presets})` : ''}`,
  no_items: (j) =>
    `give an items JSONL file${j.presets ? `, or --preset ${j.presets} --data DIR ANSWERS` : ''}`,
  data_without_preset: (j) =>
    `--data and --retrieval go with --preset${j.presets ? ` ${j.presets}` : ''}`,
  judgments_other_config: (j) =>
    `${j.file}: judgments were made under judge config ${j.found}, but ${j.configFile} has hash ${j.expected}; give the config they were made with (--config)`,
  human_unreadable: (j) => `${j.file}: cannot read the human labels (${j.reason})`,
  diagnostics_unreadable: (j) => `${j.file}: cannot read a judge run JSON report (${j.reason})`,
  diagnostics_too_deep: (j) =>
    `${j.file}: nested deeper than ${j.limit} levels (expected a judge run JSON report)`,
  diagnostics_not_an_object: (j) =>
    `${j.file}: expected a judge run JSON report object (\`judge run --report-json\`)`,
  diagnostics_other_config: (j) =>
    `${j.file}: run report of judge config ${j.found}, not ${j.expected}`,
  diagnostics_no_lexical: (j) =>
    `${j.file}: the run report has no lexical diagnostics (the items had no references, or --no-lexical)`,
  reteco_2c_needs_retrieval: () =>
    "--preset reteco-2c needs the submission's retrieval run (--retrieval RUN): its top-5 passages are what the faithfulness judge sees",
  reteco_2b_retrieval: () =>
    '--retrieval is for --preset reteco-2c; 2b judges against the gold passages',
  recor_not_a_file: (j) =>
    `${j.file}: not a file (expected the RECOR conversations of domain ${j.domain}, split ${j.split})`,
  recor_missing: (j) =>
    `${j.file}: missing; the judge needs the RECOR conversations (questions and benchmark answers) of domain ${j.domain} for split ${j.split} (--split)`,
  recor_unreadable: (j) => `${j.file}: cannot read the RECOR conversations (${j.reason})`,
  recor_not_an_array: (j) =>
    `${j.file}: expected a JSON array of conversations${j.tooDeep ? ` nested at most ${j.limit} levels deep` : ''}`,
  no_recor_conversations: (j) => `${j.dir}: no Track 2 (RECOR) conversations found`,
  answers_not_judged: (j) =>
    `${j.report === '' ? '' : `${j.report}\n`}${j.file}: not judged: the submission has ${j.errors} error(s) (trecscore validate --preset ${j.preset} shows the same report)`,
  retrieval_run: (j) =>
    `${j.problem.file}:${j.problem.line}: ${wordIssue('retecoPlan', j.problem)}`,
}

/** The table: module, then code. */
export const ISSUE_WORDING: { readonly [K in IssueKind]: Wording<IssueKinds[K]> } = {
  input: INPUT,
  run: RUN,
  answer: ANSWER,
  textsim: TEXTSIM,
  prepare: PREPARE,
  preset: PRESET,
  agreement: AGREEMENT,
  config: CONFIG,
  retecoPlan: RETECO_PLAN,
  judge: JUDGE,
}

/** The message of an issue of module `kind`. */
export function wordIssue<K extends IssueKind>(kind: K, issue: IssueKinds[K]): string {
  const word = ISSUE_WORDING[kind][issue.code as keyof Wording<IssueKinds[K]>] as unknown as (
    i: ModuleIssue,
  ) => string
  return word(issue)
}

/** The message of an input issue (`file:line: what`). */
export function formatIssue(issue: InputIssue): string {
  return wordIssue('input', issue)
}

/** Why query `queryId` cannot be evaluated (`query "q": …`), in every command. */
export function formatPrepareFailure(queryId: string, failure: PrepareFailure): string {
  return wordIssue('prepare', { ...failure, queryId })
}

/** The message of a run problem (no file, line or severity: renderers add those). */
export function formatRunProblem(p: RunProblem): string {
  return wordIssue('run', p)
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
