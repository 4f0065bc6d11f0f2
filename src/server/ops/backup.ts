/**
 * `trecscore serve backup` and `serve restore`: one portable file holding every row of every
 * table and every stored file of the data folder, so a SQLite backup restores into Postgres and
 * back.
 *
 * The format: gzip'd JSON lines, in this order:
 * 1. `{"format":"trecscore-backup","version":1,"createdAt":…,"source":"sqlite"|"postgres","migrations":[…]}`;
 * 2. `{"table":T,"row":{…}}` for every row, tables parents first (foreign keys), rows by key;
 *    the judgment cache's judgments and facts (`judge_judgments`, `judge_meta`) are kept, as
 *    the SQLite backend's cache files are (stored files); its claims (`judge_claims`, leases of
 *    runs asking right now, meaningless once they ended) are deliberately left out;
 * 3. for every file under the data folder (but the SQLite database and `tmp/`), then every file
 *    of the runs kept in the database store (`run_chunks`, see storage/run-store.ts; its rows are
 *    not dumped as rows), under the path it would have in the directory store (`runs/ID/…`):
 *    `{"file":PATH,"chunk":BASE64}` lines of at most 1 MiB, then `{"file":PATH,"sha256":…,"bytes":N}`;
 * 4. `{"end":true,"rows":N,"files":M}` (a truncated backup lacks it and is refused).
 *
 * So a backup does not depend on the store that held its runs: restore puts them in the store
 * it is given (`--runs`, default `directory`), whichever held them before, and rewrites each
 * submission's `file` to match.
 *
 * Restore: the target database is migrated to this version's schema first; it must be empty
 * (no row in any table) and the data folder must hold no stored file, unless `--force` (then
 * both are emptied first). Rows are inserted in one transaction; files are written to a staging
 * folder and each one's sha256 checked; only when everything matched is the transaction
 * committed and the files moved into place. Any problem is one line (exit 1).
 * Restoring into the database store writes the runs' chunks inside that transaction (a restore
 * runs with the servers stopped; all or nothing matters more there than the transaction lock).
 */
import { createHash } from 'node:crypto'
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
  type WriteStream,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import { type Kysely, sql, type Transaction } from 'kysely'
import { TrecscoreError } from '../../internal.js'
import {
  type Db,
  type DbLocation,
  databaseFile,
  describeLocation,
  dialectOf,
  openDatabase,
} from '../db/database.js'
import { MIGRATIONS } from '../db/migrations.js'
import type { Database } from '../db/schema.js'
import { DatabaseRunStore } from '../storage/database-store.js'
import { filesUnder } from '../storage/directory-store.js'
import { DATABASE_PREFIX, folderPath, type RunStoreKind } from '../storage/run-store.js'

export const BACKUP_FORMAT = 'trecscore-backup'
const CHUNK = 1 << 20
const BATCH = 100
/** Tables of live state only, never backed up (restore --force still empties them). */
const NOT_BACKED_UP = new Set(['judge_claims'])
/** Tables written as stored files instead of rows (the database store's runs). */
const AS_FILES = new Set(['run_chunks'])

type AnyDb = Kysely<Record<string, Record<string, unknown>>>

interface Header {
  readonly format: string
  readonly version: number
  readonly createdAt: string
  readonly source: 'sqlite' | 'postgres'
  readonly migrations: readonly string[]
}

/** The application's tables (not the migrator's, not pg-boss's), parents before children. */
async function tablesInOrder(db: Db): Promise<string[]> {
  const pg = dialectOf(db) === 'postgres'
  const names = pg
    ? (
        await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
      ).rows.map((r) => r.name)
    : (
        await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%'`.execute(db)
      ).rows.map((r) => r.name)
  const tables = names.filter((n) => !n.startsWith('kysely_migration')).sort()
  const edges = pg
    ? (
        await sql<{ t: string; ref: string }>`select tc.table_name as t, ccu.table_name as ref
          from information_schema.table_constraints tc
          join information_schema.constraint_column_usage ccu
            on tc.constraint_name = ccu.constraint_name and tc.table_schema = ccu.table_schema
          where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(
          db,
        )
      ).rows
    : (
        await sql<{ t: string; ref: string }>`select m.name as t, p."table" as ref
          from sqlite_master m join pragma_foreign_key_list(m.name) p
          where m.type = 'table'`.execute(db)
      ).rows
  const order: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (t: string): void => {
    if (state.get(t) === 'done' || state.get(t) === 'visiting') return
    state.set(t, 'visiting')
    for (const e of edges) if (e.t === t && e.ref !== t && tables.includes(e.ref)) visit(e.ref)
    state.set(t, 'done')
    order.push(t)
  }
  for (const t of tables) visit(t)
  return order
}

async function columnsOf(db: Db, table: string): Promise<string[]> {
  return dialectOf(db) === 'postgres'
    ? (
        await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}
          order by ordinal_position`.execute(db)
      ).rows.map((r) => r.name)
    : (
        await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
      ).rows.map((r) => r.name)
}

