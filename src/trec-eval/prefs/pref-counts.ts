/**
 * Preferences of one query confronted with its ranking: what every `prefs_*` measure reads
 * (trec_eval's `form_prefs_counts`).
 *
 * 1. The ranking: score descending, ties by docno **ascending** (unlike `form_res_rels`, which
 *    breaks ties descending), cut at `-M`; a doc retrieved twice in the cut is an error.
 * 2. Internal ranks: the judged docs that were retrieved get 0 … J_r − 1 in ranking order, the
 *    judged docs that were not get J_r … J − 1 in docno byte order (J = distinct judged docs).
 * 3. Per judgment group (jg), preferences are either
 *    - equivalence classes (one subgroup): docs grouped by level, every doc of a higher level
 *      preferred to every doc of a lower one (a doc twice counts twice), or
 *    - a preference array (several subgroups): `a[i][j] = 1` when i > j in some subgroup, closed
 *      transitively; a doc may not be 0 in one subgroup and > 0 in another, and a cycle
 *      (i > j and j > i) is an error.
 * 4. Each preference i > j is fulfilled when i ranks above j. It is "ret" when both were
 *    retrieved, "imp" (implied) when exactly one was, "notoccur" when neither was; an implied
 *    preference is fulfilled when the preferred doc is the retrieved one. `counts[i][j]` sums,
 *    over judgment groups, the preferences i > j (16-bit, wrapping as trec_eval's).
 *
 * Relevant means level > 0, non-relevant level == 0 (negative levels are neither).
 */
import { docIdsOf } from '../../model/run-query.js'
import type { RunQuery } from '../../model/types.js'

/** One line of a preference file: `docId` has level `relLevel` in subgroup `jsg` of group `jg`. */
export interface PrefJudgment {
  readonly jg: string
  readonly jsg: string
  readonly docId: string
  readonly relLevel: number
}

/** Docs of one judgment group with the same level: internal ranks, ascending. */
export interface EquivalenceClass {
  readonly relLevel: number
  readonly ranks: readonly number[]
}

/** How one judgment group's preferences are held. */
export type GroupPreferences =
  | { readonly kind: 'classes'; readonly classes: readonly EquivalenceClass[] }
  | {
      readonly kind: 'array'
      /** `array[i * numJudged + j]` = 1 when doc i is preferred to doc j (transitively closed). */
      readonly array: Uint8Array
      /** Level of each internal doc in this group; −1 when the group does not judge it. */
      readonly levels: Float64Array
    }

/** Preference counts of one judgment group (`possible*` include the fulfilled ones). */
export interface JudgmentGroupCounts {
  readonly fulfilledRet: number
  readonly possibleRet: number
  readonly fulfilledImp: number
  readonly possibleImp: number
  readonly possibleNotOccur: number
  /** Judged docs with level > 0, and those retrieved. */
  readonly numRel: number
  readonly numRelRet: number
  /** Judged docs with level == 0, and those retrieved. */
  readonly numNonrel: number
  readonly numNonrelRet: number
  readonly prefs: GroupPreferences
}

/** Everything the `prefs_*` measures read for one query. */
export interface PrefCounts {
  /** Distinct judged docs (J). */
  readonly numJudged: number
  /** Judged docs that were retrieved (J_r); they hold internal ranks 0 … J_r − 1. */
  readonly numJudgedRet: number
  /** Judgment groups in byte order of their ids. */
  readonly groups: readonly JudgmentGroupCounts[]
  /** `counts[i * numJudged + j]` = number of preferences i > j over all groups. */
  readonly counts: Uint16Array
}

/** Outcome of {@link formPrefCounts}: a failure carries trec_eval's stderr text. */
export type PrefCountsResult =
  | { readonly ok: true; readonly value: PrefCounts }
  | { readonly ok: false; readonly message: string }

