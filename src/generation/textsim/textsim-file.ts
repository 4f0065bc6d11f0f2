/**
 * Edge: reads a `textsim` pair file (path, `-` for standard input, `.gz`) line by line with
 * bounded memory, and writes output lines to a file.
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import type { TrecscoreError } from '../../errors/trecscore-error.js'
import { readChunks } from '../../io/source.js'
import { OutputError, describeWriteError } from '../../io/output.js'
import { jsonlLine } from '../../io/jsonl.js'
import { parseTextsimLine, parseTextsimValue, type TextsimLine } from './textsim.js'

/** Longest line read (bytes); longer lines are reported, not parsed. */
export const TEXTSIM_MAX_LINE_BYTES = 16 * 1024 * 1024

/**
 * Yields every non-blank line of a pair file, parsed ({@link parseTextsimLine}), with its
 * 1-based physical line number. Lines are split here (streaming, one line buffered at a time)
 * and classified by `jsonlLine` (src/io/jsonl.ts: CRLF, BOM, blank lines, strict UTF-8).
 * Invalid UTF-8, NUL-free binary junk and over-long lines are reported as issues of their
 * line; reading goes on. Throws `SourceError` if the file cannot be read.
 */
export async function* readTextsimPairs(name: string, maxLineBytes = TEXTSIM_MAX_LINE_BYTES): AsyncGenerator<TextsimLine> {
  const file = name === '-' ? '<stdin>' : name
  let line = 0
  let parts: Buffer[] = []
  let size = 0
  let tooLong = false
  const finish = (): TextsimLine | undefined => {
    line++
    const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts)
    parts = []
    size = 0
    const longLine = (): TextsimLine => ({ ok: false, issue: { file, line, problem: `line longer than ${maxLineBytes} bytes (binary data or a missing newline?)`, text: '' } })
    if (tooLong) {
      tooLong = false
      return longLine()
    }
    // the byte limit is kept while splitting (below), so an over-long line is never buffered
    const l = jsonlLine(buf, line)
    switch (l.kind) {
      case 'blank':
        return undefined
      case 'value':
        return parseTextsimValue(l.value, l.text, file, line)
      case 'invalid_json':
        return parseTextsimLine(l.text, file, line)
      case 'invalid_utf8':
        return { ok: false, issue: { file, line, problem: 'invalid UTF-8', text: buf.subarray(0, 200).toString('latin1') } }
      case 'too_long':
        return longLine()
    }
  }
  for await (const chunk of readChunks(name)) {
    let start = 0
    for (;;) {
      const nl = chunk.indexOf(10, start)
      const end = nl < 0 ? chunk.length : nl
      if (!tooLong) {
        if (size + (end - start) > maxLineBytes) {
          tooLong = true
          parts = []
        } else if (end > start) {
          parts.push(chunk.subarray(start, end))
          size += end - start
        }
      }
      if (nl < 0) break
      const got = finish()
      if (got !== undefined) yield got
      start = nl + 1
    }
  }
  if (size > 0 || tooLong) {
    const got = finish()
    if (got !== undefined) yield got
  }
}

/** A line sink: standard output, or a file (created or truncated). */
export interface TextsimSink {
  write(line: string): Promise<void>
  close(): Promise<void>
}

/**
 * Opens `path` for output lines, or standard output when `path` is undefined or `-`. A file that
 * cannot be written makes `write`/`close` throw a `TrecscoreError` (exit code 2).
 */
export function openTextsimSink(path?: string): TextsimSink {
  const stream = path === undefined || path === '-' ? process.stdout : createWriteStream(path)
  const isFile = stream !== process.stdout
  const name = path ?? '-'
  let failed: TrecscoreError | undefined
  stream.on('error', (e: NodeJS.ErrnoException) => {
    failed = new OutputError(name, describeWriteError(e), e)
  })
  return {
    async write(line: string): Promise<void> {
      if (failed !== undefined) throw failed
      if (!stream.write(line + '\n')) await once(stream, 'drain')
    },
    async close(): Promise<void> {
      if (failed !== undefined) throw failed
      if (isFile) {
        stream.end()
        await Promise.race([once(stream, 'finish'), once(stream, 'error')]).catch(() => undefined)
        if (failed !== undefined) throw failed
      }
    },
  }
}
