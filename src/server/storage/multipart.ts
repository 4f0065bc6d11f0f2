/**
 * A streaming `multipart/form-data` reader: parts come out one at a time, in the order they
 * were sent, while the bytes arrive; nothing is buffered beyond one part's headers and a
 * boundary's length of body. Every byte is counted as it is read, so an oversized body is
 * refused at the first chunk past `maxBytes`, whatever size the request declared.
 *
 * A part's `body` must be read (or left: the next part skips what is left of it) before the
 * next part is asked for. Text fields are read whole by {@link partText}, under `maxFieldBytes`.
 */
import { UploadRejected } from './upload.js'

/** One part of a multipart body. */
export interface MultipartPart {
  /** The form field name (`name=` of Content-Disposition). */
  readonly name: string
  /** The file name (`filename=`), or null for a text field. */
  readonly filename: string | null
  /** The part's bytes, streamed. */
  readonly body: AsyncIterable<Uint8Array>
}

/** Limits of {@link readMultipart}. */
export interface MultipartLimits {
  /** The most bytes the whole body may have. */
  readonly maxBytes: number
  /** The most bytes of one part's headers. @default 16384 */
  readonly maxHeaderBytes?: number
  /** The most parts. @default 1000 */
  readonly maxParts?: number
}

/** The boundary of a `multipart/form-data` content type, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType)
  return m ? (m[1] ?? m[2]!) : null
}

function param(header: string, key: string): string | null {
  const re = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${key}=([^;\\s]*)`, 'i')
  const m = re.exec(header)
  if (!m) return null
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!
}

const CRLF = Buffer.from('\r\n')
const HEADER_END = Buffer.from('\r\n\r\n')

/**
 * Read a multipart body part by part (see the module comment). Throws {@link UploadRejected}:
 * 413 past `maxBytes`, 400 for a body that is not well-formed multipart or ends early.
 */
