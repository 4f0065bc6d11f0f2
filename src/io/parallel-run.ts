/**
 * Reading a large run file on several threads. The file is cut into byte ranges at line
 * boundaries; each worker parses its range and evaluates every query whose lines lie wholly
 * inside it, with a job built from serialisable config (so the worker computes exactly what the
 * main thread would). The first and last blocks of each range may belong to a query cut by a
 * boundary: they come back raw and are merged and evaluated here. When anything is unusual (a
 * parse problem, or a query whose lines are not contiguous) the caller falls back to the
 * sequential reader, which reports problems with exact line numbers.
 *
 * The machinery under it (byte ranges at line or topic starts, a shared counter of the next range
 * to take, worker start-up and the "not started yet: cancel" handshake) is {@link readRanges},
 * which runs any {@link RangeReader}: the run validator uses it too (`validate/validate-file.ts`).
 */

import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { Worker } from 'node:worker_threads'
import { concatRunQueries } from '../model/run-query.js'
import type { RunQuery } from '../model/types.js'
import { IS_SPACE } from './bytes.js'
import { probeIdleCores } from './cpu-idle.js'
import type { InputLimits } from './limits.js'
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

/**
 * What a thread does with each byte range it takes. `read` gets the range's index, its bytes
 * `[start, end)` in the open file `fd` (every range starts a line), a scratch buffer, and whether
 * the range ends the file; `stops` says when a result makes reading on useless (the caller will
 * fall back to a sequential reader), so that no thread takes another range.
 */
export interface RangeReader<R extends { readonly index: number }> {
  read(fd: number, buf: Buffer, index: number, start: number, end: number, last: boolean): R
  stops(result: R): boolean
}

/** A {@link RangeReader} a worker builds from config; its state goes back once it is done. */
export interface RangeJob<R extends { readonly index: number }, S> extends RangeReader<R> {
  exportState(): S
}

/**
 * The contract of a range job module (as {@link QueryJobModule} for query jobs): a worker
 * `import()`s the module and calls `createRangeJob` with the spec's config. Checked with
 * `({ createRangeJob }) satisfies RangeJobModule<Config, Result, State>`.
 */
export interface RangeJobModule<C, R extends { readonly index: number }, S> {
  createRangeJob(config: C): Promise<RangeJob<R, S>>
}

/** What the workers run: a query job on the parsed run, or a range job of its own. */
export type WorkSpec =
  | { readonly kind: 'queries'; readonly parse: RunParseOptions; readonly job: JobSpec }
  | { readonly kind: 'ranges'; readonly job: JobSpec }