async function appliedMigrations(db: Db): Promise<string[]> {
  return (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
  ).rows.map((r) => r.name)
}

/** Every stored file of a data folder (relative paths with `/`), but the database and tmp/. */
function storedFiles(dataDir: string): string[] {
  const db = databaseFile(dataDir)
  const skip = new Set([db, `${db}-wal`, `${db}-shm`, `${db}-journal`, join(dataDir, 'tmp')])
  return filesUnder(dataDir, (p) => skip.has(p))
}

function write(out: NodeJS.WritableStream, record: unknown): Promise<void> | void {
  if (!out.write(`${JSON.stringify(record)}\n`))
    return new Promise((resolve) => out.once('drain', () => resolve()))
}

/** Write a backup of the database and data folder to `file`; returns what it holds. */
export async function backup(
  where: DbLocation,
  dataDir: string,
  file: string,
): Promise<{ rows: number; files: number }> {
  const db = await openDatabase(where, { migrate: false })
  const gzip = createGzip()
  mkdirSync(dirname(file), { recursive: true })
  const done = pipeline(gzip, createWriteStream(file))
  let rows = 0
  let files = 0
  try {
    const header: Header = {
      format: BACKUP_FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      source: dialectOf(db),
      migrations: await appliedMigrations(db),
    }
    await write(gzip, header)
    // Read before the transaction: SQLite has one connection, which the transaction holds.
    const layout: [string, string[]][] = []
    for (const t of await tablesInOrder(db))
      if (!NOT_BACKED_UP.has(t) && !AS_FILES.has(t)) layout.push([t, await columnsOf(db, t)])
    // Submissions whose runs the database store holds: their files follow the data folder's.
    const inDatabase: string[] = []
    // One read transaction: a consistent snapshot of every table (on Postgres, repeatable read).
    const snapshot = async (trx: Transaction<Database> | Db): Promise<void> => {
      for (const [table, cols] of layout) {
        const q = (trx as unknown as AnyDb).selectFrom(table).selectAll()
        const sorted = cols.reduce((acc, c) => acc.orderBy(c), q)
        for (const row of await sorted.execute()) {
          await write(gzip, { table, row })
          rows++
          if (table === 'submissions' && String(row.file).startsWith(DATABASE_PREFIX))
            inDatabase.push(String(row.id))
        }
      }
    }
    if (dialectOf(db) === 'postgres')
      await db.transaction().setIsolationLevel('repeatable read').execute(snapshot)
    else await db.transaction().execute(snapshot)
    const one = async (rel: string, body: AsyncIterable<Uint8Array>): Promise<void> => {
      const hash = createHash('sha256')
      let bytes = 0
      for await (const chunk of body) {
        const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        hash.update(b)
        bytes += b.length
        await write(gzip, { file: rel, chunk: b.toString('base64') })
      }
      await write(gzip, { file: rel, sha256: hash.digest('hex'), bytes })
      files++
    }
    for (const rel of storedFiles(dataDir))
      await one(rel, createReadStream(join(dataDir, rel), { highWaterMark: CHUNK }))
    const store = new DatabaseRunStore(db)
    for (const id of inDatabase)
      for (const f of await store.files(id))
        await one(`runs/${id}/${f.path}`, store.read(id, f.path))
    await write(gzip, { end: true, rows, files })
    gzip.end()
    await done
    return { rows, files }
  } catch (e) {
    gzip.destroy()
    await done.catch(() => undefined)
    rmSync(file, { force: true })
    throw e
  } finally {
    await db.destroy()
  }
}

function refuse(file: string, why: string): never {
  throw new TrecscoreError(`${file}: ${why}`, 1)
}

function safePath(file: string, rel: string): string {
  if (
    typeof rel !== 'string' ||
    rel === '' ||
    rel.startsWith('/') ||
    rel.split('/').some((p) => p === '..' || p === '' || p === '.') ||
    rel.includes('\\') ||
    rel.includes('\0')
  )
    refuse(file, `not a backup: unsafe file path ${JSON.stringify(rel)}`)
  return rel
}

/**
 * Restore a backup into a database and data folder (empty ones unless `force`); the runs go to
 * the store `runs` (see the module comment).
 */
