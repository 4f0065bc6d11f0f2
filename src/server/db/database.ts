/**
 * The server's database: SQLite (better-sqlite3, loaded on first use) in WAL mode through
 * Kysely, migrated on open. `board.sqlite` lives in the `--data` folder.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Kysely, Migrator, SqliteDialect } from 'kysely'
import { MissingPackageError, TrecscoreError } from '../../index.js'
import { migrationProvider } from './migrations.js'
import type { Database } from './schema.js'

export type Db = Kysely<Database>

/** The database file of a data folder. */
export function databaseFile(dataDir: string): string {
  return join(dataDir, 'board.sqlite')
}

/** better-sqlite3 is an optional package (see src/io/optional-package.ts): loaded here on first use. */
async function loadSqlite(): Promise<typeof import('better-sqlite3')> {
  try {
    const mod = (await import('better-sqlite3')) as unknown as {
      default: typeof import('better-sqlite3')
    }
    return mod.default
  } catch (e) {
    const code = (e as { code?: unknown }).code
    const why =
      code === 'ERR_MODULE_NOT_FOUND'
        ? ''
        : ` (installed, but it does not load: ${(e as Error).message.split('\n')[0]})`
    throw new MissingPackageError(
      `trecscore serve needs better-sqlite3${why}: npm install better-sqlite3@12.11.1`,
      ['better-sqlite3@12.11.1'],
    )
  }
}

/** Open (creating if needed) and migrate the database of `dataDir`. */
export async function openDatabase(dataDir: string): Promise<Db> {
  mkdirSync(dataDir, { recursive: true })
  const Sqlite = await loadSqlite()
  const sqlite = new Sqlite(databaseFile(dataDir))
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  const { error, results } = await new Migrator({
    db,
    provider: migrationProvider,
  }).migrateToLatest()
  if (error) {
    await db.destroy()
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '?'
    throw new TrecscoreError(
      `${databaseFile(dataDir)}: migration ${failed} failed: ${(error as Error).message}`,
      1,
    )
  }
  return db
}
