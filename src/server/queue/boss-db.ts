/**
 * The database connection pg-boss runs its SQL on: our own pg pool instead of pg-boss's, for
 * what a lost or restarting database does to it.
 *
 * - A connection that breaks is dropped, never an unheard 'error' event that ends the process
 *   (see heedLostConnections).
 * - pg-boss 10 marks a job done or failed after its handler returns without awaiting the
 *   statement (manager.js `watch`): one that fails while the database is down is an unhandled
 *   rejection, which ends a Node process. Those two statements (recognized by their text: they
 *   change fetched jobs by id) are logged instead of thrown. Nothing is lost: the job stays
 *   active, expires and is delivered again, and its row (the truth) is finished already, so the
 *   next delivery is a logged no-op (a second delivery) or a retry.
 * Every other statement fails as it would (a job not sent is re-sent from its `queued` row).
 */
import type PgBoss from 'pg-boss'
import { heedLostConnections, loadPg } from '../db/database.js'

/**
 * The statements pg-boss does not await (its plans.js `completeJobs` and `failJobsById`, for
 * the fetched jobs' ids); both answer one row, the count of jobs changed.
 */
const UNAWAITED = [
  /SET completed_on = now\(\),\s+state = 'completed',\s+output = \$3::jsonb\s+WHERE name = \$1\s+AND id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\)/,
  /WHERE name = \$1 AND id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\) AND state < 'completed'/,
]

/** pg-boss's `db` on a pool of `max` connections to `url`; `close()` ends the pool. */
export async function bossDatabase(
  url: string,
  max: number,
): Promise<PgBoss.Db & { close(): Promise<void> }> {
  const pg = await loadPg()
  const pool: import('pg').Pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: 'trecscore-queue',
    connectionTimeoutMillis: 10_000,
  })
  heedLostConnections(pool, 'trecscore queue')
  return {
    async executeSql(text: string, values: unknown[]) {
      try {
        return await pool.query(text, values)
      } catch (e) {
        if (!UNAWAITED.some((r) => r.test(text))) throw e
        process.stderr.write(
          `trecscore queue: marking a job done or failed did not reach the database (${e instanceof Error ? e.message : String(e)}); it expires and is delivered again\n`,
        )
        return { rows: [{ count: '0' }] }
      }
    },
    close: () => pool.end(),
  }
}