/** Message a worker receives. */
export interface RangeTask {
  readonly file: string
  /** Range `i` is the bytes `[cuts[i], cuts[i + 1])`; every range starts a line. */
  readonly cuts: readonly number[]
  /** Shared `Int32Array` slots: [next range to take, then one state per worker (see `claim`)]. */
  readonly shared: SharedArrayBuffer
  /** This worker's slot in `shared` (1-based). */
  readonly slot: number
  readonly work: WorkSpec
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

/** Message a worker sends back: what it read of each range it took, and its job's state. */
export interface WorkerResult<R = unknown> {
  readonly ok: boolean
  /** The worker took part (false: it was told not to start). */
  readonly active: boolean
  readonly ranges: readonly R[]
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
 * (equal weights give equal ranges). With `at: 'topic'` each cut moves on to the first line whose
 * query id (first field) differs from the line before it, blank and comment lines (first field
 * starting with `#`) aside, so a topic whose lines are contiguous is never cut.
 */
export function splitFile(
  file: string,
  weights: readonly number[],
  at: 'line' | 'topic' = 'line',
): number[] {
  const size = statSync(file).size
  const total = weights.reduce((a, b) => a + b, 0)
  const cuts = [0]
  const fd = openSync(file, 'r')
  try {
    const probe = Buffer.allocUnsafe(1 << 20)
    let acc = 0
    for (let p = 1; p < weights.length; p++) {
      acc += weights[p - 1]!
      let pos = nextLineStart(
        fd,
        probe,
        Math.max(cuts[cuts.length - 1]!, Math.floor((size * acc) / total)),
        size,
      )
      if (at === 'topic' && pos < size) pos = nextTopicStart(fd, probe, pos, size)
      if (pos >= size) break
      if (pos > cuts[cuts.length - 1]!) cuts.push(pos)
    }
  } finally {
    closeSync(fd)
  }
  cuts.push(size)
  return cuts
}

/** The start of the first line after `pos` (`size` when there is none). */
function nextLineStart(fd: number, probe: Buffer, pos: number, size: number): number {
  for (;;) {
    const n = readSync(fd, probe, 0, probe.length, pos)
    if (n === 0) return size
    const nl = probe.subarray(0, n).indexOf(0x0a)
    if (nl >= 0) return pos + nl + 1
    pos += n
  }
}

/**
 * From the line starting at `pos`, the start of the first line whose query id differs from the
 * previous run line's (`size` when there is none). A line longer than `probe` ends the search at
 * its own start: the cut is then only a line start, which callers must allow for anyway.
 */
function nextTopicStart(fd: number, probe: Buffer, pos: number, size: number): number {
  let prev: string | null = null
  for (;;) {
    const n = readSync(fd, probe, 0, probe.length, pos)
    if (n === 0) return size
    let ls = 0
    for (;;) {
      const nl = probe.indexOf(0x0a, ls)
      const le = nl < 0 || nl >= n ? (pos + n >= size ? n : -1) : nl
      if (le < 0) break
      let a = ls
      while (a < le && IS_SPACE[probe[a]!]) a++
      if (a < le && probe[a] !== 0x23) {
        let b = a
        while (b < le && !IS_SPACE[probe[b]!]) b++
        const qid = probe.toString('latin1', a, b)
        if (prev !== null && qid !== prev) return pos + ls
        prev = qid
      }
      if (le === n) return size
      ls = le + 1
    }
    if (ls === 0) return pos
    pos += ls
  }
}

/** The input limits when `file` is to be read on `threads` threads, or `null` (read it on one). */
export function parallelInput(file: string, threads: number): InputLimits | null {
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
  return limits
}

/** Threads to read a large input on: `TRECSCORE_THREADS`, else {@link defaultThreads}. */
export function parallelThreads(): number {
  return envInt('TRECSCORE_THREADS') ?? defaultThreads()
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
  threads = parallelThreads(),
): Promise<{ lastTag: string } | null> {
  const limits = parallelInput(file, threads)
  if (limits === null) return null
  parse = { maxLineBytes: limits.maxLineBytes, ...parse }
  const cuts = splitFile(file, rangeWeights(threads))
  const read = await readRanges(
    file,
    cuts,
    threads,
    { kind: 'queries', parse, job: spec },
    queryRanges(parse, job),
  )
  if (read === null || read.results.some((r) => !r.ok || r.repeated)) return null
  const results = read.results
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
  for (const state of read.states) job.absorb(state as S)
  for (const e of edges) job.add(e)
  let lastTag = ''
  for (const r of results) if (r.contentLines > 0) lastTag = r.lastTag
  return { lastTag }
}

/** Ranges per thread: enough for an even finish, few enough that boundaries cost nothing. */
export const RANGES_PER_THREAD = 8

/**
 * The relative sizes of the ranges a file is cut into for `threads` threads, in file order:
 * {@link RANGES_PER_THREAD} a thread, the last quarter of them half and a quarter the size of
 * the others. Threads take ranges as they become free, so the last range a thread takes decides
 * how long the others wait for it: small last ranges make the threads finish together.
 */
export function rangeWeights(threads: number): number[] {
  const n = threads * RANGES_PER_THREAD
  const small = Math.floor(n / 8)
  return Array.from({ length: n }, (_, k) => (k >= n - small ? 0.25 : k >= n - 2 * small ? 0.5 : 1))
}

/** What {@link readRanges} gives: every range's result in file order, and the workers' states. */
export interface RangesRead<R> {
  readonly results: readonly R[]
  /** The states of the workers that took ranges. */
  readonly states: readonly unknown[]
  /** How many workers took ranges (the others had not started when this thread was done). */
  readonly workers: number
}

/**
 * Read the ranges `cuts` of `file` on this thread (with `local`) and `threads - 1` workers (each
 * running `work`), each range by whichever thread is free: this thread (already warm) starts at
 * once, workers join when they have started, and a slow thread holds up the end by one range at
 * most. Workers that have not started taking ranges when this thread is done are not waited for
 * (unless `waitForWorkers`, for tests). `null` when a worker failed or a result stopped the reading.
 */
export async function readRanges<R extends { readonly index: number }>(
  file: string,
  cuts: readonly number[],
  threads: number,
  work: WorkSpec,
  local: RangeReader<R>,
  waitForWorkers = false,
): Promise<RangesRead<R> | null> {
  const shared = new SharedArrayBuffer(4 * threads)
  const slots = new Int32Array(shared)
  const workers = Array.from({ length: threads - 1 }, (_, w) =>
    runWorker<R>({ file, cuts, shared, slot: w + 1, work }),
  )
  const results: R[] = takeRanges(file, cuts, slots, local)
  const replies = await Promise.all(
    workers.map(async (w, k) => {
      if (!waitForWorkers && Atomics.compareExchange(slots, k + 1, IDLE, CANCELLED) === IDLE) {
        void w.worker.terminate()
        return null
      }
      return w.reply
    }),
  )
  if (replies.some((r) => r !== null && !r.ok)) return null
  const states: unknown[] = []
  for (const r of replies) {
    if (r === null || !r.active) continue
    results.push(...r.ranges)
    states.push(r.state)
  }
  results.sort((a, b) => a.index - b.index)
  if (results.length !== cuts.length - 1 || results.some((r, i) => r.index !== i)) return null
  return { results, states, workers: states.length }
}

/**
 * Take ranges from `cuts` one at a time (slot 0 of `slots` is the next one to take, shared by all
 * threads) and read each with `reader`, until none is left.
 */
export function takeRanges<R extends { readonly index: number }>(
  file: string,
  cuts: readonly number[],
  slots: Int32Array,
  reader: RangeReader<R>,
): R[] {
  const out: R[] = []
  const buf = Buffer.allocUnsafe(READ_BYTES)
  const fd = openSync(file, 'r')
  try {
    for (;;) {
      const i = Atomics.add(slots, 0, 1)
      if (i + 1 >= cuts.length) break
      const r = reader.read(fd, buf, i, cuts[i]!, cuts[i + 1]!, i + 2 === cuts.length)
      out.push(r)
      if (reader.stops(r)) {
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

/** Bytes read at a time from a range. */
export const READ_BYTES = 8 * 1024 * 1024

/**
 * Read the bytes `[start, end)` of `fd` through `buf` and hand each chunk to `feed` (a view of
 * `buf`, overwritten by the next read), until the range ends, the file ends, or `feed` returns
 * false. Returns where reading stopped: `end` when the whole range was read.
 */
export function feedRange(
  fd: number,
  buf: Buffer,
  start: number,
  end: number,
  feed: (chunk: Buffer) => boolean,
): number {
  let pos = start
  while (pos < end) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos)
    if (n === 0) break
    pos += n
    if (!feed(n === buf.length ? buf : buf.subarray(0, n))) break
  }
  return pos
}

/** The range reader of a query job: parse each range and hand its whole queries to `job`. */
function queryRanges<S>(parse: RunParseOptions, job: QueryJob<S>): RangeReader<RangeResult> {
  return {
    read: (fd, buf, index, start, end, last) =>
      processRange(fd, buf, index, start, end, last, parse, job),
    stops: (r) => !r.ok || r.repeated,
  }
}

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
  feedRange(fd, buf, start, end, (chunk) => {
    parser.feed(chunk)
    return !parser.stopped
  })
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
 * The worker side: build the job `task` names, then take ranges unless this thread was cancelled
 * meanwhile (the calling thread already took every range).
 */
export async function workerTakeRanges(task: RangeTask): Promise<WorkerResult> {
  const work = task.work
  let reader: RangeReader<{ readonly index: number }>
  let state: () => unknown
  if (work.kind === 'queries') {
    const mod = (await import(work.job.module)) as QueryJobModule<unknown, unknown>
    const job = await mod.createQueryJob(work.job.config)
    reader = queryRanges(work.parse, job)
    state = () => job.exportState()
  } else {
    const mod = (await import(work.job.module)) as RangeJobModule<
      unknown,
      { readonly index: number },
      unknown
    >
    const job = await mod.createRangeJob(work.job.config)
    reader = job
    state = () => job.exportState()
  }
  const slots = new Int32Array(task.shared)
  if (Atomics.compareExchange(slots, task.slot, IDLE, ACTIVE) !== IDLE)
    return { ok: true, active: false, ranges: [], state: null }
  const ranges = takeRanges(task.file, task.cuts, slots, reader)
  return { ok: true, active: true, ranges, state: state() }
}

function runWorker<R>(task: RangeTask): { worker: Worker; reply: Promise<WorkerResult<R>> } {
  const worker = new Worker(new URL('./run-worker.js', import.meta.url), { workerData: task })
  const reply = new Promise<WorkerResult<R>>((resolve) => {
    let done = false
    worker.once('message', (m: WorkerResult<R>) => {
      done = true
      resolve(m)
    })
    worker.once('error', (e) => {
      done = true
      resolve({ ok: false, active: false, ranges: [], state: null, error: String(e) })
    })
    worker.once('exit', () => {
      if (!done)
        resolve({ ok: false, active: false, ranges: [], state: null, error: 'worker exited' })
    })
  })
  return { worker, reply }
}
