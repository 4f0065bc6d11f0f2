/**
 * NLTK 3.8's Punkt sentence tokenizer (`PunktSentenceTokenizer.tokenize`, Kiss & Strunk 2006)
 * applying already-trained parameters, as `nltk.sent_tokenize` does for English.
 *
 * For a text:
 * 1. Candidate breaks: every `.`, `?` or `!` followed by one of `)";}]*:@'({[!?` or by
 *    whitespace and a token (`next_tok`).
 * 2. Each candidate gets a context: the word before it (back to the last ASCII whitespace,
 *    `string.whitespace`), the end character and what follows. Candidates whose word runs into
 *    the next candidate's word are not tested on their own (NLTK 3.8's ReDoS-safe rewrite).
 * 3. A context is a break when, after the two annotation passes, a token other than its last
 *    one is a sentence break:
 *    - first pass: `.`, `?`, `!` break; `..`-tokens are ellipses; a token ending in `.` is an
 *      abbreviation when the rest (lowercased), or its last `-` part, is a known abbreviation
 *      type, else a break;
 *    - second pass (token + next token): known collocation → abbreviation; abbreviation or
 *      ellipsis (not an initial) → break when the orthographic heuristic says the next word
 *      starts sentences, or when it is capitalised and a frequent sentence starter; an initial
 *      or a number → abbreviation when the heuristic says the next word does not start
 *      sentences, or (initials) when it is unknown and the next word is capitalised and never
 *      seen lowercase.
 * 4. Sentences run from the previous break to the candidate (the last one to the end of the
 *    right-stripped text); closing quotes and brackets that start a sentence are moved back to
 *    the one before (`_realign_boundaries`).
 *
 * Offsets are UTF-16 indices; every index comes from a scan that stops on code-point
 * boundaries, so slices equal Python's code-point slices. All scans are linear.
 */

import type { InputIssue } from '../../../errors/issues.js'
import { InputError } from '../../../errors/trecscore-error.js'
import {
  firstIsLower,
  firstIsUpper,
  isPySpaceCode,
  PY_S,
  PY_W_NOT_DIGIT,
  pyRstrip,
  pyRstripLength,
  pyStrip,
} from './py-text.js'

/** Trained Punkt parameters (NLTK's `PunktParameters`). Types are lowercase words. */
export interface PunktParameters {
  /** Abbreviation types, without their final period (`dr`, `u.s`). */
  readonly abbrevTypes: ReadonlySet<string>
  /** Collocations, each as `first + '\t' + second` (`##number##\tinternational`). */
  readonly collocations: ReadonlySet<string>
  /** Frequent sentence starters. */
  readonly sentStarters: ReadonlySet<string>
  /** Orthographic context flags per type (missing types have 0). */
  readonly orthoContext: ReadonlyMap<string, number>
}

/** The texts of the four `punkt_tab` files of one language. */
export interface PunktFileTexts {
  readonly abbrevTypes: string
  readonly collocations: string
  readonly sentStarters: string
  readonly orthoContext: string
}

/** The `punkt_tab` file names (NLTK ≥ 3.8.2 `tokenizers/punkt_tab/<language>/`). */
export const PUNKT_FILE_NAMES: { readonly [K in keyof PunktFileTexts]: string } = {
  abbrevTypes: 'abbrev_types.txt',
  collocations: 'collocations.tab',
  sentStarters: 'sent_starters.txt',
  orthoContext: 'ortho_context.tab',
}

function fileLines(text: string): string[] {
  const lines = text.split('\n')
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  if (lines.length > 0) lines[0] = lines[0]!.replace(/^\uFEFF/, '')
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
}

/**
 * Parses the four `punkt_tab` files (one entry per line; `\n` or `\r\n`; a final newline is
 * optional). `abbrev_types.txt` and `sent_starters.txt` hold one type per line (spaces are
 * kept: NLTK's English list has `. . `); `collocations.tab` two tab-separated types;
 * `ortho_context.tab` a type, a tab and a non-negative integer. Every problem (an empty line,
 * a wrong number of fields, a flag that is not an integer, a type listed twice in
 * `ortho_context.tab`, an empty `ortho_context.tab`) is reported at once, with file and line.
 * `dir` only names the files in messages.
 */
