/**
 * The shared JSONL line classifier (src/io/jsonl.ts) on hand-written bytes: physical line
 * numbers, CRLF, BOM, blank lines, invalid UTF-8, invalid JSON with the parser's own message,
 * the byte limit; fast-check: arbitrary bytes never throw, line numbers strictly increase, and
 * every physical line but an empty last one after a final "\n" is classified exactly once, and
 * classifying self-split lines with jsonlLine gives the same.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type JsonlLine, jsonDeeperThan, jsonlLine, jsonlLines } from '../../src/io/jsonl.js'

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
const cat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts))
const kinds = (ls: JsonlLine[]): [number, string][] => ls.map((l) => [l.line, l.kind])
/** The engine's own message for `text` (the helper must pass it through unchanged). */
const parseError = (text: string): string => {
  try {
    JSON.parse(text)
  } catch (e) {
    return (e as Error).message
  }
  throw new Error(`${text} parses`)
}

describe('jsonlLines', () => {
  it('classifies every physical line, numbering blank and bad lines too', () => {
    const bytes = cat(
      enc('{"a":1}\n\n   \t\n[1,2]\n'),
      Uint8Array.of(0x7b, 0xff, 0x7d, 0x0a),
      enc('{bad\n"s"'),
    )
    const ls = [...jsonlLines(bytes)]
    expect(kinds(ls)).toEqual([
      [1, 'value'],
      [2, 'blank'],
      [3, 'blank'],
      [4, 'value'],
      [5, 'invalid_utf8'],
      [6, 'invalid_json'],
      [7, 'value'],
    ])
    expect(ls.map((l) => (l.kind === 'value' ? l.value : null))).toEqual([
      { a: 1 },
      null,
      null,
      [1, 2],
      null,
      null,
      's',
    ])
    // lenient decoding for display: U+FFFD for the bad byte
    expect(ls[4]!.text).toBe('{\uFFFD}')
    expect(Array.from(ls[4]!.bytes)).toEqual([0x7b, 0xff, 0x7d])
    const bad = ls[5]!
    expect(bad.kind === 'invalid_json' && bad.error).toBe(parseError('{bad'))
    expect(bad.text).toBe('{bad')
  })

  it('a final "\\n" adds no line; empty input has none; a lone "\\n" is one blank line', () => {
    expect(kinds([...jsonlLines(enc('1\n2\n'))])).toEqual([
      [1, 'value'],
      [2, 'value'],
    ])
    expect(kinds([...jsonlLines(enc('1\n2'))])).toEqual([
      [1, 'value'],
      [2, 'value'],
    ])
    expect([...jsonlLines(new Uint8Array(0))]).toEqual([])
    expect(kinds([...jsonlLines(enc('\n'))])).toEqual([[1, 'blank']])
    expect(kinds([...jsonlLines(enc('\n\n'))])).toEqual([
      [1, 'blank'],
      [2, 'blank'],
    ])
  })

  it('drops one "\\r" before "\\n" or the end, keeps other "\\r"', () => {
    const ls = [...jsonlLines(enc('{"a":"x"}\r\n"y"\r\r\n\r\n"z"\r'))]
    expect(kinds(ls)).toEqual([
      [1, 'value'],
      [2, 'value'],
      [3, 'blank'],
      [4, 'value'],
    ])
    expect(ls.map((l) => l.text)).toEqual(['{"a":"x"}', '"y"\r', '', '"z"'])
    expect(ls[1]!.bytes.length).toBe(4)
  })

  it('drops a BOM at the start of a line (line 1, and a later one from joined files); keeps one inside a line', () => {
    const ls = [...jsonlLines(enc('\uFEFF{"a":1}\n\uFEFF{"b":2}\n\uFEFF\n"\uFEFFc"'))]
    expect(kinds(ls)).toEqual([
      [1, 'value'],
      [2, 'value'],
      [3, 'blank'],
      [4, 'value'],
    ])
    expect(ls.map((l) => (l.kind === 'value' ? l.value : null))).toEqual([
      { a: 1 },
      { b: 2 },
      null,
      '\uFEFFc',
    ])
    expect(ls[0]!.text).toBe('{"a":1}')
    expect(ls[0]!.bytes.length).toBe(10) // the BOM's 3 bytes are still in `bytes`
  })

  it('Unicode white space makes a line blank (String.prototype.trim)', () => {
    expect(kinds([...jsonlLines(enc('\u00a0\u2028 \u3000\n\v\f'))])).toEqual([
      [1, 'blank'],
      [2, 'blank'],
    ])
  })

  it('a line over maxLineBytes (after dropping "\\r") is too_long, neither decoded nor parsed', () => {
    const bytes = cat(
      enc('"12345"\r\n'),
      enc('"123456"\n'),
      Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
      enc('\n"1"'),
    )
    const ls = [...jsonlLines(bytes, { maxLineBytes: 7 })]
    expect(kinds(ls)).toEqual([
      [1, 'value'],
      [2, 'too_long'],
      [3, 'too_long'],
      [4, 'value'],
    ])
    expect(ls[1]!.text).toBe('')
    expect(ls[1]!.bytes.length).toBe(8)
    // no limit by default
    expect(kinds([...jsonlLines(enc(`"${'x'.repeat(100_000)}"`))])).toEqual([[1, 'value']])
  })

  it('jsonlLine classifies one line a streaming reader split itself, by the same conventions', () => {
    const l = jsonlLine(enc('\uFEFF{"a":[1]}\r'), 42, { maxLineBytes: 12 })
    expect(l).toMatchObject({ line: 42, kind: 'value', text: '{"a":[1]}', value: { a: [1] } })
    expect(l.bytes.length).toBe(12)
    expect(jsonlLine(enc('\uFEFF{"a":[1]}x\r'), 7, { maxLineBytes: 12 })).toMatchObject({
      line: 7,
      kind: 'too_long',
      text: '',
    })
    expect(jsonlLine(enc(' \r'), 1)).toMatchObject({ kind: 'blank', text: ' ' })
    expect(jsonlLine(new Uint8Array(0), 3)).toMatchObject({ line: 3, kind: 'blank', text: '' })
    expect(jsonlLine(Uint8Array.of(0xc3, 0x28), 1)).toMatchObject({
      kind: 'invalid_utf8',
      text: '\uFFFD(',
    })
  })

  it('property: arbitrary bytes never throw; lines strictly increase; every physical line is classified once', () => {
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0x0a, 0x0d, 0x20, 0x7b, 0x7d, 0x22, 0x31, 0xef, 0xbb, 0xbf),
    )
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.array(byte, { maxLength: 200 }),
        fc.integer({ min: 0, max: 40 }),
        (a, b, max) => {
          const bytes = cat(a, Uint8Array.from(b))
          const ls = [...jsonlLines(bytes, { maxLineBytes: max })]
          const newlines = bytes.filter((x) => x === 0x0a).length
          const physical =
            bytes.length === 0 ? 0 : newlines + (bytes[bytes.length - 1] === 0x0a ? 0 : 1)
          expect(ls.map((l) => l.line)).toEqual(Array.from({ length: physical }, (_, i) => i + 1))
          for (const l of ls) {
            if (l.kind === 'too_long') expect(l.bytes.length).toBeGreaterThan(max)
            else expect(l.bytes.length).toBeLessThanOrEqual(max)
            if (l.kind === 'value' || l.kind === 'invalid_json') expect(l.text.trim()).not.toBe('')
            if (l.kind === 'value') expect(JSON.parse(l.text)).toEqual(l.value)
            expect(l.bytes.includes(0x0a)).toBe(false)
          }
          // a reader splitting lines itself gets the same with jsonlLine
          const parts = Buffer.from(bytes).toString('latin1').split('\n')
          if (bytes[bytes.length - 1] === 0x0a || bytes.length === 0) parts.pop()
          expect(
            parts.map((p, i) =>
              jsonlLine(new Uint8Array(Buffer.from(p, 'latin1')), i + 1, { maxLineBytes: max }),
            ),
          ).toEqual(ls)
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('nesting depth guard', () => {
  it('a line nested 100,000 deep is invalid_json with the depth named, never a stack overflow', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    const l = jsonlLine(new TextEncoder().encode(`{"a":${deep}}`), 3)
    expect(l.kind).toBe('invalid_json')
    expect(l.kind === 'invalid_json' && l.error).toBe('nested deeper than 1000 levels')
    const obj = '{"k":'.repeat(5000) + '1' + '}'.repeat(5000)
    expect(jsonlLine(new TextEncoder().encode(obj), 1).kind).toBe('invalid_json')
  })

  it('exactly maxDepth levels pass, one more fails', () => {
    const nest = (d: number) => new TextEncoder().encode('['.repeat(d) + ']'.repeat(d))
    expect(jsonlLine(nest(1000), 1).kind).toBe('value')
    expect(jsonlLine(nest(1001), 1).kind).toBe('invalid_json')
    expect(jsonlLine(nest(3), 1, { maxDepth: 2 }).kind).toBe('invalid_json')
    expect(jsonlLine(nest(2), 1, { maxDepth: 2 }).kind).toBe('value')
  })

  it('jsonDeeperThan agrees with a recursive depth on random values', () => {
    const depth = (v: unknown): number =>
      v === null || typeof v !== 'object'
        ? 0
        : 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v as object)).map(depth))
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (v, max) => {
        expect(jsonDeeperThan(v, max)).toBe(depth(v) > max)
      }),
    )
  })
})