interface Ranked {
  readonly jg: string
  readonly jsg: string
  readonly docId: string
  readonly relLevel: number
  readonly rank: number
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * Confront one query's preference judgments with its retrieved docs (see the module comment).
 * `depth` is trec_eval's `-M` (null: no cut).
 */
export function formPrefCounts(
  judgments: readonly PrefJudgment[],
  run: RunQuery,
  depth: number | null,
): PrefCountsResult {
  const { scores } = run
  const docIds = docIdsOf(run)
  // Not rank/prepare's orderDocs: preference formats break score ties by doc id *ascending*.
  let order = docIds.map((_, i) => i)
  order.sort((a, b) =>
    scores[a]! > scores[b]! ? -1 : scores[a]! < scores[b]! ? 1 : byteOrder(docIds[a]!, docIds[b]!),
  )
  if (depth !== null && order.length > depth) order = order.slice(0, Math.max(0, depth))
  const seen = new Set<string>()
  let duplicate: string | null = null
  for (const i of order) {
    const id = docIds[i]!
    if (seen.has(id)) {
      if (duplicate === null || id < duplicate) duplicate = id
    } else seen.add(id)
  }
  if (duplicate !== null)
    return { ok: false, message: `trec_eval.form_prefs_counts: duplicate docs ${duplicate}` }

  // Internal ranks: retrieved judged docs in ranking order, then the others in byte order.
  const judged = new Set(judgments.map((j) => j.docId))
  const rankOf = new Map<string, number>()
  for (const i of order) if (judged.has(docIds[i]!)) rankOf.set(docIds[i]!, rankOf.size)
  const numJudgedRet = rankOf.size
  for (const id of [...judged].filter((d) => !rankOf.has(d)).sort(byteOrder))
    rankOf.set(id, rankOf.size)
  const numJudged = rankOf.size

  const ranked: Ranked[] = judgments.map((j) => ({ ...j, rank: rankOf.get(j.docId)! }))
  ranked.sort(
    (a, b) =>
      byteOrder(a.jg, b.jg) ||
      byteOrder(a.jsg, b.jsg) ||
      (a.relLevel > b.relLevel ? -1 : a.relLevel < b.relLevel ? 1 : a.rank - b.rank),
  )

  const counts = new Uint16Array(numJudged * numJudged)
  const groups: JudgmentGroupCounts[] = []
  for (let start = 0; start < ranked.length; ) {
    let end = start + 1
    let subgroups = 1
    while (end < ranked.length && ranked[end]!.jg === ranked[start]!.jg) {
      if (ranked[end]!.jsg !== ranked[end - 1]!.jsg) subgroups++
      end++
    }
    const slice = ranked.slice(start, end)
    const group =
      subgroups > 1
        ? arrayGroup(slice, numJudged, numJudgedRet, counts)
        : classGroup(slice, numJudged, numJudgedRet, counts)
    if (typeof group === 'string') return { ok: false, message: group }
    groups.push(group)
    start = end
  }
  return { ok: true, value: { numJudged, numJudgedRet, groups, counts } }
}

/** A single-subgroup judgment group: equivalence classes by level. Returns an error text on conflict. */
function classGroup(
  slice: readonly Ranked[],
  numJudged: number,
  numJudgedRet: number,
  counts: Uint16Array,
): JudgmentGroupCounts | string {
  const classes: { relLevel: number; ranks: number[] }[] = []
  for (const r of slice) {
    const last = classes[classes.length - 1]
    // `!==` like C's `!=`: a NaN level opens a new class every time.
    if (!last || last.relLevel !== r.relLevel)
      classes.push({ relLevel: r.relLevel, ranks: [r.rank] })
    else last.ranks.push(r.rank)
  }
  let fulfilledRet = 0
  let possibleRet = 0
  let fulfilledImp = 0
  let possibleImp = 0
  let possibleNotOccur = 0
  let numRel = 0
  let numRelRet = 0
  let numNonrel = 0
  let numNonrelRet = 0
  for (let c1 = 0; c1 < classes.length; c1++) {
    const ec = classes[c1]!
    let retrieved = 0
    while (retrieved < ec.ranks.length && ec.ranks[retrieved]! < numJudgedRet) retrieved++
    if (ec.relLevel > 0) {
      numRelRet += retrieved
      numRel += ec.ranks.length
    } else {
      numNonrelRet += retrieved
      numNonrel += ec.ranks.length
    }
    for (let c2 = c1 + 1; c2 < classes.length; c2++) {
      for (const r1 of ec.ranks) {
        for (const r2 of classes[c2]!.ranks) {
          counts[r1 * numJudged + r2]!++
          if (r1 === r2)
            return `trec_eval.form_prefs_counts: Internal docid ${r1} occurs with different rel_level in same jsg\n`
          if (r1 < r2) {
            if (r2 < numJudgedRet) fulfilledRet++
            else if (r1 < numJudgedRet) fulfilledImp++
            else possibleNotOccur++
          } else if (r1 < numJudgedRet) possibleRet++
          else if (r2 < numJudgedRet) possibleImp++
          else possibleNotOccur++
        }
      }
    }
  }
  return {
    fulfilledRet,
    possibleRet: possibleRet + fulfilledRet,
    fulfilledImp,
    possibleImp: possibleImp + fulfilledImp,
    possibleNotOccur,
    numRel,
    numRelRet,
    numNonrel,
    numNonrelRet,
    prefs: { kind: 'classes', classes },
  }
}

/** A judgment group with several subgroups: a transitively closed preference array. */
function arrayGroup(
  slice: readonly Ranked[],
  numJudged: number,
  numJudgedRet: number,
  counts: Uint16Array,
): JudgmentGroupCounts | string {
  const n = numJudged
  const a = new Uint8Array(n * n)
  const levels = new Float64Array(n).fill(-1)
  for (let i = 0; i < slice.length; i++) {
    const p = slice[i]!
    const known = levels[p.rank]!
    if ((known > 0 && p.relLevel === 0) || (known === 0 && p.relLevel > 0)) {
      return `trec_eval.form_prefs_counts: doc '${p.docId}' has both 0 and non-0 rel_level assigned\n`
    }
    levels[p.rank] = p.relLevel
    let j = i + 1
    while (j < slice.length && slice[j]!.jsg === p.jsg && slice[j]!.relLevel === p.relLevel) j++
    for (; j < slice.length && slice[j]!.jsg === p.jsg; j++) a[p.rank * n + slice[j]!.rank] = 1
  }
  closeTransitively(a, n)
  for (let i = 0; i < n; i++) a[i * n + i] = 0
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j && a[i * n + j] && a[j * n + i]) {
        return `trec_eval.form_prefs_counts: Pref inconsistency found\n      internal rank ${i} and internal rank ${j} are conflicted\n`
      }
    }
  }
  let numRelRet = 0
  let numNonrelRet = 0
  let numRel = 0
  let numNonrel = 0
  for (let i = 0; i < n; i++) {
    const rel = levels[i]! > 0
    const nonrel = levels[i] === 0
    if (rel) numRel++
    else if (nonrel) numNonrel++
    if (i < numJudgedRet) {
      if (rel) numRelRet++
      else if (nonrel) numNonrelRet++
    }
  }
  let fulfilledRet = 0
  let possibleRet = 0
  let fulfilledImp = 0
  let possibleImp = 0
  let possibleNotOccur = 0
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (!a[i * n + j]) continue
      counts[i * n + j]!++
      if (i < numJudgedRet) {
        if (j < i) possibleRet++
        else if (j < numJudgedRet) fulfilledRet++
        else fulfilledImp++
      } else if (j < numJudgedRet) possibleImp++
      else possibleNotOccur++
    }
  }
  return {
    fulfilledRet,
    possibleRet: possibleRet + fulfilledRet,
    fulfilledImp,
    possibleImp: possibleImp + fulfilledImp,
    possibleNotOccur,
    numRel,
    numRelRet,
    numNonrel,
    numNonrelRet,
    prefs: { kind: 'array', array: a, levels },
  }
}

