/**
 * A sliding-window rate limiter keyed by a string (`login:IP`, `upload:TEAM`, `api:TOKEN`),
 * kept in the database so that every web process behind a load balancer counts the same
 * requests (nothing in process memory). A key's row holds the instants of its allowed requests
 * still inside the window; a request is allowed when fewer than `limit` are, and only an allowed
 * one is recorded. The check and the write are one transaction, serialized per key (`for update`
 * on Postgres; SQLite has one writer), so two processes never both take the last slot. On
 * Postgres it is a {@link rowLockedTransaction}: it does not take the lock every other
 * transaction takes, so API requests do not queue behind scoring claims and score writes.
 * One instance per server; the clock is injected for tests.
 */
import { type Db, rowLockedTransaction } from '../db/database.js'
import { dialectOf } from '../db/dialect.js'

/** Keys whose newest request is older than this are deleted now and then. */
const PRUNE_AFTER_MS = 60 * 60_000

export class RateLimiter {
  private calls = 0

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Record one request under `key` and say whether it is allowed: at most `limit` requests in
   * the last `windowMs` milliseconds. Refused requests are not recorded.
   */
  async allow(key: string, limit: number, windowMs = 60_000): Promise<boolean> {
    const t = this.now()
    const allowed = await rowLockedTransaction(this.db).execute(async (trx) => {
      await trx
        .insertInto('rate_hits')
        .values({ key, hits: '[]', last_at: t })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute()
      let q = trx.selectFrom('rate_hits').select('hits').where('key', '=', key)
      if (dialectOf(this.db) === 'postgres') q = q.forUpdate()
      const row = await q.executeTakeFirstOrThrow()
      const kept = (JSON.parse(row.hits) as number[]).filter((x) => x > t - windowMs)
      const ok = kept.length < limit
      if (ok) kept.push(t)
      await trx
        .updateTable('rate_hits')
        .set({ hits: JSON.stringify(kept), last_at: Math.max(t, kept.at(-1) ?? t) })
        .where('key', '=', key)
        .execute()
      return ok
    })
    if (++this.calls % 1000 === 0) await this.prune(t - PRUNE_AFTER_MS)
    return allowed
  }

  private async prune(before: number): Promise<void> {
    await this.db.deleteFrom('rate_hits').where('last_at', '<', before).execute()
  }
}
