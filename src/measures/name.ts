/**
 * Measure names in ir_measures' syntax (`nDCG@10`, `P(rel=2)@5`, `nDCG(gains={0:0,1:1})@10`,
 * `RBP(p=0.8,rel=1)`) and trec_eval's (`ndcg_cut.10`, `P.5`, `map_cut.10`, `recip_rank`,
 * `P_5`), parsed to {@link Measure} values and printed canonically: parameters sorted, defaults
 * omitted, `@` last.
 */
import { parseGainMap } from '../conventions/gain-spec.js'
import { InputError } from '../errors/trecscore-error.js'
import { decimalPrefixLength, isDecimalText } from '../io/numbers.js'
import {
  inRange,
  type Measure,
  type MeasureSpec,
  type ParamKind,
  type ParamRange,
  type ParamValue,
  rangeText,
  type TrecEvalMapping,
} from './measure.js'
import { findMeasureSpec, MEASURE_NAMES, MEASURES } from './registry.js'

function fail(found: string, position: number, extra: readonly string[] = []): never {
  throw new InputError(
    [{ code: 'unknown_measure', found, position, suggestions: extra }],
    `unknown measure '${found}'`,
  )
}

/** Up to `n` known names closest to `word` (edit distance, case-insensitive). */
export function suggestMeasures(word: string, n = 3): string[] {
  const candidates = [...MEASURE_NAMES.keys(), ...TREC_EVAL_NAMES.keys(), ...PRESET_ALIASES.keys()]
  const w = word.toLowerCase()
  const scored = candidates.map((c) => [c, distance(w, c.toLowerCase())] as const)
  const best = scored
    .filter(([, d]) => d <= Math.max(2, Math.floor(w.length / 3)))
    .sort((a, b) => a[1] - b[1])
  // One suggestion per family, spelled canonically (trec_eval names stay as they are).
  const out: string[] = []
  for (const [c] of best) {
    const spec = MEASURE_NAMES.get(c)
    const name = spec ? spec.name : c
    if (!out.includes(name)) out.push(name)
  }
  return out.slice(0, n)
}

function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!
    dp[0] = i
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = tmp
    }
  }
  return dp[b.length]!
}

function formatValue(v: ParamValue): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'number') return String(v)
  if (typeof v === 'string') return `'${v}'`
  const entries = Object.entries(v)
    .map(([k, x]) => [Number(k), x] as const)
    .sort((a, b) => a[0] - b[0])
  return `{${entries.map(([k, x]) => `${k}:${x}`).join(',')}}`
}

function sameValue(a: ParamValue, b: ParamValue): boolean {
  return formatValue(a) === formatValue(b)
}

/** Canonical name of a family with parameters: sorted, defaults omitted, `@` last. */
export function canonicalName(
  spec: MeasureSpec,
  given: Readonly<Record<string, ParamValue>>,
  at: number | undefined,
): string {
  const keys = Object.keys(given)
    .filter(
      (k) =>
        !(spec.params[k]?.default !== undefined && sameValue(spec.params[k]!.default!, given[k]!)),
    )
    .sort()
  const params = keys.length
    ? `(${keys.map((k) => `${k}=${formatValue(given[k]!)}`).join(',')})`
    : ''
  return `${spec.name}${params}${at === undefined ? '' : `@${at}`}`
}

/** Build a measure from a family, explicit parameters and `@` value (validated). */
export function makeMeasure(
  spec: MeasureSpec,
  given: Readonly<Record<string, ParamValue>>,
  at: number | undefined,
): Measure {
  const clean: Record<string, ParamValue> = {}
  for (const [k, v] of Object.entries(given)) {
    const ps = spec.params[k]
    if (ps?.default !== undefined && sameValue(ps.default, v)) continue
    clean[k] = v
  }
  return { spec, given: clean, at, name: canonicalName(spec, clean, at) }
}

/** Resolved parameter values of a measure: given values over defaults. */
export function measureParams(m: Measure): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {}
  for (const [k, ps] of Object.entries(m.spec.params))
    if (ps.default !== undefined) out[k] = ps.default
  return Object.assign(out, m.given)
}

/** Whether computing `m` reads the ranked docs (`JudgedRanking.docs`): `needsDocs`, `needsAux` or `docsWhen`. */
export function needsDocs(m: Measure): boolean {
  const s = m.spec
  return !!s.needsDocs || !!s.needsAux || (s.docsWhen?.(measureParams(m)) ?? false)
}

