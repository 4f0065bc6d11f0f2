/**
 * Python text semantics used by the compatibility convention sets. Expected values and error
 * messages were produced by CPython 3.11.
 */
import { describe, expect, it } from 'vitest'
import {
  comparePythonStr,
  PythonError,
  pythonFloat,
  pythonInt,
  pythonIsBlank,
  pythonSplit,
  pythonStrRepr,
  pythonTextLines,
  pythonUnpack,
} from './compat-python.js'

function raised(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    if (e instanceof PythonError) return e.message
    throw e
  }
  return 'no error'
}

describe('pythonInt', () => {
  it.each([
    ['1_0', 10],
    ['٣', 3],
    ['+5', 5],
    [' 7 ', 7],
    ['007', 7],
  ] as const)('int(%j) == %i', (s, v) => expect(pythonInt(s)).toBe(v))
  it('keeps large values exact as bigint', () => {
    expect(pythonInt('123456789012345678901')).toBe(123456789012345678901n)
    expect(pythonInt('9007199254740991')).toBe(9007199254740991)
  })
  it.each(['3.0', 'seven', '', '1__0', '0x10'])('int(%j) raises ValueError as CPython', (s) => {
    expect(raised(() => pythonInt(s))).toBe(
      `ValueError: invalid literal for int() with base 10: ${pythonStrRepr(s)}`,
    )
  })
  it('quotes the literal like CPython', () => {
    expect(raised(() => pythonInt('3.0'))).toBe(
      "ValueError: invalid literal for int() with base 10: '3.0'",
    )
  })
})

describe('pythonFloat', () => {
  it.each([
    ['1_0.5', 10.5],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    ['.5', 0.5],
    ['5.', 5],
    ['1e5', 100000],
    ['٣.٥', 3.5],
    ['1e1_0', 1e10],
    ['0.30000002', 0.30000002],
  ] as const)('float(%j) == %d', (s, v) => expect(pythonFloat(s)).toBe(v))
  it('reads nan', () => expect(pythonFloat('NaN')).toBeNaN())
  it.each(['n/a', '0,75', '1e', '_1', '1_', '0x1p3', ''])(
    'float(%j) raises ValueError as CPython',
    (s) => {
      expect(raised(() => pythonFloat(s))).toBe(
        `ValueError: could not convert string to float: ${pythonStrRepr(s)}`,
      )
    },
  )
  it('quotes the literal like CPython', () => {
    expect(raised(() => pythonFloat('n/a'))).toBe(
      "ValueError: could not convert string to float: 'n/a'",
    )
  })
})

describe('pythonStrRepr', () => {
  it('chooses quotes and escapes as CPython', () => {
    expect(pythonStrRepr("it's")).toBe(`"it's"`)
    expect(pythonStrRepr('a"b\'c')).toBe(`'a"b\\'c'`)
    expect(pythonStrRepr('tab\there')).toBe(`'tab\\there'`)
    expect(pythonStrRepr('\x00\x85\xa0é\u2028\u{1F600}')).toBe(`'\\x00\\x85\\xa0é\\u2028\u{1F600}'`)
  })
})

describe('split, strip, unpack, lines', () => {
  it('splits on Unicode whitespace as str.split()', () => {
    expect(pythonSplit('a\xa0b\u3000c\x1cd')).toEqual(['a', 'b', 'c', 'd'])
    expect(pythonSplit('  q\tQ0  d 1 0.5 tag \r')).toEqual(['q', 'Q0', 'd', '1', '0.5', 'tag'])
    expect(pythonSplit(' \t ')).toEqual([])
    expect(pythonIsBlank(' \t\x0b')).toBe(true)
    expect(pythonIsBlank(' x ')).toBe(false)
  })
  it('raises the 3.11 unpack messages', () => {
    expect(raised(() => pythonUnpack(['1', '2', '3', '4', '5'], 6))).toBe(
      'ValueError: not enough values to unpack (expected 6, got 5)',
    )
    expect(raised(() => pythonUnpack(['1', '2', '3', '4', '5', '6', '7'], 6))).toBe(
      'ValueError: too many values to unpack (expected 6)',
    )
    expect(raised(() => pythonUnpack([], 6))).toBe(
      'ValueError: not enough values to unpack (expected 6, got 0)',
    )
  })
  it('splits lines with universal newlines and keeps a byte-order mark', () => {
    const lines = pythonTextLines(Buffer.from('\ufeffa\r\nb\rc\n\nd'))
    expect(lines.map((l) => l.text)).toEqual(['\ufeffa', 'b', 'c', '', 'd'])
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5])
    expect(pythonTextLines(Buffer.from('x\n')).map((l) => l.text)).toEqual(['x'])
  })
  it('raises UnicodeDecodeError as CPython on invalid UTF-8', () => {
    expect(raised(() => pythonTextLines(Buffer.from([0x61, 0x62, 0xff, 0x63])))).toBe(
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 2: invalid start byte",
    )
    expect(raised(() => pythonTextLines(Buffer.from([0x61, 0x62, 0xc3])))).toBe(
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xc3 in position 2: unexpected end of data",
    )
    expect(raised(() => pythonTextLines(Buffer.from([0x61, 0x62, 0xc3, 0x28])))).toBe(
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xc3 in position 2: invalid continuation byte",
    )
    expect(raised(() => pythonTextLines(Buffer.from([0x61, 0xe0, 0x80])))).toBe(
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe0 in position 1: invalid continuation byte",
    )
    expect(raised(() => pythonTextLines(Buffer.from([0x61, 0xf0, 0x9f, 0x98])))).toBe(
      "UnicodeDecodeError: 'utf-8' codec can't decode bytes in position 1-3: unexpected end of data",
    )
    expect(raised(() => pythonTextLines(Buffer.from([0x61, 0xed, 0xa0, 0x80])))).toBe(
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xed in position 1: invalid continuation byte",
    )
  })
  it('sorts str by code point', () => {
    expect(['T?', 'T5+', 'T1', '\u{1F600}', '\uffff'].sort(comparePythonStr)).toEqual([
      'T1',
      'T5+',
      'T?',
      '\uffff',
      '\u{1F600}',
    ])
  })
})
