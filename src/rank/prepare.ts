import type { Conventions } from '../conventions/conventions.js'
import type { PrepareFailure } from '../errors/prepare-issues.js'
import { compareDocIds, docCount, docIdAt, docIdsOf } from '../model/run-query.js'
import {
  NOT_POOLED,
  type QueryJudgments,
  type RunQuery,
  type SubtopicJudgments,
  UNJUDGED,
} from '../model/types.js'
import type { GradeArena } from './grade-arena.js'
import { hashId, IdSet, IdTable } from './id-hash.js'
import type { JudgedRanking } from './judged-ranking.js'

/** The subtopics of a doc relevant to none. */
const NO_SUBTOPICS: readonly number[] = []

/** What preparing one query removed, per convention (reported by `--explain`). */
export interface PrepareCounts {
  /** Lines removed as duplicates (keep-first / keep-last / keep-first-ranked). */
  duplicatesRemoved: number
  /** Docs discarded because they are not in the corpus id list. */
  unknownDiscarded: number
  /** Docs below the depth cut. */
  cutByDepth: number
  /** Unjudged docs dropped by judged-only. */
  unjudgedDropped: number
}

export type { PrepareFailure } from '../errors/prepare-issues.js'

/** Outcome of {@link prepareQuery}. */
export type PrepareResult =
  | { readonly ok: true; readonly ranking: JudgedRanking; readonly counts: PrepareCounts }
  | { readonly ok: false; readonly failure: PrepareFailure }

/** Extra inputs of {@link prepareQuery}. */
export interface PrepareOptions {
  /** Corpus doc ids, required when `conventions.unknownDocs` is `'discard'`. */
  readonly corpus?: ReadonlySet<string>
  /** Scratch set reused across queries (saves allocation in long evaluations). */
  readonly scratch?: IdSet
  /**
   * Where the ranking's grades are allocated: the evaluation's arena (one small view per query
   * instead of a buffer each); without it, a fresh array.
   */
  readonly grades?: GradeArena
  /**
   * Refuse a query whose judgments are all negative (`no_judgments`), as trec_eval's
   * `form_res_rels` can (its `trec-eval` drop-in sets this). By default such a query is prepared
   * with zero relevant documents, as gdeval, ndeval, cwl_eval, trectools, ir_measures and
   * pytrec_eval score it.
   */
  readonly refuseWithoutJudgments?: boolean
  /** Diversity qrels: the query's subtopic judgments, attached to the ranking as `diversity`. */
  readonly subtopics?: SubtopicJudgments
  /** Attach the ranked doc ids to the ranking (`docIds`), for measures that look up labels. */
  readonly docIds?: boolean
  /** Attach the ranked docs (ids, scores, judgments) as `docs` (measures with `needsDocs`); `docIds` too. */
  readonly docs?: boolean
  /** Auxiliary judgments of the query (`--aux-qrels`): their values by rank go to `docs.aux`. */
  readonly aux?: QueryJudgments
}

function identity(n: number): number[] {
  const out = new Array<number>(n)
  for (let i = 0; i < n; i++) out[i] = i
  return out
}

/** Whether two of the `n` docs have the same id (`hashes` their id hashes). */
function hasDuplicate(
  n: number,
  hashes: readonly number[],
  seen: IdSet,
  sameId: (i: number, j: number) => boolean,
): boolean {
  seen.reset(n, sameId)
  for (let i = 0; i < n; i++) if (!seen.add(i, hashes[i]!)) return true
  return false
}

/** Whether `run`'s docs, in file order, are already in ranking order under `ordering`. */
function inFileOrder(run: RunQuery, ordering: Conventions['ordering']): boolean {
  if (ordering === 'file-order') return true
  if (ordering !== 'score-docid-desc') return false
  const s = run.scores
  const n = docCount(run)
  for (let k = 1; k < n; k++) {
    if (s[k - 1]! > s[k]!) continue
    if (s[k - 1]! === s[k]! && compareDocIds(run, k - 1, k) > 0) continue
    return false
  }
  return true
}