/**
 * Transitive closure of an n×n 0/1 matrix in place (Warshall's algorithm over 32-bit row words).
 * Self-preferences (a doc twice in one subgroup, or a cycle) may be set; callers clear them.
 */
export function closeTransitively(a: Uint8Array, n: number): void {
  const words = (n + 31) >>> 5
  const bits = new Uint32Array(n * words)
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if (a[i * n + j]) bits[i * words + (j >>> 5)]! |= 1 << (j & 31)
  for (let k = 0; k < n; k++) {
    const kw = k >>> 5
    const kb = 1 << (k & 31)
    for (let i = 0; i < n; i++) {
      if (i === k || !(bits[i * words + kw]! & kb)) continue
      for (let w = 0; w < words; w++) bits[i * words + w]! |= bits[k * words + w]!
    }
  }
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) a[i * n + j] = (bits[i * words + (j >>> 5)]! >>> (j & 31)) & 1
}

/**
 * Which preferences a measure counts: every one (`prefs_simp`), only those between two retrieved
 * docs (`_ret`), or those with at least one retrieved doc (`_imp`).
 */
export type PrefScope = 'all' | 'ret' | 'imp'

/** Preferences of a group fulfilled within `scope`. */
export function fulfilledIn(g: JudgmentGroupCounts, scope: PrefScope): number {
  return scope === 'ret' ? g.fulfilledRet : g.fulfilledRet + g.fulfilledImp
}

/** Preferences of a group possible within `scope` (fulfilled or not). */
export function possibleIn(g: JudgmentGroupCounts, scope: PrefScope): number {
  if (scope === 'ret') return g.possibleRet
  if (scope === 'imp') return g.possibleRet + g.possibleImp
  return g.possibleRet + g.possibleImp + g.possibleNotOccur
}
