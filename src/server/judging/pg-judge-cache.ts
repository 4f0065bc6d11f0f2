/**
 * The judgment cache of a Postgres server: a {@link JudgmentStore} on the server's database
 * (tables `judge_judgments`, `judge_claims`, `judge_meta` of migration 0008, keyed by judge
 * config hash), so every worker, on any machine that reaches the database, shares one cache
 * without a shared folder. The semantics are those of the SQLite cache file (cache.ts):
 *
 * - **claim**, one transaction: `INSERT … ON CONFLICT DO UPDATE … WHERE` the claim is ours or
 *   expired, `RETURNING` (a row back: the claim is ours); then the judgment is looked for (a
 *   fresh snapshot, after the claim row is locked): found, the claim is dropped and the answer
 *   is `done`. A claim of a process on this host that no longer exists is taken over too
 *   (compare-and-set on its owner). Without a row back the key is `taken`.
 * - **put**, one transaction: the claim of ours deleted and the judgment written (replacing).
 * - expiry is by the database's clock (one clock for every machine), unless a test clock is given.
 *
 * The server's transactions on Postgres also take one advisory lock each (db/database.ts), so
 * these run one at a time; the order above does not depend on it.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { type RawBuilder, sql, type Transaction } from 'kysely'
import {
  type CachedJudgment,
  type ClaimResult,
  type JudgmentStore,
  judgmentOfRow,
  pidAlive,
  rowOfJudgment,
} from '../../internal.js'
import type { Db } from '../db/database.js'
import type { Database } from '../db/schema.js'

/** Options of {@link PgJudgeCache}. */
export interface PgJudgeCacheOptions {
  /** Tests: milliseconds since the epoch for claim expiry (default: the database's clock). */
  readonly clock?: () => number
}

/** The judgment cache of one judge config in a server's (Postgres) database. */
export class PgJudgeCache implements JudgmentStore {
  readonly owner: string
  private readonly host = hostname()

  constructor(
    private readonly db: Db,
    readonly configHash: string,
    private readonly options: PgJudgeCacheOptions = {},
  ) {
    this.owner = `${this.host}:${process.pid}:${randomUUID()}`
  }

  /** Now, in milliseconds since the epoch, as an SQL expression. */
  private now(): RawBuilder<number> {
    const clock = this.options.clock
    return clock
      ? sql<number>`${clock()}::bigint`
      : sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
  }

  async get(key: string): Promise<CachedJudgment | null> {
    return judgmentOf(
      await this.db
        .selectFrom('judge_judgments')
        .selectAll()
        .where('config_hash', '=', this.configHash)
        .where('key', '=', key)
        .executeTakeFirst(),
    )
  }

  async claim(key: string, leaseMs: number): Promise<ClaimResult> {
    return this.db.transaction().execute(async (trx): Promise<ClaimResult> => {
      const now = this.now()
      const expires = sql<number>`${now} + ${leaseMs}::bigint`
      let mine = !!(await trx
        .insertInto('judge_claims')
        .values({
          config_hash: this.configHash,
          key,
          owner: this.owner,
          host: this.host,
          pid: process.pid,
          expires_at: expires,
        })
        .onConflict((oc) =>
          oc
            .columns(['config_hash', 'key'])
            .doUpdateSet({
              owner: (eb) => eb.ref('excluded.owner'),
              host: (eb) => eb.ref('excluded.host'),
              pid: (eb) => eb.ref('excluded.pid'),
              expires_at: (eb) => eb.ref('excluded.expires_at'),
            })
            .where((eb) =>
              eb.or([
                eb('judge_claims.owner', '=', this.owner),
                eb('judge_claims.expires_at', '<', now),
              ]),
            ),
        )
        .returning('owner')
        .executeTakeFirst())
      if (!mine) mine = await this.takeOverDead(trx, key, expires)
      if (await this.has(trx, key)) {
        if (mine) await this.deleteClaim(trx, key)
        return 'done'
      }
      return mine ? 'mine' : 'taken'
    })
  }

  /** The live-looking claim on `key` belongs to a process on this host that is gone: take it over. */
  private async takeOverDead(
    trx: Transaction<Database>,
    key: string,
    expires: RawBuilder<number>,
  ): Promise<boolean> {
    const row = await trx
      .selectFrom('judge_claims')
      .select(['owner', 'host', 'pid'])
      .where('config_hash', '=', this.configHash)
      .where('key', '=', key)
      .executeTakeFirst()
    if (!row || row.host !== this.host || row.pid === process.pid || pidAlive(row.pid)) return false
    const r = await trx
      .updateTable('judge_claims')
      .set({ owner: this.owner, host: this.host, pid: process.pid, expires_at: expires })
      .where('config_hash', '=', this.configHash)
      .where('key', '=', key)
      .where('owner', '=', row.owner)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  private async has(trx: Transaction<Database>, key: string): Promise<boolean> {
    return !!(await trx
      .selectFrom('judge_judgments')
      .select('key')
      .where('config_hash', '=', this.configHash)
      .where('key', '=', key)
      .executeTakeFirst())
  }

  private async deleteClaim(trx: Transaction<Database> | Db, key: string): Promise<void> {
    await trx
      .deleteFrom('judge_claims')
      .where('config_hash', '=', this.configHash)
      .where('key', '=', key)
      .where('owner', '=', this.owner)
      .execute()
  }

  async release(key: string): Promise<void> {
    await this.deleteClaim(this.db, key)
  }

  async put(j: CachedJudgment): Promise<void> {
    const row = { config_hash: this.configHash, ...rowOfJudgment(j) }
    const { config_hash: _h, key: _k, ...rest } = row
    await this.db.transaction().execute(async (trx) => {
      await this.deleteClaim(trx, j.key)
      await trx
        .insertInto('judge_judgments')
        .values(row)
        .onConflict((oc) => oc.columns(['config_hash', 'key']).doUpdateSet(rest))
        .execute()
    })
  }

  async renewClaims(leaseMs: number): Promise<void> {
    await this.db
      .updateTable('judge_claims')
      .set({ expires_at: sql<number>`${this.now()} + ${leaseMs}::bigint` })
      .where('owner', '=', this.owner)
      .execute()
  }

  async releaseClaims(): Promise<void> {
    await this.db.deleteFrom('judge_claims').where('owner', '=', this.owner).execute()
  }

  async getMeta(key: string): Promise<string | null> {
    const r = await this.db
      .selectFrom('judge_meta')
      .select('value')
      .where('config_hash', '=', this.configHash)
      .where('key', '=', key)
      .executeTakeFirst()
    return r?.value ?? null
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('judge_meta')
      .values({ config_hash: this.configHash, key, value })
      .onConflict((oc) => oc.columns(['config_hash', 'key']).doUpdateSet({ value }))
      .execute()
  }

  /** Number of cached judgments of this config. */
  async size(): Promise<number> {
    const r = await this.db
      .selectFrom('judge_judgments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('config_hash', '=', this.configHash)
      .executeTakeFirstOrThrow()
    return Number(r.n)
  }
}

function judgmentOf(r: Database['judge_judgments'] | undefined): CachedJudgment | null {
  return r ? judgmentOfRow(r) : null
}
