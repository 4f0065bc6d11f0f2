/**
 * The database run store (`--runs database`; see run-store.ts): every file of a submission's
 * folder as rows of `run_chunks` (submission id, path in the folder, sequence number, at most
 * 1 MiB of bytes: `blob` on SQLite, `bytea` on Postgres).
 *
 * - **Streaming both ways.** A file goes in one chunk at a time and comes out one chunk at a
 *   time (one row per query): a 400 MB run never sits in memory.
 * - **No long transaction.** Each chunk is its own insert: on Postgres every transaction takes
 *   the one advisory lock all of them share (db/database.ts), and a run-sized transaction would
 *   stall the whole server. The chunks go in before the submission row; a failed `put` removes
 *   what it wrote, a failed row insert calls `remove`, and what a crash in between leaves (chunks
 *   without a row) is swept an hour later by {@link sweepOrphanChunks}, at every server and
 *   worker start.
 * - **Checked on the way out.** `open` writes the folder into the caller's scratch folder and
 *   checks the run against the row's sha256 (of the file; {@link directoryDigest} of a
 *   directory's files) before anyone reads it.
 */
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, readdirSync, statSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../db/schema.js'
import { filesUnder } from './directory-store.js'
import {
  DATABASE_PREFIX,
  type OpenedRun,
  type RunStore,
  runName,
  type StoredFile,
  type StoredRun,
  StoredRunDamaged,
} from './run-store.js'
import { directoryDigest } from './upload.js'

/** The largest chunk: 1 MiB. */
export const RUN_CHUNK_BYTES = 1 << 20

/** Chunks without a submission row older than this are swept: one hour. */
export const ORPHAN_AGE_MS = 3_600_000

/** A file's bytes in chunks of exactly {@link RUN_CHUNK_BYTES} (the last shorter; one empty chunk for an empty file). */
async function* chunksOf(file: string): AsyncGenerator<Buffer> {
  let buf = Buffer.allocUnsafe(RUN_CHUNK_BYTES)
  let used = 0
  let any = false
  for await (const piece of createReadStream(file, { highWaterMark: RUN_CHUNK_BYTES })) {
    const b = piece as Buffer
    let off = 0
    while (off < b.length) {
      const n = Math.min(RUN_CHUNK_BYTES - used, b.length - off)
      b.copy(buf, used, off, off + n)
      used += n
      off += n
      if (used === RUN_CHUNK_BYTES) {
        yield buf
        any = true
        buf = Buffer.allocUnsafe(RUN_CHUNK_BYTES)
        used = 0
      }
    }
  }
  if (used > 0 || !any) yield buf.subarray(0, used)
}

/** A path as stored: relative, `/`-separated, no `.`/`..`/empty segment. */
function safeStoredPath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    !path.includes('\0') &&
    path.split('/').every((p) => p !== '' && p !== '.' && p !== '..')
  )
}

export class DatabaseRunStore implements RunStore {
  readonly kind = 'database' as const

  /** `db` may be a transaction (restore writes its runs in its own). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async put(id: string, name: string, localPath: string): Promise<string> {
    await this.removeEntry(id, name)
    try {
      if (statSync(localPath).isDirectory())
        for (const rel of filesUnder(localPath))
          await this.putFile(id, `${name}/${rel}`, join(localPath, rel))
      else await this.putFile(id, name, localPath)
    } catch (e) {
      await this.removeEntry(id, name).catch(() => undefined)
      throw e
    }
    return `${DATABASE_PREFIX}runs/${id}/${name}`
  }

  /** Store one file as chunks 0, 1, …: one insert each, no transaction. */
  async putFile(id: string, path: string, file: string): Promise<number> {
    let seq = 0
    for await (const data of chunksOf(file)) {
      await this.db
        .insertInto('run_chunks')
        .values({
          submission_id: id,
          path,
          seq,
          created_at: this.now().toISOString(),
          data,
        })
        .execute()
      seq++
    }
    return seq
  }

  /** Remove the entry `name` of a submission's folder: the file `name` or every file under `name/`. */
  private async removeEntry(id: string, name: string): Promise<void> {
    const prefix = `${name}/`
    await this.db
      .deleteFrom('run_chunks')
      .where('submission_id', '=', id)
      .where((eb) =>
        eb.or([eb('path', '=', name), eb(sql`substr(path, 1, ${prefix.length})`, '=', prefix)]),
      )
      .execute()
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('run_chunks').where('submission_id', '=', id).execute()
  }

