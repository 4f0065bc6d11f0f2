import { describe, expect, it } from 'vitest'
import { DEFAULT_INPUT_LIMITS, inputLimitsFrom, parseByteCount } from './limits.js'

describe('input limits', () => {
  it('defaults: 16 MiB lines, 16 GiB inputs', () => {
    expect(inputLimitsFrom({})).toEqual({ maxLineBytes: 16777216, maxInputBytes: 17179869184 })
    expect(DEFAULT_INPUT_LIMITS.maxLineBytes).toBe(16 * 1024 * 1024)
  })
  it('the environment overrides them, with K/M/G/T suffixes', () => {
    expect(
      inputLimitsFrom({ TRECSCORE_MAX_LINE_BYTES: '64M', TRECSCORE_MAX_INPUT_BYTES: '2G' }),
    ).toEqual({ maxLineBytes: 64 << 20, maxInputBytes: 2 * 1024 ** 3 })
    expect([
      parseByteCount('1048576'),
      parseByteCount('4k'),
      parseByteCount('1GiB'),
      parseByteCount('0'),
      parseByteCount('-1'),
      parseByteCount('1.5G'),
    ]).toEqual([1048576, 4096, 1024 ** 3, null, null, null])
  })
  it('a value that is not a byte count is a one-line error (exit 2)', () => {
    expect(() => inputLimitsFrom({ TRECSCORE_MAX_INPUT_BYTES: 'lots' })).toThrow(
      'TRECSCORE_MAX_INPUT_BYTES="lots": expected a positive byte count such as 1048576, 64M or 2G',
    )
  })
})
