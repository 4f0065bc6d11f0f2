/**
 * Validate a run given as a stream of byte chunks, as the leaderboard validates an upload: the
 * same {@link RunValidator} and the same report text as `trecscore validate`. No Node API, so
 * the browser's Web Worker (`src/server/web/client/validate-worker.js`) runs exactly this and
 * shows exactly the server's messages before any byte is sent.
 */
import { renderValidationText } from './render-report.js'
import { RunValidator } from './validate-run.js'

/** Options of {@link validateChunks}: those of the server's upload check. */
export interface ValidateChunksOptions {
  /** File name shown in the report. */
  readonly file: string
  readonly maxLineBytes: number
  /** Known topic ids (binary strings): a dev phase's qrels topics; none for a hidden phase. */
  readonly topics?: ReadonlySet<string>
}

/** Outcome of {@link validateChunks}: the counts, and the report as `trecscore validate` prints it. */
export interface ChunkValidation {
  readonly ok: boolean
  readonly errors: number
  readonly warnings: number
  readonly text: string
}

/**
 * Feed `chunks` to the validator; a chunk source that fails (unreadable, a broken gzip) ends the
 * report with `fail(reason)` when `failure(e)` turns the error into a reason, else it is rethrown.
 */
export async function validateChunks(
  chunks: AsyncIterable<Uint8Array>,
  options: ValidateChunksOptions,
  failure: (e: unknown) => string | null = () => null,
): Promise<ChunkValidation> {
  const validator = new RunValidator({
    file: options.file,
    maxLineBytes: options.maxLineBytes,
    maxListed: 20,
    strict: false,
    ...(options.topics ? { topics: options.topics } : {}),
  })
  try {
    for await (const chunk of chunks) validator.feed(chunk)
  } catch (e) {
    const reason = failure(e)
    if (reason === null) throw e
    validator.fail(reason)
  }
  const report = validator.end()
  return {
    ok: report.errors === 0,
    errors: report.errors,
    warnings: report.warnings,
    text: renderValidationText(report),
  }
}
