/**
 * Progress of a judging run on stderr: on a TTY a bar with counts and ETA redrawn in place; on
 * anything else one plain line at most every `intervalMs` (and a last one); nothing when quiet.
 */
import type { JudgeProgress } from './runner.js'

/** Where progress goes (process.stderr fits). */
export interface ProgressStream {
  write(text: string): unknown
  readonly isTTY?: boolean
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

/** The progress line (without bar) for `p` at time `now`. */
export function progressLine(p: JudgeProgress, now: number): string {
  const pct = p.total ? Math.floor((100 * p.done) / p.total) : 100
  const elapsed = now - p.startedAt
  const eta =
    p.done > 0 && p.done < p.total
      ? ` ETA ${duration((elapsed / p.done) * (p.total - p.done))}`
      : ''
  return `${p.done}/${p.total} judgments (${pct}%), ${p.cacheHits} from cache, ${p.calls} HTTP calls, ${duration(elapsed)}${eta}`
}

/** A progress callback for {@link runJudge} and a `finish()` that ends the display. */
export function createProgress(
  stream: ProgressStream,
  options: { quiet?: boolean; intervalMs?: number; now?: () => number } = {},
): { onProgress: (p: JudgeProgress) => void; finish: () => void } {
  const now = options.now ?? Date.now
  if (options.quiet) return { onProgress: () => {}, finish: () => {} }
  let last: JudgeProgress | null = null
  let lastPrinted = 0
  const interval = options.intervalMs ?? 5000
  if (stream.isTTY) {
    return {
      onProgress(p) {
        last = p
        const t = now()
        if (t - lastPrinted < 100 && p.done < p.total) return
        lastPrinted = t
        const width = 24
        const fill = p.total ? Math.round((width * p.done) / p.total) : width
        stream.write(
          `\r\x1b[2K[${'#'.repeat(fill)}${'-'.repeat(width - fill)}] ${progressLine(p, t)}`,
        )
      },
      finish() {
        if (last) stream.write('\n')
      },
    }
  }
  let printed = false
  return {
    onProgress(p) {
      last = p
      const t = now()
      if (!printed || t - lastPrinted >= interval) {
        printed = true
        lastPrinted = t
        stream.write(`trecscore judge: ${progressLine(p, t)}\n`)
      }
    },
    finish() {
      if (last) stream.write(`trecscore judge: done, ${progressLine(last, now())}\n`)
    },
  }
}
