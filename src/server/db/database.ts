/**
 * The server's database, through Kysely, migrated on open, on one of two backends chosen by
 * `--db`:
 *
 * - `sqlite:PATH` (the default: `board.sqlite` in the `--data` folder): better-sqlite3 in WAL
 *   mode, one connection;
 * - `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (or `postgresql://`): node-postgres (`pg`)
 *   with a connection pool.
 *
 * Both drivers are optional packages (see src/io/optional-package.ts), loaded here on first use.
 * The same queries and migrations run on both (see migrations.ts for the few column types that
 * differ); 64-bit integers (counts, byte sizes) come back as numbers on both.
 */
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type TransactionSettings,
} from 'kysely'
import { MissingPackageError, TrecscoreError } from '../../internal.js'

export { dialectOf } from './dialect.js'

import { migrationProvider } from './migrations.js'
import type { Database } from './schema.js'

export type Db = Kysely<Database>

/** Where the database is: the parsed `--db` value. */
export type DbLocation =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string }

/** The database file of a data folder (the default `--db`). */
export function databaseFile(dataDir: string): string {
  return join(dataDir, 'board.sqlite')
}

const DB_SYNTAX = 'sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE'

/**
 * Parse a `--db` value (undefined: SQLite in the data folder). A bad value is a
 * {@link TrecscoreError} (exit 2) with one line saying what is expected.
 */
export function parseDbLocation(value: string | undefined, dataDir: string): DbLocation {
  if (value === undefined) return { kind: 'sqlite', file: databaseFile(dataDir) }
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length)
    if (path === '') throw new TrecscoreError(`--db sqlite: needs a file: ${DB_SYNTAX}`, 2)
    return { kind: 'sqlite', file: resolve(path) }
  }
  if (/^postgres(ql)?:\/\//i.test(value)) {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new TrecscoreError(
        `--db: '${redact(value)}' is not a valid URL: expected ${DB_SYNTAX}`,
        2,
      )
    }
    // A socket folder may be given as ?host=/run/postgresql instead of a host name.
    if (url.hostname === '' && !url.searchParams.has('host'))
      throw new TrecscoreError(`--db: '${redact(value)}' names no host: expected ${DB_SYNTAX}`, 2)
    if (url.pathname.replace(/^\//, '') === '')
      throw new TrecscoreError(
        `--db: '${redact(value)}' names no database: expected ${DB_SYNTAX}`,
        2,
      )
    return { kind: 'postgres', url: value }
  }
  throw new TrecscoreError(`--db: '${redact(value)}' is not a database: expected ${DB_SYNTAX}`, 2)
}

/** A database location for messages: the password of a URL replaced by `***`. */
export function describeLocation(where: DbLocation): string {
  return where.kind === 'sqlite' ? where.file : redact(where.url)
}

function redact(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@')
}

export function loadFailure(
  name: string,
  version: string,
  what: string,
  e: unknown,
): MissingPackageError {
  const code = (e as { code?: unknown }).code
  const why =
    code === 'ERR_MODULE_NOT_FOUND'
      ? ''
      : ` (installed, but it does not load: ${(e as Error).message.split('\n')[0]})`
  return new MissingPackageError(`${what} needs ${name}${why}: npm install ${name}@${version}`, [
    `${name}@${version}`,
  ])
}

/** better-sqlite3 is an optional package (see src/io/optional-package.ts): loaded here on first use. */
async function loadSqlite(): Promise<typeof import('better-sqlite3')> {
  try {
    const mod = (await import('better-sqlite3')) as unknown as {
      default: typeof import('better-sqlite3')
    }
    return mod.default
  } catch (e) {
    throw loadFailure('better-sqlite3', '12.11.1', 'trecscore serve', e)
  }
}

/** pg (node-postgres) is an optional package too, needed only with `--db postgres://…`. */
export async function loadPg(): Promise<typeof import('pg')> {
  try {
    const mod = (await import('pg')) as unknown as { default: typeof import('pg') }
    return mod.default
  } catch (e) {
    throw loadFailure('pg', '8.23.1', 'trecscore serve --db postgres://…', e)
  }
}

const INT8_OID = 20

/** The advisory lock every transaction takes on Postgres (any constant; scoped to the database). */
const TRANSACTION_LOCK = 0x7472_6563 // "trec"

/**
 * Postgres with SQLite's transaction semantics: each transaction first takes one
 * transaction-scoped advisory lock, so transactions run one at a time, as on SQLite (one writer).
 * The code's read-then-write transactions (the next score or qrels version, spending an invite)
 * then behave alike on both, whatever the pool's concurrency; other statements run in parallel.
 * The exception is {@link rowLockedTransaction} (isolation level named `read committed`): it
 * locks its own rows and does not wait for, or hold up, the others.
 */
class SerializedPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver()
    const begin = driver.beginTransaction.bind(driver)
    driver.beginTransaction = async (
      connection: DatabaseConnection,
      settings: TransactionSettings,
    ): Promise<void> => {
      await begin(connection, settings)
      if (settings.isolationLevel === ROW_LOCKED) return
      await connection.executeQuery(
        CompiledQuery.raw('select pg_advisory_xact_lock($1)', [TRANSACTION_LOCK]),
      )
    }
    return driver
  }
}

/** The isolation level that marks a {@link rowLockedTransaction} (Postgres's default level). */
const ROW_LOCKED = 'read committed'

/**
 * A transaction that serializes itself on the rows it touches (`select … for update` on
 * Postgres), so it skips the one lock every other Postgres transaction takes: for short, frequent
 * transactions on rows of their own, like a rate limit's per key, which would otherwise queue
 * behind (and hold up) every scoring claim and score write. On SQLite it is a plain transaction
 * (one writer anyway). Use it only where every read-then-write is on rows it locks.
 */
export function rowLockedTransaction(db: Db) {
  return db.transaction().setIsolationLevel(ROW_LOCKED)
}

/**
 * Keep a pg pool's lost connections from ending the process; `who` starts the line logged for
 * each one lost while idle.
 */
export function heedLostConnections(pool: import('pg').Pool, who: string): void {
  // A pooled connection that breaks while idle (a restarted server) is dropped by the pool;
  // without a listener the 'error' event would end the process.
  pool.on('error', (e) => {
    process.stderr.write(`${who}: database connection lost: ${e.message}\n`)
  })
  // A connection that breaks while checked out but between two queries (inside a transaction,
  // or just taken from the pool) emits 'error' on the client itself, where the pool listens
  // only while it is idle: unheard, it too would end the process. The next query on it fails
  // (that request gets its error) and the pool then drops it; nothing more to do here.
  pool.on('connect', (client) => {
    client.on('error', () => undefined)
  })
}

async function openPostgres(url: string, max: number | undefined): Promise<Db> {
  const pg = await loadPg()
  const pool = new pg.Pool({
    connectionString: url,
    ...(max !== undefined ? { max } : {}),
    // A web process busy with large uploads on a loaded machine took over 10 s to open a
    // connection (the load test's upload failed with 500); keep idle ones longer, wait longer.
    connectionTimeoutMillis: 30_000,
    idleTimeoutMillis: 60_000,
    // bigint (counts, byte sizes) as a number, as SQLite gives it: exact below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  })
  heedLostConnections(pool, 'trecscore')
  return new Kysely<Database>({ dialect: new SerializedPostgresDialect({ pool }) })
}

async function openSqlite(file: string): Promise<Db> {
  mkdirSync(dirname(file), { recursive: true })
  const Sqlite = await loadSqlite()
  const sqlite = new Sqlite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
}

/** Why a connection failed, in a few words (the driver's code and message, first line). */
function reason(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown; errors?: unknown }
  const inner = Array.isArray(err.errors) ? (err.errors[0] as typeof err | undefined) : undefined
  const code = typeof err.code === 'string' ? err.code : inner?.code
  const message = String(err.message || inner?.message || e).split('\n')[0] ?? ''
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message
}

/**
 * Open (creating if needed) and migrate a database: a data folder (SQLite in it, the default)
 * or a parsed `--db` location. An unreachable database or a failed migration is a one-line
 * {@link TrecscoreError} (exit 1).
 */
export async function openDatabase(
  where: string | DbLocation,
  options: {
    readonly migrate?: boolean
    /** Postgres: the most connections of the pool. @default 10 (node-postgres's) */
    readonly maxConnections?: number
  } = {},
): Promise<Db> {
  const loc = typeof where === 'string' ? parseDbLocation(undefined, where) : where
  const db =
    loc.kind === 'sqlite'
      ? await openSqlite(loc.file)
      : await openPostgres(loc.url, options.maxConnections)
  try {
    await sql`select 1`.execute(db)
  } catch (e) {
    await db.destroy().catch(() => undefined)
    throw new TrecscoreError(`${describeLocation(loc)}: cannot open the database (${reason(e)})`, 1)
  }
  if (options.migrate === false) return db
  const { error, results } = await new Migrator({
    db,
    provider: migrationProvider,
  }).migrateToLatest()
  if (error) {
    await db.destroy()
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '?'
    throw new TrecscoreError(
      `${describeLocation(loc)}: migration ${failed} failed: ${reason(error)}`,
      1,
    )
  }
  return db
}
