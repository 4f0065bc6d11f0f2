/**
 * Receiving an uploaded run: the bytes are counted while they arrive and the upload stops at
 * the first limit it passes (bytes sent, bytes after gzip decompression, lines, line length);
 * a declared size is never trusted. The decompressed run is written to `dest`; on any failure
 * the partial file is removed.
 */
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Readable, Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import type { UploadLimits } from '../config/schema.js'

/** An upload that passed a limit or could not be read; `message` says which. */
export class UploadRejected extends Error {
  override readonly name = 'UploadRejected'
  constructor(
    message: string,
    readonly status: 400 | 413,
  ) {
    super(message)
  }
}

/** A run received in full. */
export interface ReceivedRun {
  readonly file: string
  /** Bytes as sent (compressed for .gz). */
  readonly bytesSent: number
  /** Bytes stored (decompressed). */
  readonly bytes: number
  readonly lines: number
  readonly sha256: string
  readonly gzip: boolean
}

class Counter extends Transform {
  bytes = 0
  constructor(
    private readonly max: number,
    private readonly what: string,
    private readonly before = 0,
  ) {
    super()
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length
    if (this.before + this.bytes > this.max)
      done(new UploadRejected(`upload limit: ${this.what} over ${this.max} bytes`, 413))
    else done(null, chunk)
  }
}

class LineLimits extends Transform {
  lines = 0
  bytes = 0
  private lineBytes = 0
  private readonly hash = createHash('sha256')
  constructor(
    private readonly limits: UploadLimits,
    private readonly before: UsedSoFar,
  ) {
    super()
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length
    if (this.before.bytes + this.bytes > this.limits.maxDecompressedBytes)
      return done(
        new UploadRejected(
          `upload limit: the decompressed run is over ${this.limits.maxDecompressedBytes} bytes`,
          413,
        ),
      )
    let start = 0
    for (;;) {
      const nl = chunk.indexOf(0x0a, start)
      const end = nl < 0 ? chunk.length : nl
      this.lineBytes += end - start
      if (this.lineBytes > this.limits.maxLineBytes)
        return done(
          new UploadRejected(
            `upload limit: line ${this.lines + 1} is longer than ${this.limits.maxLineBytes} bytes`,
            413,
          ),
        )
      if (nl < 0) break
      this.lines++
      this.lineBytes = 0
      if (this.before.lines + this.lines > this.limits.maxLines)
        return done(
          new UploadRejected(
            `upload limit: the run has more than ${this.limits.maxLines} lines`,
            413,
          ),
        )
      start = nl + 1
    }
    this.hash.update(chunk)
    done(null, chunk)
  }
  override _flush(done: TransformCallback): void {
    if (this.lineBytes > 0) this.lines++
    if (this.before.lines + this.lines > this.limits.maxLines)
      return done(
        new UploadRejected(
          `upload limit: the run has more than ${this.limits.maxLines} lines`,
          413,
        ),
      )
    done()
  }
  digest(): string {
    return this.hash.digest('hex')
  }
}

async function* withFirst(
  first: Uint8Array,
  rest: AsyncIterator<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  yield first
  for (;;) {
    const n = await rest.next()
    if (n.done) return
    yield n.value
  }
}

/** What earlier files of the same upload used of the limits (they apply to the upload as a whole). */
export interface UsedSoFar {
  readonly bytesSent: number
  readonly bytes: number
  readonly lines: number
}

const NOTHING: UsedSoFar = { bytesSent: 0, bytes: 0, lines: 0 }

/**
 * Receive a run from `body` into `dest` under `limits`; throws {@link UploadRejected}. For the
 * second and later files of one upload, `used` carries what the earlier ones took: the limits
 * hold for the sum.
 */
export async function receiveRun(
  body: AsyncIterable<Uint8Array>,
  dest: string,
  limits: UploadLimits,
  used: UsedSoFar = NOTHING,
): Promise<ReceivedRun> {
  const it = body[Symbol.asyncIterator]()
  let first: Uint8Array | undefined
  for (;;) {
    const n = await it.next()
    if (n.done) break
    if (n.value.length > 0) {
      first = n.value
      break
    }
  }
  if (first === undefined) throw new UploadRejected('the uploaded run is empty', 400)
  const gzip = first[0] === 0x1f && first[1] === 0x8b
  const sent = new Counter(limits.maxBytes, 'the upload is', used.bytesSent)
  const lines = new LineLimits(limits, used)
  const source = Readable.from(withFirst(first, it), { objectMode: false })
  const out = createWriteStream(dest, { flags: 'wx' })
  try {
    if (gzip) await pipeline(source, sent, createGunzip(), lines, out)
    else await pipeline(source, sent, lines, out)
  } catch (e) {
    // The file is opened asynchronously: a limit passed in the first chunk can fail the pipeline
    // before the open completes, and an rm() then would run before the file exists. Wait for the
    // destroyed stream to close its descriptor, then remove what it created.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()))
    await rm(dest, { force: true })
    if (e instanceof UploadRejected) throw e
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'ERR_STREAM_PREMATURE_CLOSE')
      throw new UploadRejected(`the upload is not valid gzip or was cut short (${code})`, 400)
    throw e
  }
  if (lines.bytes === 0) {
    await rm(dest, { force: true })
    throw new UploadRejected('the uploaded run is empty', 400)
  }
  return {
    file: dest,
    bytesSent: sent.bytes,
    bytes: lines.bytes,
    lines: lines.lines,
    sha256: lines.digest(),
    gzip,
  }
}

/**
 * The sha256 of a run stored as a directory of files: the sha256 of the lines
 * `<sha256 of the file>  <file name>` in file-name order (as `sha256sum *` prints them).
 */
export function directoryDigest(files: readonly { name: string; sha256: string }[]): string {
  const h = createHash('sha256')
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
    h.update(`${f.sha256}  ${f.name}\n`)
  return h.digest('hex')
}
