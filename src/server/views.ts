/**
 * What a viewer may see of submissions, with the isolation rules in one place:
 * - a member sees only its own team's submissions; any other id is "not found" (404), exactly
 *   like an id that does not exist;
 * - scores of a hidden phase are shown to nobody but organizers until the phase is released;
 * - per-query values only for phases that are not hidden (never for a test phase).
 */
import { isPublic } from './board.js'
import { findPhase } from './config/load.js'
import type { ServerContext, Viewer } from './context.js'
import type { SubmissionRow, SubmissionView } from './web/team-pages.js'

async function selectedIds(ctx: ServerContext, teamId: string): Promise<Set<string>> {
  return new Set(
    (
      await ctx.db
        .selectFrom('selections')
        .select('submission_id')
        .where('team_id', '=', teamId)
        .execute()
    ).map((r) => r.submission_id),
  )
}

/** The submissions of a team, newest first, scores only where visible. */
export async function teamSubmissions(
  ctx: ServerContext,
  teamId: string,
): Promise<SubmissionRow[]> {
  const rows = await ctx.db
    .selectFrom('submissions')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute()
  const selected = await selectedIds(ctx, teamId)
  const out: SubmissionRow[] = []
  for (const r of rows) {
    const phase = findPhase(ctx.competition, r.phase)
    const visible = phase !== undefined && (await isPublic(ctx.db, phase, ctx.now()))
    const score =
      visible && r.state === 'scored'
        ? await ctx.db
            .selectFrom('scores')
            .select('primary_value')
            .where('submission_id', '=', r.id)
            .orderBy('version', 'desc')
            .limit(1)
            .executeTakeFirst()
        : undefined
    out.push({
      id: r.id,
      track: r.track,
      phase: r.phase,
      state: r.state,
      reason: r.reason,
      name: r.original_name,
      createdAt: r.created_at,
      primary: score?.primary_value ?? null,
      selected: selected.has(r.id),
    })
  }
  return out
}

/** One submission as this viewer may see it, or null (unknown, or not the viewer's: 404 alike). */
export async function submissionView(
  ctx: ServerContext,
  viewer: Viewer,
  id: string,
): Promise<SubmissionView | null> {
  if (viewer.kind !== 'member' && viewer.kind !== 'organizer') return null
  let q = ctx.db
    .selectFrom('submissions')
    .innerJoin('teams', 'teams.id', 'submissions.team_id')
    .selectAll('submissions')
    .select('teams.name as team_name')
    .where('submissions.id', '=', id)
  if (viewer.kind === 'member') q = q.where('submissions.team_id', '=', viewer.teamId)
  const r = await q.executeTakeFirst()
  if (!r) return null
  const phase = findPhase(ctx.competition, r.phase)
  const scoresVisible =
    viewer.kind === 'organizer' ||
    (phase !== undefined && (await isPublic(ctx.db, phase, ctx.now())))
  const scores = scoresVisible
    ? await ctx.db
        .selectFrom('scores')
        .selectAll()
        .where('submission_id', '=', id)
        .orderBy('version', 'desc')
        .execute()
    : []
  const latest = scores[0]
  const perQueryAllowed = phase !== undefined && !phase.hidden
  return {
    id: r.id,
    track: r.track,
    phase: r.phase,
    state: r.state,
    reason: r.reason,
    name: r.original_name,
    createdAt: r.created_at,
    primary: latest?.primary_value ?? null,
    selected: (await selectedIds(ctx, r.team_id)).has(r.id),
    teamName: r.team_name,
    sha256: r.run_sha256,
    bytes: r.bytes,
    charged: r.charged === 1,
    attempts: r.attempts,
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    scoresVisible,
    versions: scores.map((s) => ({
      version: s.version,
      qrelsVersion: s.qrels_version,
      createdAt: s.created_at,
      columns: JSON.parse(s.columns) as Record<string, number | null>,
      notes: JSON.parse(s.notes) as { warnings: string[]; counts: Record<string, number> },
      provenance: JSON.parse(s.provenance) as Record<string, unknown>,
    })),
    perQuery:
      perQueryAllowed && latest
        ? (JSON.parse(latest.per_query) as SubmissionView['perQuery'])
        : null,
  }
}
