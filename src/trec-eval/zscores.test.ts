import { describe, expect, it } from 'vitest'
import type { ActiveMeasure } from './trec-eval.js'
import { applyZscores, MISSING_ZSCORE, parseZscores, type Zscores } from './zscores.js'

function zscores(text: string): Zscores {
  const r = parseZscores(Buffer.from(text, 'latin1'), 'z')
  if (!r.ok) throw new Error('bad test input')
  return r.value
}

/** Only `names` is read by applyZscores. */
const active = (...names: string[]): ActiveMeasure[] => [{ names } as unknown as ActiveMeasure]

describe('z-scores', () => {
  const z = zscores('q1 map 0.5 0.25\nq1 P_5 0.4 0\nq1 P_10 0.3 0\nq1 num_ret 10 2e0\n')

  it('standardises each value with its query and measure', () => {
    const v = Float64Array.from([0.75, 0.4, 0.2, 6, 1])
    applyZscores(z, 'q1', active('map', 'P_5', 'P_10', 'num_ret', 'ndcg'), v)
    // (0.75 - 0.5) / 0.25; stddev 0 and equal: 0; stddev 0 and different, or absent: missing.
    expect([...v]).toEqual([1, 0, MISSING_ZSCORE, -2, MISSING_ZSCORE])
  })

  it('marks every value of a query absent from the file as missing', () => {
    const v = Float64Array.from([0.1, 0.2])
    applyZscores(z, 'q2', active('map', 'P_5'), v)
    expect([...v]).toEqual([MISSING_ZSCORE, MISSING_ZSCORE])
  })

  it("picks among repeated entries as trec_eval's bisection does", () => {
    const v = Float64Array.from([1])
    applyZscores(zscores('q m 0 1\nq m 0 2\nq m 0 4\n'), 'q', active('m'), v)
    expect(v[0]).toBe(0.5)
  })

  it('numbers a malformed line (no comment lines in this format)', () => {
    expect(parseZscores(Buffer.from('q m 0 1\n# x y z\nq m 0\n'), 'z')).toMatchObject({
      ok: false,
      malformedLine: 3,
    })
    expect(parseZscores(Buffer.from('q m 0 1\n\n'), 'z')).toMatchObject({
      ok: false,
      malformedLine: 2,
    })
  })
})
