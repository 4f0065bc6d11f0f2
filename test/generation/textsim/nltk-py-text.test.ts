/**
 * The Python `str`/`re` semantics the NLTK port relies on (src/generation/textsim/nltk/py-text.ts).
 * Expected values are Python 3.11 facts: `str.isspace()` is true exactly for U+0009–U+000D,
 * U+001C–U+001F, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F
 * and U+3000 (Unicode 14: category Zs or bidi class WS/B/S); `str.split()`/`strip()` use that set.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  firstIsLower,
  firstIsUpper,
  isPySpaceCode,
  pyIgnoreCase,
  pyRstrip,
  pySplit,
  pyStrip,
} from '../../../src/generation/textsim/nltk/py-text.js'

const PYTHON_SPACES = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001,
  0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f,
  0x205f, 0x3000,
]

describe('Python whitespace', () => {
  it('isPySpaceCode is true exactly for the 29 str.isspace() characters of the BMP', () => {
    const got: number[] = []
    for (let c = 0; c <= 0xffff; c++) if (isPySpaceCode(c)) got.push(c)
    expect(got).toEqual(PYTHON_SPACES)
  })
  it('str.split() and strip()', () => {
    expect(pySplit('  a\u0085b\u001c\u001fc\ufeffd\u200be  ')).toEqual([
      'a',
      'b',
      'c\ufeffd\u200be',
    ])
    expect(pySplit(' \u3000 ')).toEqual([])
    expect(pyStrip('\u0085 x y\u2028')).toBe('x y')
    expect(pyRstrip('\ufeff x \u00a0')).toBe('\ufeff x')
  })
  it('split pieces are non-empty, whitespace-free and keep every other character', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            'a',
            'é',
            ' ',
            '\t',
            '\u0085',
            '\u001e',
            '\ufeff',
            '\u200b',
            '\u3000',
            '😀',
          ),
        }),
        (s) => {
          const parts = pySplit(s)
          for (const p of parts) {
            expect(p.length).toBeGreaterThan(0)
            for (const ch of p) expect(isPySpaceCode(ch.charCodeAt(0))).toBe(false)
          }
          expect(parts.join('')).toBe(
            [...s].filter((ch) => !isPySpaceCode(ch.charCodeAt(0))).join(''),
          )
          expect(pyStrip(s)).toBe(
            parts.length
              ? s.slice(
                  s.indexOf(parts[0]!),
                  s.lastIndexOf(parts[parts.length - 1]!) + parts[parts.length - 1]!.length,
                )
              : '',
          )
        },
      ),
    )
  })
})

describe('first character case (Python s[0].isupper() / islower())', () => {
  it('looks at the first code point, not the first UTF-16 unit', () => {
    expect(firstIsUpper('\u{1d400}x')).toBe(true) // MATHEMATICAL BOLD CAPITAL A (Lu)
    expect(firstIsLower('\u{1d41a}X')).toBe(true) // MATHEMATICAL BOLD SMALL A (Ll)
  })
  it('title case and uncased characters are neither', () => {
    for (const s of ['ǅ', '1', '.', '模']) {
      expect(firstIsUpper(s)).toBe(false)
      expect(firstIsLower(s)).toBe(false)
    }
    expect(firstIsUpper('Éa')).toBe(true)
    expect(firstIsLower('ßA')).toBe(true)
  })
})

describe('pyIgnoreCase (Python (?i) on ASCII literals)', () => {
  const re = (lit: string): RegExp => new RegExp(`^${pyIgnoreCase(lit)}$`, 'u')
  it('matches both ASCII cases and the Unicode characters Python folds onto i, s and k', () => {
    expect(re('gimme').test('GiMmE')).toBe(true)
    expect(re('is').test('İS')).toBe(true) // U+0130 lowercases to i
    expect(re('is').test('ıſ')).toBe(true) // sre_compile equivalences i/ı and s/ſ
    expect(re('ok').test('o\u212a')).toBe(true) // KELVIN SIGN lowercases to k
    expect(re("'t").test("'T")).toBe(true)
    expect(re('a').test('á')).toBe(false)
  })
})
