/**
 * Edge: reads a `textsim` pair file (path, `-` for standard input, `.gz`) line by line with
 * bounded memory, and writes output lines to a file.
 */

import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import type { TrecscoreError } from '../../errors/trecscore-error.js'
import { binaryString } from '../../io/bytes.js'
import { jsonlStream } from '../../io/jsonl.js'
import { describeWriteError, OutputError } from '../../io/output.js'
import { readChunks } from '../../io/source.js'
import { parseTextsimLine, parseTextsimValue, type TextsimLine } from './textsim.js'

/** Longest line read (bytes); longer lines are reported, not parsed. */
export const TEXTSIM_MAX_LINE_BYTES = 16 * 1024 * 1024

/**
 * Yields every non-blank line of a pair file, parsed ({@link parseTextsimLine}), with its
 * 1-based physical line number. Lines are read by the one JSONL reader (`jsonlStream` of
 * src/io/jsonl.ts: streaming, one line buffered at a time; CRLF, BOM, blank lines, strict UTF-8).
 * Invalid UTF-8, NUL-free binary junk and over-long lines are reported as issues of their
 * line; reading goes on. Throws `SourceError` if the file cannot be read.
 */
export async function* readTextsimPairs(
  name: string,
  maxLineBytes = TEXTSIM_MAX_LINE_BYTES,
): AsyncGenerator<TextsimLine> {
  const file = name === '-' ? '<stdin>' : name
  for await (const l of jsonlStream(readChunks(name), { maxLineBytes })) {
    const line = l.line
    switch (l.kind) {
      case 'blank':
        continue
      case 'value':
        yield parseTextsimValue(l.value, l.text, file, line)
        continue
      case 'invalid_json':
        yield parseTextsimLine(l.text, file, line)
        continue
      case 'invalid_utf8':
        yield {
          ok: false,
          issue: {
            file,
            line,
            code: 'invalid_utf8',
            text: binaryString(l.bytes, 0, Math.min(l.bytes.length, 200)),
          },
        }
        continue
      case 'too_long':
        yield {
          ok: false,
          issue: {
            file,
            line,
            code: 'line_too_long',
            limit: maxLineBytes,
            text: '',
          },
        }
    }
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
