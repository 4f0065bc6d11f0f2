/**
 * Reading a large run file on several threads. The file is cut into byte ranges at line
 * boundaries; each worker parses its range and evaluates every query whose lines lie wholly
 * inside it, with a job built from serialisable config (so the worker computes exactly what the
 * main thread would). The first and last blocks of each range may belong to a query cut by a
 * boundary: they come back raw and are merged and evaluated here. When anything is unusual (a
 * parse problem, or a query whose lines are not contiguous) the caller falls back to the
 * sequential reader, which reports problems with exact line numbers.
 */

import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { Worker } from 'node:worker_threads'
import { concatRunQueries } from '../model/run-query.js'
import type { RunQuery } from '../model/types.js'
import { probeIdleCores } from './cpu-idle.js'
import { inputLimits } from './source.js'
import { type RunParseOptions, TrecRunParser } from './trec-run.js'

/** A job the workers can rebuild: `module` is a {@link QueryJobModule}, built with `config`. */
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

/**
 * The contract of a job module: a worker `import()`s the module a {@link JobSpec} names and calls
 * its `createQueryJob` export by name with the spec's (structured-clone) config. Each job module
 * checks its exports against it, `({ createQueryJob }) satisfies QueryJobModule<Config, State>`,
 * so a renamed or retyped export fails to compile rather than in a worker thread.
 */
export interface QueryJobModule<C, S> {
  createQueryJob(config: C): Promise<QueryJob<S>>
}

/** Message a worker receives. */
export interface RangeTask {
  readonly file: string
  /** Range `i` is the bytes `[cuts[i], cuts[i + 1])`; every range starts a line. */
  readonly cuts: readonly number[]
  /** Shared `Int32Array` slots: [next range to take, then one state per worker (see `claim`)]. */
  readonly shared: SharedArrayBuffer
  /** This worker's slot in `shared` (1-based). */
  readonly slot: number
  readonly parse: RunParseOptions
  readonly job: JobSpec
}

/** What reading one range gave. */
export interface RangeResult {
  readonly index: number
  readonly ok: boolean
  readonly head: RunQuery | null
  readonly tail: RunQuery | null
  readonly qids: readonly string[]
  readonly repeated: boolean
  readonly lastTag: string
  readonly contentLines: number
}

/** Message a worker sends back: the ranges it read and its job's state. */
export interface WorkerResult {
  readonly ok: boolean
  readonly ranges: readonly RangeResult[]
  readonly state: unknown
  readonly error?: string
}

/** A worker's state slot: not yet taking ranges, taking ranges, or told not to start. */
const IDLE = 0
const ACTIVE = 1
const CANCELLED = 2

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
 * Threads for reading a large run when `TRECSCORE_THREADS` is not set: this one plus one for each
 * core left idle, at most 8 and the core count. `idle` is the idle cores just measured
 * ({@link probeIdleCores}: `/proc/stat` since start-up), or `null` to fall back on the
 * 1-minute load average (`load`). A worker costs its start-up and its own JIT warm-up (about a
 * third of a second of CPU) and only pays off on a core nobody else is using: a worker that has
 * to share this thread's core makes the whole run slower, so a core counts as idle from 0.7.
 */
export function defaultThreads(
  cores = availableParallelism(),
  idle: number | null = probeIdleCores(),
  load = loadavg()[0]!,
): number {
  const spare = idle === null ? Math.ceil(cores - load) - 1 : idle
  return Math.max(1, Math.min(8, cores, 1 + Math.floor(spare + 0.3)))
}

/**
 * Byte offsets that cut `file` into ranges at line starts, sized in proportion to `weights`
 * (equal weights give equal ranges).
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
  threads = envInt('TRECSCORE_THREADS') ?? defaultThreads(),
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
  // Past the input limit: the sequential reader says so.
  const limits = inputLimits()
  if (size > limits.maxInputBytes) return null
  parse = { maxLineBytes: limits.maxLineBytes, ...parse }
  // Many ranges, taken in turn by whichever thread is free: this thread (already warm) starts at
  // once, workers join when they have started, and a slow thread holds up the end by one range
  // at most.
  const cuts = splitFile(file, Array<number>(threads * RANGES_PER_THREAD).fill(1))
  const shared = new SharedArrayBuffer(4 * threads)
  const slots = new Int32Array(shared)
  const workers = Array.from({ length: threads - 1 }, (_, w) =>
    runWorker({ file, cuts, shared, slot: w + 1, parse, job: spec }),
  )
  const results: RangeResult[] = takeRanges(file, cuts, slots, parse, job)
  // Workers that have not started taking ranges by now are not waited for.
  const replies = await Promise.all(
    workers.map(async (w, k) => {
      if (Atomics.compareExchange(slots, k + 1, IDLE, CANCELLED) === IDLE) {
        void w.worker.terminate()
        return { ok: true, ranges: [], state: null } satisfies WorkerResult
      }
      return w.reply
    }),
  )
  if (replies.some((r) => !r.ok)) return null
  for (const r of replies) results.push(...r.ranges)
  results.sort((a, b) => a.index - b.index)
  if (
    results.length !== cuts.length - 1 ||
    results.some((r, i) => r.index !== i || !r.ok || r.repeated)
  )
    return null
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
      if (prev && prev.queryId === r.head.queryId)
        edges[edges.length - 1] = concatRunQueries(prev, r.head)
      else edges.push(r.head)
    }
    if (r.tail) edges.push(r.tail)
  }
  const edgeIds = new Set<string>()
  for (const e of edges) {
    if (owner.has(e.queryId) || edgeIds.has(e.queryId)) return null
    edgeIds.add(e.queryId)
  }
  for (const r of replies) if (r.state !== null) job.absorb(r.state as S)
  for (const e of edges) job.add(e)
  let lastTag = ''
  for (const r of results) if (r.contentLines > 0) lastTag = r.lastTag
  return { lastTag }
}

/** Ranges per thread: enough for an even finish, few enough that boundaries cost nothing. */
const RANGES_PER_THREAD = 8