export async function restore(
  where: DbLocation,
  dataDir: string,
  file: string,
  options: { readonly force?: boolean; readonly runs?: RunStoreKind } = {},
): Promise<{ rows: number; files: number }> {
  if (!existsSync(file) || !statSync(file).isFile()) refuse(file, 'no such backup file')
  const db = await openDatabase(where)
  const staging = join(dataDir, 'tmp', `restore-${process.pid}-${Date.now()}`)
  try {
    const tables = await tablesInOrder(db)
    const columns = new Map<string, Set<string>>()
    for (const t of tables) columns.set(t, new Set(await columnsOf(db, t)))
    const existing = storedFiles(dataDir)
    let nonEmpty: string | null = null
    for (const t of tables) {
      const r = await (db as unknown as AnyDb)
        .selectFrom(t)
        .select(sql`1`.as('x'))
        .limit(1)
        .execute()
      if (r.length) {
        nonEmpty = `table ${t} has rows`
        break
      }
    }
    if (!nonEmpty && existing.length) nonEmpty = `the data folder holds ${existing.length} file(s)`
    if (nonEmpty && !options.force)
      throw new TrecscoreError(
        `${describeLocation(where)}: not empty (${nonEmpty}); restore into an empty database and data folder, or add --force to replace everything`,
        1,
      )
    let rows = 0
    let files = 0
    const placed: string[] = []
    /** Staged files that went into the database store instead of the data folder. */
    const intoDatabase = new Set<string>()
    await db.transaction().execute(async (trx) => {
      const t = trx as unknown as AnyDb
      if (options.force)
        for (const table of [...tables].reverse()) await t.deleteFrom(table).execute()
      let header: Header | null = null
      let batch: { table: string; rows: Record<string, unknown>[] } | null = null
      const flush = async (): Promise<void> => {
        if (batch && batch.rows.length) await t.insertInto(batch.table).values(batch.rows).execute()
        batch = null
      }
      let open: {
        rel: string
        out: WriteStream
        hash: ReturnType<typeof createHash>
        bytes: number
      } | null = null
      let ended = false
      let n = 0
      // Made here, right before the loop: lines read before a readline iterator exists are lost.
      const lines = createInterface({
        input: createReadStream(file).pipe(createGunzip()),
        crlfDelay: Number.POSITIVE_INFINITY,
      })
      try {
        for await (const line of lines) {
          n++
          let rec: Record<string, unknown>
          try {
            rec = JSON.parse(line) as Record<string, unknown>
          } catch {
            refuse(file, `not a backup: line ${n} is not JSON`)
          }
          if (header === null) {
            const h = rec as unknown as Header
            if (h.format !== BACKUP_FORMAT || h.version !== 1)
              refuse(file, `not a ${BACKUP_FORMAT} version 1 file`)
            const unknown = h.migrations.filter((m) => !(m in MIGRATIONS))
            if (unknown.length)
              refuse(
                file,
                `made by a newer trecscore (migration ${unknown[0]} is unknown here); restore it with that version`,
              )
            header = h
            continue
          }
          if (ended) refuse(file, 'not a backup: records after the end record')
          if (typeof rec.table === 'string') {
            const table = rec.table
            const cols = columns.get(table)
            if (!cols) refuse(file, `table ${table} does not exist in this version's schema`)
            const row = rec.row as Record<string, unknown>
            for (const k of Object.keys(row))
              if (!cols.has(k)) refuse(file, `table ${table} has no column ${k} in this version`)
            if (batch && (batch as { table: string }).table !== table) await flush()
            if (!batch) batch = { table, rows: [] }
            ;(batch as { rows: Record<string, unknown>[] }).rows.push(row)
            if ((batch as { rows: unknown[] }).rows.length >= BATCH) await flush()
            rows++
          } else if (typeof rec.file === 'string') {
            await flush()
            const rel = safePath(file, rec.file)
            if (typeof rec.chunk === 'string') {
              if (!open || open.rel !== rel) {
                if (open) refuse(file, `not a backup: file ${open.rel} has no end record`)
                const target = join(staging, rel)
                mkdirSync(dirname(target), { recursive: true })
                open = { rel, out: createWriteStream(target), hash: createHash('sha256'), bytes: 0 }
              }
              const b = Buffer.from(rec.chunk, 'base64')
              open.hash.update(b)
              open.bytes += b.length
              if (!open.out.write(b))
                await new Promise<void>((r) => open!.out.once('drain', () => r()))
            } else {
              if (!open || open.rel !== rel) {
                // An empty file has no chunk.
                const target = join(staging, rel)
                mkdirSync(dirname(target), { recursive: true })
                open = { rel, out: createWriteStream(target), hash: createHash('sha256'), bytes: 0 }
              }
              const o = open
              await new Promise<void>((resolve, reject) => {
                o.out.once('error', reject)
                o.out.end(() => resolve())
              })
              const got = o.hash.digest('hex')
              if (got !== rec.sha256 || o.bytes !== rec.bytes)
                refuse(
                  file,
                  `${rel}: sha256 mismatch (the backup says ${String(rec.sha256).slice(0, 12)}…, its bytes hash to ${got.slice(0, 12)}…); nothing restored`,
                )
              placed.push(rel)
              open = null
              files++
            }
          } else if (rec.end === true) {
            await flush()
            if (open) refuse(file, `not a backup: file ${open.rel} has no end record`)
            if (rec.rows !== rows || rec.files !== files)
              refuse(file, 'not a backup: the end record does not match its contents')
            ended = true
          } else refuse(file, `not a backup: line ${n} is not a record`)
        }
      } catch (e) {
        const o = open as { out: WriteStream } | null
        o?.out.destroy()
        if (e instanceof TrecscoreError) throw e
        const code = (e as { code?: string }).code
        if (
          code === 'Z_DATA_ERROR' ||
          code === 'Z_BUF_ERROR' ||
          code === 'ERR_STREAM_PREMATURE_CLOSE'
        )
          refuse(file, 'not a backup: not gzip data, or cut short')
        throw new TrecscoreError(
          `${file}: restore failed (${String((e as Error).message ?? e).split('\n')[0]}); nothing restored`,
          1,
        )
      }
      if (header === null) refuse(file, 'not a backup: empty')
      if (!ended) refuse(file, 'not a backup: cut short (no end record); nothing restored')
      await placeRuns(trx, options.runs ?? 'directory', staging, placed, intoDatabase)
      await resetIdentities(trx, tables)
    })
    // Committed: move the files into place.
    if (options.force) for (const rel of existing) rmSync(join(dataDir, rel), { force: true })
    for (const rel of placed) {
      if (intoDatabase.has(rel)) continue
      const target = join(dataDir, rel)
      mkdirSync(dirname(target), { recursive: true })
      renameSync(join(staging, rel), target)
    }
    return { rows, files }
  } finally {
    rmSync(staging, { recursive: true, force: true })
    await db.destroy()
  }
}

