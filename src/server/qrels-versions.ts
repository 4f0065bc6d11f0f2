/**
 * Qrels versions. Version 1 of a track and phase is the config's qrels file; an organizer adds
 * version 2, 3, … (for example after assessment). Adding one re-scores every scored submission
 * of that track and phase against it as a new score version (the old versions are kept), and
 * new submissions are scored against the newest version.
 *
 * RETECO tracks read one qrels file per domain from their data folder (`track1_tempo/<domain>/
 * qrels_<split>.txt`, `qrels_steps_<split>.txt` for 1b, `track2_recor/<domain>/qrels_<split>.txt`).
 * A version of such a track is one or more files named after their domains (`biology.txt`):
 * the server writes a copy of the previous version's data folder (folders made, files linked,
 * nothing large copied) with those domains' qrels replaced, and the worker scores against that
 * folder exactly as `trecscore score --preset reteco-… --data FOLDER` would.
 */
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join, relative } from 'node:path'
import {
  formatIssue,
  InputError,
  isTrecscoreError,
  loadRetecoData,
  readQrels,
} from '../internal.js'
import { newId } from './auth/tokens.js'
import { runIsDirectory, type Track } from './config/load.js'
import type { PhaseConfig } from './config/schema.js'
import type { Db } from './db/database.js'
import { currentRequestId } from './ops/log.js'

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
  // A RETECO version is a data folder: the worker reads it in place of the track's.
  if (track.kind === 'reteco')
    return { version: row.version, track: { ...track, dataDir: join(dataDir, row.file) } }
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

/** A refused qrels version (a bad file, a file named after no domain of a RETECO track). */
export class QrelsVersionError extends Error {
  override readonly name = 'QrelsVersionError'
}

/** One uploaded qrels file. */
export interface QrelsUpload {
  /** The file name as sent (RETECO: names the domain, `<domain>` plus any extension). */
  readonly name: string
  readonly bytes: Uint8Array
}

/** Read a stored qrels file, or throw why it is not one (messages name `shown`, not the path). */
async function checkQrels(file: string, shown: string): Promise<void> {
  try {
    const q = await readQrels(file)
    if (q.queries.size === 0)
      throw new QrelsVersionError(`${shown}: the qrels file has no judgments`)
  } catch (e) {
    if (e instanceof QrelsVersionError) throw e
    const what =
      e instanceof InputError
        ? e.issues.slice(0, 3).map(formatIssue).join('; ')
        : isTrecscoreError(e)
          ? (e as Error).message.split('\n')[0]!
          : null
    if (what !== null)
      throw new QrelsVersionError(`not a valid qrels file: ${what.split(file).join(shown)}`)
    throw e
  }
}

/** Mirror a folder: sub-folders made, files linked to their real path (so copies of copies stay flat). */
function mirror(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const e of readdirSync(from)) {
    const src = join(from, e)
    if (statSync(src).isDirectory()) mirror(src, join(to, e))
    else symlinkSync(realpathSync(src), join(to, e))
  }
}

/** The domain a RETECO qrels file is named after (`biology.txt`, `biology`), among `domains`. */
function domainOfFile(name: string, domains: readonly string[]): string | null {
  // The longest domain that is the name or the name's part before a dot.
  let best: string | null = null
  for (const d of domains)
    if ((name === d || name.startsWith(`${d}.`)) && (best === null || d.length > best.length))
      best = d
  return best
}

/**
 * Write the data folder of a new RETECO qrels version under `dir`: the previous version's folder
 * mirrored, each uploaded domain's qrels file replaced. Throws {@link QrelsVersionError}.
 */
