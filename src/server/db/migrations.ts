/**
 * Schema migrations, applied in name order by Kysely's Migrator when the server opens its
 * database. A migration is never edited once released: add a new one.
 */
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely'

const init: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('teams')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('is_baseline', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('organizer', 'member')`))
      .addColumn('team_id', 'text', (c) => c.references('teams.id'))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute()
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute()
    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('csrf', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('submissions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
      .addColumn('user_id', 'text', (c) => c.references('users.id'))
      .addColumn('track', 'text', (c) => c.notNull())
      .addColumn('phase', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) =>
        c.notNull().check(sql`state in ('queued', 'scoring', 'scored', 'failed')`),
      )
      .addColumn('reason', 'text')
      .addColumn('charged', 'integer', (c) => c.notNull())
      .addColumn('original_name', 'text', (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('run_sha256', 'text', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('metadata', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .execute()
    await db.schema
      .createIndex('submissions_board')
      .on('submissions')
      .columns(['track', 'phase', 'state'])
      .execute()
    await db.schema
      .createIndex('submissions_team')
      .on('submissions')
      .columns(['team_id', 'created_at'])
      .execute()
    await db.schema
      .createTable('scores')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('primary_value', 'real')
      .addColumn('columns', 'text', (c) => c.notNull())
      .addColumn('per_query', 'text', (c) => c.notNull())
      .addColumn('notes', 'text', (c) => c.notNull())
      .addColumn('provenance', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('scores_version', ['submission_id', 'version'])
      .execute()
    await db.schema
      .createTable('releases')
      .addColumn('phase', 'text', (c) => c.primaryKey())
      .addColumn('released_at', 'text', (c) => c.notNull())
      .addColumn('released_by', 'text', (c) => c.notNull())
      .execute()
  },
}

/** Anonymous teams (shown by an alias on boards and exports) and the submission a team selected to count. */
const anonymityAndSelection: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('teams')
      .addColumn('anonymous', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .createTable('selections')
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
      .addColumn('track', 'text', (c) => c.notNull())
      .addColumn('phase', 'text', (c) => c.notNull())
      .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id'))
      .addColumn('selected_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('selections_pk', ['team_id', 'track', 'phase'])
      .execute()
  },
}

/** Qrels versions added by organizers, the qrels version of each score, and the re-scoring jobs a new version starts. */
const qrelsVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('qrels_versions')
      .addColumn('track', 'text', (c) => c.notNull())
      .addColumn('phase', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('qrels_versions_pk', ['track', 'phase', 'version'])
      .execute()
    await db.schema
      .alterTable('scores')
      .addColumn('qrels_version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute()
    await db.schema
      .createTable('rescores')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id'))
      .addColumn('qrels_version', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) =>
        c.notNull().check(sql`state in ('queued', 'scoring', 'done', 'failed')`),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
  },
}

/** Every migration, by name. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_init': init,
  '0002_anonymity_selection': anonymityAndSelection,
  '0003_qrels_versions': qrelsVersions,
}

/** The in-code migration provider. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
}
