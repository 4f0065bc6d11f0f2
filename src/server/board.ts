/**
 * Leaderboards: one per track and phase, ranked here on the server by the primary measure.
 *
 * - Only submissions in state `scored` with a finite primary value are ranked; queued,
 *   scoring, failed and unscorable entries never appear (the invariant `rankBoard` keeps).
 * - One entry per team: its best scored submission (`limits.counts: best`, earliest first on
 *   equal values), its latest (`latest`), or the one it selected (`selected`; its latest scored
 *   one while it has selected none, or while the selected one is not scored). Each baseline run
 *   is its own entry, marked.
 * - Anonymous teams appear under an alias derived from their id (`Anonymous team 3f9a0c`),
 *   without run name or submission id, on every board and every export (all are built from
 *   the one {@link Board} that `loadBoard` makes).
 * - Tie policy: entries whose primary values are equal when rounded to 10 decimals share a rank
 *   (standard competition ranking: 1, 1, 3); among them, the earlier submission is listed first.
 * - Hidden phases show no entries until they are released.
 */
import { createHash } from 'node:crypto'
import { parseTurnTopic, TURN_BUCKETS, turnBucket } from '../internal.js'
import {
  type Competition,
  measureName,
  phasePublic,
  runIsDirectory,
  type Track,
} from './config/load.js'
import type { PhaseConfig } from './config/schema.js'
import type { Db } from './db/database.js'
import type { SubmissionState } from './db/schema.js'
import { computeTiers, type PerQueryPrimary, tierPolicy } from './tiers.js'

/** The tie policy, as printed on every board. */
export const TIE_POLICY =
  'Ranked by the primary measure, higher is better. Values equal to 10 decimals share a rank (1, 1, 3); the earlier submission is listed first. Unscored and failed submissions are never ranked.'

/** A submission that may appear on a board. */
export interface BoardCandidate {
  readonly submissionId: string
  readonly teamId: string
  readonly teamName: string
  readonly baseline: boolean
  readonly anonymous: boolean
  readonly state: SubmissionState
  readonly primary: number | null
  readonly columns: Readonly<Record<string, number | null>>
  readonly createdAt: string
  readonly runName: string
  /** The score row the values come from (its per-query values feed the significance tiers). */
  readonly scoreId?: number
}

/** A ranked board entry. */
export interface BoardEntry extends BoardCandidate {
  readonly rank: number
}

function key(v: number): number {
  return Math.round(v * 1e10)
}

function earlier(a: BoardCandidate, b: BoardCandidate): number {
  return a.createdAt < b.createdAt
    ? -1
    : a.createdAt > b.createdAt
      ? 1
      : a.submissionId < b.submissionId
        ? -1
        : a.submissionId > b.submissionId
          ? 1
          : 0
}

/** Which submission of a team counts (`limits.counts`). */
export type CountsPolicy = 'best' | 'latest' | 'selected'

/** Rank candidates (pure; see the module comment for the rules). `selected`: the submission ids teams selected. */
export function rankBoard(
  candidates: readonly BoardCandidate[],
  counts: CountsPolicy,
  selected: ReadonlySet<string> = new Set(),
): BoardEntry[] {
  const scored = candidates.filter(
    (c) => c.state === 'scored' && typeof c.primary === 'number' && Number.isFinite(c.primary),
  )
  const chosen = new Map<string, BoardCandidate>()
  const entries: BoardCandidate[] = []
  for (const c of scored) {
    if (c.baseline) {
      entries.push(c)
      continue
    }
    const prev = chosen.get(c.teamId)
    if (!prev) chosen.set(c.teamId, c)
    else if (
      counts === 'selected'
        ? selected.has(c.submissionId) || (!selected.has(prev.submissionId) && earlier(prev, c) < 0)
        : counts === 'latest'
          ? earlier(prev, c) < 0
          : key(c.primary!) > key(prev.primary!) ||
            (key(c.primary!) === key(prev.primary!) && earlier(c, prev) < 0)
    )
      chosen.set(c.teamId, c)
  }
  entries.push(...chosen.values())
  entries.sort((a, b) => key(b.primary!) - key(a.primary!) || earlier(a, b))
  const out: BoardEntry[] = []
  entries.forEach((e, i) => {
    const prev = out[i - 1]
    out.push({ ...e, rank: prev && key(prev.primary!) === key(e.primary!) ? prev.rank : i + 1 })
  })
  return out
}

