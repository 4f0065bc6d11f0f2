/**
 * The default number of reading threads: this one plus the idle cores measured (a core counts
 * from 0.7 idle; this process's own CPU beyond one core counts as idle), or without a measurement the idle cores by the 1-minute load average, rounded
 * up; between 1 and 8 (hand-computed cases). The /proc/stat reading is checked on fixed text.
 * The parallel reader itself is checked end to end in test/cli/parallel.test.ts (it needs the
 * built worker script).
 */
import { describe, expect, it } from 'vitest'
import { idleCoresBetween, parseProcStat } from './cpu-idle.js'
import { defaultThreads, RANGES_PER_THREAD, rangeWeights } from './parallel-run.js'

describe('defaultThreads', () => {
  it('adds a thread for each core measured idle', () => {
    expect(defaultThreads(2, 0.95, 3)).toBe(2)
    expect(defaultThreads(2, 0.7, 0)).toBe(2)
    expect(defaultThreads(2, 0.69, 0)).toBe(1) // a shared core makes the run slower
    expect(defaultThreads(2, 0, 0)).toBe(1)
    expect(defaultThreads(4, 2.8, 0)).toBe(4) // 1 + floor(3.1)
    expect(defaultThreads(4, 2.6, 0)).toBe(3)
  })
  it('falls back on the cores the load average leaves idle', () => {
    expect(defaultThreads(2, null, 0)).toBe(2)
    expect(defaultThreads(2, null, 0.6)).toBe(2) // ceil(1.4)
    expect(defaultThreads(2, null, 1)).toBe(1)
    expect(defaultThreads(4, null, 1.5)).toBe(3) // ceil(2.5)
  })
  it('is never below 1 nor above 8 or the core count', () => {
    expect(defaultThreads(2, null, 3.7)).toBe(1)
    expect(defaultThreads(1, 1, 0)).toBe(1)
    expect(defaultThreads(16, null, 3)).toBe(8)
    expect(defaultThreads(64, 60, 0)).toBe(8)
  })
})

describe('rangeWeights', () => {
  it('cuts 8 ranges a thread, the last eighth a quarter and the eighth before half the size', () => {
    expect(rangeWeights(2)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.25, 0.25])
    for (const t of [1, 2, 3, 8]) {
      const w = rangeWeights(t)
      expect(w).toHaveLength(t * RANGES_PER_THREAD)
      // never larger towards the end
      for (let k = 1; k < w.length; k++) expect(w[k]!).toBeLessThanOrEqual(w[k - 1]!)
      expect(w.filter((x) => x === 0.25)).toHaveLength(t)
    }
  })
})

describe('idle cores from /proc/stat', () => {
  const stat = (user: number, idle: number, iowait: number) =>
    `cpu  ${user} 0 10 ${idle} ${iowait} 0 0 0 0 0\ncpu0 1 0 0 1 0 0 0 0 0 0\n` +
    `cpu1 1 0 0 1 0 0 0 0 0 0\nintr 5 0\n`
  it('reads the aggregate line and counts the CPUs', () => {
    expect(parseProcStat(stat(100, 50, 5), 0)).toEqual({
      at: 0,
      idle: 55,
      total: 165,
      cpus: 2,
      own: 0,
    })
    expect(parseProcStat('nothing here\n', 0)).toBeNull()
    expect(parseProcStat('cpu  1 2 x 4 5\ncpu0 1 2 3 4 5\n', 0)).toBeNull()
  })
  it('is the CPUs times the idle share of the ticks in the window', () => {
    const from = parseProcStat(stat(100, 50, 0), 0)!
    // 10 ticks passed, 5 of them idle (one core of two): one idle core.
    expect(idleCoresBetween(from, parseProcStat(stat(105, 54, 1), 100)!)).toBe(1)
    // All 10 busy: none.
    expect(idleCoresBetween(from, parseProcStat(stat(110, 50, 0), 100)!)).toBe(0)
    // A window shorter than 60 ms, or no tick: no measurement.
    expect(idleCoresBetween(from, parseProcStat(stat(105, 55, 0), 59)!)).toBeNull()
    expect(idleCoresBetween(from, parseProcStat(stat(100, 50, 0), 100)!)).toBeNull()
  })
  it('counts what this process used beyond one core as idle', () => {
    const from = parseProcStat(stat(100, 50, 0), 0, 1)!
    // All 10 ticks busy in 100 ms, 0.17 s of it ours (1.7 cores: V8's helper threads too).
    expect(idleCoresBetween(from, parseProcStat(stat(110, 50, 0), 100, 1.17)!)).toBeCloseTo(0.7)
    // Ours was one core only: the other core was someone else's.
    expect(idleCoresBetween(from, parseProcStat(stat(110, 50, 0), 100, 1.1)!)).toBeCloseTo(0)
    // Never more than the CPUs.
    expect(idleCoresBetween(from, parseProcStat(stat(105, 55, 0), 100, 1.3)!)).toBe(2)
  })
})