class Cursor {
  i = 0
  constructor(readonly s: string) {}
  peek(): string {
    return this.s[this.i] ?? ''
  }
  ws(): void {
    while (this.s[this.i] === ' ') this.i++
  }
  eat(ch: string): boolean {
    this.ws()
    if (this.s[this.i] === ch) {
      this.i++
      return true
    }
    return false
  }
  expect(ch: string, what: string): void {
    if (!this.eat(ch)) badSyntax(this.s, this.i, what)
  }
  ident(): string {
    this.ws()
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i))
    if (!m) badSyntax(this.s, this.i, 'a name')
    this.i += m[0].length
    return m[0]
  }
  number(): number {
    this.ws()
    const n = decimalPrefixLength(this.s, this.i)
    if (n === 0) badSyntax(this.s, this.i, 'a number')
    const v = Number(this.s.slice(this.i, this.i + n))
    if (!Number.isFinite(v)) badSyntax(this.s, this.i, 'a finite number')
    this.i += n
    return v
  }
}

function badSyntax(text: string, position: number, message: string): never {
  throw new InputError(
    [
      {
        code: 'bad_argument',
        option: 'measure',
        found: `${text} (at character ${position + 1})`,
        expected: message,
      },
    ],
    `bad measure '${text}': ${message}`,
  )
}

function parseValue(c: Cursor, type: string): ParamValue {
  c.ws()
  const ch = c.peek()
  if (ch === "'" || ch === '"') {
    const end = c.s.indexOf(ch, c.i + 1)
    if (end < 0) badSyntax(c.s, c.i, 'a closing quote')
    const v = c.s.slice(c.i + 1, end)
    c.i = end + 1
    return v
  }
  if (ch === '{') {
    const end = c.s.indexOf('}', c.i)
    if (end < 0) badSyntax(c.s, c.i, "a closing '}'")
    const at = c.i
    c.i = end + 1
    try {
      return parseGainMap(c.s.slice(at, end + 1), 'measure')
    } catch (e) {
      if (e instanceof InputError && e.issues[0]?.code === 'bad_argument')
        badSyntax(c.s, at, `${e.issues[0].expected} (found ${e.issues[0].found})`)
      throw e
    }
  }
  if (/[A-Za-z]/.test(ch)) {
    const id = c.ident()
    if (id === 'True' || id === 'true') return true
    if (id === 'False' || id === 'false') return false
    if (type === 'string') return id
    badSyntax(c.s, c.i - id.length, 'True, False, a number, a quoted string or {grade:gain,...}')
  }
  return c.number()
}

function checkType(text: string, spec: MeasureSpec, key: string, v: ParamValue, pos: number): void {
  const ps = Object.hasOwn(spec.params, key) ? spec.params[key] : undefined
  if (!ps) {
    const known = Object.keys(spec.params)
    throw new InputError(
      [
        {
          code: 'unknown_measure',
          found: `${spec.name}(${key}=…)`,
          position: pos,
          suggestions: known.map((k) => `${spec.name}(${k}=…)`),
        },
      ],
      `measure ${spec.name} has no parameter '${key}'${known.length ? `; it takes ${known.join(', ')}` : ''}`,
    )
  }
  const ok =
    (ps.type === 'int' && typeof v === 'number' && Number.isInteger(v)) ||
    (ps.type === 'float' && typeof v === 'number' && Number.isFinite(v)) ||
    (ps.type === 'bool' && typeof v === 'boolean') ||
    (ps.type === 'string' && typeof v === 'string' && (!ps.choices || ps.choices.includes(v))) ||
    (ps.type === 'gains' && typeof v === 'object')
  if (!ok)
    badSyntax(
      text,
      pos,
      `${key} to be ${ps.type === 'string' && ps.choices ? ps.choices.map((x) => `'${x}'`).join(' or ') : `a ${ps.type}`}`,
    )
  if (typeof v === 'number' && ps.range) checkRange(text, spec.name, key, v, ps.range, pos)
}

function checkRange(
  text: string,
  family: string,
  key: string,
  v: number,
  range: ParamRange,
  pos: number,
): void {
  if (!inRange(v, range)) badSyntax(text, pos, `${key} of ${family} ${rangeText(range)} (got ${v})`)
}

/** How trec_eval's `.x` suffix reads for a name: cutoffs, recall points, a parameter's values, pairs. */
type TrecDot = 'cutoffs' | 'recall' | 'param' | 'params' | 'pairs' | 'none'

