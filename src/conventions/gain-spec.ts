/**
 * The one parser of gain settings, used by the `--gains` convention and by measure parameters
 * (`nDCG(gains={0:0,1:1,2:3})`, trec_eval's `ndcg.0=0,1=1,2=3`). A map lists some grades; every
 * grade it does not list keeps gain = grade, as trec_eval's `setup_gains` and ir_measures'
 * `gains.get(g, g)` do.
 */
import { InputError } from '../errors/trecscore-error.js'
import { isDecimalText, isIntegerText } from '../io/numbers.js'
import type { GainSpec } from './conventions.js'

function bad(option: string, found: string, expected: string): never {
  throw new InputError(
    [{ code: 'bad_argument', option, found, expected }],
    `${option}: expected ${expected}, found ${JSON.stringify(found)}`,
  )
}

/**
 * Parse a grade→gain map: `{0:0,1:1,2:3}` (braces optional) or, with `separator` `=`,
 * trec_eval's `0=0,1=1,2=3`. Grades must be integers and given once; gains finite numbers.
 * Throws an {@link InputError} (`bad_argument` for `option`) naming the offending pair.
 * @example parseGainMap('{0:0,1:1,2:3}') // { 0: 0, 1: 1, 2: 3 }
 */
export function parseGainMap(
  text: string,
  option = '--gains',
  separator: ':' | '=' = ':',
): Readonly<Record<number, number>> {
  let body = text.trim()
  if (body.startsWith('{')) {
    if (!body.endsWith('}')) bad(option, text, "a closing '}'")
    body = body.slice(1, -1).trim()
  }
  const gains: Record<number, number> = {}
  if (body === '') return gains
  const example = separator === ':' ? '{0:0,1:1,2:3}' : '0=0,1=1,2=3'
  for (const pair of body.split(',')) {
    const parts = pair.split(separator)
    const g = parts[0]?.trim() ?? ''
    const v = parts[1]?.trim() ?? ''
    if (parts.length !== 2 || !isIntegerText(g) || !isDecimalText(v))
      bad(
        option,
        pair.trim(),
        `grade${separator}gain pairs with an integer grade and a number gain, e.g. ${example}`,
      )
    const grade = Number(g)
    const gain = Number(v)
    if (!Number.isSafeInteger(grade)) bad(option, pair.trim(), 'a grade that is a safe integer')
    if (!Number.isFinite(gain)) bad(option, pair.trim(), 'a finite gain')
    if (Object.hasOwn(gains, grade))
      bad(option, pair.trim(), `each grade once (grade ${grade} is given twice)`)
    gains[grade] = gain
  }
  return gains
}

/**
 * Parse a gains convention: `grade`, `exp` (2^g − 1), `binary` (grade ≥ rel counts 1), or a
 * grade→gain map (see {@link parseGainMap}).
 */
export function parseGainSpec(text: string, option = '--gains'): GainSpec {
  const t = text.trim()
  if (t === 'grade' || t === 'exp' || t === 'binary') return { kind: t }
  if (!/^(\{|[+-]?\d)/.test(t))
    bad(option, text, "grade, exp, binary or a map like '{0:0,1:1,2:3}'")
  return { kind: 'map', gains: parseGainMap(t, option) }
}
