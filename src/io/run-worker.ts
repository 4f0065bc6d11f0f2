/**
 * Worker side of {@link readRanges}: build the job the task names, then take byte ranges until
 * none is left (see `parallel-run.ts`).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { type RangeTask, type WorkerResult, workerTakeRanges } from './parallel-run.js'

workerTakeRanges(workerData as RangeTask).then(
  (r) => parentPort!.postMessage(r),
  (e: unknown) =>
    parentPort!.postMessage({
      ok: false,
      active: false,
      ranges: [],
      state: null,
      error: String(e),
    } satisfies WorkerResult),
)