interface TrecEvalName {
  readonly spec: MeasureSpec
  readonly params: Readonly<Record<string, ParamValue>>
  readonly dot: TrecDot
  /** The parameter a `param` list sets (`set_F.0.5`: beta). */
  readonly param?: string
  /** The parameters a `params` list sets, in order (`utility.1,-1,0,0`: a, b, c, d). */
  readonly paramList?: readonly string[]
  /** What the bare name means: trec_eval's default cutoffs, recall points or parameter values. */
  readonly defaults?: readonly number[]
}

/**
 * What `.x` means for a trec_eval name of a family: `@` values (as the family reads `@`), one
 * parameter per value (`set_F.0.5,1`, `Rprec_mult.0.2,2`), several parameters of one measure
 * (`utility.1,-1,0,0`), or pairs. A `double-params` name that maps to no parameter takes none
 * here (`11pt_avg`: the family has trec_eval's recall points built in).
 */
function trecDot(m: TrecEvalMapping, spec: MeasureSpec): TrecDot {
  if (m.paramList) return 'params'
  if (m.param) return 'param'
  const kind: ParamKind = m.params
  switch (kind) {
    case 'long-cutoffs':
    case 'double-cutoffs':
      return spec.at === 'recall' ? 'recall' : 'cutoffs'
    case 'double-params':
      return 'none'
    case 'pairs':
      return 'pairs'
    case 'none':
      return 'none'
  }
}

/** trec_eval measure names and what they mean here, from the families' trec_eval names. */
const TREC_EVAL_NAMES: ReadonlyMap<string, TrecEvalName> = new Map(
  [...MEASURES.values()].flatMap((spec) =>
    spec.trecEval.map((m) => {
      const params = Object.fromEntries(
        Object.entries(m.fixed ?? {}).filter((e): e is [string, ParamValue] => e[1] !== undefined),
      )
      const dot = trecDot(m, spec)
      const entry: TrecEvalName = {
        spec,
        params,
        dot,
        ...(m.param ? { param: m.param } : {}),
        ...(m.paramList ? { paramList: m.paramList } : {}),
        ...(m.defaults && dot !== 'none' ? { defaults: m.defaults } : {}),
      }
      return [m.name, entry] as const
    }),
  ),
)

function parseTrecEvalName(text: string): Measure[] | null {
  // Printed forms first: P_5, ndcg_cut_10, iprec_at_recall_0.50, recall_1000, and lists (P_5,10).
  const printed = /^([A-Za-z_]+?)_(\d+(?:\.\d+)?(?:,\d+(?:\.\d+)?)*)$/.exec(text)
  if (printed && (TREC_EVAL_NAMES.get(printed[1]!)?.dot ?? 'none') !== 'none')
    return parseTrecEvalName(`${printed[1]}.${printed[2]}`)
  const dot = text.indexOf('.')
  const base = dot >= 0 ? text.slice(0, dot) : text
  const rest = dot >= 0 ? text.slice(dot + 1) : null
  const entry = TREC_EVAL_NAMES.get(base)
  if (!entry) return null
  const spec = entry.spec
  const params: Record<string, ParamValue> = { ...entry.params }
  const at = (i: number) => base.length + 1 + i
  // A bare name means trec_eval's defaults (`P` = P.5,10,15,20,30,100,200,500,1000).
  const values = rest === null ? (entry.defaults ?? null) : rest.split(',')
  if (values === null) return [makeMeasure(spec, params, undefined)]
  switch (entry.dot) {
    case 'cutoffs':
      return values.map((k) => {
        const s = String(k)
        if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s)) || Number(s) <= 0)
          badSyntax(text, at(0), `positive integer cutoffs (got '${s}')`)
        return makeMeasure(spec, params, Number(s))
      })
    case 'recall':
      return values.map((r) => {
        const s = String(r)
        const v = Number(s.startsWith('.') ? `0${s}` : s)
        if (!isDecimalText(s) || !(v >= 0 && v <= 1))
          badSyntax(text, at(0), `recall levels between 0 and 1 (got '${s}')`)
        return makeMeasure(spec, params, v)
      })
    case 'param': {
      const key = entry.param!
      const range = spec.params[key]!.range
      return values.map((b) => {
        const s = String(b)
        if (!isDecimalText(s))
          badSyntax(text, at(0), `${base} ${key}s as numbers, e.g. ${base}.1.0,0.5 (got '${s}')`)
        if (range) checkRange(text, spec.name, key, Number(s), range, at(0))
        return makeMeasure(spec, { ...params, [key]: Number(s) }, undefined)
      })
    }
    case 'params': {
      const keys = entry.paramList!
      if (values.length !== keys.length)
        badSyntax(text, at(0), `${keys.length} numbers for ${base} (${keys.join(', ')})`)
      values.forEach((b, i) => {
        const s = String(b)
        const key = keys[i]!
        if (!isDecimalText(s)) badSyntax(text, at(0), `${base} ${key} as a number (got '${s}')`)
        const range = spec.params[key]!.range
        if (range) checkRange(text, spec.name, key, Number(s), range, at(0))
        params[key] = Number(s)
      })
      return [makeMeasure(spec, params, undefined)]
    }
    case 'pairs': {
      const grades: string[] = []
      for (const pair of values.map(String)) {
        const [k, v] = pair.split('=')
        // A pair naming a number parameter sets it (rbp.p=0.8); the others are grade=gain.
        const ps = k !== undefined && Object.hasOwn(spec.params, k) ? spec.params[k] : undefined
        if (k !== undefined && ps?.type === 'float') {
          if (v === undefined || !isDecimalText(v))
            badSyntax(text, at(0), `${k}=<number> (got '${pair}')`)
          if (ps.range) checkRange(text, spec.name, k, Number(v), ps.range, at(0))
          params[k] = Number(v)
        } else grades.push(pair)
      }
      if (grades.length) {
        try {
          params['gains'] = parseGainMap(grades.join(','), 'measure', '=')
        } catch (e) {
          if (e instanceof InputError && e.issues[0]?.code === 'bad_argument')
            badSyntax(text, at(0), `${e.issues[0].expected} (found ${e.issues[0].found})`)
          throw e
        }
      }
      return [makeMeasure(spec, params, undefined)]
    }
    case 'none':
      badSyntax(text, base.length, `no parameters for ${base}`)
  }
}

