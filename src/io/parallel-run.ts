/**
 * Reading a large run file on several threads. The file is cut into byte ranges at line
 * boundaries; each worker parses its range and evaluates every query whose lines lie wholly
 * inside it, with a job built from serialisable config (so the worker computes exactly what the
 * main thread would). The first and last blocks of each range may belong to a query cut by a
 * boundary: they come back raw and are merged and evaluated here. When anything is unusual (a
 * parse problem, or a query whose lines are not contiguous) the caller falls back to the
 * sequential reader, which reports problems with exact line numbers.
 */
import { availableParallelism } from 'node:os'
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { RunQuery } from '../model/types.js'
import { concatRunQueries } from '../model/run-query.js'
import { TrecRunParser, type RunParseOptions } from './trec-run.js'

/** A job the workers can rebuild: `module` exports `createQueryJob(config)`. */
export interface JobSpec {
  readonly module: string
  readonly config: unknown
}

/** What a query job does with each complete query, and how its state travels between threads. */
export interface QueryJob<S> {
  /** Take one query's complete list of docs (the job ignores queries it does not need). */
  add(run: RunQuery): void
  exportState(): S
  absorb(state: S): void
}

/** Message a worker receives. */
export interface RangeTask {
  readonly file: string
  readonly start: number
  readonly end: number
  readonly first: boolean
  readonly last: boolean
  readonly parse: RunParseOptions
  readonly job: JobSpec
}

/** Message a worker sends back. */
export interface RangeResult {
  readonly ok: boolean
  readonly state: unknown
  readonly head: RunQuery | null
  readonly tail: RunQuery | null
  readonly qids: readonly string[]
  readonly repeated: boolean
  readonly lastTag: string
  readonly contentLines: number
  readonly error?: string
}

/**
 * Files smaller than this are read on one thread (worker start-up would not pay off).
 * Environment: `TRECSCORE_PARALLEL_MIN_BYTES` overrides it, `TRECSCORE_THREADS` sets the number
 * of threads (1 turns the parallel reader off).
 */
export const PARALLEL_MIN_BYTES = 48 * 1024 * 1024

function envInt(name: string): number | null {
  const v = process.env[name]
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null
}

/**
 * Byte offsets that cut `file` into ranges at line starts, sized in proportion to `weights`
 * (the calling thread, already warm, takes a larger first range).
 */
export function splitFile(file: string, weights: readonly number[]): number[] {
  const size = statSync(file).size
  const total = weights.reduce((a, b) => a + b, 0)
  const cuts = [0]
  const fd = openSync(file, 'r')
  try {
    const probe = Buffer.allocUnsafe(1 << 20)
    let acc = 0
    for (let p = 1; p < weights.length; p++) {
      acc += weights[p - 1]!
      let pos = Math.max(cuts[cuts.length - 1]!, Math.floor((size * acc) / total))
      for (;;) {
        const n = readSync(fd, probe, 0, probe.length, pos)
        if (n === 0) {
          pos = size
          break
        }
        const nl = probe.subarray(0, n).indexOf(0x0a)
        if (nl >= 0) {
          pos += nl + 1
          break
        }
        pos += n
      }
      if (pos >= size) break
      if (pos > cuts[cuts.length - 1]!) cuts.push(pos)
    }
  } finally {
    closeSync(fd)
  }
  cuts.push(size)
  return cuts
}

/**
 * Read and evaluate `file` on this thread and worker threads. Returns the last line's run tag,
 * or `null` when the caller must use the sequential reader instead, with a fresh job (small file,
 * stdin or gzip, one core, a parse problem, or query lines that are not contiguous): `job` may
 * already hold some queries then.
 */
export async function runInParallel<S>(
  file: string,
  parse: RunParseOptions,
  spec: JobSpec,
  job: QueryJob<S>,
  threads = envInt('TRECSCORE_THREADS') ?? Math.min(availableParallelism(), 8),
): Promise<{ lastTag: string } | null> {
  if (file === '-' || file.endsWith('.gz') || threads < 2) return null
  let size: number
  try {
    const st = statSync(file)
    if (!st.isFile()) return null
    size = st.size
  } catch {
    return null
  }
  if (size < (envInt('TRECSCORE_PARALLEL_MIN_BYTES') ?? PARALLEL_MIN_BYTES)) return null
  const cuts = splitFile(file, [FIRST_RANGE_WEIGHT, ...Array<number>(threads - 1).fill(1)])
  const tasks: RangeTask[] = []
  for (let i = 0; i + 1 < cuts.length; i++) {
    tasks.push({ file, start: cuts[i]!, end: cuts[i + 1]!, first: i === 0, last: i + 2 === cuts.length, parse, job: spec })
  }
  // Workers take ranges 1…n-1; this thread, already warm, reads range 0 meanwhile.
  const pending = tasks.slice(1).map(runWorker)
  const own = processRange(tasks[0]!, job)
  const results: RangeResult[] = [{ ...own, state: null }, ...(await Promise.all(pending))]
  if (results.some((r) => !r.ok || r.repeated)) return null
  // Every query must be in one range only, apart from blocks cut by a boundary.
  const owner = new Map<string, number>()
  for (let i = 0; i < results.length; i++) {
    for (const q of results[i]!.qids) {
      if (owner.has(q)) return null
      owner.set(q, i)
    }
  }
  const edges: RunQuery[] = []
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!
    if (r.head) {
      const prev = edges[edges.length - 1]
      if (prev && prev.queryId === r.head.queryId) edges[edges.length - 1] = concatRunQueries(prev, r.head)
      else edges.push(r.head)
    }
    if (r.tail) edges.push(r.tail)
  }
  const edgeIds = new Set<string>()
  for (const e of edges) {
    if (owner.has(e.queryId) || edgeIds.has(e.queryId)) return null
    edgeIds.add(e.queryId)
  }
  for (const r of results.slice(1)) job.absorb(r.state as S)
  for (const e of edges) job.add(e)
  let lastTag = ''
  for (const r of results) if (r.contentLines > 0) lastTag = r.lastTag
  return { lastTag }
}

/** Share of the file read by the calling thread, relative to one worker's (it starts earlier). */
const FIRST_RANGE_WEIGHT = 1.3

/**
 * Parse one byte range and hand every query wholly inside it to `job`; the first block (unless
 * the range starts the file) and the last one (unless it ends it) come back raw, since a range
 * boundary may cut them.
 */
export function processRange<S>(task: RangeTask, job: QueryJob<S>): Omit<RangeResult, 'state'> {
  const seen = new Set<string>()
  const qids: string[] = []
  let repeated = false
  let head: RunQuery | null = null
  let pending: RunQuery | null = null
  let groups = 0
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
      job.add(pending)
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
      job.add(last)
    } else tail = last
  }
  return { ok: parser.issues.length === 0, head, tail, qids, repeated, lastTag: parser.lastTag, contentLines: parser.contentLines }
}

function runWorker(task: RangeTask): Promise<RangeResult> {
  return new Promise((resolve) => {
    const w = new Worker(new URL('./run-worker.js', import.meta.url), { workerData: task })
    let done = false
    w.once('message', (m: RangeResult) => {
      done = true
      resolve(m)
    })
    w.once('error', (e) => {
      done = true
      resolve({ ok: false, state: null, head: null, tail: null, qids: [], repeated: false, lastTag: '', contentLines: 0, error: String(e) })
    })
    w.once('exit', () => {
      if (!done) resolve({ ok: false, state: null, head: null, tail: null, qids: [], repeated: false, lastTag: '', contentLines: 0, error: 'worker exited' })
    })
  })
}