export function parsePunktParameters(texts: PunktFileTexts, dir = '.'): PunktParameters {
  const issues: InputIssue[] = []
  const name = (k: keyof PunktFileTexts): string =>
    `${dir.replace(/\/+$/, '')}/${PUNKT_FILE_NAMES[k]}`
  const show = (l: string): string => l.slice(0, 200)

  const readSet = (k: 'abbrevTypes' | 'sentStarters'): Set<string> => {
    const out = new Set<string>()
    fileLines(texts[k]).forEach((l, i) => {
      const fields = l.split('\t')
      if (l.length === 0 || fields.length !== 1) {
        issues.push({
          code: 'field_count',
          file: name(k),
          line: i + 1,
          expected: 'one non-empty type per line (no tab)',
          found: l.length === 0 ? 0 : fields.length,
          text: show(l),
        })
      } else out.add(l)
    })
    return out
  }
  const abbrevTypes = readSet('abbrevTypes')
  const sentStarters = readSet('sentStarters')

  const collocations = new Set<string>()
  fileLines(texts.collocations).forEach((l, i) => {
    const fields = l.split('\t')
    if (fields.length !== 2 || fields[0] === '' || fields[1] === '') {
      issues.push({
        code: 'field_count',
        file: name('collocations'),
        line: i + 1,
        expected: 'two non-empty tab-separated types (first<TAB>second)',
        found: l.length === 0 ? 0 : fields.length,
        text: show(l),
      })
    } else collocations.add(l)
  })

  const orthoContext = new Map<string, number>()
  const firstLine = new Map<string, number>()
  const orthoLines = fileLines(texts.orthoContext)
  if (orthoLines.length === 0) issues.push({ code: 'empty_file', file: name('orthoContext') })
  orthoLines.forEach((l, i) => {
    const fields = l.split('\t')
    const at = `${name('orthoContext')}:${i + 1}`
    if (fields.length !== 2 || fields[0] === '') {
      issues.push({
        code: 'field_count',
        file: name('orthoContext'),
        line: i + 1,
        expected: 'a non-empty type, a tab and integer flags (type<TAB>flags)',
        found: l.length === 0 ? 0 : fields.length,
        text: show(l),
      })
      return
    }
    const [type, flags] = fields as [string, string]
    if (!/^[0-9]{1,9}$/.test(flags)) {
      issues.push({
        code: 'bad_argument',
        option: `${at} (flags of ${JSON.stringify(show(type))})`,
        found: show(flags),
        expected: 'a non-negative integer (orthographic context bit flags)',
      })
      return
    }
    const seen = firstLine.get(type)
    if (seen !== undefined) {
      issues.push({
        code: 'bad_argument',
        option: at,
        found: show(l),
        expected: `each type once; ${JSON.stringify(show(type))} is already at line ${seen}`,
      })
      return
    }
    firstLine.set(type, i + 1)
    orthoContext.set(type, Number(flags))
  })

  if (issues.length > 0)
    throw new InputError(issues, `${issues.length} problem(s) in the Punkt parameters in ${dir}`)
  return { abbrevTypes, collocations, sentStarters, orthoContext }
}

// ---------------------------------------------------------------------------------------------
// Punkt's word tokenizer (PunktLanguageVars.word_tokenize), as a scanner over one line.

/** `_re_non_word_chars`: `)";}]*:@'({[!?`. */
const NON_WORD = new Set([...')";}]*:@\'({[!?'])
/** Characters `_re_word_start` excludes: `("`{[:;&#*@)}]-,`. */
const NOT_WORD_START = new Set([...'("`{[:;&#*@)}]-,'])