/** One published row: what every viewer and every export sees (anonymous teams by alias). */
export interface PublicEntry {
  readonly rank: number
  readonly team: string
  readonly anonymous: boolean
  readonly baseline: boolean
  /** Null for an anonymous team. */
  readonly run: string | null
  /** Null for an anonymous team. */
  readonly submissionId: string | null
  readonly primary: number
  readonly columns: Readonly<Record<string, number | null>>
  readonly submittedAt: string
  /** Significance tier (1: statistically tied with #1); null without tiers or per-query values. */
  readonly tier: number | null
  /** Corrected p-value against the head of its tier (null for a head). */
  readonly pTierHead: number | null
  /** Corrected p-value against the entry ranked directly above (null for the first). */
  readonly pAbove: number | null
  /** RETECO tracks: per domain, the mean of the primary measure's per-query values (null: none). */
  readonly domains: Readonly<Record<string, number | null>> | null
  /** RETECO Track 2: per turn-depth bucket (T1 … T4, T5+), the mean of the primary measure over its turns, pooled over domains (null: none). */
  readonly turnDepth: Readonly<Record<string, number | null>> | null
}

/** A board as served (HTML, JSON, CSV, Markdown, LaTeX). */
export interface Board {
  readonly track: string
  readonly phase: string
  readonly primary: string
  readonly columns: readonly string[]
  /** False for a hidden phase not yet released: then `entries` is empty. */
  readonly released: boolean
  readonly counts: CountsPolicy
  readonly tiePolicy: string
  /** The newest qrels version of the track and phase (1: the config's qrels). */
  readonly qrelsVersion: number
  /** Re-scoring jobs still waiting or running for this board (the board mixes versions until 0). */
  readonly rescoring: number
  /** How the tiers were computed, in words; null when the competition turned tiers off. */
  readonly tierPolicy: string | null
  /** RETECO tracks: the domains of the per-domain breakdown, in natural order (empty for other tracks). */
  readonly domains: readonly string[]
  /** RETECO Track 2: the turn-depth buckets of the breakdown that hold turns, T1 … T4, T5+ (as `trecscore score` prints them); empty for other tracks. */
  readonly turnDepths: readonly string[]
  readonly entries: readonly PublicEntry[]
  /** Judged tracks (RETECO 2b/2c): the judge in force and the accounting columns every entry carries; null otherwise. */
  readonly judge: BoardJudge | null
}

/** The judge of a judged board, as the board states it. */
export interface BoardJudge {
  readonly configName: string
  readonly configHash: string
  readonly model: string
  readonly invalidPolicy: string
  readonly currency: string
  /** Tokens, cost, cache hits, invalid and missing (total and per dimension): in each entry's `columns`. */
  readonly columns: readonly string[]
}

/** The judge block of a track's board. */
export function boardJudge(track: Track): BoardJudge | null {
  const j = track.judging
  return j
    ? {
        configName: j.configName,
        configHash: j.configHash,
        model: j.model,
        invalidPolicy: j.invalidPolicy,
        currency: j.currency,
        columns: j.tableColumns,
      }
    : null
}

/** The alias of an anonymous team: stable, and derived from its random id only. */
export function anonymousAlias(teamId: string): string {
  return `Anonymous team ${createHash('sha256').update(`trecscore-alias:${teamId}`).digest('hex').slice(0, 6)}`
}

/** A ranked entry as published. */
export function publish(e: BoardEntry): PublicEntry {
  const hide = e.anonymous && !e.baseline
  return {
    rank: e.rank,
    team: hide ? anonymousAlias(e.teamId) : e.teamName,
    anonymous: hide,
    baseline: e.baseline,
    run: hide ? null : e.runName,
    submissionId: hide ? null : e.submissionId,
    primary: e.primary!,
    columns: e.columns,
    submittedAt: e.createdAt,
    tier: null,
    pTierHead: null,
    pAbove: null,
    domains: null,
    turnDepth: null,
  }
}

