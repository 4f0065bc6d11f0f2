/**
 * Worker side of {@link runInParallel}: rebuild the job, then parse and evaluate one byte range.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { processRange, type QueryJob, type RangeTask } from './parallel-run.js'

async function main(task: RangeTask) {
  const mod = (await import(task.job.module)) as { createQueryJob(config: unknown): Promise<QueryJob<unknown>> }
  const job = await mod.createQueryJob(task.job.config)
  const result = processRange(task, job)
  return { ...result, state: job.exportState() }
}

main(workerData as RangeTask).then(
  (r) => parentPort!.postMessage(r),
  (e: unknown) => parentPort!.postMessage({ ok: false, state: null, head: null, tail: null, qids: [], repeated: false, lastTag: '', contentLines: 0, error: String(e) }),
)
