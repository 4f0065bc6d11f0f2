/**
 * Input checks of the TREC 2023 NeuCLIR presets, as pure functions over parsed input (no I/O):
 * relevance maps (`--rel-map`), the qrels' language column and unconverted grades, reranking
 * candidate lists (`--candidates`), and the MLIR rule of one unified ranked list per topic.
 * Ids are binary strings (one char per byte), as everywhere in the engine.
 */

import { wordIssue } from '../errors/format-issue.js'
import type { PresetFinding, PresetProblem } from '../errors/preset-issues.js'
import { InputError } from '../errors/trecscore-error.js'
import { binaryString, decodeId } from '../io/bytes.js'
import { LineSplitter, splitFields } from '../io/lines.js'
import { readInteger } from '../io/numbers.js'
import { docCount, docIdsOf } from '../model/run-query.js'
import type { Run, RunQuery } from '../model/types.js'

export type { PresetProblem } from '../errors/preset-issues.js'

/** A grade in the integer syntax of `io/numbers.ts` (as the qrels parser reads it); null if not one. */
function readIntegerText(text: string): number | null {
  const b = Buffer.from(text, 'latin1')
  return readInteger(b, 0, b.length)
}

/**
 * Each line of latin1 `text` with its fields (split on C white space by the one splitter of
 * `io/lines.ts`, as the qrels parser splits), its physical number and its first 4 KiB to show.
 */
function forEachFieldsLine(
  text: string,
  onLine: (fields: readonly string[], line: number, shown: string) => void,
): void {
  const bytes = Buffer.from(text, 'latin1')
  const f: number[] = []
  const lines = new LineSplitter(
    (buf, start, end, line) => {
      const n = splitFields(buf, start, end, f)
      const fields: string[] = []
      for (let k = 0; k < n; k++) fields.push(binaryString(buf, f[2 * k]!, f[2 * k + 1]!))
      onLine(fields, line, binaryString(buf, start, Math.min(end, start + 4096)))
    },
    { maxLineBytes: Number.POSITIVE_INFINITY },
  )
  lines.feed(bytes, true)
}

/**
 * Parse a `--rel-map` value: a name from `named`, or `grade:gain` pairs separated by commas
 * (`3:3,2:1,1:0,0:0`). Grades not in the map keep their value. Throws {@link InputError}.
 */
export function parseRelMap(
  text: string,
  named: Readonly<Record<string, Readonly<Record<number, number>>>> = {},
): ReadonlyMap<number, number> {
  const byName = Object.hasOwn(named, text) ? named[text] : undefined
  if (byName) return new Map(Object.entries(byName).map(([k, v]) => [Number(k), v]))
  const out = new Map<number, number>()
  const expected = `grade:value pairs separated by commas (e.g. 3:3,2:1,1:0,0:0)${Object.keys(named).length ? ` or a named map (${Object.keys(named).join(', ')})` : ''}`
  for (const pair of text.split(',')) {
    const m = /^\s*([+-]?\d{1,7}):([+-]?\d{1,7})\s*$/.exec(pair)
    if (!m)
      throw new InputError([{ code: 'bad_argument', option: '--rel-map', found: text, expected }])
    const from = Number(m[1])
    if (out.has(from))
      throw new InputError([
        {
          code: 'bad_argument',
          option: '--rel-map',
          found: text,
          expected: `each grade once (${from} is mapped twice)`,
        },
      ])
    out.set(from, Number(m[2]))
  }
  return out
}

/** Apply a relevance map to one grade (grades not in the map are kept). */
export function remapGrade(map: ReadonlyMap<number, number> | undefined, grade: number): number {
  return map ? (map.get(grade) ?? grade) : grade
}

/**
 * Write qrels text with every grade passed through `map`; everything else on a line (spacing,
 * the language column) is kept. Lines without four fields are left as they are.
 */
export function remapQrelsText(
  text: string,
  map: ReadonlyMap<number, number>,
): { readonly text: string; readonly changed: number } {
  const out: string[] = []
  let copied = 0
  const f: number[] = []
  const lines = new LineSplitter(
    (buf, start, end) => {
      if (splitFields(buf, start, end, f) !== 4) return
      const g = readInteger(buf, f[6]!, f[7]!)
      if (g === null) return
      const to = remapGrade(map, g)
      if (to === g) return
      out.push(text.slice(copied, f[6]!), String(to))
      copied = f[7]!
    },
    { maxLineBytes: Number.POSITIVE_INFINITY },
  )
  // fed whole: offsets index `text` (latin1, one byte a character)
  lines.feed(Buffer.from(text, 'latin1'), true)
  out.push(text.slice(copied))
  return { text: out.join(''), changed: out.length >> 1 }
}

