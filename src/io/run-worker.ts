/**
 * Worker side of {@link readRanges}: build the job the task names, then take byte ranges until
 * none is left (see `parallel-run.ts`).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { type RangeTask, type WorkerResult, workerTakeRanges } from './parallel-run.js'

/**
 * The buffers of a job state's typed arrays that are whole buffers of their own (not a view of a
 * larger or shared one): moved to the main thread rather than copied.
 */
function movable(state: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = []
  if (typeof state !== 'object' || state === null) return out
  for (const v of Object.values(state)) {
    if (!ArrayBuffer.isView(v) || !(v.buffer instanceof ArrayBuffer)) continue
    if (v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && !out.includes(v.buffer))
      out.push(v.buffer)
  }
  return out
}

workerTakeRanges(workerData as RangeTask).then(
  (r) => parentPort!.postMessage(r, movable(r.state)),
  (e: unknown) =>
    parentPort!.postMessage({
      ok: false,
      active: false,
      ranges: [],
      state: null,
      error: String(e),
    } satisfies WorkerResult),
)