/** Names that stand for a family with parameters set (`SetRelP`), from the families' specs. */
const PRESET_ALIASES: ReadonlyMap<
  string,
  { readonly spec: MeasureSpec; readonly params: Readonly<Record<string, ParamValue>> }
> = new Map(
  [...MEASURES.values()].flatMap((spec) =>
    (spec.presetAliases ?? []).map((a) => {
      const params = Object.fromEntries(
        Object.entries(a.params).filter((e): e is [string, ParamValue] => e[1] !== undefined),
      )
      return [a.name, { spec, params }] as const
    }),
  ),
)

/** A preset alias by name: exact, then case-insensitive. */
function findPresetAlias(name: string) {
  const exact = PRESET_ALIASES.get(name)
  if (exact) return exact
  const lower = name.toLowerCase()
  for (const [n, a] of PRESET_ALIASES) if (n.toLowerCase() === lower) return a
  return undefined
}

/** Read the value of `@` (or `cutoff=` / `recall=`) and check it. */
function checkAt(t: string, spec: MeasureSpec, c: Cursor, pos: number): number {
  const at = c.number()
  if (spec.at === 'cutoff' && !(Number.isSafeInteger(at) && at > 0))
    badSyntax(t, pos, 'a positive integer cutoff')
  if (spec.at === 'recall' && !(at >= 0 && at <= 1))
    badSyntax(t, pos, 'a recall level between 0 and 1')
  return at
}

/**
 * Parse one measure name into one or more measures (`P.5,10` gives two). Throws an
 * {@link InputError} that points at the bad token and suggests the nearest valid names.
 * @example parseMeasure('nDCG(dcg=\'exp-log2\')@5')[0].name // "nDCG(dcg='exp-log2')@5"
 */
