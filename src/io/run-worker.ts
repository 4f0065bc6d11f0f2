/**
 * Worker side of {@link runInParallel}: rebuild the job, then take byte ranges to parse and
 * evaluate until none is left.
 */
import { parentPort, workerData } from 'node:worker_threads'
import {
  type QueryJobModule,
  type RangeTask,
  type WorkerResult,
  workerTakeRanges,
} from './parallel-run.js'

async function main(task: RangeTask): Promise<WorkerResult> {
  const mod = (await import(task.job.module)) as QueryJobModule<unknown, unknown>
  const job = await mod.createQueryJob(task.job.config)
  return workerTakeRanges(task, job)
}

main(workerData as RangeTask).then(
  (r) => parentPort!.postMessage(r),
  (e: unknown) =>
    parentPort!.postMessage({
      ok: false,
      ranges: [],
      state: null,
      error: String(e),
    } satisfies WorkerResult),
)
