/**
 * Idle CPU as the kernel counts it, for choosing how many threads read a large run. The 1-minute
 * load average lags by tens of seconds (right after a build it still reads "busy" while a core
 * sits idle, and the other way round); the idle ticks of `/proc/stat` between two moments of this
 * process are what the machine had to spare just now.
 *
 * This process's own CPU time in the window (`process.cpuUsage()`, every thread) beyond one core
 * counts as spare: V8's compiler and GC threads keep the second core busy during start-up, and
 * reading that as "the machine is busy" made the thread count flip between runs on an idle machine.
 *
 * The first sample is taken when this module is evaluated (`bin/trecscore.js` loads it before the
 * rest of trecscore, so the window covers start-up and the qrels); each probe measures the window
 * since the previous one. Linux only: elsewhere, or over too short a window, the probe says
 * `null` and the caller falls back on the load average.
 */

import { readFileSync } from 'node:fs'

interface CpuSample {
  /** `performance.now()` when taken. */
  readonly at: number
  /** Idle plus iowait ticks, all CPUs together. */
  readonly idle: number
  /** All ticks (user nice system idle iowait irq softirq steal), all CPUs together. */
  readonly total: number
  /** CPUs listed (`cpuN` lines). */
  readonly cpus: number
  /** CPU seconds this process had used (user + system, all threads). */
  readonly own: number
}

/** Shortest window worth reading: the counters tick every 10 ms per CPU. */
export const MIN_WINDOW_MS = 60

/** Parses the text of `/proc/stat`; `null` when it does not look like Linux's. */
export function parseProcStat(text: string, at: number, own = 0): CpuSample | null {
  const eol = text.indexOf('\n')
  const head = (eol < 0 ? text : text.slice(0, eol)).trim().split(/\s+/)
  if (head[0] !== 'cpu' || head.length < 5) return null
  const ticks = head.slice(1, 9).map(Number)
  if (ticks.some((t) => !Number.isFinite(t))) return null
  const cpus = text.match(/^cpu\d+\s/gm)?.length ?? 0
  if (cpus === 0) return null
  const total = ticks.reduce((a, b) => a + b, 0)
  return { at, idle: ticks[3]! + (ticks[4] ?? 0), total, cpus, own }
}

function sample(): CpuSample | null {
  try {
    const { user, system } = process.cpuUsage()
    return parseProcStat(
      readFileSync('/proc/stat', 'latin1'),
      performance.now(),
      (user + system) / 1e6,
    )
  } catch {
    return null
  }
}

/**
 * Idle cores between two samples: the CPUs times the idle share of the ticks, plus whatever this
 * process used beyond one core (its own helper threads do not make the machine busy), at most
 * the CPU count; `null` when the window is shorter than {@link MIN_WINDOW_MS} or no tick passed.
 */
export function idleCoresBetween(from: CpuSample, to: CpuSample): number | null {
  const ticks = to.total - from.total
  const seconds = (to.at - from.at) / 1000
  if (to.at - from.at < MIN_WINDOW_MS || ticks <= 0) return null
  const idle = (to.cpus * Math.max(0, to.idle - from.idle)) / ticks
  const ownBeyondOne = Math.max(0, (to.own - from.own) / seconds - 1)
  return Math.min(to.cpus, idle + ownBeyondOne)
}

let last = sample()

/**
 * Cores left idle (0 to the CPU count, fractional) since this module was loaded or the previous
 * probe, whichever came later; this process's own busy thread counts as busy. `null` when
 * `/proc/stat` cannot be read or the window is too short (then the window is kept for the next
 * probe).
 */
export function probeIdleCores(): number | null {
  const now = sample()
  if (!now || !last) return null
  const idle = idleCoresBetween(last, now)
  if (idle !== null) last = now
  return idle
}
