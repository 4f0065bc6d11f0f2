/**
 * Whole-file readers for the library API: they throw {@link InputError} with every issue found.
 */
import { InputError } from '../errors/trecscore-error.js'
import type { Qrels, Run, RunQuery } from '../model/types.js'
import { concatRunQueries } from '../model/run-query.js'
import { readAll, readChunks, type SourceName } from './source.js'
import { parseQrels, type QrelsParseOptions } from './trec-qrels.js'
import { TrecRunParser, type RunParseOptions } from './trec-run.js'
import { splitFields } from './lines.js'

/** Read and parse a qrels file (`-` for stdin, `.gz` ok). Throws {@link InputError}. */
export async function readQrels(source: SourceName, options: Omit<QrelsParseOptions, 'file'> = {}): Promise<Qrels> {
  const bytes = await readAll(source)
  if (bytes.length === 0) throw new InputError([{ code: 'empty_file', file: source }])
  const r = parseQrels(bytes, { ...options, file: source })
  if (!r.ok) throw new InputError(r.issues)
  return r.value
}

/** Parse a TREC run held in memory. Returns the run and every issue found. */
export function parseRun(bytes: Buffer, options: RunParseOptions = {}): { ok: boolean; value: Run; issues: TrecRunParser['issues'] } {
  const queries = new Map<string, RunQuery>()
  const parser = new TrecRunParser((g) => add(queries, g), options)
  parser.feed(bytes)
  parser.end()
  return { ok: parser.issues.length === 0, value: toRun(queries, parser), issues: parser.issues }
}

/** Read and parse a whole TREC run file. Throws {@link InputError}. */
export async function readRun(source: SourceName, options: Omit<RunParseOptions, 'file'> = {}): Promise<Run> {
  const queries = new Map<string, RunQuery>()
  const parser = new TrecRunParser((g) => add(queries, g), { ...options, file: source })
  let bytes = 0
  for await (const chunk of readChunks(source)) {
    bytes += chunk.length
    parser.feed(chunk)
    if (parser.stopped) break
  }
  parser.end()
  if (bytes === 0) throw new InputError([{ code: 'empty_file', file: source }])
  if (parser.issues.length) throw new InputError(parser.issues)
  return toRun(queries, parser)
}

/** Read a corpus id list: one doc id per line (the first whitespace-separated field). */
export async function readIdList(source: SourceName): Promise<Set<string>> {
  const bytes = await readAll(source)
  const ids = new Set<string>()
  const f: number[] = []
  let pos = 0
  while (pos < bytes.length) {
    let nl = bytes.indexOf(0x0a, pos)
    if (nl < 0) nl = bytes.length
    if (splitFields(bytes, pos, nl, f) > 0) ids.add(bytes.toString('latin1', f[0]!, f[1]!))
    pos = nl + 1
  }
  return ids
}

function add(queries: Map<string, RunQuery>, g: RunQuery): void {
  const prev = queries.get(g.queryId)
  queries.set(g.queryId, prev ? concatRunQueries(prev, g) : g)
}

function toRun(queries: Map<string, RunQuery>, parser: TrecRunParser): Run {
  return { queries, tag: parser.lastTag, tags: parser.tags, lineCount: parser.contentLines }
}
