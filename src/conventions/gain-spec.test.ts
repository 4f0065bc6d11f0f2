import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InputError } from '../errors/trecscore-error.js'
import { parseGainMap, parseGainSpec } from './gain-spec.js'

describe('the one gains parser (--gains and measure parameters)', () => {
  it('reads named gains and maps, with or without braces', () => {
    expect(parseGainSpec('grade')).toEqual({ kind: 'grade' })
    expect(parseGainSpec('exp')).toEqual({ kind: 'exp' })
    expect(parseGainSpec('{0:0,1:1,2:3}')).toEqual({ kind: 'map', gains: { 0: 0, 1: 1, 2: 3 } })
    expect(parseGainSpec('0:0, 1:1.5, 3:-2')).toEqual({
      kind: 'map',
      gains: { 0: 0, 1: 1.5, 3: -2 },
    })
    expect(parseGainMap('0=0,1=1,2=3', 'measure', '=')).toEqual({ 0: 0, 1: 1, 2: 3 })
    expect(parseGainMap('{}')).toEqual({})
  })
  it.each([
    '{0:0,1:x}',
    '{1.5:2}',
    '{1:1e400}',
    '{1:NaN}',
    '{1:1,1:2}',
    '{0:0',
    'linear',
    '{a:1}',
    '{1:}',
    '{1:2:3}',
  ])('refuses %s with a one-line message', (t) => {
    expect(() => parseGainSpec(t)).toThrow(InputError)
    try {
      parseGainSpec(t)
    } catch (e) {
      expect((e as InputError).message).not.toContain('\n')
      expect((e as InputError).issues[0]).toMatchObject({ code: 'bad_argument', option: '--gains' })
    }
  })
  it('round-trips every finite map (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.integer({ min: -5, max: 100 }).map(String),
          fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
        ),
        (d) => {
          const entries = Object.entries(d)
          const text = `{${entries.map(([g, v]) => `${g}:${v}`).join(',')}}`
          const spec = parseGainSpec(entries.length ? text : '{}')
          expect(spec.kind).toBe('map')
          if (spec.kind === 'map')
            for (const [g, v] of entries) expect(spec.gains[Number(g)]).toBe(Number(String(v)))
        },
      ),
    )
  })
})
