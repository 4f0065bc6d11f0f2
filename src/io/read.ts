/**
 * Whole-file readers for the library API: they throw {@link InputError} with every issue found.
 */
import { InputError } from '../errors/trecscore-error.js'
import { concatRunQueries } from '../model/run-query.js'
import type { Qrels, Run, RunQuery } from '../model/types.js'
import { binaryString } from './bytes.js'
import type { InputLimits } from './limits.js'
import { LineSplitter, splitFields } from './lines.js'
import { inputLimits, readChunks, type SourceName } from './source.js'
import { type QrelsParseOptions, type QrelsParseResult, QrelsParser } from './trec-qrels.js'
import { type RunParseOptions, TrecRunParser } from './trec-run.js'

/** Sees every chunk a reader reads, in order (e.g. to hash the input while it streams). */
export type ChunkObserver = (chunk: Buffer) => void

/**
 * Stream a qrels file through {@link QrelsParser} (memory holds the judgments, not the file);
 * every input limit applies. Returns the parse result and the bytes read.
 */
export async function streamQrels(
  source: SourceName,
  options: Omit<QrelsParseOptions, 'file'> = {},
  limits: InputLimits = inputLimits(),
  observe?: ChunkObserver,
): Promise<QrelsParseResult & { readonly bytes: number }> {
  const parser = new QrelsParser({ maxLineBytes: limits.maxLineBytes, ...options, file: source })
  let bytes = 0
  for await (const chunk of readChunks(source, limits)) {
    bytes += chunk.length
    observe?.(chunk)
    parser.feed(chunk)
    if (parser.stopped) break
  }
  parser.end()
  return { ...parser.result(), bytes }
}

/**
 * Read and parse a qrels file (`-` for stdin, `.gz` ok), streamed; `observe` sees every chunk
 * read. Throws {@link InputError}.
 */
export async function readQrels(
  source: SourceName,
  options: Omit<QrelsParseOptions, 'file'> = {},
  observe?: ChunkObserver,
): Promise<Qrels> {
  const r = await streamQrels(source, options, inputLimits(), observe)
  if (r.bytes === 0) throw new InputError([{ code: 'empty_file', file: source }])
  if (!r.ok) throw new InputError(r.issues)
  return r.value
}

/** Parse a TREC run held in memory. Returns the run and every issue found. */
export function parseRun(
  bytes: Buffer,
  options: RunParseOptions = {},
): { ok: boolean; value: Run; issues: TrecRunParser['issues'] } {
  const queries = new Map<string, RunQuery>()
  const parser = new TrecRunParser((g) => add(queries, g), options)
  parser.feed(bytes)
  parser.end()
  return { ok: parser.issues.length === 0, value: toRun(queries, parser), issues: parser.issues }
}

/** Read and parse a whole TREC run file; `observe` sees every chunk read. Throws {@link InputError}. */
export async function readRun(
  source: SourceName,
  options: Omit<RunParseOptions, 'file'> = {},
  observe?: ChunkObserver,
): Promise<Run> {
  const limits = inputLimits()
  const queries = new Map<string, RunQuery>()
  const parser = new TrecRunParser((g) => add(queries, g), {
    maxLineBytes: limits.maxLineBytes,
    ...options,
    file: source,
  })
  let bytes = 0
  for await (const chunk of readChunks(source, limits)) {
    bytes += chunk.length
    observe?.(chunk)
    parser.feed(chunk)
    if (parser.stopped) break
  }
  parser.end()
  if (bytes === 0) throw new InputError([{ code: 'empty_file', file: source }])
  if (parser.issues.length) throw new InputError(parser.issues)
  return toRun(queries, parser)
}

/**
 * Read a corpus id list, streamed: one doc id per line (the first whitespace-separated field;
 * blank lines skipped). Throws {@link InputError} for a line over the line limit.
 */
export async function readIdList(source: SourceName): Promise<Set<string>> {
  const limits = inputLimits()
  const ids = new Set<string>()
  const f: number[] = []
  const lines = new LineSplitter((buf, start, end) => {
    if (splitFields(buf, start, end, f) > 0) ids.add(binaryString(buf, f[0]!, f[1]!))
  }, limits.maxLineBytes)
  for await (const chunk of readChunks(source, limits)) {
    lines.feed(chunk)
    if (lines.stopped) break
  }
  lines.end()
  if (lines.tooLongLine !== undefined)
    throw new InputError([
      { code: 'line_too_long', file: source, line: lines.tooLongLine, limit: limits.maxLineBytes },
    ])
  return ids
}

function add(queries: Map<string, RunQuery>, g: RunQuery): void {
  const prev = queries.get(g.queryId)
  queries.set(g.queryId, prev ? concatRunQueries(prev, g) : g)
}

function toRun(queries: Map<string, RunQuery>, parser: TrecRunParser): Run {
  return { queries, tag: parser.lastTag, tags: parser.tags, lineCount: parser.contentLines }
}
