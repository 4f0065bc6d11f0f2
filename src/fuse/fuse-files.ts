/**
 * File edge of fusion (used by `trecscore fuse`): read the input runs, write the fused run.
 */
import { createWriteStream } from 'node:fs'
import type { Writable } from 'node:stream'
import { describeWriteError, OutputError } from '../io/output.js'
import { readRun } from '../io/read.js'
import type { Run } from '../model/types.js'
import { fusedRunChunks } from './format.js'
import type { FusedRun } from './types.js'

/** Read every run file (scores as doubles, `#` lines skipped). Throws `InputError`. */
export async function readRunsToFuse(files: readonly string[]): Promise<Run[]> {
  const runs: Run[] = []
  for (const f of files) runs.push(await readRun(f))
  return runs
}

/**
 * Write a fused run to a file, or to standard output when `out` is undefined or `-`, in pieces
 * (bounded memory) with back-pressure. Returns the bytes written. A write failure (missing folder,
 * a directory, a full disk) throws an {@link OutputError} (one line, exit code 2).
 */
export async function writeFusedRun(run: FusedRun, out?: string): Promise<number> {
  const toFile = out !== undefined && out !== '-'
  const stream: Writable = toFile ? createWriteStream(out) : process.stdout
  const name = toFile ? out : 'standard output'
  let failed: Error | undefined
  const onError = (e: Error): void => {
    failed ??= e
  }
  stream.on('error', onError)
  // Resolves on `event`, an error or close, whichever comes first (never rejects).
  const settle = (event: string): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        for (const e of [event, 'error', 'close']) stream.off(e, done)
        resolve()
      }
      for (const e of [event, 'error', 'close']) stream.once(e, done)
    })
  let bytes = 0
  try {
    for (const chunk of fusedRunChunks(run)) {
      if (failed !== undefined) break
      bytes += chunk.length
      if (!stream.write(Buffer.from(chunk, 'latin1'))) await settle('drain')
    }
    if (toFile && failed === undefined) {
      const finished = settle('finish')
      stream.end()
      await finished
    }
  } finally {
    if (toFile) stream.destroy()
    stream.off('error', onError)
  }
  if (failed !== undefined) throw new OutputError(name, describeWriteError(failed), failed)
  return bytes
}
