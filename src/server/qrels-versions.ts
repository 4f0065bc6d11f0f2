/**
 * Qrels versions. Version 1 of a track and phase is the config's qrels file; an organizer adds
 * version 2, 3, … (for example after assessment). Adding one re-scores every scored submission
 * of that track and phase against it as a new score version (the old versions are kept), and
 * new submissions are scored against the newest version. Tracks bound to a RETECO data folder
 * keep their folder's qrels (one file per domain) and take no versions here.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { formatIssue, InputError, isTrecscoreError, readQrels } from '../index.js'
import { newId } from './auth/tokens.js'
import type { Track } from './config/load.js'
import type { PhaseConfig } from './config/schema.js'
import type { ServerContext } from './context.js'
import type { Db } from './db/database.js'

/** A qrels version of a track and phase (the newest when `version` is omitted), and the track as the worker must see it to score against it. */
export async function currentQrels(
  db: Db,
  track: Track,
  phase: PhaseConfig,
  dataDir: string,
  version?: number,
): Promise<{ version: number; track: Track }> {
  let q = db
    .selectFrom('qrels_versions')
    .select(['version', 'file'])
    .where('track', '=', track.id)
    .where('phase', '=', phase.id)
  if (version !== undefined) q = q.where('version', '=', version)
  const row = await q.orderBy('version', 'desc').limit(1).executeTakeFirst()
  if (!row) return { version: 1, track }
  // The scorer reads `join(track.dataDir, qrels[phase])`: point it at the stored version.
  return {
    version: row.version,
    track: {
      ...track,
      qrels: { ...track.qrels, [phase.id]: relative(track.dataDir, join(dataDir, row.file)) },
    },
  }
}

/** Every version of a track and phase, oldest first (version 1 is the config's file). */
export async function qrelsVersions(
  db: Db,
  track: Track,
  phase: PhaseConfig,
): Promise<{ version: number; note: string; createdAt: string | null; sha256: string | null }[]> {
  const rows = await db
    .selectFrom('qrels_versions')
    .selectAll()
    .where('track', '=', track.id)
    .where('phase', '=', phase.id)
    .orderBy('version')
    .execute()
  return [
    { version: 1, note: 'the qrels of the competition config', createdAt: null, sha256: null },
    ...rows.map((r) => ({
      version: r.version,
      note: r.note,
      createdAt: r.created_at,
      sha256: r.sha256,
    })),
  ]
}

/** A refused qrels version (bad file, RETECO track). */
export class QrelsVersionError extends Error {
  override readonly name = 'QrelsVersionError'
}

/**
 * Store a new qrels version (checked by the qrels reader first) and queue the re-scoring of
 * every scored (or scoring) submission of the track and phase against it.
 */
export async function addQrelsVersion(
  ctx: ServerContext,
  opts: { track: Track; phase: PhaseConfig; bytes: Uint8Array; note: string; userId: string },
): Promise<{ version: number; rescoring: number }> {
  const { track, phase } = opts
  if (track.kind === 'reteco')
    throw new QrelsVersionError(
      `track ${track.id} reads its qrels from its RETECO data folder (one file per domain); update the folder and restart instead`,
    )
  if (opts.bytes.length === 0) throw new QrelsVersionError('the qrels file is empty')
  const { version: current } = await currentQrels(ctx.db, track, phase, ctx.dataDir)
  const version = current + 1
  const sha256 = createHash('sha256').update(opts.bytes).digest('hex')
  const rel = join('qrels', track.id, phase.id, `v${version}-${sha256.slice(0, 12)}.txt`)
  const file = join(ctx.dataDir, rel)
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, opts.bytes)
  try {
    const q = await readQrels(file)
    if (q.queries.size === 0) throw new QrelsVersionError('the qrels file has no judgments')
  } catch (e) {
    rmSync(file, { force: true })
    if (e instanceof QrelsVersionError) throw e
    const what =
      e instanceof InputError
        ? e.issues.slice(0, 3).map(formatIssue).join('; ')
        : isTrecscoreError(e)
          ? (e as Error).message.split('\n')[0]!
          : null
    if (what !== null)
      throw new QrelsVersionError(`not a valid qrels file: ${what.split(file).join('qrels.txt')}`)
    throw e
  }
  const now = ctx.now().toISOString()
  const rescoring = await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('qrels_versions')
      .values({
        track: track.id,
        phase: phase.id,
        version,
        file: rel,
        sha256,
        note: opts.note.slice(0, 500),
        created_by: opts.userId,
        created_at: now,
      })
      .execute()
    const subs = await trx
      .selectFrom('submissions')
      .select('id')
      .where('track', '=', track.id)
      .where('phase', '=', phase.id)
      .where('state', 'in', ['scored', 'scoring'])
      .execute()
    for (const s of subs)
      await trx
        .insertInto('rescores')
        .values({
          id: newId(),
          submission_id: s.id,
          qrels_version: version,
          state: 'queued',
          attempts: 0,
          reason: null,
          created_at: now,
        })
        .execute()
    return subs.length
  })
  ctx.topics.invalidate(track.id, phase.id)
  ctx.kick()
  return { version, rescoring }
}
