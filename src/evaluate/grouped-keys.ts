/**
 * Grouped query keys, the `queryKey: 'group-qid'` convention: a query is (group, queryId), for
 * benchmarks whose query ids repeat across groups (RETECO Track 2: `2_turn_1` exists in biology
 * and in earth_science). The pair is one id string, `group + '\t' + queryId`: ids split from
 * whitespace-separated files never hold a tab, so the key splits back unambiguously, and the
 * engine's byte order of keys is group order, then query order. Qrels and runs read per group
 * are merged into grouped ones by {@link groupQrels} and {@link groupRuns}. Pure: no I/O.
 */
import { TrecscoreError } from '../errors/trecscore-error.js'
import type { Qrels, QueryJudgments, Run, RunQuery } from '../model/types.js'

const SEPARATOR = '\t'

/** The key of (group, queryId); a group must be non-empty and neither may hold whitespace. */
export function groupedQueryId(group: string, queryId: string): string {
  if (group === '' || /\s/.test(group))
    throw new TrecscoreError(
      `query group '${group}': a group name must be non-empty, without whitespace`,
      2,
    )
  if (/\s/.test(queryId))
    throw new TrecscoreError(`query id '${queryId}' of group '${group}' holds whitespace`, 2)
  return group + SEPARATOR + queryId
}

/** (group, queryId) of a grouped key, or `null` for a plain query id. */
export function splitGroupedQueryId(
  key: string,
): { readonly group: string; readonly queryId: string } | null {
  const i = key.indexOf(SEPARATOR)
  return i <= 0 ? null : { group: key.slice(0, i), queryId: key.slice(i + 1) }
}

/** Qrels read per group, as one grouped qrels (queries keyed by {@link groupedQueryId}, groups in map order). */
export function groupQrels(groups: ReadonlyMap<string, Qrels>): Qrels {
  const queries = new Map<string, QueryJudgments>()
  let commentLines = 0
  let judgmentLines = 0
  for (const [group, q] of groups) {
    for (const [id, j] of q.queries) {
      const key = groupedQueryId(group, id)
      queries.set(key, { ...j, queryId: key })
    }
    commentLines += q.commentLines
    judgmentLines += q.judgmentLines
  }
  return { queries, commentLines, judgmentLines }
}

/** Runs read per group (one file per group), as one grouped run; the tag is the last group's. */
export function groupRuns(groups: ReadonlyMap<string, Run>): Run {
  const queries = new Map<string, RunQuery>()
  const tags: string[] = []
  let tag = ''
  let lineCount = 0
  for (const [group, r] of groups) {
    for (const [id, q] of r.queries) {
      const key = groupedQueryId(group, id)
      queries.set(key, { ...q, queryId: key })
    }
    for (const t of r.tags) if (!tags.includes(t)) tags.push(t)
    if (r.queries.size) tag = r.tag
    lineCount += r.lineCount
  }
  return { queries, tag, tags, lineCount }
}