/**
 * Python `findall` of NLTK's word pattern on one line:
 * `MultiChar | (?=WordStart)\S+?(?=\s|$|NonWord|MultiChar|,(?=$|\s|NonWord|MultiChar)) | \S`,
 * where MultiChar is `-{2,}|\.{2,}|(?:\.\s){2,}\.`. Run lengths are precomputed from the right
 * so each test is O(1) and the scan is linear.
 */
function punktWordTokenize(line: string): string[] {
  const n = line.length
  const dash = new Int32Array(n + 2)
  const dot = new Int32Array(n + 2)
  const pair = new Int32Array(n + 2)
  for (let i = n - 1; i >= 0; i--) {
    const c = line.charCodeAt(i)
    dash[i] = c === 0x2d ? dash[i + 1]! + 1 : 0
    dot[i] = c === 0x2e ? dot[i + 1]! + 1 : 0
    pair[i] =
      c === 0x2e && i + 1 < n && isPySpaceCode(line.charCodeAt(i + 1)) ? pair[i + 2]! + 1 : 0
  }
  /** Length of the MultiChar match at i, or 0. */
  const multi = (i: number): number => {
    if (i >= n) return 0
    if (dash[i]! >= 2) return dash[i]!
    if (dot[i]! >= 2) return dot[i]!
    const k = pair[i]!
    if (k >= 2 && line.charCodeAt(i + 2 * k) === 0x2e) return 2 * k + 1
    if (k >= 3) return 2 * k - 1
    return 0
  }
  const endsWord = (q: number): boolean => {
    if (q >= n) return true
    const c = line.charCodeAt(q)
    if (isPySpaceCode(c) || NON_WORD.has(line[q]!) || multi(q) > 0) return true
    if (c === 0x2c) {
      const r = q + 1
      return r >= n || isPySpaceCode(line.charCodeAt(r)) || NON_WORD.has(line[r]!) || multi(r) > 0
    }
    return false
  }
  const out: string[] = []
  let p = 0
  while (p < n) {
    if (isPySpaceCode(line.charCodeAt(p))) {
      p++
      continue
    }
    const m = multi(p)
    if (m > 0) {
      out.push(line.slice(p, p + m))
      p += m
      continue
    }
    if (!NOT_WORD_START.has(line[p]!)) {
      let q = p + 1
      while (!endsWord(q)) q++
      out.push(line.slice(p, q))
      p = q
      continue
    }
    const cp = line.codePointAt(p)!
    const len = cp > 0xffff ? 2 : 1
    out.push(line.slice(p, p + len))
    p += len
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Tokens and the two annotation passes.

const ORTHO_BEG_UC = 1 << 1
const ORTHO_MID_UC = 1 << 2
const ORTHO_UNK_UC = 1 << 3
const ORTHO_BEG_LC = 1 << 4
const ORTHO_MID_LC = 1 << 5
const ORTHO_UNK_LC = 1 << 6
const ORTHO_UC = ORTHO_BEG_UC + ORTHO_MID_UC + ORTHO_UNK_UC
const ORTHO_LC = ORTHO_BEG_LC + ORTHO_MID_LC + ORTHO_UNK_LC

const RE_NUMERIC = /^-?[.,]?\p{Nd}[\p{Nd},.-]*\.?$/u
const RE_ELLIPSIS = /^\.\.+$/
const RE_INITIAL = new RegExp(`^${PY_W_NOT_DIGIT}\\.$`, 'u')

interface Token {
  readonly tok: string
  /** `_RE_NUMERIC.sub('##number##', tok.lower())`. */
  readonly type: string
  readonly periodFinal: boolean
  sentbreak: boolean
  abbr: boolean
  ellipsis: boolean
}

function makeToken(tok: string): Token {
  const lower = tok.toLowerCase()
  return {
    tok,
    type: RE_NUMERIC.test(lower) ? '##number##' : lower,
    periodFinal: tok.endsWith('.'),
    sentbreak: false,
    abbr: false,
    ellipsis: false,
  }
}

function typeNoPeriod(t: Token): string {
  return t.type.length > 1 && t.type.endsWith('.') ? t.type.slice(0, -1) : t.type
}

function typeNoSentperiod(t: Token): string {
  return t.sentbreak ? typeNoPeriod(t) : t.type
}

/** `_tokenize_words`: Punkt word tokens of each non-blank `\n`-separated line. */
function tokenizeWords(text: string): Token[] {
  const out: Token[] = []
  for (const line of text.split('\n')) {
    if (pyStrip(line).length === 0) continue
    for (const w of punktWordTokenize(line)) out.push(makeToken(w))
  }
  return out
}

function firstPass(t: Token, params: PunktParameters): void {
  const tok = t.tok
  if (tok === '.' || tok === '?' || tok === '!') t.sentbreak = true
  else if (RE_ELLIPSIS.test(tok)) t.ellipsis = true
  else if (t.periodFinal && !tok.endsWith('..')) {
    const stem = tok.slice(0, -1).toLowerCase()
    const parts = stem.split('-')
    if (params.abbrevTypes.has(stem) || params.abbrevTypes.has(parts[parts.length - 1]!))
      t.abbr = true
    else t.sentbreak = true
  }
}

/** `_ortho_heuristic`: true (starts a sentence), false (does not) or 'unknown'. */
function orthoHeuristic(t: Token, params: PunktParameters): boolean | 'unknown' {
  if (';:,.!?'.includes(t.tok)) return false
  const ctx = params.orthoContext.get(typeNoSentperiod(t)) ?? 0
  if (firstIsUpper(t.tok) && ctx & ORTHO_LC && !(ctx & ORTHO_MID_UC)) return true
  if (firstIsLower(t.tok) && (ctx & ORTHO_UC || !(ctx & ORTHO_BEG_LC))) return false
  return 'unknown'
}

function secondPass(t1: Token, t2: Token, params: PunktParameters): void {
  if (!t1.periodFinal) return
  const typ = typeNoPeriod(t1)
  const nextTyp = typeNoSentperiod(t2)
  const isInitial = RE_INITIAL.test(t1.tok)
  if (params.collocations.has(`${typ}\t${nextTyp}`)) {
    t1.sentbreak = false
    t1.abbr = true
    return
  }
  if ((t1.abbr || t1.ellipsis) && !isInitial) {
    if (orthoHeuristic(t2, params) === true) {
      t1.sentbreak = true
      return
    }
    if (firstIsUpper(t2.tok) && params.sentStarters.has(nextTyp)) {
      t1.sentbreak = true
      return
    }
  }
  if (isInitial || typ === '##number##') {
    const starter = orthoHeuristic(t2, params)
    if (starter === false) {
      t1.sentbreak = false
      t1.abbr = true
      return
    }
    if (
      starter === 'unknown' &&
      isInitial &&
      firstIsUpper(t2.tok) &&
      !((params.orthoContext.get(nextTyp) ?? 0) & ORTHO_LC)
    ) {
      t1.sentbreak = false
      t1.abbr = true
    }
  }
}

/** `text_contains_sentbreak`: some token other than the last is a break after both passes. */
function containsSentbreak(text: string, params: PunktParameters): boolean {
  const toks = tokenizeWords(text)
  for (const t of toks) firstPass(t, params)
  for (let i = 0; i + 1 < toks.length; i++) secondPass(toks[i]!, toks[i + 1]!, params)
  for (let i = 0; i + 1 < toks.length; i++) if (toks[i]!.sentbreak) return true
  return false
}

// ---------------------------------------------------------------------------------------------
// Candidate breaks, slices and realignment.

interface EndMatch {
  /** Index of the `.`, `?` or `!`. */
  readonly start: number
  /** The `after_tok` group: a non-word character, or whitespace and the next token. */
  readonly afterTok: string
  /** Start of `next_tok`, or -1 when `after_tok` is a non-word character. */
  readonly nextTok: number
}

/** `period_context_re().finditer`: `[.?!](?=(NonWord|\s+(\S+)))`. */
function endMatches(text: string): EndMatch[] {
  const n = text.length
  const out: EndMatch[] = []
  for (let p = 0; p < n; p++) {
    const c = text.charCodeAt(p)
    if (c !== 0x2e && c !== 0x3f && c !== 0x21) continue
    const q = p + 1
    if (q >= n) continue
    if (NON_WORD.has(text[q]!)) {
      out.push({ start: p, afterTok: text[q]!, nextTok: -1 })
      continue
    }
    if (!isPySpaceCode(text.charCodeAt(q))) continue
    let r = q
    while (r < n && isPySpaceCode(text.charCodeAt(r))) r++
    if (r >= n) continue
    let s = r
    while (s < n && !isPySpaceCode(text.charCodeAt(s))) s++
    out.push({ start: p, afterTok: text.slice(q, s), nextTok: r })
  }
  return out
}

/** `string.whitespace`: ASCII only. */
function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d)
}