/** When an organizer released a phase, or null. */
export async function releasedAt(db: Db, phase: string): Promise<string | null> {
  const r = await db
    .selectFrom('releases')
    .select('released_at')
    .where('phase', '=', phase)
    .executeTakeFirst()
  return r?.released_at ?? null
}

/** Whether scores of a phase may be shown to participants now. */
export async function isPublic(db: Db, phase: PhaseConfig, now: Date): Promise<boolean> {
  return phasePublic(phase, await releasedAt(db, phase.id), now)
}

/** The scored candidates of a board: per submission its newest score, or its newest score against one qrels version. */
async function candidatesOf(
  db: Db,
  track: Track,
  phaseId: string,
  qrelsVersion?: number,
): Promise<BoardCandidate[]> {
  let q = db
    .selectFrom('submissions')
    .innerJoin('teams', 'teams.id', 'submissions.team_id')
    .innerJoin('scores', 'scores.submission_id', 'submissions.id')
    .select([
      'submissions.id',
      'submissions.team_id',
      'teams.name',
      'teams.is_baseline',
      'teams.anonymous',
      'submissions.state',
      'submissions.created_at',
      'submissions.original_name',
      'scores.id as score_id',
      'scores.primary_value',
      'scores.columns',
      'scores.version',
    ])
    .where('submissions.track', '=', track.id)
    .where('submissions.phase', '=', phaseId)
    .where('submissions.state', '=', 'scored')
  if (qrelsVersion !== undefined) q = q.where('scores.qrels_version', '=', qrelsVersion)
  const rows = await q.execute()
  const latest = new Map<string, (typeof rows)[number]>()
  for (const r of rows) if ((latest.get(r.id)?.version ?? 0) < r.version) latest.set(r.id, r)
  return [...latest.values()].map((r) => {
    const all = JSON.parse(r.columns) as Record<string, number | null>
    return {
      submissionId: r.id,
      teamId: r.team_id,
      teamName: r.name,
      baseline: r.is_baseline === 1,
      anonymous: r.anonymous === 1,
      state: r.state,
      primary: r.primary_value,
      columns: Object.fromEntries(
        [...track.shownColumns, ...(track.judging?.tableColumns ?? [])].map((c) => [
          c,
          all[c] ?? null,
        ]),
      ),
      createdAt: r.created_at,
      runName: r.original_name,
      scoreId: r.score_id,
    }
  })
}

/**
 * Per-domain means of per-query values whose ids are `domain/topic` (RETECO tracks): the
 * domains in natural order, and per entry each domain's mean (null when it has no value there).
 */
export function domainBreakdown(perQuery: readonly PerQueryPrimary[]): {
  domains: string[]
  means: (Record<string, number | null> | null)[]
} {
  const all = new Set<string>()
  const means = perQuery.map((m) => {
    if (!m) return null
    const sums = new Map<string, [number, number]>()
    for (const [q, v] of m) {
      const cut = q.indexOf('/')
      if (cut < 0) continue
      const d = q.slice(0, cut)
      all.add(d)
      const s = sums.get(d) ?? [0, 0]
      s[0] += v
      s[1]++
      sums.set(d, s)
    }
    return Object.fromEntries([...sums].map(([d, [sum, n]]) => [d, sum / n]))
  })
  const domains = [...all].sort(
    (x, y) => x.localeCompare(y, 'en', { numeric: true }) || (x < y ? -1 : x > y ? 1 : 0),
  )
  return {
    domains,
    means: means.map((m) => (m ? Object.fromEntries(domains.map((d) => [d, m[d] ?? null])) : null)),
  }
}

/**
 * Turn-depth means of per-query values whose ids are `domain/<conv>_turn_<n>` (RETECO Track 2),
 * pooled over domains: the buckets T1 … T4, T5+ (and T? for ids without a turn number) that
 * hold a turn, and per entry each bucket's mean (null when it has no value there). The buckets
 * are those of `trecscore score --preset reteco-2a` (its "Turn depth (pooled)" table).
 */
