/**
 * Measure names in ir_measures' syntax (`nDCG@10`, `P(rel=2)@5`, `nDCG(gains={0:0,1:1})@10`,
 * `RBP(p=0.8,rel=1)`) and trec_eval's (`ndcg_cut.10`, `P.5`, `map_cut.10`, `recip_rank`,
 * `P_5`), parsed to {@link Measure} values and printed canonically: parameters sorted, defaults
 * omitted, `@` last.
 */
import { InputError } from '../errors/trecscore-error.js'
import type { Measure, MeasureSpec, ParamValue } from './measure.js'
import { findMeasureSpec, MEASURES, MEASURE_NAMES } from './registry.js'

function fail(found: string, position: number, extra: readonly string[] = []): never {
  throw new InputError([{ code: 'unknown_measure', found, position, suggestions: extra }], `unknown measure '${found}'`)
}

/** Up to `n` known names closest to `word` (edit distance, case-insensitive). */
export function suggestMeasures(word: string, n = 3): string[] {
  const candidates = [...MEASURE_NAMES.keys(), ...Object.keys(TREC_EVAL_NAMES)]
  const w = word.toLowerCase()
  const scored = candidates.map((c) => [c, distance(w, c.toLowerCase())] as const)
  const best = scored.filter(([, d]) => d <= Math.max(2, Math.floor(w.length / 3))).sort((a, b) => a[1] - b[1])
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
export function canonicalName(spec: MeasureSpec, given: Readonly<Record<string, ParamValue>>, at: number | undefined): string {
  const keys = Object.keys(given)
    .filter((k) => !(spec.params[k]?.default !== undefined && sameValue(spec.params[k]!.default!, given[k]!)))
    .sort()
  const params = keys.length ? `(${keys.map((k) => `${k}=${formatValue(given[k]!)}`).join(',')})` : ''
  return `${spec.name}${params}${at === undefined ? '' : `@${at}`}`
}

/** Build a measure from a family, explicit parameters and `@` value (validated). */
export function makeMeasure(spec: MeasureSpec, given: Readonly<Record<string, ParamValue>>, at: number | undefined): Measure {
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
  for (const [k, ps] of Object.entries(m.spec.params)) if (ps.default !== undefined) out[k] = ps.default
  return Object.assign(out, m.given)
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
    const m = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(this.s.slice(this.i))
    if (!m) badSyntax(this.s, this.i, 'a number')
    this.i += m[0].length
    return Number(m[0])
  }
}

function badSyntax(text: string, position: number, message: string): never {
  throw new InputError([{ code: 'bad_argument', option: 'measure', found: `${text} (at character ${position + 1})`, expected: message }], `bad measure '${text}': ${message}`)
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
    c.i++
    const map: Record<number, number> = {}
    if (!c.eat('}')) {
      do {
        const k = c.number()
        if (!Number.isInteger(k)) badSyntax(c.s, c.i, 'an integer grade')
        c.expect(':', "':'")
        map[k] = c.number()
      } while (c.eat(','))
      c.expect('}', "'}'")
    }
    return map
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
  const ps = spec.params[key]
  if (!ps) {
    const known = Object.keys(spec.params)
    throw new InputError(
      [{ code: 'unknown_measure', found: `${spec.name}(${key}=…)`, position: pos, suggestions: known.map((k) => `${spec.name}(${k}=…)`) }],
      `measure ${spec.name} has no parameter '${key}'${known.length ? `; it takes ${known.join(', ')}` : ''}`,
    )
  }
  const ok =
    (ps.type === 'int' && typeof v === 'number' && Number.isInteger(v)) ||
    (ps.type === 'float' && typeof v === 'number') ||
    (ps.type === 'bool' && typeof v === 'boolean') ||
    (ps.type === 'string' && typeof v === 'string' && (!ps.choices || ps.choices.includes(v))) ||
    (ps.type === 'gains' && typeof v === 'object')
  if (!ok) badSyntax(text, pos, `${key} to be ${ps.type === 'string' && ps.choices ? ps.choices.map((x) => `'${x}'`).join(' or ') : `a ${ps.type}`}`)
}

/** trec_eval measure names and what they mean here: family, fixed params, meaning of `.x`. */
const TREC_EVAL_NAMES: Readonly<Record<string, { family: string; params?: Record<string, ParamValue>; dot: 'cutoffs' | 'recall' | 'pairs' | 'beta' | 'none' }>> = {
  P: { family: 'P', dot: 'cutoffs' },
  recall: { family: 'R', dot: 'cutoffs' },
  map: { family: 'AP', dot: 'none' },
  map_cut: { family: 'AP', dot: 'cutoffs' },
  ndcg_cut: { family: 'nDCG', dot: 'cutoffs' },
  ndcg: { family: 'nDCG', dot: 'pairs' },
  recip_rank: { family: 'RR', dot: 'none' },
  success: { family: 'Success', dot: 'cutoffs' },
  set_F: { family: 'SetF', dot: 'beta' },
  set_P: { family: 'SetP', dot: 'none' },
  set_recall: { family: 'SetR', dot: 'none' },
  set_map: { family: 'SetAP', dot: 'none' },
  iprec_at_recall: { family: 'IPrec', dot: 'recall' },
  rbp: { family: 'RBP', params: { p: 0.9 }, dot: 'pairs' },
  unj: { family: 'Unjudged', dot: 'cutoffs' },
  Rprec: { family: 'Rprec', dot: 'none' },
  bpref: { family: 'Bpref', dot: 'none' },
  infAP: { family: 'infAP', dot: 'none' },
  num_ret: { family: 'NumRet', dot: 'none' },
  num_rel: { family: 'NumRel', dot: 'none' },
  num_rel_ret: { family: 'NumRelRet', dot: 'none' },
  num_nonrel_judged_ret: { family: 'NumNonrelJudgedRet', dot: 'none' },
}

