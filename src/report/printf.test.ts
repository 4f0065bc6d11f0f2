import { describe, expect, it } from 'vitest'
import { formatFixed, printfFixed } from './printf.js'

describe('formatFixed (glibc %.4f)', () => {
  it('rounds exact binary ties half to even, unlike toFixed', () => {
    expect((1 / 32).toFixed(4)).toBe('0.0313')
    expect(formatFixed(1 / 32, 4)).toBe('0.0312')
    expect(formatFixed(5 / 32, 4)).toBe('0.1562')
    expect(formatFixed(3 / 32, 4)).toBe('0.0938')
    expect(formatFixed(0.5, 0)).toBe('0')
    expect(formatFixed(1.5, 0)).toBe('2')
    expect(formatFixed(2.5, 0)).toBe('2')
  })
  it('rounds non-ties to nearest like toFixed', () => {
    expect(formatFixed(0.1, 4)).toBe('0.1000')
    expect(formatFixed(2 / 3, 4)).toBe('0.6667')
    expect(formatFixed(0.00015, 4)).toBe('0.0001') // 0.00015 is below the tie in binary
  })
  it('prints special values as glibc does', () => {
    expect(printfFixed(Infinity, 6, 4)).toBe('   inf')
    expect(printfFixed(-Infinity, 6, 4)).toBe('  -inf')
    expect(printfFixed(NaN, 6, 4)).toBe('   nan')
    expect(printfFixed(-0, 6, 4)).toBe('-0.0000')
    expect(printfFixed(-0.00001, 6, 4)).toBe('-0.0000')
  })
})