export function turnDepthBreakdown(perQuery: readonly PerQueryPrimary[]): {
  buckets: string[]
  means: (Record<string, number | null> | null)[]
} {
  const all = new Set<string>()
  const means = perQuery.map((m) => {
    if (!m) return null
    const sums = new Map<string, [number, number]>()
    for (const [q, v] of m) {
      const cut = q.indexOf('/')
      if (cut < 0) continue
      const b = turnBucket(parseTurnTopic(q.slice(cut + 1)).turnId)
      all.add(b)
      const s = sums.get(b) ?? [0, 0]
      s[0] += v
      s[1]++
      sums.set(b, s)
    }
    return Object.fromEntries([...sums].map(([b, [sum, n]]) => [b, sum / n]))
  })
  const buckets = TURN_BUCKETS.filter((b) => all.has(b))
  return {
    buckets,
    means: means.map((m) => (m ? Object.fromEntries(buckets.map((b) => [b, m[b] ?? null])) : null)),
  }
}

/** Per ranked entry, its per-query values of the primary measure (read from its score row). */
async function primaryPerQuery(
  db: Db,
  track: Track,
  entries: readonly BoardEntry[],
): Promise<PerQueryPrimary[]> {
  const ids = entries.map((e) => e.scoreId).filter((i): i is number => i !== undefined)
  const rows = ids.length
    ? await db.selectFrom('scores').select(['id', 'per_query']).where('id', 'in', ids).execute()
    : []
  const byId = new Map(rows.map((r) => [r.id, r.per_query]))
  const keys = [measureName(track.primary) ?? track.primary, track.primary]
  return entries.map((e) => {
    const raw = e.scoreId === undefined ? undefined : byId.get(e.scoreId)
    if (raw === undefined) return null
    const m = new Map<string, number>()
    for (const q of JSON.parse(raw) as { query: string; values: Record<string, number | null> }[]) {
      const v = q.values[keys[0]!] ?? q.values[keys[1]!]
      if (typeof v === 'number' && Number.isFinite(v)) m.set(q.query, v)
    }
    return m.size ? m : null
  })
}

async function selectedOf(db: Db, track: string, phase: string): Promise<Set<string>> {
  return new Set(
    (
      await db
        .selectFrom('selections')
        .select('submission_id')
        .where('track', '=', track)
        .where('phase', '=', phase)
        .execute()
    ).map((r) => r.submission_id),
  )
}