/** What {@link scanNeuclirQrels} learns from the qrels text. */
export interface QrelsScan {
  /** Lines whose language column is not an accepted code (every one, in file order). */
  readonly languageProblems: readonly {
    readonly line: number
    readonly found: string
    readonly text: string
  }[]
  /** Lines holding the forbidden grade after the map (every one, in file order). */
  readonly forbiddenGrade: readonly { readonly line: number; readonly text: string }[]
  /** Judgments per grade, after the map. */
  readonly gradeCounts: ReadonlyMap<number, number>
  /** Judgments whose grade the map changed. */
  readonly remapped: number
  /** Language of each judged document (column 2). */
  readonly docLanguages: ReadonlyMap<string, string>
  /** Languages judged per topic. */
  readonly topicLanguages: ReadonlyMap<string, ReadonlySet<string>>
}

/**
 * Read the NeuCLIR columns of qrels text (`topic language docid grade`, one judgment a line):
 * the language codes (checked against `languages`), the grades after `remap` (lines with
 * `forbiddenGrade` collected), and the language of every judged document. Lines without four
 * fields are skipped here (the qrels parser reports them).
 */
export function scanNeuclirQrels(
  text: string,
  opts: {
    readonly languages?: readonly string[]
    readonly forbiddenGrade?: number
    readonly remap?: ReadonlyMap<number, number>
  } = {},
): QrelsScan {
  const languageProblems: { line: number; found: string; text: string }[] = []
  const forbiddenGrade: { line: number; text: string }[] = []
  const gradeCounts = new Map<number, number>()
  const docLanguages = new Map<string, string>()
  const topicLanguages = new Map<string, Set<string>>()
  const accept = opts.languages ? new Set(opts.languages) : null
  let remapped = 0
  forEachFieldsLine(text, (f, lineNo, line) => {
    if (f.length !== 4) return
    const [topic, lang, doc, gradeText] = f as [string, string, string, string]
    const raw = readIntegerText(gradeText)
    if (raw === null) return
    const g = remapGrade(opts.remap, raw)
    if (g !== raw) remapped++
    gradeCounts.set(g, (gradeCounts.get(g) ?? 0) + 1)
    if (accept && !accept.has(lang))
      languageProblems.push({ line: lineNo, found: lang, text: line })
    if (opts.forbiddenGrade !== undefined && g === opts.forbiddenGrade)
      forbiddenGrade.push({ line: lineNo, text: line })
    docLanguages.set(doc, lang)
    let langs = topicLanguages.get(topic)
    if (!langs) topicLanguages.set(topic, (langs = new Set()))
    langs.add(lang)
  })
  return { languageProblems, forbiddenGrade, gradeCounts, remapped, docLanguages, topicLanguages }
}

/** The language-column errors of a scan (every line listed up to `max`, all counted). */
export function languageProblems(
  scan: QrelsScan,
  file: string,
  languages: readonly string[],
  preset: string,
  max = 20,
): PresetFinding[] {
  const out: PresetFinding[] = scan.languageProblems
    .slice(0, max)
    .map((p) => ({ code: 'qrels_language', part: 'line', file, ...p, preset, languages }))
  const total = scan.languageProblems.length
  if (total > max)
    out.push({ code: 'qrels_language', part: 'more', file, more: total - max, total, languages })
  return out
}

/** {@link languageProblems}, worded. */
export function languageProblemMessages(
  scan: QrelsScan,
  file: string,
  languages: readonly string[],
  preset: string,
  max = 20,
): string[] {
  return languageProblems(scan, file, languages, preset, max).map((p) => wordIssue('preset', p))
}

/**
 * Read a doc-to-language map: lines `docid lang`, or NeuCLIR qrels lines `topic lang docid grade`
 * (so the language qrels themselves can serve). Other lines are reported by number.
 */
