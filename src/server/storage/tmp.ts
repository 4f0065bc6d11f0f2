/**
 * Where uploads arrive: `--data/tmp/HOST-PID-RANDOM/`, one folder per server process, so that
 * several web processes (on one machine or several, sharing `--data`) never remove each
 * other's uploads in flight. A process empties only its own folder, and at start sweeps what
 * dead processes left: folders of this host whose process no longer exists, and anything else
 * (another host's, or an older layout's) untouched for a day.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { pidAlive } from '../../internal.js'

const DAY_MS = 86_400_000

/** A process's own tmp folder name: `HOST-PID-RANDOM` (the host name's unsafe characters as `_`). */
function ownName(): string {
  return `${hostname().replace(/[^A-Za-z0-9.]/g, '_')}-${process.pid}-${randomBytes(4).toString('hex')}`
}

/** Remove what dead processes left under `--data/tmp` (see the module comment). */
export function sweepTmp(dataDir: string, now: number = Date.now()): string[] {
  const root = join(dataDir, 'tmp')
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return []
  }
  const host = hostname().replace(/[^A-Za-z0-9.]/g, '_')
  const removed: string[] = []
  for (const n of names) {
    const m = /^(.+)-(\d+)-[0-9a-f]{8}$/.exec(n)
    let stale: boolean
    if (m && m[1] === host) stale = !pidAlive(Number(m[2]))
    else {
      try {
        stale = now - statSync(join(root, n)).mtimeMs > DAY_MS
      } catch {
        continue
      }
    }
    if (stale) {
      rmSync(join(root, n), { recursive: true, force: true })
      removed.push(n)
    }
  }
  return removed
}

/** Sweep, then make this process's own tmp folder; returns its path. */
export function processTmpDir(dataDir: string): string {
  sweepTmp(dataDir)
  const dir = join(dataDir, 'tmp', ownName())
  mkdirSync(dir, { recursive: true })
  return dir
}