/** The newest qrels version of a board, and its re-scoring jobs still waiting or running. */
export async function qrelsState(
  db: Db,
  track: string,
  phase: string,
): Promise<{ qrelsVersion: number; rescoring: number }> {
  const v = await db
    .selectFrom('qrels_versions')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('track', '=', track)
    .where('phase', '=', phase)
    .executeTakeFirst()
  const pending = await db
    .selectFrom('rescores')
    .innerJoin('submissions', 'submissions.id', 'rescores.submission_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('submissions.track', '=', track)
    .where('submissions.phase', '=', phase)
    .where('rescores.state', 'in', ['queued', 'scoring'])
    .executeTakeFirst()
  return { qrelsVersion: Number(v?.v ?? 1), rescoring: Number(pending?.n ?? 0) }
}

/** The ranked entries of a board, unpublished (with team ids and score rows): for the release snapshot. */
export async function rankedEntries(
  db: Db,
  competition: Competition,
  track: Track,
  phaseId: string,
): Promise<BoardEntry[]> {
  return rankBoard(
    await candidatesOf(db, track, phaseId),
    competition.limits.counts,
    await selectedOf(db, track.id, phaseId),
  )
}

/** Load and rank the board of a track and phase (null when either is unknown). */
export async function loadBoard(
  db: Db,
  competition: Competition,
  trackId: string,
  phaseId: string,
  now: Date,
): Promise<Board | null> {
  const track = competition.tracks.find((t) => t.id === trackId)
  const phase = competition.phases.find((p) => p.id === phaseId)
  if (!track || !phase) return null
  const sig = competition.significance
  const base = {
    track: track.id,
    phase: phase.id,
    primary: track.primary,
    columns: track.shownColumns,
    judge: boardJudge(track),
    counts: competition.limits.counts,
    tiePolicy: TIE_POLICY,
    tierPolicy: sig.enabled ? tierPolicy(sig) : null,
    ...(await qrelsState(db, track.id, phase.id)),
  }
  if (!(await isPublic(db, phase, now)))
    return { ...base, domains: [], turnDepths: [], released: false, entries: [] }
  const ranked = await rankedEntries(db, competition, track, phase.id)
  const perQuery =
    sig.enabled || track.kind === 'reteco' ? await primaryPerQuery(db, track, ranked) : []
  const tiers = sig.enabled ? computeTiers(perQuery, sig) : []
  const split = track.kind === 'reteco' ? domainBreakdown(perQuery) : { domains: [], means: [] }
  const depth = runIsDirectory(track) ? turnDepthBreakdown(perQuery) : { buckets: [], means: [] }
  return {
    ...base,
    domains: split.domains,
    turnDepths: depth.buckets,
    released: true,
    entries: ranked.map((e, i) => ({
      ...publish(e),
      tier: tiers[i]?.tier ?? null,
      pTierHead: tiers[i]?.pHead ?? null,
      pAbove: tiers[i]?.pAbove ?? null,
      domains: split.means[i] ?? null,
      turnDepth: depth.means[i] ?? null,
    })),
  }
}

/** One side of a diff row. */
export interface DiffSide {
  readonly rank: number
  readonly primary: number
  /** Null for an anonymous team. */
  readonly run: string | null
}

/** One team (or baseline run) in a diff of two qrels versions. */
export interface DiffRow {
  readonly team: string
  readonly anonymous: boolean
  readonly baseline: boolean
  /** Null: not on the board under that version. */
  readonly from: DiffSide | null
  readonly to: DiffSide | null
  /** Places moved up (from.rank − to.rank); null when on one side only. */
  readonly rankChange: number | null
}

/** How a board's ranks change between two qrels versions. */
export interface BoardDiff {
  readonly track: string
  readonly phase: string
  readonly primary: string
  readonly from: number
  readonly to: number
  readonly released: boolean
  readonly rows: readonly DiffRow[]
}

/**
 * The board ranked under qrels version `from` and under `to` (each submission by its newest
 * score against that version), row by row: per team its counting entry, per baseline run its
 * own. Rows follow the `to` ranking, then entries only ranked under `from`. Hidden phases
 * show no rows until released; anonymous teams appear by alias.
 */
export async function loadBoardDiff(
  db: Db,
  competition: Competition,
  trackId: string,
  phaseId: string,
  from: number,
  to: number,
  now: Date,
): Promise<BoardDiff | null> {
  const track = competition.tracks.find((t) => t.id === trackId)
  const phase = competition.phases.find((p) => p.id === phaseId)
  if (!track || !phase) return null
  const base = { track: track.id, phase: phase.id, primary: track.primary, from, to }
  if (!(await isPublic(db, phase, now))) return { ...base, released: false, rows: [] }
  const selected = await selectedOf(db, track.id, phase.id)
  const rank = async (v: number): Promise<Map<string, PublicEntry>> =>
    new Map(
      rankBoard(
        await candidatesOf(db, track, phase.id, v),
        competition.limits.counts,
        selected,
      ).map((e) => [e.baseline ? `b:${e.submissionId}` : `t:${e.teamId}`, publish(e)]),
    )
  const a = await rank(from)
  const b = await rank(to)
  const side = (e: PublicEntry | undefined): DiffSide | null =>
    e ? { rank: e.rank, primary: e.primary, run: e.run } : null
  const keys = [...b.keys(), ...[...a.keys()].filter((k) => !b.has(k))]
  const rows = keys.map((k) => {
    const x = a.get(k)
    const y = b.get(k)
    const e = (y ?? x)!
    return {
      team: e.team,
      anonymous: e.anonymous,
      baseline: e.baseline,
      from: side(x),
      to: side(y),
      rankChange: x && y ? x.rank - y.rank : null,
    }
  })
  return { ...base, released: true, rows }
}
