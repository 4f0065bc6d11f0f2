import { concatRunQueries } from '../model/run-query.js'
import type { RunQuery } from '../model/types.js'
import { IdIndex } from '../rank/id-index.js'
import { inputLimits, readChunksPrefetched, type SourceName } from './source.js'
import { type RunParseOptions, TrecRunParser } from './trec-run.js'

/** What {@link streamRunQueries} saw while reading. */
export interface RunReadSummary {
  readonly parser: TrecRunParser
  /** Queries whose lines were not contiguous (merged in a second pass). */
  readonly splitQueries: number
  /** Distinct query ids in the run. */
  readonly queryCount: number
}

/**
 * Read a TREC run and hand each query's complete list of docs to `onQuery`, in bounded memory
 * when the run is grouped by query (as nearly all are): a query is passed on as soon as its
 * block of lines ends. A query whose lines are split across the file is detected and re-read in
 * a second pass (files) or kept in memory (standard input), then passed on again, merged, so
 * `onQuery` may see a query twice: the last call wins. `wanted` filters the queries kept.
 */
export async function streamRunQueries(
  source: SourceName,
  options: RunParseOptions,
  wanted: (queryId: string) => boolean,
  onQuery: (q: RunQuery) => void,
): Promise<RunReadSummary> {
  const limits = inputLimits()
  options = { maxLineBytes: limits.maxLineBytes, ...options }
  // Every query id seen, as bytes (a `Set` of strings would keep each run id's string alive).
  const seen = new IdIndex()
  const split = new Set<string>()
  const rereadable = source !== '-'
  const kept = new Map<string, RunQuery>()
  const parser = new TrecRunParser((g) => {
    const known = seen.size
    if (seen.add(g.queryId) < known) split.add(g.queryId)
    if (!wanted(g.queryId)) return
    if (!rereadable) {
      const prev = kept.get(g.queryId)
      kept.set(g.queryId, prev ? concatRunQueries(prev, g) : g)
      return
    }
    if (!split.has(g.queryId)) onQuery(g)
  }, options)
  for await (const chunk of readChunksPrefetched(source, limits)) {
    parser.feed(chunk)
    if (parser.stopped) break
  }
  parser.end()
  if (parser.stopped) return { parser, splitQueries: split.size, queryCount: seen.size }
  if (!rereadable) {
    for (const q of kept.values()) onQuery(q)
  } else if (split.size > 0) {
    const merged = new Map<string, RunQuery>()
    const second = new TrecRunParser((g) => {
      if (!split.has(g.queryId) || !wanted(g.queryId)) return
      const prev = merged.get(g.queryId)
      merged.set(g.queryId, prev ? concatRunQueries(prev, g) : g)
    }, options)
    for await (const chunk of readChunksPrefetched(source, limits)) second.feed(chunk)
    second.end()
    for (const q of merged.values()) onQuery(q)
  }
  return { parser, splitQueries: split.size, queryCount: seen.size }
}
