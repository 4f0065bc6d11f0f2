/**
 * Taking a submission: the checks before any byte is stored (track, phase open, metadata,
 * the team's limits), the streamed upload under the limits, validation with the validator of
 * `trecscore validate`, and only then the stored, charged, queued submission. An upload that
 * fails any step leaves nothing behind and costs nothing.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { newId } from './auth/tokens.js'
import { findPhase, findTrack, runIsDirectory, type Track } from './config/load.js'
import type { MetadataField, UploadLimits } from './config/schema.js'
import type { ServerContext } from './context.js'
import type { Db } from './db/database.js'
import { budgetHold, budgetRefusal } from './judging/budget.js'
import { arrangeGenerationUpload, validateGenerationUpload } from './judging/upload.js'
import { currentRequestId } from './ops/log.js'
import { currentQrels } from './qrels-versions.js'
import { validateSubmission } from './scoring.js'
import { directoryDigest, type ReceivedRun, receiveRun, UploadRejected } from './storage/upload.js'
import { TopicListMissing } from './topic-cache.js'

/** One file of a submission sent as several (a per-domain run). */
export interface UploadFile {
  /** The file name as sent (only its last path segment is kept). */
  readonly name: string
  readonly body: AsyncIterable<Uint8Array>
}

/** What a submission attempt came to. */
export type SubmitOutcome =
  | { readonly kind: 'accepted'; readonly id: string }
  | {
      readonly kind: 'rejected'
      readonly status: 400 | 403 | 404 | 413 | 422 | 429 | 503
      readonly message: string
      readonly report?: string
    }

/** What a team sends. */
export interface SubmitRequest {
  readonly teamId: string
  readonly userId: string | null
  readonly track: string
  readonly phase: string
  /** The file name as sent (only its last path segment is kept); the run's name for `files`. */
  readonly name: string
  readonly metadata: Readonly<Record<string, unknown>>
  /** The run as one file; or `files`. */
  readonly body?: AsyncIterable<Uint8Array>
  /**
   * The run as several files, read one after the other (a multipart upload): one per domain
   * for RETECO (stored as a directory named `name`, as `trecscore score` reads a per-domain
   * run). Tracks of one-file runs take exactly one.
   */
  readonly files?: AsyncIterable<UploadFile> | Iterable<UploadFile>
  /** Organizer baselines: no phase window, no limits, not charged. */
  readonly baseline?: boolean
}

function fieldSchema(f: MetadataField): z.ZodType {
  switch (f.type) {
    case 'boolean':
      return z.union([z.boolean(), z.enum(['true', 'false', 'on']).transform((v) => v !== 'false')])
    case 'string':
      return z.string().max(f.maxLength)
    case 'integer': {
      let n = z.coerce.number().int()
      if (f.min !== undefined) n = n.min(f.min)
      if (f.max !== undefined) n = n.max(f.max)
      return n
    }
    case 'enum':
      return z.enum(f.values as [string, ...string[]])
  }
}

/** The zod schema of a competition's run metadata (unknown keys refused). */
export function metadataSchema(
  fields: readonly MetadataField[],
): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {}
  for (const f of fields) shape[f.name] = f.required ? fieldSchema(f) : fieldSchema(f).optional()
  return z.strictObject(shape) as unknown as z.ZodType<Record<string, unknown>>
}

/** The stored-file name: the last path segment, restricted to safe characters. */
export function safeName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? ''
  const clean = last
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100)
  return clean.length ? clean : 'run.txt'
}

/**
 * Why the team may not submit to this track and phase now (its concurrent, daily or phase
 * limit), or null. Checked before an upload is read, and again in the transaction that stores
 * it (`db`), so uploads in flight at once cannot pass a limit together.
 */
