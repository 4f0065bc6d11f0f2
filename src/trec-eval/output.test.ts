/**
 * The byte writer of trec_eval's output prints exactly what the string formatting prints:
 * `%6.4f` as {@link teFixed} (glibc rounding, ties to even, `-0.0000`, `  -nan`, `inf`) and
 * `%ld` of a truncated value as `String(Math.trunc(v))`, whatever the buffer boundaries.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteOutput, teFixed } from './output.js'
import { collectBytes } from './test-helpers.js'

function collect(write: (out: ByteOutput) => void): string {
  const parts: string[] = []
  const out = new ByteOutput((t) => parts.push(t))
  write(out)
  out.flush()
  return parts.join('')
}

const special = [
  0,
  -0,
  1,
  -1,
  0.5,
  1 / 32,
  3 / 32,
  0.00005,
  0.00015,
  0.99995,
  0.12345,
  9.99995,
  99999.99995,
  1e5,
  1e9,
  1e15,
  1e21,
  NaN,
  -NaN,
  Infinity,
  -Infinity,
  Number.MIN_VALUE,
  Number.MAX_VALUE,
]

describe('ByteOutput', () => {
  it('fixedLine prints teFixed(v) and a newline (special values, including ties and signs)', () => {
    for (const v of special)
      expect([v, collect((o) => o.fixedLine(v))]).toEqual([v, `${teFixed(v)}\n`])
    // Hand-checked against glibc printf("%6.4f"): 1/32 = 0.03125 is a tie, rounded to even.
    expect(collect((o) => o.fixedLine(1 / 32))).toBe('0.0312\n')
    expect(collect((o) => o.fixedLine(-0))).toBe('-0.0000\n')
    expect(collect((o) => o.fixedLine(12.5))).toBe('12.5000\n')
  })
  it('fixedLine agrees with teFixed on random doubles and on k/10^n values', () => {
    const values = fc.oneof(
      fc.double(),
      fc.double({ min: 0, max: 1 }),
      fc
        .tuple(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 7 }))
        .map(([k, n]) => k / 10 ** n),
      fc.integer({ min: 0, max: 1 << 20 }).map((k) => k / 2 ** 15),
    )
    fc.assert(
      fc.property(values, (v) => {
        expect(collect((o) => o.fixedLine(v))).toBe(`${teFixed(v)}\n`)
      }),
      { numRuns: 20_000 },
    )
  })
  it('longLine prints the truncated value as C %ld would', () => {
    for (const v of [0, -0, 0.9, -0.9, 7, 1000265, -3, 2 ** 40 + 0.5, 1e15, 1e16, NaN])
      expect(collect((o) => o.longLine(v))).toBe(`${Math.trunc(v)}\n`)
    fc.assert(
      fc.property(fc.double({ min: -1e17, max: 1e17 }), (v) => {
        expect(collect((o) => o.longLine(v))).toBe(`${Math.trunc(v)}\n`)
      }),
      { numRuns: 5_000 },
    )
  })
  it('text, bytes and numbers across many buffer fills come out in order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ unit: 'binary-ascii', maxLength: 40 }),
            fc.double({ min: 0, max: 2 }),
            fc.integer({ min: 0, max: 1e9 }).map((n) => [n] as const),
          ),
          { maxLength: 50 },
        ),
        fc.integer({ min: 1, max: 40_000 }),
        (items, repeat) => {
          let expected = ''
          for (let r = 0; r < repeat; r++) {
            for (const it of items) {
              if (typeof it === 'string') expected += it + it
              else if (typeof it === 'number') expected += `${teFixed(it)}\n`
              else expected += `${it[0]}\n`
            }
          }
          const write = (o: ByteOutput): void => {
            for (let r = 0; r < repeat; r++) {
              for (const it of items) {
                if (typeof it === 'string') {
                  o.text(it)
                  o.bytes(Buffer.from(it, 'latin1'))
                } else if (typeof it === 'number') o.fixedLine(it)
                else o.longLine(it[0])
              }
            }
          }
          const got = collect(write)
          expect(got.length).toBe(expected.length)
          expect(got === expected).toBe(true)
          expect(collectBytes(write) === expected).toBe(true)
        },
      ),
      { numRuns: 20 },
    )
  })
  it('a text longer than the buffer is written whole', () => {
    const long = 'x'.repeat(3 << 20)
    expect(collect((o) => (o.text('a'), o.text(long), o.text('b')))).toBe(`a${long}b`)
    expect(collectBytes((o) => (o.text('a'), o.text(long), o.text('b')))).toBe(`a${long}b`)
  })
})