  async files(id: string): Promise<StoredFile[]> {
    const rows = await this.db
      .selectFrom('run_chunks')
      .select('path')
      .where('submission_id', '=', id)
      .where('seq', '=', 0)
      .orderBy('path')
      .execute()
    return rows.map((r) => ({ path: r.path }))
  }

  /** How many chunks a file has; a gap in their numbers is damage. */
  async chunkCount(id: string, path: string): Promise<number> {
    const r = await this.db
      .selectFrom('run_chunks')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('seq').as('last')])
      .where('submission_id', '=', id)
      .where('path', '=', path)
      .executeTakeFirst()
    const n = Number(r?.n ?? 0)
    if (n === 0 || Number(r?.last) !== n - 1)
      throw new StoredRunDamaged(
        `the stored file ${path} of submission ${id} lost chunks (${n} of ${Number(r?.last ?? -1) + 1})`,
      )
    return n
  }

  async *read(id: string, path: string): AsyncGenerator<Uint8Array> {
    const n = await this.chunkCount(id, path)
    for (let seq = 0; seq < n; seq++) {
      const row = await this.db
        .selectFrom('run_chunks')
        .select('data')
        .where('submission_id', '=', id)
        .where('path', '=', path)
        .where('seq', '=', seq)
        .executeTakeFirst()
      if (!row)
        throw new StoredRunDamaged(`the stored file ${path} of submission ${id} lost chunk ${seq}`)
      yield row.data
    }
  }

  async open(run: StoredRun, scratchDir: string): Promise<OpenedRun> {
    const name = runName(run.file)
    await mkdir(scratchDir, { recursive: true })
    const root = await mkdtemp(join(scratchDir, `run-${run.id}-`))
    try {
      const files = await this.files(run.id)
      const own: { name: string; sha256: string }[] = []
      let single = false
      for (const f of files) {
        if (!safeStoredPath(f.path))
          throw new StoredRunDamaged(`submission ${run.id} has an unsafe stored path ${f.path}`)
        const target = join(root, f.path)
        await mkdir(dirname(target), { recursive: true })
        const hash = createHash('sha256')
        const source = this.read(run.id, f.path)
        await pipeline(
          Readable.from(
            (async function* () {
              for await (const b of source) {
                hash.update(b)
                yield b
              }
            })(),
          ),
          createWriteStream(target, { flags: 'wx' }),
        )
        if (f.path === name) single = true
        if (f.path === name || f.path.startsWith(`${name}/`))
          own.push({ name: basename(f.path), sha256: hash.digest('hex') })
      }
      if (own.length === 0)
        throw new StoredRunDamaged(`the stored run of submission ${run.id} is not in the database`)
      const got = single && own.length === 1 ? own[0]!.sha256 : directoryDigest(own)
      if (got !== run.run_sha256)
        throw new StoredRunDamaged(
          `the stored run is damaged: its sha256 is ${got.slice(0, 12)}…, the upload's was ${run.run_sha256.slice(0, 12)}…`,
        )
    } catch (e) {
      await rm(root, { recursive: true, force: true })
      throw e
    }
    return {
      path: join(root, name),
      keepOutputs: async () => {
        for (const entry of readdirSync(root))
          if (entry !== name) await this.put(run.id, entry, join(root, entry))
      },
      release: () => rm(root, { recursive: true, force: true }),
    }
  }
}

/**
 * Remove the chunks of submissions that have no row, written over {@link ORPHAN_AGE_MS} ago
 * (a process that died between storing an upload and inserting its row); returns how many
 * submissions' chunks went.
 */
export async function sweepOrphanChunks(
  db: Kysely<Database>,
  now: Date = new Date(),
): Promise<number> {
  const before = new Date(now.getTime() - ORPHAN_AGE_MS).toISOString()
  const ids = await db
    .selectFrom('run_chunks')
    .select('submission_id')
    .distinct()
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('submissions')
            .select('submissions.id')
            .whereRef('submissions.id', '=', 'run_chunks.submission_id'),
        ),
      ),
    )
    .execute()
  for (const { submission_id } of ids)
    await db.deleteFrom('run_chunks').where('submission_id', '=', submission_id).execute()
  return ids.length
}
