import { createReadStream, promises as fsp } from 'node:fs'
import { createGunzip } from 'node:zlib'
import type { Readable } from 'node:stream'
import { TrecscoreError } from '../errors/trecscore-error.js'

/** Where input bytes come from: a file path, `-` for standard input; `.gz` files are inflated. */
export type SourceName = string

/** An input that cannot be opened or read: missing file, directory, truncated gzip, … */
export class SourceError extends TrecscoreError {
  override name = 'TrecscoreError'
  readonly file: string
  readonly reason: string
  constructor(file: string, reason: string, cause?: unknown) {
    super(`${file}: cannot read: ${reason}`, 2, { cause })
    this.file = file
    this.reason = reason
  }
}

const CHUNK = 8 * 1024 * 1024

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
 * Throws {@link SourceError} for a missing file, a directory, or a truncated or corrupt gzip.
 */
export async function* readChunks(name: SourceName): AsyncGenerator<Buffer> {
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
  } catch (err) {
    throw new SourceError(name, describe(err), err)
  }
  if (name.endsWith('.gz')) {
    await handle.close()
    const gz = createReadStream(name).pipe(createGunzip({ chunkSize: 1 << 20 }))
    yield* fromStream(name, gz)
    return
  }
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
export async function* readChunksPrefetched(name: SourceName): AsyncGenerator<Buffer> {
  if (name === '-' || name.endsWith('.gz')) {
    yield* readChunks(name)
    return
  }
  let handle: fsp.FileHandle
  try {
    handle = await fsp.open(name, 'r')
    if ((await handle.stat()).isDirectory()) {
      await handle.close()
      throw Object.assign(new Error('directory'), { code: 'EISDIR' })
    }
  } catch (err) {
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

/** Read a whole source into one `Buffer` (for small inputs such as qrels). */
export async function readAll(name: SourceName): Promise<Buffer> {
  const parts: Buffer[] = []
  for await (const c of readChunks(name)) parts.push(c)
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts)
}