/** Indices of `run`'s docs in ranking order under `ordering`. */
export function orderDocs(
  run: RunQuery,
  ordering: Conventions['ordering'],
  keep: readonly number[] | null = null,
): number[] {
  const s = run.scores
  const idx = keep ? keep.slice() : identity(docCount(run))
  switch (ordering) {
    case 'file-order':
      return idx
    case 'rank': {
      const r = run.ranks
      if (!r) throw new Error('rank ordering needs the rank column (parse with keepRanks)')
      return idx.sort((a, b) => {
        const ra = r[a]!
        const rb = r[b]!
        if (ra === rb || (Number.isNaN(ra) && Number.isNaN(rb))) return a - b
        if (Number.isNaN(ra)) return 1
        if (Number.isNaN(rb)) return -1
        return ra - rb
      })
    }
    case 'score-docid-asc':
      return idx.sort((a, b) => (s[a]! > s[b]! ? -1 : s[a]! < s[b]! ? 1 : compareDocIds(run, a, b)))
    case 'score-file-order':
      return idx.sort((a, b) => (s[a]! > s[b]! ? -1 : s[a]! < s[b]! ? 1 : a - b))
    case 'score-docid-desc': {
      // Most runs arrive already in this order: check before sorting.
      let sorted = true
      for (let k = 1; k < idx.length; k++) {
        const a = idx[k - 1]!
        const b = idx[k]!
        if (s[a]! > s[b]!) continue
        if (s[a]! === s[b]! && compareDocIds(run, a, b) > 0) continue
        sorted = false
        break
      }
      if (sorted) return idx
      return idx.sort((a, b) => (s[a]! > s[b]! ? -1 : s[a]! < s[b]! ? 1 : compareDocIds(run, b, a)))
    }
  }
}

/**
 * Join one query's retrieved docs with its judgments under the conventions: drop unknown docs,
 * resolve duplicates, order, cut at depth, look up grades, drop unjudged docs if judged-only.
 * Mirrors trec_eval's `form_res_rels`, with every step a named convention.
 */