export function parseDocLanguages(
  text: string,
  file: string,
): {
  readonly languages: ReadonlyMap<string, string>
  readonly problems: readonly PresetProblem[]
} {
  const languages = new Map<string, string>()
  const problems: PresetProblem[] = []
  forEachFieldsLine(text, (f, lineNo, line) => {
    if (f.length === 0 || f[0]!.startsWith('#')) return
    if (f.length === 2) languages.set(f[0]!, f[1]!)
    else if (f.length === 4) languages.set(f[2]!, f[1]!)
    else if (problems.length < 50)
      problems.push({ code: 'bad_doc_lang_line', file, line: lineNo, found: f.length, text: line })
  })
  return { languages, problems }
}

/**
 * Reranking: every run topic must rank exactly its candidate list. Flags documents outside the
 * topic's list (with their run lines), topics without a list, and topics (candidate topics
 * absent from the run included) with fewer or more documents than their list.
 */
export function checkCandidates(
  run: Run,
  candidates: Run,
  file: string,
  candidatesFile: string,
): PresetProblem[] {
  const out: PresetProblem[] = []
  const noList: string[] = []
  for (const [qid, q] of run.queries) {
    const cand = candidates.queries.get(qid)
    if (!cand) {
      noList.push(decodeId(qid))
      continue
    }
    const allowed = new Set(docIdsOf(cand))
    const ids = docIdsOf(q)
    const outside: { docId: string; line: number }[] = []
    let n = 0
    for (let i = 0; i < ids.length; i++) {
      if (allowed.has(ids[i]!)) continue
      n++
      if (outside.length < 5) outside.push({ docId: decodeId(ids[i]!), line: q.lines[i]! })
    }
    const topic = decodeId(qid)
    if (n > 0)
      out.push({ code: 'doc_not_in_candidates', file, candidatesFile, topic, count: n, outside })
    const want = docCount(cand)
    if (ids.length !== want)
      out.push({ code: 'candidate_count', file, candidatesFile, topic, count: ids.length, want })
  }
  if (noList.length)
    out.push({ code: 'topic_without_candidates', file, candidatesFile, topics: noList })
  const absent = [...candidates.queries.keys()].filter((q) => !run.queries.has(q)).map(decodeId)
  if (absent.length)
    out.push({ code: 'candidate_count', file, candidatesFile, topic: null, absent })
  return out
}

/** Languages (by doc) and, where known, the languages judged per topic. */
export interface LanguageInfo {
  readonly docLanguages: ReadonlyMap<string, string>
  /** Languages judged per topic (from language qrels); absent = judge by the map's languages. */
  readonly topicLanguages?: ReadonlyMap<string, ReadonlySet<string>>
}

function restarts(q: RunQuery): number[] {
  const lines: number[] = []
  const r = q.ranks
  if (!r) return lines
  let ones = 0
  for (let i = 0; i < r.length; i++) {
    if (r[i] === 1 && ++ones > 1) lines.push(q.lines[i]!)
  }
  return lines
}

/**
 * MLIR: one unified ranked list per topic. Flags topics where the rank column restarts at 1
 * (needs ranks, i.e. the run read with `keepRanks`), topics with more than `depth` documents,
 * and, given languages, topics whose retrieved documents of known language are all in one
 * language while several are judged for the topic (or present in the map, without qrels).
 */
export function checkUnifiedRanking(
  run: Run,
  file: string,
  depth: number,
  langs?: LanguageInfo,
): PresetProblem[] {
  const out: PresetProblem[] = []
  const allLangs = langs ? new Set(langs.docLanguages.values()) : new Set<string>()
  for (const [qid, q] of run.queries) {
    const topic = decodeId(qid)
    const again = restarts(q)
    if (again.length) out.push({ code: 'rank_restarts', file, topic, lines: again })
    const n = docCount(q)
    if (n > depth) out.push({ code: 'too_many_docs', file, topic, count: n, depth })
    if (!langs) continue
    const judged = langs.topicLanguages ? langs.topicLanguages.get(qid) : allLangs
    if (!judged || judged.size < 2) continue
    const seen = new Map<string, number>()
    for (const d of docIdsOf(q)) {
      const l = langs.docLanguages.get(d)
      if (l !== undefined) seen.set(l, (seen.get(l) ?? 0) + 1)
    }
    if (seen.size === 1) {
      const [only, count] = [...seen][0]!
      out.push({
        code: 'one_language',
        file,
        topic,
        language: only,
        count,
        judged: [...judged].sort(),
        fromQrels: langs.topicLanguages !== undefined,
      })
    }
  }
  return out
}
