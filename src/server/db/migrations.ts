/**
 * Schema migrations, applied in name order by Kysely's Migrator when the server opens its
 * database. A migration is never edited once released: add a new one.
 *
 * The same migrations run on SQLite and on Postgres; `types(db)` gives the few column types that
 * differ, so that both store the same values and sort them the same way:
 * - text: `text` on SQLite (byte order), `text collate "C"` on Postgres (byte order too, not the
 *   database's locale), so ids, names and ISO 8601 instants order and compare alike;
 * - floats: SQLite's `real` is 8 bytes; on Postgres that is `double precision` (`real` is 4);
 * - byte sizes: SQLite's `integer` is 8 bytes; on Postgres, `bigint`;
 * - bytes: `blob` on SQLite, `bytea` on Postgres (a Buffer in and out on both);
 * - an autoincrement id: `integer primary key autoincrement` / an identity column.
 * Booleans are integers 0/1 and instants ISO 8601 UTC text on both.
 */
import {
  type ColumnDataType,
  type ColumnDefinitionBuilder,
  type Expression,
  type Kysely,
  type Migration,
  type MigrationProvider,
  sql,
} from 'kysely'
import { dialectOf } from './dialect.js'

/** A column type (kysely does not export its own name for it). */
type DataTypeExpression = ColumnDataType | Expression<unknown>

interface ColumnTypes {
  readonly text: DataTypeExpression
  readonly real: DataTypeExpression
  readonly bigint: DataTypeExpression
  readonly blob: DataTypeExpression
  readonly autoId: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder
}

function types(db: Kysely<unknown>): ColumnTypes {
  return dialectOf(db) === 'postgres'
    ? {
        text: sql`text collate "C"`,
        real: 'double precision',
        bigint: 'bigint',
        blob: 'bytea',
        autoId: (c) => c.primaryKey().generatedByDefaultAsIdentity(),
      }
    : {
        text: 'text',
        real: 'real',
        bigint: 'integer',
        blob: 'blob',
        autoId: (c) => c.primaryKey().autoIncrement(),
      }
}

