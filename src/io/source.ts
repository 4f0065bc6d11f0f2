import { createReadStream, promises as fsp } from 'node:fs'
import type { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { TrecscoreError } from '../errors/trecscore-error.js'
import { type InputLimits, inputLimitsFrom, LIMIT_ENV, MAX_WHOLE_FILE_BYTES } from './limits.js'

/** Where input bytes come from: a file path, `-` for standard input; `.gz` files are inflated. */
export type SourceName = string

/** An input that cannot be opened or read: missing file, directory, truncated gzip, … */
export class SourceError extends TrecscoreError {
  readonly file: string
  readonly reason: string
  constructor(file: string, reason: string, cause?: unknown) {
    super(`${file}: cannot read: ${reason}`, 2, { cause })
    this.file = file
    this.reason = reason
  }
}

const CHUNK = 8 * 1024 * 1024

/**
 * The input limits in force for this process: the documented defaults, overridden by
 * `TRECSCORE_MAX_LINE_BYTES` and `TRECSCORE_MAX_INPUT_BYTES` (see `io/limits.ts`).
 */
export function inputLimits(): InputLimits {
  return inputLimitsFrom(process.env)
}

const RAISE = `raise it with ${LIMIT_ENV.maxInputBytes}=BYTES`
const WHOLE = `files parsed whole (JSON documents) are limited to ${MAX_WHOLE_FILE_BYTES} bytes`

function tooLarge(name: string, limit: number, what: string, hint = RAISE): SourceError {
  return new SourceError(name, `more than ${limit} bytes ${what}, the input size limit (${hint})`)
}

/** Stop a stream of chunks once more than `limit` bytes came through. */
async function* capped(
  name: string,
  chunks: AsyncGenerator<Buffer>,
  limit: number,
  hint: string,
): AsyncGenerator<Buffer> {
  let total = 0
  for await (const c of chunks) {
    total += c.length
    if (total > limit) {
      await chunks.return(undefined)
      throw tooLarge(name, limit, 'after decompression', hint)
    }
    yield c
  }
}

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  switch (code) {
    case 'ENOENT':
      return 'no such file'
    case 'EISDIR':
      return 'is a directory, expected a file'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'Z_BUF_ERROR':
      return 'truncated gzip data (unexpected end of file)'
    case 'Z_DATA_ERROR':
      return 'corrupt gzip data'
    default:
      return err instanceof Error ? err.message : String(err)
  }
}

async function* fromStream(name: string, stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer
  } catch (err) {
    throw new SourceError(name, describe(err), err)
  }
}

/**
 * Read a source as a sequence of byte chunks, each a fresh `Buffer` (never reused, so callers may
 * keep views into earlier chunks). `-` is standard input; names ending in `.gz` are gunzipped.
 * Throws {@link SourceError} for a missing file, a directory, a truncated or corrupt gzip, or
 * more than `limits.maxInputBytes` bytes (after decompression).
 */
export async function* readChunks(
  name: SourceName,
  limits: InputLimits = inputLimits(),
): AsyncGenerator<Buffer> {
  yield* capped(
    name === '-' ? '<stdin>' : name,
    rawChunks(name, limits, RAISE),
    limits.maxInputBytes,
    RAISE,
  )
}

async function* rawChunks(
  name: SourceName,
  limits: InputLimits,
  hint: string,
): AsyncGenerator<Buffer> {
  if (name === '-') {
    yield* fromStream('<stdin>', process.stdin)
    return
  }
  let handle: fsp.FileHandle
  try {
    handle = await fsp.open(name, 'r')
    const st = await handle.stat()
    if (st.isDirectory()) {
      await handle.close()
      throw Object.assign(new Error('directory'), { code: 'EISDIR' })
    }
    if (st.isFile() && st.size > limits.maxInputBytes) {
      await handle.close()
      throw tooLarge(name, limits.maxInputBytes, 'on disk', hint)
    }
  } catch (err) {
    if (err instanceof SourceError) throw err
    throw new SourceError(name, describe(err), err)
  }
  if (name.endsWith('.gz')) {
    await handle.close()
    const gz = createReadStream(name).pipe(createGunzip({ chunkSize: 1 << 20 }))
    yield* fromStream(name, gz)
    return
  }
  yield* handleChunks(name, handle)
}