/**
 * Take ranges from `cuts` one at a time (slot 0 of `slots` is the next one to take, shared by all
 * threads) and read each into `job`, until none is left.
 */
export function takeRanges<S>(
  file: string,
  cuts: readonly number[],
  slots: Int32Array,
  parse: RunParseOptions,
  job: QueryJob<S>,
): RangeResult[] {
  const out: RangeResult[] = []
  const buf = Buffer.allocUnsafe(READ_BYTES)
  const fd = openSync(file, 'r')
  try {
    for (;;) {
      const i = Atomics.add(slots, 0, 1)
      if (i + 1 >= cuts.length) break
      const r = processRange(fd, buf, i, cuts[i]!, cuts[i + 1]!, i + 2 === cuts.length, parse, job)
      out.push(r)
      if (!r.ok || r.repeated) {
        // No use reading on: the caller falls back to the sequential reader.
        Atomics.store(slots, 0, cuts.length)
        break
      }
    }
  } finally {
    closeSync(fd)
  }
  return out
}

const READ_BYTES = 8 * 1024 * 1024

/**
 * Parse one byte range and hand every query wholly inside it to `job`; the first block (unless
 * the range starts the file) and the last one (unless it ends it) come back raw, since a range
 * boundary may cut them.
 */
function processRange<S>(
  fd: number,
  buf: Buffer,
  index: number,
  start: number,
  end: number,
  last: boolean,
  parse: RunParseOptions,
  job: QueryJob<S>,
): RangeResult {
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
    if (groups === 1 && index > 0) {
      head = g
      return
    }
    if (pending) {
      qids.push(pending.queryId)
      job.add(pending)
    }
    pending = g
  }, parse)
  let pos = start
  while (pos < end && !parser.stopped) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos)
    if (n === 0) break
    parser.feed(n === buf.length ? buf : buf.subarray(0, n))
    pos += n
  }
  parser.end()
  let tail: RunQuery | null = null
  const lastGroup = pending as RunQuery | null
  if (lastGroup) {
    if (last) {
      qids.push(lastGroup.queryId)
      job.add(lastGroup)
    } else tail = lastGroup
  }
  return {
    index,
    ok: parser.issues.length === 0,
    head,
    tail,
    qids,
    repeated,
    lastTag: parser.lastTag,
    contentLines: parser.contentLines,
  }
}

/**
 * The worker side: once the job is built, take ranges unless this thread was cancelled meanwhile
 * (the calling thread already took every range).
 */
export function workerTakeRanges<S>(task: RangeTask, job: QueryJob<S>): WorkerResult {
  const slots = new Int32Array(task.shared)
  if (Atomics.compareExchange(slots, task.slot, IDLE, ACTIVE) !== IDLE)
    return { ok: true, ranges: [], state: null }
  const ranges = takeRanges(task.file, task.cuts, slots, task.parse, job)
  return { ok: true, ranges, state: job.exportState() }
}

function runWorker(task: RangeTask): { worker: Worker; reply: Promise<WorkerResult> } {
  const worker = new Worker(new URL('./run-worker.js', import.meta.url), { workerData: task })
  const reply = new Promise<WorkerResult>((resolve) => {
    let done = false
    worker.once('message', (m: WorkerResult) => {
      done = true
      resolve(m)
    })
    worker.once('error', (e) => {
      done = true
      resolve({ ok: false, ranges: [], state: null, error: String(e) })
    })
    worker.once('exit', () => {
      if (!done) resolve({ ok: false, ranges: [], state: null, error: 'worker exited' })
    })
  })
  return { worker, reply }
}