/** `_match_potential_end_contexts`: the candidates tested on their own, with their contexts. */
function endContexts(text: string): Array<{ match: EndMatch; context: string }> {
  const out: Array<{ match: EndMatch; context: string }> = []
  let prevStart = 0
  let prevStop = 0
  let prev: EndMatch | undefined
  const emit = (m: EndMatch, a: number, b: number): void => {
    out.push({ match: m, context: text.slice(a, b) + text[m.start]! + m.afterTok })
  }
  for (const m of endMatches(text)) {
    // _get_last_whitespace_index(text[prevStop:m.start]); 0 when absent (or at index 0).
    let idx = 0
    for (let i = m.start - 1; i >= prevStop; i--) {
      if (isAsciiSpace(text.charCodeAt(i))) {
        idx = i - prevStop
        break
      }
    }
    const start = idx ? idx + prevStop + 1 : prevStart
    if (prev && prevStop <= start) emit(prev, prevStart, prevStop)
    prev = m
    prevStart = start
    prevStop = m.start
  }
  if (prev) emit(prev, prevStart, prevStop)
  return out
}

type Span = readonly [number, number]

/** `_slices_from_text`. */
function slicesFromText(text: string, params: PunktParameters): Span[] {
  const out: Span[] = []
  let lastBreak = 0
  for (const { match, context } of endContexts(text)) {
    if (containsSentbreak(context, params)) {
      out.push([lastBreak, match.start + 1])
      lastBreak = match.nextTok >= 0 ? match.nextTok : match.start + 1
    }
  }
  out.push([lastBreak, pyRstripLength(text)])
  return out
}