const init: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .createTable('teams')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('name', t.text, (c) => c.notNull().unique())
      .addColumn('is_baseline', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('users')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('name', t.text, (c) => c.notNull().unique())
      .addColumn('role', t.text, (c) => c.notNull().check(sql`role in ('organizer', 'member')`))
      .addColumn('team_id', t.text, (c) => c.references('teams.id'))
      .addColumn('password_hash', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('invites')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('team_id', t.text, (c) => c.notNull().references('teams.id'))
      .addColumn('token_hash', t.text, (c) => c.notNull().unique())
      .addColumn('created_by', t.text, (c) => c.notNull().references('users.id'))
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('used_at', t.text)
      .execute()
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('team_id', t.text, (c) => c.notNull().references('teams.id'))
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id'))
      .addColumn('label', t.text, (c) => c.notNull())
      .addColumn('token_hash', t.text, (c) => c.notNull().unique())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('revoked_at', t.text)
      .execute()
    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id'))
      .addColumn('csrf', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('expires_at', t.text, (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('submissions')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('team_id', t.text, (c) => c.notNull().references('teams.id'))
      .addColumn('user_id', t.text, (c) => c.references('users.id'))
      .addColumn('track', t.text, (c) => c.notNull())
      .addColumn('phase', t.text, (c) => c.notNull())
      .addColumn('state', t.text, (c) =>
        c.notNull().check(sql`state in ('queued', 'scoring', 'scored', 'failed')`),
      )
      .addColumn('reason', t.text)
      .addColumn('charged', 'integer', (c) => c.notNull())
      .addColumn('original_name', t.text, (c) => c.notNull())
      .addColumn('file', t.text, (c) => c.notNull())
      .addColumn('run_sha256', t.text, (c) => c.notNull())
      .addColumn('bytes', t.bigint, (c) => c.notNull())
      .addColumn('metadata', t.text, (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('started_at', t.text)
      .addColumn('finished_at', t.text)
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
      .addColumn('id', 'integer', t.autoId)
      .addColumn('submission_id', t.text, (c) => c.notNull().references('submissions.id'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('primary_value', t.real)
      .addColumn('columns', t.text, (c) => c.notNull())
      .addColumn('per_query', t.text, (c) => c.notNull())
      .addColumn('notes', t.text, (c) => c.notNull())
      .addColumn('provenance', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addUniqueConstraint('scores_version', ['submission_id', 'version'])
      .execute()
    await db.schema
      .createTable('releases')
      .addColumn('phase', t.text, (c) => c.primaryKey())
      .addColumn('released_at', t.text, (c) => c.notNull())
      .addColumn('released_by', t.text, (c) => c.notNull())
      .execute()
  },
}

/** Anonymous teams (shown by an alias on boards and exports) and the submission a team selected to count. */
const anonymityAndSelection: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .alterTable('teams')
      .addColumn('anonymous', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .createTable('selections')
      .addColumn('team_id', t.text, (c) => c.notNull().references('teams.id'))
      .addColumn('track', t.text, (c) => c.notNull())
      .addColumn('phase', t.text, (c) => c.notNull())
      .addColumn('submission_id', t.text, (c) => c.notNull().references('submissions.id'))
      .addColumn('selected_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('selections_pk', ['team_id', 'track', 'phase'])
      .execute()
  },
}

/** Qrels versions added by organizers, the qrels version of each score, and the re-scoring jobs a new version starts. */
const qrelsVersions: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .createTable('qrels_versions')
      .addColumn('track', t.text, (c) => c.notNull())
      .addColumn('phase', t.text, (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('file', t.text, (c) => c.notNull())
      .addColumn('sha256', t.text, (c) => c.notNull())
      .addColumn('note', t.text, (c) => c.notNull())
      .addColumn('created_by', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('qrels_versions_pk', ['track', 'phase', 'version'])
      .execute()
    await db.schema
      .alterTable('scores')
      .addColumn('qrels_version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute()
    await db.schema
      .createTable('rescores')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('submission_id', t.text, (c) => c.notNull().references('submissions.id'))
      .addColumn('qrels_version', 'integer', (c) => c.notNull())
      .addColumn('state', t.text, (c) =>
        c.notNull().check(sql`state in ('queued', 'scoring', 'done', 'failed')`),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reason', t.text)
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute()
  },
}

/**
 * Scores written once: the scorer version of each score, and one score per (submission, qrels
 * version, scorer version), so a job delivered or retried twice (the Postgres queue) cannot
 * add a second score. Rows written before this migration carry the scorer version ''.
 */
const jobQueue: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .alterTable('scores')
      .addColumn('scorer_version', t.text, (c) => c.notNull().defaultTo(''))
      .execute()
    await db.schema
      .createIndex('scores_once')
      .unique()
      .on('scores')
      .columns(['submission_id', 'qrels_version', 'scorer_version'])
      .execute()
  },
}

/** Human spot validation: judged items, raters, samples, assignments and ratings (see raters/tables.ts). */
const spotValidation: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .createTable('judged_items')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('track', t.text, (c) => c.notNull())
      .addColumn('phase', t.text, (c) => c.notNull())
      .addColumn('submission_id', t.text, (c) => c.notNull().references('submissions.id'))
      .addColumn('turn_id', t.text, (c) => c.notNull())
      .addColumn('conversation_id', t.text, (c) => c.notNull())
      .addColumn('domain', t.text)
      .addColumn('turn_depth', 'integer')
      .addColumn('item', t.text, (c) => c.notNull())
      .addColumn('judgments', t.text, (c) => c.notNull())
      .addColumn('config_hash', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('judged_items_board')
      .on('judged_items')
      .columns(['track', 'phase', 'config_hash'])
      .execute()
    await db.schema
      .createTable('raters')
      .addColumn('user_id', t.text, (c) => c.primaryKey().references('users.id'))
      .addColumn('created_by', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('rater_invites')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('token_hash', t.text, (c) => c.notNull().unique())
      .addColumn('created_by', t.text, (c) => c.notNull().references('users.id'))
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('used_at', t.text)
      .execute()
    await db.schema
      .createTable('rating_samples')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('track', t.text, (c) => c.notNull())
      .addColumn('phase', t.text, (c) => c.notNull())
      .addColumn('seed', t.bigint, (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('double_share', t.real, (c) => c.notNull())
      .addColumn('config_hash', t.text, (c) => c.notNull())
      .addColumn('config_json', t.text, (c) => c.notNull())
      .addColumn('created_by', t.text, (c) => c.notNull().references('users.id'))
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('rating_assignments')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('sample_id', t.text, (c) => c.notNull().references('rating_samples.id'))
      .addColumn('item_id', t.text, (c) => c.notNull().references('judged_items.id'))
      .addColumn('rater_id', t.text, (c) => c.notNull().references('users.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('slot', 'integer', (c) => c.notNull().check(sql`slot in (1, 2)`))
      .addColumn('skip_reason', t.text)
      .addColumn('updated_at', t.text)
      .addUniqueConstraint('rating_assignments_once', ['sample_id', 'item_id', 'rater_id'])
      .execute()
    await db.schema
      .createTable('ratings')
      .addColumn('assignment_id', t.text, (c) => c.notNull().references('rating_assignments.id'))
      .addColumn('dimension', t.text, (c) => c.notNull())
      .addColumn('score', 'integer', (c) => c.notNull().check(sql`score between 1 and 5`))
      .addColumn('updated_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('ratings_pk', ['assignment_id', 'dimension'])
      .execute()
  },
}

/** The request that stored a submission or started a re-scoring job, carried into its job's log lines. */
const requestIds: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema.alterTable('submissions').addColumn('request_id', t.text).execute()
    await db.schema.alterTable('rescores').addColumn('request_id', t.text).execute()
  },
}

/**
 * The judgment cache of a Postgres server (see judging/pg-judge-cache.ts), shared by every
 * worker: judgments, claims and remembered facts, keyed by judge config hash. Created on both
 * backends (on SQLite the cache is a file per config and these stay empty), so that one schema
 * restores a backup of either.
 */
const judgeCache: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .createTable('judge_judgments')
      .addColumn('config_hash', t.text, (c) => c.notNull())
      .addColumn('key', t.text, (c) => c.notNull())
      .addColumn('dimension', t.text, (c) => c.notNull())
      .addColumn('turn_id', t.text, (c) => c.notNull())
      .addColumn('status', t.text, (c) => c.notNull())
      .addColumn('score', 'integer')
      .addColumn('rationale', t.text)
      .addColumn('reason', t.text)
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('prompt_tokens', t.bigint, (c) => c.notNull())
      .addColumn('completion_tokens', t.bigint, (c) => c.notNull())
      .addColumn('content', t.text)
      .addColumn('system_fingerprint', t.text)
      .addColumn('model', t.text)
      .addColumn('request', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('judge_judgments_pk', ['config_hash', 'key'])
      .execute()
    await db.schema
      .createTable('judge_claims')
      .addColumn('config_hash', t.text, (c) => c.notNull())
      .addColumn('key', t.text, (c) => c.notNull())
      .addColumn('owner', t.text, (c) => c.notNull())
      .addColumn('host', t.text, (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .addPrimaryKeyConstraint('judge_claims_pk', ['config_hash', 'key'])
      .execute()
    await db.schema.createIndex('judge_claims_owner').on('judge_claims').column('owner').execute()
    await db.schema
      .createTable('judge_meta')
      .addColumn('config_hash', t.text, (c) => c.notNull())
      .addColumn('key', t.text, (c) => c.notNull())
      .addColumn('value', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('judge_meta_pk', ['config_hash', 'key'])
      .execute()
  },
}

/**
 * State that several web processes share (nothing of it in process memory): the topic lists a
 * worker publishes for web processes that hold no qrels, and the rate limiter's counters.
 */
const sharedState: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .createTable('topic_lists')
      .addColumn('track', t.text, (c) => c.notNull())
      .addColumn('phase', t.text, (c) => c.notNull())
      .addColumn('qrels_version', 'integer', (c) => c.notNull())
      .addColumn('topics', t.text, (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('topic_lists_pk', ['track', 'phase', 'qrels_version'])
      .execute()
    await db.schema
      .createTable('rate_hits')
      .addColumn('key', t.text, (c) => c.primaryKey())
      .addColumn('hits', t.text, (c) => c.notNull())
      .addColumn('last_at', t.bigint, (c) => c.notNull())
      .execute()
    await db.schema.createIndex('rate_hits_last_at').on('rate_hits').column('last_at').execute()
  },
}

/**
 * The judge cost a judged submission was estimated at when it was taken (see
 * judging/budget.ts): held against the budgets while it waits or is judged, so that a burst of
 * uploads cannot overspend before the first of them is scored.
 */
const judgeHolds: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema.alterTable('submissions').addColumn('judge_estimate', t.real).execute()
  },
}

/** Organizer pauses of judged tracks' judging (see judging/controls.ts). */
const judgingControls: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .createTable('judging_pauses')
      .addColumn('track', t.text, (c) => c.notNull())
      .addColumn('phase', t.text, (c) => c.notNull())
      .addColumn('paused_by', t.text, (c) => c.notNull())
      .addColumn('paused_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('judging_pauses_pk', ['track', 'phase'])
      .execute()
  },
}

/**
 * Stored runs in the database (`serve --runs database`, see storage/database-store.ts): each
 * file of a submission's stored folder as numbered chunks of at most 1 MiB. No foreign key to
 * `submissions`: the chunks are written before the submission row (outside any transaction),
 * and chunks whose row never came are swept an hour later. `created_at` precedes `data` so that
 * SQLite reads it without following a chunk's overflow pages.
 */
const runChunks: Migration = {
  async up(db: Kysely<unknown>) {
    const t = types(db)
    await db.schema
      .createTable('run_chunks')
      .addColumn('submission_id', t.text, (c) => c.notNull())
      .addColumn('path', t.text, (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('data', t.blob, (c) => c.notNull())
      .addPrimaryKeyConstraint('run_chunks_pk', ['submission_id', 'path', 'seq'])
      .execute()
  },
}

/** Every migration, by name. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_init': init,
  '0002_anonymity_selection': anonymityAndSelection,
  '0003_qrels_versions': qrelsVersions,
  '0004_job_queue': jobQueue,
  '0006_spot_validation': spotValidation,
  '0007_request_ids': requestIds,
  '0008_judge_cache': judgeCache,
  '0009_shared_state': sharedState,
  '0010_judging_controls': judgingControls,
  '0011_judge_holds': judgeHolds,
  '0012_run_chunks': runChunks,
}

/** The in-code migration provider. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
}