function parseTrecEvalName(text: string): Measure[] | null {
  // Printed forms first: P_5, ndcg_cut_10, iprec_at_recall_0.50, recall_1000.
  const printed = /^([A-Za-z_]+?)_(\d+(?:\.\d+)?)$/.exec(text)
  if (printed && TREC_EVAL_NAMES[printed[1]!] && TREC_EVAL_NAMES[printed[1]!]!.dot !== 'none') return parseTrecEvalName(`${printed[1]}.${printed[2]}`)
  const dot = text.indexOf('.')
  const base = dot >= 0 ? text.slice(0, dot) : text
  const rest = dot >= 0 ? text.slice(dot + 1) : null
  const entry = TREC_EVAL_NAMES[base]
  if (!entry) return null
  const spec = MEASURES.get(entry.family)!
  const params = { ...(entry.params ?? {}) }
  if (rest === null) {
    // A bare name that needs a cutoff is left to the ir_measures parser (which asks for @k).
    if ((entry.dot === 'cutoffs' && spec.atRequired) || entry.dot === 'recall') return null
    return [makeMeasure(spec, params, undefined)]
  }
  switch (entry.dot) {
    case 'cutoffs':
      return rest.split(',').map((k, i) => {
        if (!/^\d+$/.test(k) || Number(k) <= 0) badSyntax(text, base.length + 1 + i, 'positive integer cutoffs')
        return makeMeasure(spec, params, Number(k))
      })
    case 'recall':
      return rest.split(',').map((r) => {
        const v = Number(r.startsWith('.') ? `0${r}` : r)
        if (!(v >= 0 && v <= 1)) badSyntax(text, base.length + 1, 'recall levels between 0 and 1')
        return makeMeasure(spec, params, v)
      })
    case 'beta':
      return [makeMeasure(spec, { ...params, beta: Number(rest) }, undefined)]
    case 'pairs': {
      const gains: Record<number, number> = {}
      for (const pair of rest.split(',')) {
        const [k, v] = pair.split('=')
        if (k === 'p' && entry.family === 'RBP') params['p'] = Number(v)
        else if (k !== undefined && v !== undefined && /^[+-]?\d+$/.test(k)) gains[Number(k)] = Number(v)
        else badSyntax(text, base.length + 1, 'grade=gain pairs, e.g. ndcg.0=0,1=1,2=3')
      }
      if (Object.keys(gains).length) params['gains'] = gains
      return [makeMeasure(spec, params, undefined)]
    }
    case 'none':
      badSyntax(text, base.length, `no parameters for ${base}`)
  }
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
  const spec = findMeasureSpec(name)
  if (!spec) fail(name, nameStart, suggestMeasures(name))
  const given: Record<string, ParamValue> = {}
  if (c.eat('(')) {
    if (!c.eat(')')) {
      do {
        const pos = c.i
        const key = c.ident()
        c.expect('=', "'='")
        const ps = spec.params[key]
        const v = parseValue(c, ps?.type ?? 'float')
        checkType(t, spec, key, v, pos)
        given[key] = v
      } while (c.eat(','))
      c.expect(')', "',' or ')'")
    }
  }
  let at: number | undefined
  if (c.eat('@')) {
    if (spec.at === 'none') badSyntax(t, c.i - 1, `no @ for ${spec.name}`)
    const pos = c.i
    at = c.number()
    if (spec.at === 'cutoff' && !(Number.isInteger(at) && at > 0)) badSyntax(t, pos, 'a positive integer cutoff after @')
    if (spec.at === 'recall' && !(at >= 0 && at <= 1)) badSyntax(t, pos, 'a recall level between 0 and 1 after @')
  } else if (spec.atRequired) badSyntax(t, c.i, `@${spec.at === 'recall' ? 'r' : 'k'} after ${spec.name}, e.g. ${spec.name}@${spec.at === 'recall' ? '0.5' : '10'}`)
  c.ws()
  if (c.i < t.length) badSyntax(t, c.i, 'end of measure name')
  return [makeMeasure(spec, given, at)]
}

/** Parse several measure names, collecting every problem before throwing. */
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
  const seen = new Set<string>()
  return out.filter((m) => (seen.has(m.name) ? false : (seen.add(m.name), true)))
}

/** Split `a b` / `a,b` lists only where not inside parentheses or braces (trec_eval names keep commas). */
function splitTopLevel(text: string): string[] {
  if (/^[a-z_A-Z]+\.[^()]*$/.test(text.trim()) && !text.includes(' ')) return [text.trim()]
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of text) {
    if (ch === '(' || ch === '{') depth++
    if (ch === ')' || ch === '}') depth--
    if (depth === 0 && (ch === ' ' || ch === ',')) {
      if (cur.trim()) out.push(cur.trim())
      cur = ''
    } else cur += ch
  }
  if (cur.trim()) out.push(cur.trim())
  return out
}