async function limitRefusal(
  ctx: ServerContext,
  teamId: string,
  track: string,
  phase: string,
  db: Db = ctx.db,
): Promise<string | null> {
  const l = ctx.competition.limits
  const left = await remaining(ctx, teamId, track, phase, db)
  return left.concurrent <= 0
    ? `your team has ${l.concurrent} submission(s) queued or scoring; wait for one to finish`
    : left.day <= 0
      ? `your team used its ${l.perDay} submissions of the last 24 hours for track ${track}`
      : left.phase <= 0
        ? `your team used its ${l.perPhase} submissions of phase ${phase} for track ${track}`
        : null
}

/** Submissions of a team that count against its limits, for a track (and phase), since an instant. */
async function charged(
  db: Db,
  teamId: string,
  track: string,
  phase: string | null,
  since: string | null,
): Promise<number> {
  let q = db
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('track', '=', track)
    .where('charged', '=', 1)
  if (phase !== null) q = q.where('phase', '=', phase)
  if (since !== null) q = q.where('created_at', '>', since)
  return Number((await q.executeTakeFirst())?.n ?? 0)
}

/**
 * The team's remaining allowance for a track and phase (shown on its page); `db` may be the
 * transaction that takes the next submission.
 */
export async function remaining(
  ctx: ServerContext,
  teamId: string,
  track: string,
  phase: string,
  db: Db = ctx.db,
): Promise<{ day: number; phase: number; concurrent: number }> {
  const l = ctx.competition.limits
  const day = await charged(
    db,
    teamId,
    track,
    null,
    new Date(ctx.now().getTime() - 86_400_000).toISOString(),
  )
  const inPhase = await charged(db, teamId, track, phase, null)
  const active = await db
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('state', 'in', ['queued', 'scoring'])
    .executeTakeFirst()
  return {
    day: l.perDay - day,
    phase: l.perPhase - inPhase,
    concurrent: l.concurrent - Number(active?.n ?? 0),
  }
}

async function drainBody(body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _ of body) void _
}

async function drain(req: SubmitRequest): Promise<void> {
  if (req.body) await drainBody(req.body)
  if (req.files) for await (const f of req.files) await drainBody(f.body)
}

/** The upload written under `tmp`: one file, or a directory of files; what it took of the limits. */
interface Received {
  readonly path: string
  readonly sha256: string
  readonly bytes: number
}

async function receiveAll(
  req: SubmitRequest,
  track: Track,
  tmp: string,
  name: string,
  limits: UploadLimits,
): Promise<Received> {
  const asDir = runIsDirectory(track)
  if (req.body && !asDir) {
    const r = await receiveRun(req.body, join(tmp, name), limits)
    return { path: r.file, sha256: r.sha256, bytes: r.bytes }
  }
  const files: { name: string; run: ReceivedRun }[] = []
  const parts = join(tmp, 'parts')
  mkdirSync(parts)
  let used = { bytesSent: 0, bytes: 0, lines: 0 }
  const one = async (fileName: string, body: AsyncIterable<Uint8Array>): Promise<void> => {
    const safe = safeName(fileName)
    if (files.some((f) => f.name === safe)) {
      await drainBody(body)
      throw new UploadRejected(`two files named ${safe} in one upload`, 400)
    }
    const run = await receiveRun(body, join(parts, safe), limits, used)
    used = {
      bytesSent: used.bytesSent + run.bytesSent,
      bytes: used.bytes + run.bytes,
      lines: used.lines + run.lines,
    }
    files.push({ name: safe, run })
  }
  if (req.body) await one(name, req.body)
  for await (const f of req.files ?? []) await one(f.name, f.body)
  if (files.length === 0) throw new UploadRejected('the upload has no run file', 400)
  if (!asDir && files.length > 1 && track.kind !== 'reteco')
    throw new UploadRejected(`track ${track.id} takes one run file, not ${files.length}`, 400)
  if (!asDir && files.length === 1) {
    const f = files[0]!
    renameSync(f.run.file, join(tmp, name))
    return { path: join(tmp, name), sha256: f.run.sha256, bytes: f.run.bytes }
  }
  // A per-domain run: a directory named after the run, one file per domain.
  renameSync(parts, join(tmp, name))
  return {
    path: join(tmp, name),
    sha256: directoryDigest(files.map((f) => ({ name: f.name, sha256: f.run.sha256 }))),
    bytes: used.bytes,
  }
}