async function retecoVersionFolder(
  track: Track,
  previous: string,
  split: string,
  files: readonly QrelsUpload[],
  dir: string,
): Promise<void> {
  const trackDir = runIsDirectory(track) ? 'track2_recor' : 'track1_tempo'
  const root = join(previous, trackDir)
  let domains: string[]
  try {
    domains = readdirSync(root).filter((d) => statSync(join(root, d)).isDirectory())
  } catch {
    throw new QrelsVersionError(
      `track ${track.id}: its data folder has no ${trackDir}/ folder (the pilot layout takes no qrels versions)`,
    )
  }
  const byDomain = new Map<string, QrelsUpload>()
  for (const f of files) {
    const d = domainOfFile(f.name, domains)
    if (d === null)
      throw new QrelsVersionError(
        `${f.name}: name each qrels file after its domain (${domains.map((x) => `${x}.txt`).join(', ')})`,
      )
    if (byDomain.has(d)) throw new QrelsVersionError(`two qrels files for domain ${d}`)
    if (f.bytes.length === 0) throw new QrelsVersionError(`${f.name}: the qrels file is empty`)
    byDomain.set(d, f)
  }
  if (byDomain.size === 0) throw new QrelsVersionError('no qrels file was sent')
  mirror(previous, dir)
  const qrelsName = track.preset === 'reteco-1b' ? `qrels_steps_${split}.txt` : `qrels_${split}.txt`
  for (const [d, f] of byDomain) {
    const target = join(dir, trackDir, d, qrelsName)
    rmSync(target, { force: true })
    writeFileSync(target, f.bytes)
    await checkQrels(target, f.name)
  }
  // The folder must load as the scorer loads it.
  try {
    await loadRetecoData(dir, { split, tracks: [trackDir] })
  } catch (e) {
    if (!isTrecscoreError(e)) throw e
    throw new QrelsVersionError(
      `the data folder with these qrels does not load: ${(e as Error).message.split(dir).join('DATA').split('\n')[0]}`,
    )
  }
}

/**
 * What {@link addQrelsVersion} reads of the server context (a `ServerContext` has it all;
 * declared here so that this module does not import `context.ts`, which imports the topic
 * cache, which imports this module).
 */
export interface QrelsVersionContext {
  readonly db: Db
  readonly dataDir: string
  readonly now: () => Date
  /** Tell the scoring queue a submission is waiting. */
  readonly kick: () => void
  readonly topics: { invalidate(trackId: string, phaseId: string): void }
}

/**
 * Store a new qrels version (checked by the qrels reader first) and queue the re-scoring of
 * every scored (or scoring) submission of the track and phase against it. Qrels tracks take
 * one file (`files[0]`); RETECO tracks one or more, one per domain (see the module comment).
 */
export async function addQrelsVersion(
  ctx: QrelsVersionContext,
  opts: {
    track: Track
    phase: PhaseConfig
    /** The files of the version; `bytes` is short for one file (qrels tracks). */
    files?: readonly QrelsUpload[]
    bytes?: Uint8Array
    note: string
    userId: string
  },
): Promise<{ version: number; rescoring: number }> {
  const { track, phase } = opts
  const files = opts.files ?? (opts.bytes ? [{ name: 'qrels.txt', bytes: opts.bytes }] : [])
  // Postgres text cannot hold NUL: refuse it on both backends, before anything is written.
  if (opts.note.includes('\u0000'))
    throw new QrelsVersionError('the note may not contain a NUL character')
  const current = await currentQrels(ctx.db, track, phase, ctx.dataDir)
  const version = current.version + 1
  let rel: string
  let sha256: string
  if (track.kind === 'reteco') {
    const h = createHash('sha256')
    for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : 1)))
      h.update(`${createHash('sha256').update(f.bytes).digest('hex')}  ${f.name}\n`)
    sha256 = h.digest('hex')
    rel = join('qrels', track.id, phase.id, `v${version}-${sha256.slice(0, 12)}`)
    const dir = join(ctx.dataDir, rel)
    rmSync(dir, { recursive: true, force: true })
    try {
      await retecoVersionFolder(track, current.track.dataDir, track.splits![phase.id]!, files, dir)
    } catch (e) {
      rmSync(dir, { recursive: true, force: true })
      throw e
    }
  } else {
    if (files.length !== 1)
      throw new QrelsVersionError(`track ${track.id} takes one qrels file per version`)
    const bytes = files[0]!.bytes
    if (bytes.length === 0) throw new QrelsVersionError('the qrels file is empty')
    sha256 = createHash('sha256').update(bytes).digest('hex')
    rel = join('qrels', track.id, phase.id, `v${version}-${sha256.slice(0, 12)}.txt`)
    const file = join(ctx.dataDir, rel)
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, bytes)
    try {
      await checkQrels(file, 'qrels.txt')
    } catch (e) {
      rmSync(file, { force: true })
      throw e
    }
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
          request_id: currentRequestId() ?? null,
        })
        .execute()
    return subs.length
  })
  ctx.topics.invalidate(track.id, phase.id)
  ctx.kick()
  return { version, rescoring }
}
