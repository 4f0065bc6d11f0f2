/**
 * `trecscore validate` on a large run file, on several threads (Node only; the validator itself,
 * `validate-run.ts`, stays pure). The file is cut at topic starts into byte ranges, read by this
 * thread and worker threads with the machinery of `io/parallel-run.ts`; each range gets its own
 * {@link RunValidator}. Their reports are merged only when that is exactly the sequential report:
 * every range clean (no problem of any code), no topic id in more than one range, and one run
 * tag throughout (a clean range has one tag; two ranges with different ones make a `mixed_tags`
 * warning). A clean report lists no problem, so its line numbers never matter; every other count
 * is a sum. Otherwise, or for options whose data is large (`docs`), the caller validates the
 * whole file sequentially, which reports every problem at its line.
 */
import {
  feedRange,
  parallelInput,
  parallelThreads,
  type RangeJob,
  type RangeJobModule,
  type RangesRead,
  rangeWeights,
  readRanges,
  splitFile,
} from '../io/parallel-run.js'
import type { ProblemCount, RunValidationReport, ValidateRunOptions } from './validate-run.js'
import { RunValidator } from './validate-run.js'

/** The validator options a worker gets (structured-clone): topics as a list, no `docs`. */
interface ValidateConfig {
  readonly file: string
  readonly maxDepth?: number
  readonly maxLineBytes?: number
  readonly maxListed?: number
  readonly strict?: boolean
  readonly extraFields?: boolean
  readonly topics?: readonly string[]
}

/** What validating one range gave: its counts, or `clean: false`. */
export interface ValidatedRange
  extends Pick<
    RunValidationReport,
    'lines' | 'runLines' | 'blankLines' | 'commentLines' | 'bytes' | 'tags'
  > {
  readonly index: number
  /** No problem of any code. */
  readonly clean: boolean
  readonly queryIds: readonly string[]
}

/** A parallel validation: the report, and how it was made (for tests). */
export interface ParallelValidation {
  readonly report: RunValidationReport
  /** Ranges validated apart and merged. */
  readonly ranges: number
  /** Worker threads that took ranges. */
  readonly workers: number
}

function optionsOf(c: ValidateConfig): ValidateRunOptions {
  const { topics, ...rest } = c
  return topics === undefined ? rest : { ...rest, topics: new Set(topics) }
}

function validateRange(
  options: ValidateRunOptions,
  fd: number,
  buf: Buffer,
  index: number,
  start: number,
  end: number,
): ValidatedRange {
  const v = new RunValidator(options)
  const pos = feedRange(fd, buf, start, end, (chunk) => {
    v.feed(chunk)
    return true
  })
  return validatedRange(index, v, pos === end)
}

/**
 * What validator `v`, fed the bytes of range `index` (all of them when `complete`), says about
 * it; `v` is ended.
 */
export function validatedRange(index: number, v: RunValidator, complete: boolean): ValidatedRange {
  // end() first: it checks a last line without newline, which may start a topic.
  const r = v.end()
  const queryIds = v.queryIds()
  return {
    index,
    clean: r.counts.length === 0 && complete,
    lines: r.lines,
    runLines: r.runLines,
    blankLines: r.blankLines,
    commentLines: r.commentLines,
    bytes: r.bytes,
    tags: r.tags,
    queryIds,
  }
}

/** Build the job a worker runs (see `io/parallel-run.ts`). */
export async function createRangeJob(
  config: ValidateConfig,
): Promise<RangeJob<ValidatedRange, null>> {
  const options = optionsOf(config)
  return {
    read: (fd, buf, index, start, end) => validateRange(options, fd, buf, index, start, end),
    stops: (r) => !r.clean,
    exportState: () => null,
  }
}
void ({ createRangeJob } satisfies RangeJobModule<ValidateConfig, ValidatedRange, null>)

/**
 * Merge clean range results into the report the sequential validator gives for the whole file,
 * or `null` when that cannot be done exactly (a range not clean, a topic in two ranges, two tags).
 */
export function mergeRanges(
  ranges: readonly ValidatedRange[],
  options: Pick<ValidateRunOptions, 'file' | 'strict'>,
): RunValidationReport | null {
  const seen = new Set<string>()
  const tags: string[] = []
  let lines = 0
  let runLines = 0
  let blankLines = 0
  let commentLines = 0
  let bytes = 0
  for (const r of ranges) {
    if (!r.clean) return null
    for (const q of r.queryIds) {
      if (seen.has(q)) return null
      seen.add(q)
    }
    for (const t of r.tags) if (!tags.includes(t)) tags.push(t)
    lines += r.lines
    runLines += r.runLines
    blankLines += r.blankLines
    commentLines += r.commentLines
    bytes += r.bytes
  }
  if (tags.length > 1 || runLines === 0) return null
  const counts: ProblemCount[] = []
  return {
    file: options.file ?? 'run',
    ok: true,
    strict: options.strict ?? false,
    errors: 0,
    warnings: 0,
    queries: seen.size,
    lines,
    runLines,
    blankLines,
    commentLines,
    bytes,
    tags,
    counts,
    problems: [],
  }
}

/**
 * Validate the run file `file` on several threads when it is large (a regular file, not stdin
 * or `.gz`, of at least `PARALLEL_MIN_BYTES`; threads as for `evaluate`). `null` when the caller
 * must validate it sequentially: a small file, one thread, `docs` given, a read error, or a
 * report that cannot be merged exactly (any problem at all).
 */
export async function validateInParallel(
  file: string,
  options: ValidateRunOptions,
  threads = parallelThreads(),
  waitForWorkers = false,
): Promise<ParallelValidation | null> {
  if (options.docs !== undefined) return null
  const limits = parallelInput(file, threads)
  if (limits === null) return null
  const { topics, docs: _docs, ...rest } = options
  const config: ValidateConfig = {
    file: options.file ?? 'run',
    ...rest,
    ...(topics === undefined ? {} : { topics: [...topics] }),
  }
  let read: RangesRead<ValidatedRange> | null
  try {
    const cuts = splitFile(file, rangeWeights(threads), 'topic')
    if (cuts.length < 3) return null
    const local = await createRangeJob(config)
    read = await readRanges(
      file,
      cuts,
      threads,
      { kind: 'ranges', job: { module: import.meta.url, config } },
      local,
      waitForWorkers,
    )
  } catch (e) {
    // A system error (the file went away, EIO): the sequential reader reports it at its line.
    if (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string') return null
    throw e
  }
  if (read === null) return null
  const report = mergeRanges(read.results, config)
  return report === null ? null : { report, ranges: read.results.length, workers: read.workers }
}
