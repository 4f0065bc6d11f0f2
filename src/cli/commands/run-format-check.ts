import { readChunksPrefetched, readIdList, readQrels, SourceError } from '../../entries/io.js'
import {
  type RunValidationReport,
  RunValidator,
  type ValidateRunOptions,
  validateInParallel,
} from '../../entries/validate.js'

/** The `validate` flags the format checks read. */
export interface FormatCheckFlags {
  readonly qrels?: string
  readonly corpus?: string
  readonly maxDepth?: number
  readonly maxLineBytes: number
  readonly maxListed: number
  readonly strict?: boolean
}

/**
 * The format checks of `validate` on one run (`-` is standard input, named `file` in messages):
 * topics from `--qrels`, doc ids from `--corpus`, the run streamed through a {@link RunValidator}
 * (a large file on several threads first, see `validateInParallel`).
 * A read failure is recorded in the report and said on stderr.
 */
export async function checkRunFormat(
  run: string,
  file: string,
  flags: FormatCheckFlags,
): Promise<{ report: RunValidationReport; failed: boolean; bytes: number }> {
  const topics =
    flags.qrels === undefined ? undefined : new Set((await readQrels(flags.qrels)).queries.keys())
  const docs = flags.corpus === undefined ? undefined : await readIdList(flags.corpus)
  const options: ValidateRunOptions = {
    file,
    maxLineBytes: flags.maxLineBytes,
    maxListed: flags.maxListed,
    strict: flags.strict ?? false,
    ...(flags.maxDepth === undefined ? {} : { maxDepth: flags.maxDepth }),
    ...(topics ? { topics } : {}),
    ...(docs ? { docs } : {}),
  }
  // A large clean file: on several threads; anything else (a problem found) sequentially.
  const par = await validateInParallel(run, options)
  if (par) return { report: par.report, failed: false, bytes: par.report.bytes }
  const validator = new RunValidator(options)
  let bytes = 0
  let failure: SourceError | null = null
  try {
    for await (const chunk of readChunksPrefetched(run)) {
      bytes += chunk.length
      validator.feed(chunk)
    }
  } catch (e) {
    if (!(e instanceof SourceError)) throw e
    failure = e
    validator.fail(e.reason)
  }
  const report = validator.end()
  if (failure) process.stderr.write(`trecscore: ${file}: cannot read: ${failure.reason}\n`)
  return { report, failed: failure !== null, bytes }
}
