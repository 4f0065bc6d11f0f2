/**
 * The RETECO loaders' line reading, on the engine's {@link LineSplitter} (the line convention of
 * every reader: physical 1-based lines, `\n` endings, memory bounded by the line limit).
 */

import { InputError } from '../../errors/trecscore-error.js'
import { IS_SPACE } from '../../io/bytes.js'
import { LineSplitter } from '../../io/lines.js'
import { inputLimits, readChunks } from '../../io/source.js'

/**
 * Call `onLine(bytes, start, end, lineNo)` for every line of a file, streaming (one chunk plus
 * one unfinished line in memory). A line over the line limit (`TRECSCORE_MAX_LINE_BYTES`) throws
 * {@link InputError} (`line_too_long`, with its line number).
 */
export async function forEachLine(
  file: string,
  onLine: (buf: Buffer, start: number, end: number, line: number) => void,
): Promise<void> {
  const limits = inputLimits()
  const lines = new LineSplitter((buf, start, end, line) => {
    // The splitter hands on bytes; the loaders decode with Buffer (a view, no copy).
    onLine(
      Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength),
      start,
      end,
      line,
    )
  }, limits.maxLineBytes)
  for await (const chunk of readChunks(file, limits)) {
    lines.feed(chunk)
    if (lines.stopped) break
  }
  lines.end()
  if (lines.tooLongLine !== undefined)
    throw new InputError([
      { code: 'line_too_long', file, line: lines.tooLongLine, limit: limits.maxLineBytes },
    ])
}

/** Whether `buf[start, end)` holds only ASCII whitespace (C `isspace`; a line holds no `\n`). */
export function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!IS_SPACE[buf[i]!]) return false
  return true
}
