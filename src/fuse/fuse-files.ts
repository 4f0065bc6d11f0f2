/**
 * File edge of fusion (used by `trecscore fuse`): read the input runs, write the fused run.
 */
import { writeFile } from 'node:fs/promises'
import { readRun } from '../io/read.js'
import type { Run } from '../model/types.js'
import { formatFusedRun } from './format.js'
import type { FusedRun } from './types.js'

/** Read every run file (scores as doubles, `#` lines skipped). Throws `InputError`. */
export async function readRunsToFuse(files: readonly string[]): Promise<Run[]> {
  const runs: Run[] = []
  for (const f of files) runs.push(await readRun(f))
  return runs
}

/** Write a fused run to a file, or return its bytes (for stdout) when `out` is undefined. */
export async function writeFusedRun(run: FusedRun, out?: string): Promise<Buffer> {
  const bytes = Buffer.from(formatFusedRun(run), 'latin1')
  if (out !== undefined) await writeFile(out, bytes)
  return bytes
}