export async function* readMultipart(
  source: AsyncIterable<Uint8Array>,
  boundary: string,
  limits: MultipartLimits,
): AsyncGenerator<MultipartPart> {
  const it = source[Symbol.asyncIterator]()
  const maxHeader = limits.maxHeaderBytes ?? 16_384
  const maxParts = limits.maxParts ?? 1000
  // The delimiter of every part after the first starts with CRLF; prefixing one to the body
  // lets the first boundary be found the same way.
  const delimiter = Buffer.from(`\r\n--${boundary}`)
  let buf: Buffer = Buffer.from(CRLF)
  let total = 0
  let ended = false
  const bad = (why: string): UploadRejected =>
    new UploadRejected(`the form could not be read: ${why}`, 400)
  const pull = async (): Promise<boolean> => {
    if (ended) return false
    const n = await it.next()
    if (n.done) {
      ended = true
      return false
    }
    total += n.value.length
    if (total > limits.maxBytes) {
      await it.return?.()
      throw new UploadRejected(`upload limit: the upload is over ${limits.maxBytes} bytes`, 413)
    }
    buf = buf.length ? Buffer.concat([buf, n.value]) : Buffer.from(n.value)
    return true
  }
  // Skip the preamble up to the first delimiter.
  for (;;) {
    const at = buf.indexOf(delimiter)
    if (at >= 0) {
      buf = buf.subarray(at + delimiter.length)
      break
    }
    if (buf.length > delimiter.length) buf = buf.subarray(buf.length - delimiter.length)
    if (!(await pull())) throw bad('no multipart boundary in the body')
  }
  let parts = 0
  let current: { done: boolean } | null = null
  for (;;) {
    if (current && !current.done) {
      // The previous part's body was not read to its end: skip the rest of it.
      for (;;) {
        const at = buf.indexOf(delimiter)
        if (at >= 0) {
          buf = buf.subarray(at + delimiter.length)
          break
        }
        if (buf.length > delimiter.length) buf = buf.subarray(buf.length - delimiter.length)
        if (!(await pull())) throw bad('the body ended inside a part')
      }
      current.done = true
    }
    // After a delimiter: `--` ends the body, CRLF starts a part.
    while (buf.length < 2) if (!(await pull())) throw bad('the body ended after a boundary')
    if (buf[0] === 0x2d && buf[1] === 0x2d) {
      // The epilogue is ignored; drain it under the byte limit.
      while (await pull()) buf = Buffer.alloc(0)
      return
    }
    // Transport padding (spaces, tabs) may precede the CRLF.
    let i = 0
    for (;;) {
      while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09)) i++
      if (i + 2 <= buf.length) break
      if (!(await pull())) throw bad('the body ended after a boundary')
    }
    if (buf[i] !== 0x0d || buf[i + 1] !== 0x0a) throw bad('a boundary is not followed by CRLF')
    buf = buf.subarray(i + 2)
    if (++parts > maxParts) throw bad(`more than ${maxParts} parts`)
    let headerText: string | null = null
    while (headerText === null) {
      if (buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a) {
        headerText = ''
        buf = buf.subarray(2)
        break
      }
      const at = buf.indexOf(HEADER_END)
      if (at >= 0) {
        headerText = buf.subarray(0, at).toString('utf8')
        buf = buf.subarray(at + 4)
        break
      }
      if (buf.length > maxHeader) throw bad(`part headers over ${maxHeader} bytes`)
      if (!(await pull())) throw bad('the body ended inside part headers')
    }
    let disposition = ''
    for (const line of headerText.split('\r\n')) {
      const colon = line.indexOf(':')
      if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'content-disposition')
        disposition = line.slice(colon + 1).trim()
    }
    const name = param(disposition, 'name')
    if (!/^form-data\b/i.test(disposition) || name === null)
      throw bad('a part has no Content-Disposition: form-data; name=…')
    const filename = param(disposition, 'filename')
    const state = { done: false }
    current = state
    async function* body(): AsyncGenerator<Uint8Array> {
      for (;;) {
        if (state.done) return
        const at = buf.indexOf(delimiter)
        if (at >= 0) {
          const chunk = buf.subarray(0, at)
          buf = buf.subarray(at + delimiter.length)
          state.done = true
          if (chunk.length) yield chunk
          return
        }
        // Keep a tail that could be the start of the delimiter.
        const safe = buf.length - delimiter.length + 1
        if (safe > 0) {
          const chunk = buf.subarray(0, safe)
          buf = buf.subarray(safe)
          yield chunk
        }
        if (!(await pull())) throw bad('the body ended inside a part')
      }
    }
    yield { name, filename, body: body() }
  }
}

/** A text part's value (UTF-8), read whole; throws {@link UploadRejected} (413) past `max` bytes. */
export async function partText(part: MultipartPart, max: number): Promise<string> {
  const chunks: Uint8Array[] = []
  let n = 0
  for await (const c of part.body) {
    n += c.length
    if (n > max)
      throw new UploadRejected(`upload limit: form field ${part.name} is over ${max} bytes`, 413)
    chunks.push(c)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The file parts of a multipart body from `first` on, as `{ name, body }` (the file name as
 * sent): text fields between them are skipped, and an empty file input (no file name) is left
 * out, as browsers send one for a file input nobody filled.
 */
export async function* fileParts(
  first: MultipartPart | null,
  rest: AsyncIterator<MultipartPart>,
): AsyncGenerator<{ readonly name: string; readonly body: AsyncIterable<Uint8Array> }> {
  let part = first
  for (;;) {
    if (part === null) {
      const n = await rest.next()
      if (n.done) return
      part = n.value
    }
    if (part.filename !== null && part.filename !== '')
      yield { name: part.filename, body: part.body }
    part = null
  }
}

/**
 * Read the text fields that come before the first file part (each under `maxFieldBytes`, the
 * first value of a repeated name kept) and return them with that part (null: no file part).
 */
export async function fieldsBeforeFile(
  parts: AsyncIterator<MultipartPart>,
  maxFieldBytes: number,
): Promise<{ fields: Record<string, string>; file: MultipartPart | null }> {
  const fields: Record<string, string> = {}
  for (;;) {
    const n = await parts.next()
    if (n.done) return { fields, file: null }
    if (n.value.filename !== null) return { fields, file: n.value }
    const v = await partText(n.value, maxFieldBytes)
    if (!Object.hasOwn(fields, n.value.name)) fields[n.value.name] = v
  }
}