/** `re_boundary_realignment`, `["')\]}]+?(?:\s+|(?=--)|$)` with MULTILINE, anchored. */
const RE_REALIGN = new RegExp(`^["')\\]}]+?(?:${PY_S}+|(?=--)|(?=\\n)|$)`, 'u')

/** `_realign_boundaries`. */
function realignBoundaries(text: string, slices: readonly Span[]): Span[] {
  const out: Span[] = []
  let realign = 0
  for (let i = 0; i < slices.length; i++) {
    const s1: Span = [slices[i]![0] + realign, slices[i]![1]]
    const s2 = slices[i + 1]
    if (s2 === undefined) {
      if (s1[0] < s1[1]) out.push(s1)
      continue
    }
    const m = RE_REALIGN.exec(text.slice(s2[0], s2[1]))
    if (m) {
      out.push([s1[0], s2[0] + pyRstrip(m[0]).length])
      realign = m[0].length
    } else {
      realign = 0
      if (s1[0] < s1[1]) out.push(s1)
    }
  }
  return out
}

/** `PunktSentenceTokenizer.span_tokenize(text)` (with realignment): UTF-16 [start, end) spans. */
export function sentSpans(text: string, params: PunktParameters): Array<readonly [number, number]> {
  return realignBoundaries(text, slicesFromText(text, params))
}

/**
 * `nltk.sent_tokenize(text)` of NLTK 3.8 with the given trained parameters (English:
 * `tokenizers/punkt/english.pickle`, or the `punkt_tab/english` files).
 */
export function sentTokenize(text: string, params: PunktParameters): string[] {
  return sentSpans(text, params).map(([a, b]) => text.slice(a, b))
}
