/**
 * The default number of reading threads: idle cores by the 1-minute load average, rounded up,
 * between 1 and 8 (hand-computed cases). The parallel reader itself is checked end to end in
 * test/cli/parallel.test.ts (it needs the built worker script).
 */
import { describe, expect, it } from 'vitest'
import { defaultThreads } from './parallel-run.js'

describe('defaultThreads', () => {
  it('uses the cores the load average leaves idle', () => {
    expect(defaultThreads(2, 0)).toBe(2)
    expect(defaultThreads(2, 0.6)).toBe(2) // ceil(1.4)
    expect(defaultThreads(2, 1)).toBe(1)
    expect(defaultThreads(4, 1.5)).toBe(3) // ceil(2.5)
  })
  it('is never below 1 nor above 8 or the core count', () => {
    expect(defaultThreads(2, 3.7)).toBe(1)
    expect(defaultThreads(1, 0)).toBe(1)
    expect(defaultThreads(16, 3)).toBe(8)
    expect(defaultThreads(64, 0)).toBe(8)
  })
})