/** The chunks of an open file, FIFO or device, read to its end; closes the handle. */
async function* handleChunks(name: string, handle: fsp.FileHandle): AsyncGenerator<Buffer> {
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK)
      let filled = 0
      while (filled < CHUNK) {
        let n: number
        try {
          n = (await handle.read(buf, filled, CHUNK - filled, null)).bytesRead
        } catch (err) {
          throw new SourceError(name, describe(err), err)
        }
        if (n === 0) break
        filled += n
      }
      if (filled > 0) yield filled === CHUNK ? buf : buf.subarray(0, filled)
      if (filled < CHUNK) return
    }
  } finally {
    await handle.close()
  }
}

/**
 * Like {@link readChunks}, for consumers that copy what they keep before asking for the next
 * chunk: two buffers are reused in turn, and the next read runs while the current chunk is
 * being consumed. Plain files only; other sources fall back to {@link readChunks}.
 */
export async function* readChunksPrefetched(
  name: SourceName,
  limits: InputLimits = inputLimits(),
): AsyncGenerator<Buffer> {
  if (name === '-' || name.endsWith('.gz')) {
    yield* readChunks(name, limits)
    return
  }
  let handle: fsp.FileHandle
  try {
    handle = await fsp.open(name, 'r')
    const st = await handle.stat()
    if (st.isDirectory()) {
      await handle.close()
      throw Object.assign(new Error('directory'), { code: 'EISDIR' })
    }
    if (!st.isFile()) {
      // A FIFO or device (/dev/zero) has no size to check up front: count as it streams. Read
      // it through the handle already open: closing and reopening a FIFO loses its writer
      // (the writer's next write fails once no reader is left), and the reopen then waits forever.
      yield* capped(name, handleChunks(name, handle), limits.maxInputBytes, RAISE)
      return
    }
    if (st.size > limits.maxInputBytes) {
      await handle.close()
      throw tooLarge(name, limits.maxInputBytes, 'on disk', RAISE)
    }
  } catch (err) {
    if (err instanceof SourceError) throw err
    throw new SourceError(name, describe(err), err)
  }
  const bufs = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)]
  const read = (b: Buffer): Promise<number> =>
    handle.read(b, 0, CHUNK, null).then(
      (r) => r.bytesRead,
      (err: unknown) => {
        throw new SourceError(name, describe(err), err)
      },
    )
  try {
    let which = 0
    let pending = read(bufs[0]!)
    for (;;) {
      const n = await pending
      if (n === 0) return
      const cur = bufs[which]!
      which ^= 1
      pending = read(bufs[which]!)
      yield n === CHUNK ? cur : cur.subarray(0, n)
    }
  } finally {
    await handle.close()
  }
}

/**
 * The files of a source that is a folder (a per-domain run: one file per domain), in name
 * order, hidden files left out; `null` when the source is not a folder (a file, `-`, missing).
 */
export async function folderFiles(name: SourceName): Promise<string[] | null> {
  if (name === '-') return null
  const st = await fsp.stat(name).catch(() => null)
  if (!st?.isDirectory()) return null
  return (await fsp.readdir(name, { withFileTypes: true }))
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort()
}

/**
 * Read a whole source into one `Buffer`, for documents that are parsed whole (JSON). Refused
 * past `limits.maxInputBytes` or {@link MAX_WHOLE_FILE_BYTES} (512 MiB), whichever is smaller;
 * line-based inputs are streamed instead (see `io/lines.ts`).
 */
export async function readAll(
  name: SourceName,
  limits: InputLimits = inputLimits(),
): Promise<Buffer> {
  const cap = Math.min(limits.maxInputBytes, MAX_WHOLE_FILE_BYTES)
  const hint = cap < limits.maxInputBytes ? WHOLE : RAISE
  const capLimits = { ...limits, maxInputBytes: cap }
  const parts: Buffer[] = []
  let total = 0
  for await (const c of capped(
    name === '-' ? '<stdin>' : name,
    rawChunks(name, capLimits, hint),
    cap,
    hint,
  )) {
    parts.push(c)
    total += c.length
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total)
}
