/**
 * `trecscore serve migrate`: apply the schema migrations a database lacks and say which (the
 * server also migrates on start; this lets an organizer do it first, e.g. before starting N web
 * processes at once). Idempotent: a second run applies nothing.
 */
import { Migrator } from 'kysely'
import { TrecscoreError } from '../../internal.js'
import { type DbLocation, describeLocation, openDatabase } from '../db/database.js'
import { migrationProvider } from '../db/migrations.js'

/** Apply every pending migration; returns the names applied, in order. */
export async function migrate(where: DbLocation): Promise<string[]> {
  const db = await openDatabase(where, { migrate: false })
  try {
    const { error, results } = await new Migrator({
      db,
      provider: migrationProvider,
    }).migrateToLatest()
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '?'
      throw new TrecscoreError(
        `${describeLocation(where)}: migration ${failed} failed: ${String((error as Error).message ?? error).split('\n')[0]}`,
        1,
      )
    }
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
  } finally {
    await db.destroy()
  }
}