export function prepareQuery(
  judgments: QueryJudgments,
  run: RunQuery,
  conv: Conventions,
  options: PrepareOptions = {},
): PrepareResult {
  const counts: PrepareCounts = {
    duplicatesRemoved: 0,
    unknownDiscarded: 0,
    cutByDepth: 0,
    unjudgedDropped: 0,
  }
  const n = docCount(run)
  // Only a corpus list looks ids up by value, as strings; duplicates are found by id hash (with
  // the bytes compared on a hash hit), so the other paths never make them.
  const strings = conv.unknownDocs === 'discard' && options.corpus ? docIdsOf(run) : null
  const hashes =
    run.docHashes && run.docHashes.length === n ? run.docHashes : docIdsOf(run).map(hashId)
  const sameId = (i: number, j: number) => compareDocIds(run, i, j) === 0
  let keep: number[] | null = null
  if (conv.unknownDocs === 'discard' && options.corpus) {
    const corpus = options.corpus
    keep = []
    for (let i = 0; i < n; i++) if (corpus.has(strings![i]!)) keep.push(i)
    counts.unknownDiscarded = n - keep.length
  }
  if (conv.duplicates === 'keep-first' || conv.duplicates === 'keep-last') {
    // The first (or last) occurrence of each id, in file order.
    const seen = options.scratch ?? new IdSet()
    // Most queries have no duplicate: that is checked first, with no index array made.
    const src = keep ?? (hasDuplicate(n, hashes, seen, sameId) ? identity(n) : [])
    seen.reset(src.length, sameId)
    const kept: number[] = []
    if (conv.duplicates === 'keep-first') {
      for (const i of src) if (seen.add(i, hashes[i]!)) kept.push(i)
    } else {
      for (let k = src.length - 1; k >= 0; k--) {
        const i = src[k]!
        if (seen.add(i, hashes[i]!)) kept.push(i)
      }
      kept.reverse()
    }
    if (kept.length !== src.length) {
      counts.duplicatesRemoved = src.length - kept.length
      keep = kept
    }
  }
  // null: the docs in file order (most runs arrive ranked), with no index array made.
  let order: number[] | null =
    keep === null && conv.duplicates !== 'keep-first-ranked' && inFileOrder(run, conv.ordering)
      ? null
      : orderDocs(run, conv.ordering, keep)
  if (conv.duplicates === 'keep-first-ranked') {
    const seen = options.scratch ?? new IdSet()
    seen.reset(order!.length, sameId)
    const kept: number[] = []
    for (const i of order!) if (seen.add(i, hashes[i]!)) kept.push(i)
    counts.duplicatesRemoved = order!.length - kept.length
    order = kept
  }
  let len = order ? order.length : n
  if (conv.depth !== null && len > conv.depth) {
    counts.cutByDepth = len - conv.depth
    len = Math.max(0, conv.depth)
    if (order) order = order.slice(0, len)
  }
  if (conv.duplicates === 'error') {
    const seen = options.scratch ?? new IdSet()
    seen.reset(len, sameId)
    let dup = -1
    for (let k = 0; k < len; k++) {
      const i = order ? order[k]! : k
      if (!seen.add(i, hashes[i]!) && (dup < 0 || compareDocIds(run, i, dup) < 0)) dup = i
    }
    if (dup >= 0) {
      // The first two occurrences in file order, for the message.
      let first = -1
      let second = -1
      for (let i = 0; i < n && second < 0; i++) {
        if (compareDocIds(run, i, dup) !== 0) continue
        if (first < 0) first = i
        else second = i
      }
      return {
        ok: false,
        failure: {
          code: 'duplicate_doc',
          docId: docIdAt(run, dup),
          line: run.lines[second] ?? 0,
          firstLine: run.lines[first] ?? 0,
        },
      }
    }
  }
  if (judgments.duplicateDocs.length > 0) {
    return {
      ok: false,
      failure: { code: 'duplicate_judgment', docId: judgments.duplicateDocs[0]! },
    }
  }
  if (options.refuseWithoutJudgments && judgments.maxJudgment < 0)
    return { ok: false, failure: { code: 'no_judgments' } }

  const level = conv.relevanceLevel
  const table =
    judgments.table ?? new IdTable([...judgments.grades.keys()], [...judgments.grades.values()])
  let grades = options.grades ? options.grades.take(len) : new Int32Array(len)
  let numRelRet = 0
  let numNonpool = 0
  let numUnjudged = 0
  let kept = 0
  let positiveEnd = 0
  const sub = options.subtopics
  const ranked: (readonly number[])[] | null = sub ? [] : null
  const withDocs = options.docs || options.aux !== undefined
  const ids: string[] | null = options.docIds || withDocs ? [] : null
  const docScores: number[] | null = withDocs ? [] : null
  const auxTable = options.aux
    ? (options.aux.table ??
      new IdTable([...options.aux.grades.keys()], [...options.aux.grades.values()]))
    : null
  const auxValues: number[] | null = auxTable ? [] : null
  for (let k = 0; k < len; k++) {
    const i = order ? order[k]! : k
    const g = table.getDoc(run, i, hashes[i]!)
    const v = g === undefined ? NOT_POOLED : g < 0 ? UNJUDGED : g
    if (conv.judgedOnly && v < 0) {
      counts.unjudgedDropped++
      continue
    }
    if (ranked) ranked.push(sub!.docs.get(docIdAt(run, i)) ?? NO_SUBTOPICS)
    if (ids) ids.push(docIdAt(run, i))
    if (docScores) {
      docScores.push(run.scores[i]!)
      if (auxValues) auxValues.push(auxTable!.getDoc(run, i, hashes[i]!) ?? Number.NaN)
    }
    grades[kept++] = v
    if (v === NOT_POOLED) numNonpool++
    else if (v === UNJUDGED) numUnjudged++
    else {
      if (v >= level) numRelRet++
      if (v > 0) positiveEnd = kept
    }
  }
  if (kept !== len) grades = grades.subarray(0, kept)
  const relLevels = judgments.relLevels
  let numRel = 0
  let numRelLevels = 0
  for (let g = 0; g < relLevels.length; g++) {
    if (relLevels[g]) {
      numRelLevels = g + 1
      if (g >= level) numRel += relLevels[g]!
    }
  }
  return {
    ok: true,
    counts,
    ranking: {
      queryId: judgments.queryId,
      grades,
      numRet: kept,
      relLevels,
      numRelLevels,
      relevanceLevel: level,
      numRel,
      numRelRet,
      numNonpool,
      numUnjudgedInPool: numUnjudged,
      positiveEnd,
      ...(ids ? { docIds: ids } : {}),
      ...(sub ? { diversity: { judgments: sub, ranked: ranked! } } : {}),
      ...(docScores
        ? {
            docs: {
              ids: ids!,
              scores: Float64Array.from(docScores!),
              judgments,
              ...(auxValues ? { aux: Float64Array.from(auxValues) } : {}),
            },
          }
        : {}),
    },
  }
}
