/**
 * The database backend the server tests run on. The server suite is written once: vitest runs
 * the files of test/server twice when `TRECSCORE_TEST_PG` is set (see vitest.config.ts), once on
 * SQLite (project `main`) and once on Postgres (project `postgres`, where
 * `TRECSCORE_TEST_BACKEND=postgres`). A test gets its server's database from {@link dbOptions}
 * (startServer) or {@link dbArgs} (the `trecscore serve` CLI), keyed by the server's data folder:
 *
 * - SQLite: nothing (the server's `board.sqlite` in its data folder, the default);
 * - Postgres: a new empty database on the `TRECSCORE_TEST_PG` server, one per data folder (a
 *   restarted server on the same folder finds its database again, as with SQLite), dropped when
 *   the test file ends.
 *
 * `TRECSCORE_TEST_PG` is a URL of a server where the user may create databases, e.g.
 * `postgres://postgres@127.0.0.1:54329/postgres`; `npm test` starts a throwaway cluster for it
 * when PostgreSQL is installed (scripts/pg-test-cluster.mjs). Without it, test/server/backend.test.ts
 * reports the Postgres half as skipped.
 */
import { randomBytes } from 'node:crypto'
import { afterAll } from 'vitest'

/** The backend of this test run. */
export const BACKEND: 'sqlite' | 'postgres' =
  process.env.TRECSCORE_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite'

/** The admin URL of the Postgres test server, or null. */
export const PG_ADMIN_URL: string | null = /^postgres(ql)?:\/\//.test(
  process.env.TRECSCORE_TEST_PG ?? '',
)
  ? process.env.TRECSCORE_TEST_PG!
  : null

/** Why the Postgres half does not run (null: it runs). */
export const PG_SKIP_REASON: string | null = PG_ADMIN_URL
  ? null
  : 'TRECSCORE_TEST_PG is not set (npm test sets it when PostgreSQL is installed; or run `node scripts/pg-test-cluster.mjs -- npx vitest run test/server`)'

if (BACKEND === 'postgres' && !PG_ADMIN_URL)
  throw new Error(`TRECSCORE_TEST_BACKEND=postgres, but ${PG_SKIP_REASON}`)

/** A Postgres URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/** Run statements on the admin database (one short connection). */
export async function adminQuery(statements: readonly string[]): Promise<void> {
  const pg = (await import('pg')).default
  const client = new pg.Client({ connectionString: PG_ADMIN_URL! })
  await client.connect()
  try {
    for (const s of statements) await client.query(s)
  } finally {
    await client.end()
  }
}

const created = new Map<string, string>()

/** Create an empty database on the test server; returns its URL. Dropped when the file ends. */
export async function createTestDatabase(): Promise<string> {
  const name = `trecscore_t_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery([`create database ${name}`])
  const url = withDatabase(PG_ADMIN_URL!, name)
  created.set(url, name)
  return url
}

const byDataDir = new Map<string, Promise<string>>()

/** The `--db` URL of the server on `dataDir` (Postgres only): a new database on first use. */
function databaseFor(dataDir: string): Promise<string> {
  let url = byDataDir.get(dataDir)
  if (!url) {
    url = createTestDatabase()
    byDataDir.set(dataDir, url)
  }
  return url
}

/** What to add to startServer's options for a server on `dataDir`: `{}` on SQLite, `{ db }` on Postgres. */
export async function dbOptions(dataDir: string): Promise<{ db?: string }> {
  return BACKEND === 'postgres' ? { db: await databaseFor(dataDir) } : {}
}

/** The same as CLI arguments of `trecscore serve`: `[]` or `['--db', URL]`. */
export async function dbArgs(dataDir: string): Promise<string[]> {
  return BACKEND === 'postgres' ? ['--db', await databaseFor(dataDir)] : []
}

// Registered when a test file imports this module, before the file's own hooks, so it runs
// after them (vitest runs after-hooks in reverse order): the servers are closed by then.
afterAll(async () => {
  if (created.size === 0) return
  const names = [...created.values()]
  created.clear()
  await adminQuery(names.map((n) => `drop database if exists ${n} with (force)`))
})