/** Whether the submission row `id` exists; false when the database cannot tell either. */
async function rowExists(ctx: ServerContext, id: string): Promise<boolean> {
  try {
    return (
      (await ctx.db
        .selectFrom('submissions')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst()) !== undefined
    )
  } catch {
    return false
  }
}

/** Take one submission (see the module comment). */
export async function submitRun(ctx: ServerContext, req: SubmitRequest): Promise<SubmitOutcome> {
  const reject = async (
    status: 400 | 403 | 404 | 413 | 422 | 429 | 503,
    message: string,
    report?: string,
  ): Promise<SubmitOutcome> => {
    return { kind: 'rejected', status, message, ...(report !== undefined ? { report } : {}) }
  }
  const track = findTrack(ctx.competition, req.track)
  const phase = findPhase(ctx.competition, req.phase)
  if (!track || !phase) {
    await drain(req)
    return reject(404, `no track '${req.track}' with phase '${req.phase}'`)
  }
  const now = ctx.now()
  if (!req.baseline && (now.toISOString() < phase.start || now.toISOString() >= phase.end)) {
    await drain(req)
    return reject(
      403,
      `phase ${phase.id} accepts submissions from ${phase.start} to ${phase.end} (UTC); server time is ${now.toISOString()}`,
    )
  }
  const meta = req.baseline
    ? { success: true as const, data: req.metadata }
    : metadataSchema(ctx.competition.metadata).safeParse(req.metadata)
  if (!meta.success) {
    await drain(req)
    return reject(
      400,
      `run metadata: ${meta.error.issues.map((i) => `${i.path.join('.') || '(metadata)'}: ${i.message}`).join('; ')}`,
    )
  }
  if (!req.baseline) {
    const why = await limitRefusal(ctx, req.teamId, track.id, phase.id)
    if (why) {
      await drain(req)
      return reject(429, why)
    }
  }
  const id = newId()
  const name = safeName(req.name)
  const tmp = join(ctx.tmpDir, id)
  mkdirSync(tmp, { recursive: true })
  try {
    let received: Received
    try {
      received = await receiveAll(req, track, tmp, name, ctx.competition.upload)
    } catch (e) {
      if (e instanceof UploadRejected) return reject(e.status, e.message)
      throw e
    }
    // RETECO tracks check the topics of their newest qrels version's data folder.
    const checked =
      track.kind === 'reteco'
        ? (await currentQrels(ctx.db, track, phase, ctx.dataDir)).track
        : track
    if (track.judging) arrangeGenerationUpload(received.path)
    let topics: ReadonlySet<string> | undefined
    try {
      topics = phase.hidden ? undefined : await ctx.topics.topics(track, phase)
    } catch (e) {
      if (e instanceof TopicListMissing) return reject(503, e.message)
      throw e
    }
    // A web process without the qrels checks a RETECO run's format only (as for a hidden
    // phase); the worker's scoring reads the data folder and reports what it finds there.
    const v = track.judging
      ? await validateGenerationUpload(checked, phase, received.path, name)
      : await validateSubmission(
          checked,
          phase,
          received.path,
          name,
          ctx.competition.upload.maxLineBytes,
          topics,
          phase.hidden || !ctx.holdsQrels,
        )
    if (!v.ok)
      return reject(422, `the run has ${v.errors} error(s); nothing was stored or charged`, v.text)
    const hold =
      track.judging && !req.baseline ? await budgetHold(ctx, checked, phase, received.path) : null
    // Stored before its row, outside any transaction (a run may be 400 MB; see run-store.ts).
    const store = ctx.runs.write
    const file = await store.put(id, name, received.path)
    const insert = async (db: Db): Promise<void> => {
      await db
        .insertInto('submissions')
        .values({
          id,
          team_id: req.teamId,
          user_id: req.userId,
          track: track.id,
          phase: phase.id,
          state: 'queued',
          reason: null,
          charged: req.baseline ? 0 : 1,
          original_name: name,
          file,
          run_sha256: received.sha256,
          bytes: received.bytes,
          metadata: JSON.stringify(meta.data),
          attempts: 0,
          created_at: now.toISOString(),
          started_at: null,
          finished_at: null,
          request_id: currentRequestId() ?? null,
          judge_estimate: hold?.estimate.cost ?? null,
        })
        .execute()
    }
    // A team's submission: its limits again, and its budget, checked in the transaction of the
    // insert (one writer at a time on either backend), so uploads in flight at once see each
    // other: none passes a limit or a budget that only its neighbour's row would have stopped.
    let refused: { status: 403 | 429; message: string; report?: string } | null = null
    try {
      if (req.baseline) await insert(ctx.db)
      else
        refused = await ctx.db.transaction().execute(async (trx) => {
          const why = await limitRefusal(ctx, req.teamId, track.id, phase.id, trx)
          if (why) return { status: 429 as const, message: why }
          const r =
            hold === null ? null : await budgetRefusal(trx, checked, phase, req.teamId, hold)
          if (r) return { status: 403 as const, ...r }
          await insert(trx)
          return null
        })
    } catch (e) {
      // The database failed under the insert (a lost connection, a restarting server): if the
      // row is there after all (the commit made it, its answer did not) the upload is taken;
      // otherwise the stored run goes too, so no run is kept without its row, and the
      // client gets the error (a 500): nothing was stored or charged. (Chunks the database
      // store could not remove now are swept an hour later.)
      if (!(await rowExists(ctx, id))) {
        await store.remove(id).catch(() => undefined)
        throw e
      }
    }
    if (refused !== null) {
      await store.remove(id).catch(() => undefined)
      return reject(refused.status, refused.message, refused.report)
    }
    ctx.kick()
    return { kind: 'accepted', id }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** What selecting the counting submission came to. */
export type SelectOutcome =
  | {
      readonly kind: 'selected'
      readonly id: string
      readonly track: string
      readonly phase: string
    }
  | { readonly kind: 'refused'; readonly status: 403 | 404 | 409; readonly message: string }

/**
 * Make one of a team's submissions the one that counts for its track and phase
 * (`limits.counts: "selected"`). Only while the phase is open, so nobody picks after seeing
 * test scores; a failed submission cannot count; another team's id is 404 like an unknown one.
 */
export async function selectSubmission(
  ctx: ServerContext,
  teamId: string,
  id: string,
): Promise<SelectOutcome> {
  const s = await ctx.db
    .selectFrom('submissions')
    .select(['id', 'track', 'phase', 'state'])
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .executeTakeFirst()
  if (!s) return { kind: 'refused', status: 404, message: 'not found' }
  if (ctx.competition.limits.counts !== 'selected')
    return {
      kind: 'refused',
      status: 403,
      message: `this competition counts each team's ${ctx.competition.limits.counts} submission; there is nothing to select`,
    }
  const phase = findPhase(ctx.competition, s.phase)
  const now = ctx.now().toISOString()
  if (!phase || now < phase.start || now >= phase.end)
    return {
      kind: 'refused',
      status: 403,
      message: `phase ${s.phase} is closed: the counting submission can be chosen only while it is open`,
    }
  if (s.state === 'failed')
    return {
      kind: 'refused',
      status: 409,
      message: 'a failed submission cannot count; select another',
    }
  await ctx.db
    .insertInto('selections')
    .values({
      team_id: teamId,
      track: s.track,
      phase: s.phase,
      submission_id: s.id,
      selected_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['team_id', 'track', 'phase'])
        .doUpdateSet({ submission_id: s.id, selected_at: now }),
    )
    .execute()
  return { kind: 'selected', id: s.id, track: s.track, phase: s.phase }
}
