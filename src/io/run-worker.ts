/**
 * Worker side of {@link runInParallel}: parse one byte range of a run file and evaluate every
 * query wholly inside it; hand back the boundary blocks raw.
 */
import { closeSync, openSync, readSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import type { RunQuery } from '../model/types.js'
import type { QueryJob, RangeResult, RangeTask } from './parallel-run.js'
import { TrecRunParser } from './trec-run.js'

async function main(task: RangeTask): Promise<RangeResult> {
  const mod = (await import(task.job.module)) as { createQueryJob(config: unknown): Promise<QueryJob<unknown>> }
  const job = await mod.createQueryJob(task.job.config)
  const seen = new Set<string>()
  const qids: string[] = []
  let repeated = false
  let head: RunQuery | null = null
  let pending: RunQuery | null = null
  let groups = 0
  const settle = (g: RunQuery): void => job.add(g)
  const parser = new TrecRunParser((g) => {
    if (seen.has(g.queryId)) repeated = true
    seen.add(g.queryId)
    groups++
    if (groups === 1 && !task.first) {
      head = g
      return
    }
    if (pending) {
      qids.push(pending.queryId)
      settle(pending)
    }
    pending = g
  }, task.parse)
  const fd = openSync(task.file, 'r')
  const buf = Buffer.allocUnsafe(8 * 1024 * 1024)
  try {
    let pos = task.start
    while (pos < task.end && !parser.stopped) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, task.end - pos), pos)
      if (n === 0) break
      parser.feed(n === buf.length ? buf : buf.subarray(0, n))
      pos += n
    }
  } finally {
    closeSync(fd)
  }
  parser.end()
  let tail: RunQuery | null = null
  const last = pending as RunQuery | null
  if (last) {
    if (task.last) {
      qids.push(last.queryId)
      settle(last)
    } else tail = last
  }
  return {
    ok: parser.issues.length === 0,
    state: job.exportState(),
    head,
    tail,
    qids,
    repeated,
    lastTag: parser.lastTag,
    contentLines: parser.contentLines,
  }
}

main(workerData as RangeTask).then(
  (r) => parentPort!.postMessage(r),
  (e: unknown) => parentPort!.postMessage({ ok: false, state: null, head: null, tail: null, qids: [], repeated: false, lastTag: '', contentLines: 0, error: String(e) }),
)