/**
 * Give every restored submission's run to the store `runs`: its `file` value rewritten to that
 * store's form; for the database store, its staged folder `runs/ID/` written as chunks (and
 * noted in `intoDatabase`, so it is not moved into the data folder).
 */
async function placeRuns(
  trx: Transaction<Database>,
  runs: RunStoreKind,
  staging: string,
  placed: readonly string[],
  intoDatabase: Set<string>,
): Promise<void> {
  const byFolder = new Map<string, string[]>()
  for (const rel of placed) {
    const parts = rel.split('/')
    if (parts[0] !== 'runs' || parts.length < 3) continue
    const key = parts[1]!
    byFolder.set(key, [...(byFolder.get(key) ?? []), rel])
  }
  const store = new DatabaseRunStore(trx)
  for (const s of await trx.selectFrom('submissions').select(['id', 'file']).execute()) {
    const rel = folderPath(s.file)
    const want = runs === 'database' ? `${DATABASE_PREFIX}${rel}` : rel
    const mine = byFolder.get(s.id) ?? []
    if (runs === 'database' && mine.length) {
      const entries = new Set(mine.map((p) => p.split('/')[2]!))
      for (const entry of entries) await store.put(s.id, entry, join(staging, 'runs', s.id, entry))
      for (const p of mine) intoDatabase.add(p)
    }
    if (want !== s.file)
      await trx.updateTable('submissions').set({ file: want }).where('id', '=', s.id).execute()
  }
}

/** Postgres: move identity sequences past the restored ids (SQLite's AUTOINCREMENT follows by itself). */
async function resetIdentities(trx: Kysely<Database>, tables: readonly string[]): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return
  const ids = (
    await sql<{ t: string; c: string }>`select table_name as t, column_name as c
      from information_schema.columns
      where table_schema = current_schema() and is_identity = 'YES'`.execute(trx)
  ).rows
  for (const { t, c } of ids) {
    if (!tables.includes(t)) continue
    await sql`select setval(pg_get_serial_sequence(${t}, ${c}), coalesce((select max(${sql.ref(c)}) from ${sql.table(t)}), 0) + 1, false)`.execute(
      trx,
    )
  }
}