export function parseMeasure(text: string): Measure[] {
  const t = text.trim()
  const te = parseTrecEvalName(t)
  if (te) return te
  const c = new Cursor(t)
  const nameStart = c.i
  let name: string
  try {
    name = c.ident()
  } catch {
    return fail(t, 0, suggestMeasures(t))
  }
  const preset = findPresetAlias(name)
  const spec = preset?.spec ?? findMeasureSpec(name)
  if (!spec) fail(name, nameStart, suggestMeasures(name))
  const given: Record<string, ParamValue> = { ...preset?.params }
  // ir_measures' names for what `@` sets: `cutoff=` (rank cutoffs) and `recall=` (IPrec).
  const atKey = spec.at === 'none' ? null : spec.at
  let atParam: number | undefined
  if (c.eat('(')) {
    if (!c.eat(')')) {
      do {
        const pos = c.i
        const key = c.ident()
        c.expect('=', "'='")
        if (key === atKey) {
          if (atParam !== undefined) badSyntax(t, pos, `${key} once`)
          atParam = checkAt(t, spec, c, pos)
          continue
        }
        const ps = Object.hasOwn(spec.params, key) ? spec.params[key] : undefined
        const v = parseValue(c, ps?.type ?? 'float')
        checkType(t, spec, key, v, pos)
        if (Object.hasOwn(given, key)) badSyntax(t, pos, `${key} once`)
        given[key] = v
      } while (c.eat(','))
      c.expect(')', "',' or ')'")
    }
  }
  let at: number | undefined = atParam
  if (c.eat('@')) {
    if (spec.at === 'none') badSyntax(t, c.i - 1, `no @ for ${spec.name}`)
    const pos = c.i
    at = checkAt(t, spec, c, pos)
    if (atParam !== undefined && atParam !== at)
      badSyntax(t, pos, `one ${atKey}: ${atKey}=${atParam} and @${at} differ`)
  } else if (at === undefined && spec.atRequired)
    badSyntax(
      t,
      c.i,
      `@${spec.at === 'recall' ? 'r' : 'k'} after ${spec.name}, e.g. ${spec.name}@${spec.at === 'recall' ? '0.5' : '10'}`,
    )
  c.ws()
  if (c.i < t.length) badSyntax(t, c.i, 'end of measure name')
  const missing = (spec.required ?? []).filter((k) => !Object.hasOwn(given, k))
  if (missing.length)
    badSyntax(
      t,
      c.i,
      `${missing.map((k) => `${k}=…`).join(', ')} for ${spec.name}, e.g. ${spec.name}(${missing.map((k) => `${k}=${spec.params[k]?.range?.min ?? 1}`).join(',')})`,
    )
  for (const [a, b] of spec.exclusive ?? [])
    if (Object.hasOwn(given, a) && Object.hasOwn(given, b))
      badSyntax(t, 0, `${a} or ${b}, not both, for ${spec.name}`)
  return [makeMeasure(spec, given, at)]
}

/**
 * Parse several measure names, collecting every problem before throwing. Each text may hold a
 * list (`nDCG@10 AP`, `AP,P@5`, `P.5,10 map`). An empty list is an error: there is nothing to
 * compute.
 */
export function parseMeasures(texts: readonly string[]): Measure[] {
  const out: Measure[] = []
  const issues: InputError['issues'][number][] = []
  for (const t of texts) {
    for (const part of splitTopLevel(t)) {
      try {
        out.push(...parseMeasure(part))
      } catch (e) {
        if (e instanceof InputError) issues.push(...e.issues)
        else throw e
      }
    }
  }
  if (issues.length) throw new InputError(issues)
  if (out.length === 0) {
    const found = texts.join(' ')
    throw new InputError(
      [
        {
          code: 'bad_argument',
          option: 'measure',
          found,
          expected: 'at least one measure name, e.g. nDCG@10 AP',
        },
      ],
      `no measure given (found ${JSON.stringify(found)})`,
    )
  }
  const seen = new Set<string>()
  return out.filter((m) => (seen.has(m.name) ? false : (seen.add(m.name), true)))
}

/** A trec_eval name that takes a `.x` list: `P.5`, `ndcg.0=0`, `P_5`, `ndcg_cut_5`. */
const TREC_LIST_HEAD = /^[A-Za-z_]+(\.|_\d)/
/** What may follow a comma inside such a list: a number or a `grade=gain` / `p=x` pair. */
const TREC_LIST_ITEM = /^([+-]?[\d.]|[A-Za-z]=)/

/**
 * Split a list of names at spaces and commas outside parentheses and braces; a comma inside a
 * trec_eval list (`P.5,10`, `ndcg.0=0,1=1`, `P_5,10`) stays with its name.
 */
function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let cur = ''
  const push = (sep: string): void => {
    const piece = cur.trim()
    cur = ''
    if (!piece) return
    const prev = parts[parts.length - 1]
    if (
      sep === ',' &&
      prev !== undefined &&
      TREC_LIST_HEAD.test(prev) &&
      !prev.includes('(') &&
      TREC_LIST_ITEM.test(piece)
    )
      parts[parts.length - 1] = `${prev},${piece}`
    else parts.push(piece)
  }
  let lastSep = ' '
  for (const ch of text) {
    if (ch === '(' || ch === '{') depth++
    if (ch === ')' || ch === '}') depth--
    if (depth === 0 && (ch === ' ' || ch === ',')) {
      const empty = cur.trim() === ''
      push(lastSep)
      if (!empty || ch === ',') lastSep = ch
    } else cur += ch
  }
  push(lastSep)
  return parts
}
