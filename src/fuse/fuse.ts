/**
 * Fuse several runs into one: per query, order and deduplicate each input run, normalise its
 * scores, combine them with a fusion method, order the result, cut it at a depth and break ties.
 * Pure: no I/O.
 */

import type { InputIssue } from '../errors/issues.js'
import { InputError } from '../errors/trecscore-error.js'
import { docIdsOf } from '../model/run-query.js'
import type { Run } from '../model/types.js'
import { orderDocs } from '../rank/prepare.js'
import { bordaFusion } from './borda.js'
import { combFusion } from './comb.js'
import { normalizeList } from './normalize.js'
import { reciprocalRankFusion } from './rrf.js'
import { breakTies, orderFused } from './ties.js'
import {
  DEFAULT_FUSE_DEPTH,
  DEFAULT_RRF_K,
  FUSION_METHODS,
  type FusedDoc,
  type FusedRun,
  type FuseOptions,
  type FusionMethod,
  type Normalization,
  type QueryLists,
  RANK_METHODS,
  type RankedList,
} from './types.js'
import { weightedSumFusion } from './wsum.js'

/** The normalisation a method uses when none is given: min-max for score methods, none for rank methods. */
export function defaultNormalization(method: FusionMethod): Normalization {
  return RANK_METHODS.includes(method) ? 'none' : 'minmax'
}

/**
 * Check fusion options against the number of input runs; every problem at once.
 * Throws {@link InputError} (exit code 2).
 */
export function checkFuseOptions(options: FuseOptions, runCount: number): void {
  const issues: InputIssue[] = []
  const bad = (option: string, found: unknown, expected: string): void => {
    issues.push({ code: 'bad_argument', option, found: String(found), expected })
  }
  if (!(FUSION_METHODS as readonly string[]).includes(options.method))
    bad('--method', options.method, `one of ${FUSION_METHODS.join(', ')}`)
  if (runCount < 1) bad('RUN', '', 'at least one run to fuse')
  if (
    options.norm !== undefined &&
    options.norm !== 'none' &&
    RANK_METHODS.includes(options.method)
  )
    bad('--norm', options.norm, `none: ${options.method} reads ranks, not scores`)
  if (options.k !== undefined && (!Number.isFinite(options.k) || options.k < 0))
    bad('--k', options.k, 'a finite number >= 0')
  if (options.k !== undefined && options.method !== 'rrf')
    bad('--k', options.k, 'no --k: it applies to --method rrf only')
  if (options.weights !== undefined) {
    if (options.method !== 'wsum')
      bad('--weights', options.weights.join(','), 'no --weights: they apply to --method wsum only')
    else if (options.weights.length !== runCount)
      bad(
        '--weights',
        options.weights.join(','),
        `${runCount} weights, one per run in the order given`,
      )
    else if (options.weights.some((w) => !Number.isFinite(w)))
      bad('--weights', options.weights.join(','), 'finite numbers')
  }
  if (options.depth !== undefined && (!Number.isInteger(options.depth) || options.depth < 1))
    bad('--depth', options.depth, 'an integer >= 1')
  if (options.tag !== undefined && (options.tag.length === 0 || /[\s]/.test(options.tag)))
    bad('--tag', options.tag, 'a non-empty run tag without whitespace')
  if (issues.length) throw new InputError(issues)
}

/**
 * One input run's list for a query: ordered by score descending, ties by doc id descending
 * (trec_eval's order; the rank column is ignored), keeping the first (highest-ranked) occurrence
 * of a repeated doc.
 */
export function rankedListOf(
  run: Run,
  queryId: string,
): { list: RankedList; duplicates: number } | undefined {
  const q = run.queries.get(queryId)
  if (!q) return undefined
  const ids = docIdsOf(q)
  const seen = new Set<string>()
  const docIds: string[] = []
  const scores: number[] = []
  let duplicates = 0
  for (const i of orderDocs(q, 'score-docid-desc')) {
    const id = ids[i]!
    if (seen.has(id)) {
      duplicates++
      continue
    }
    seen.add(id)
    docIds.push(id)
    scores.push(q.scores[i]!)
  }
  return { list: { docIds, scores }, duplicates }
}

/** Fused values of one query's lists (already normalised) with one method. */
export function fuseQuery(
  lists: QueryLists,
  method: FusionMethod,
  params: { readonly k: number; readonly weights: readonly number[] },
): Map<string, number> {
  switch (method) {
    case 'rrf':
      return reciprocalRankFusion(lists, params.k)
    case 'borda':
      return bordaFusion(lists)
    case 'wsum':
      return weightedSumFusion(lists, params.weights)
    default:
      return combFusion(lists, method)
  }
}

/**
 * Fuse runs. Queries are the union over the runs, written in byte order of their ids; a run
 * lacking a query simply does not contribute to it (counted in `missingQueryRuns`).
 *
 * @example
 * const fused = fuse([bm25, dense], { method: 'rrf' })
 * formatFusedRun(fused) // six-column TREC run text
 */
export function fuse(runs: readonly Run[], options: FuseOptions): FusedRun {
  checkFuseOptions(options, runs.length)
  const method = options.method
  const norm = options.norm ?? defaultNormalization(method)
  const k = options.k ?? DEFAULT_RRF_K
  const weights = options.weights ?? runs.map(() => 1)
  const depth = options.depth ?? DEFAULT_FUSE_DEPTH
  const keepTies = options.keepTies ?? false
  const queryIds = [...new Set(runs.flatMap((r) => [...r.queries.keys()]))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  )
  const queries = new Map<string, readonly FusedDoc[]>()
  let duplicates = 0
  let missing = 0
  let cut = 0
  let broken = 0
  for (const qid of queryIds) {
    const lists = runs.map((run) => {
      const r = rankedListOf(run, qid)
      if (!r) {
        missing++
        return undefined
      }
      duplicates += r.duplicates
      return normalizeList(r.list, norm)
    })
    const ordered = orderFused(fuseQuery(lists, method, { k, weights }))
    if (ordered.length > depth) cut += ordered.length - depth
    const t = breakTies(ordered.slice(0, depth), keepTies)
    broken += t.broken
    queries.set(qid, t.docs)
  }
  return {
    tag: options.tag ?? 'fused',
    method,
    norm,
    queries,
    counts: {
      inputRuns: runs.length,
      queries: queryIds.length,
      missingQueryRuns: missing,
      duplicatesRemoved: duplicates,
      cutByDepth: cut,
      tiesBroken: broken,
    },
    settings: { k, weights: method === 'wsum' ? weights : null, depth, keepTies },
  }
}
