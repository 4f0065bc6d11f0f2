/**
 * Organizer controls of judged tracks: pause and resume the judging of a track and phase, and
 * re-judge its scored submissions under the judge config now in force.
 *
 * - **Pause.** A paused (track, phase) starts no judging job: its queued submissions and
 *   re-judging jobs stay queued (the SQLite supervisor skips them; a Postgres worker leaves the
 *   job to the dispatcher, which sends it again every few seconds) until it is resumed. A job
 *   already judging finishes.
 * - **Score versions.** A judged score is written under the scorer version
 *   `TRECSCORE_VERSION+judge.HASH12` (the judge config hash; `+bertscore.H8` with a BERTScore
 *   model), so a score is kept once per
 *   (submission, qrels version, trecscore version, judge config): judging again under the same
 *   config adds nothing, under a new one adds a new score version, and the old ones are kept.
 * - **Re-judge.** Queues a re-scoring job for every scored submission of the track and phase
 *   whose newest score was made under another judge config (or none); the others are counted
 *   as already judged under this config.
 */
import { createHash } from 'node:crypto'
import { newId } from '../auth/tokens.js'
import type { Track } from '../config/load.js'
import type { PhaseConfig } from '../config/schema.js'
import type { Db } from '../db/database.js'
import { currentRequestId } from '../ops/log.js'
import { currentQrels } from '../qrels-versions.js'
import { TRECSCORE_VERSION } from '../scoring.js'

/** The scorer version a track's scores are written under (see the module comment). */
export function scorerVersion(track: Track | undefined): string {
  const j = track?.judging
  if (!j) return TRECSCORE_VERSION
  // A BERTScore column (a model folder and layer) is part of what a score was made under.
  const bert = j.bertscore
    ? `+bertscore.${createHash('sha256')
        .update(`${j.bertscore.modelDir}\u0000${j.bertscore.layer ?? ''}`)
        .digest('hex')
        .slice(0, 8)}`
    : ''
  return `${TRECSCORE_VERSION}+judge.${j.configHash.slice(0, 12)}${bert}`
}
/** The paused (track, phase) pairs, as `track\0phase`. */
export async function pausedJudging(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('judging_pauses').select(['track', 'phase']).execute()
  return new Set(rows.map((r) => `${r.track}\u0000${r.phase}`))
}

/** Pause or resume the judging of a track and phase; returns whether anything changed. */
export async function setJudgingPaused(
  db: Db,
  track: string,
  phase: string,
  paused: boolean,
  userId: string,
  now: Date,
): Promise<boolean> {
  if (!paused) {
    const r = await db
      .deleteFrom('judging_pauses')
      .where('track', '=', track)
      .where('phase', '=', phase)
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }
  const had = await db
    .selectFrom('judging_pauses')
    .select('track')
    .where('track', '=', track)
    .where('phase', '=', phase)
    .executeTakeFirst()
  if (had) return false
  await db
    .insertInto('judging_pauses')
    .values({ track, phase, paused_by: userId, paused_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['track', 'phase']).doNothing())
    .execute()
  return true
}

/** Queue the re-judging of a judged track and phase (see the module comment). */
export async function queueRejudging(
  db: Db,
  track: Track,
  phase: PhaseConfig,
  dataDir: string,
  now: Date,
): Promise<{ queued: number; alreadyJudged: number; version: string }> {
  const version = scorerVersion(track)
  const qrels = (await currentQrels(db, track, phase, dataDir)).version
  return db.transaction().execute(async (trx) => {
    const subs = await trx
      .selectFrom('submissions')
      .select('id')
      .where('track', '=', track.id)
      .where('phase', '=', phase.id)
      .where('state', '=', 'scored')
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    let queued = 0
    let alreadyJudged = 0
    for (const s of subs) {
      const newest = await trx
        .selectFrom('scores')
        .select('scorer_version')
        .where('submission_id', '=', s.id)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirst()
      const pending = await trx
        .selectFrom('rescores')
        .select('id')
        .where('submission_id', '=', s.id)
        .where('state', 'in', ['queued', 'scoring'])
        .executeTakeFirst()
      if (newest?.scorer_version === version || pending) {
        alreadyJudged++
        continue
      }
      await trx
        .insertInto('rescores')
        .values({
          id: newId(),
          submission_id: s.id,
          qrels_version: qrels,
          state: 'queued',
          attempts: 0,
          reason: null,
          created_at: now.toISOString(),
          request_id: currentRequestId() ?? null,
        })
        .execute()
      queued++
    }
    return { queued, alreadyJudged, version }
  })
}
