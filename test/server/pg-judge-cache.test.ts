/**
 * The Postgres judgment cache (src/server/judging/pg-judge-cache.ts) on a real Postgres: two
 * owners racing for the same requests (each through its own connection pool, as two worker
 * processes) get exactly one `mine` and one `taken` each; a put ends the claim and the key is
 * `done` for everyone; an expired claim is taken over, a renewed one is not; a claim of a gone
 * process on this host is taken over; release and meta are per owner and per config hash.
 * Opens its own databases (listed in sqlite-only.ts): reported as skipped, with the reason,
 * when no Postgres test server is set.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CachedJudgment } from '../../src/entries/judge.js'
import { type Db, openDatabase, parseDbLocation } from '../../src/server/db/database.js'
import { PgJudgeCache } from '../../src/server/judging/pg-judge-cache.js'
import { createTestDatabase, PG_ADMIN_URL, PG_SKIP_REASON } from './backend.js'

const HASH = 'a'.repeat(64)
const OTHER = 'b'.repeat(64)

function judgment(key: string, score = 4): CachedJudgment {
  return {
    key,
    dimension: 'correctness',
    turnId: 't1',
    status: 'ok',
    score,
    rationale: 'fine',
    reason: null,
    attempts: 1,
    promptTokens: 120,
    completionTokens: 12,
    content: '{"score":4}',
    systemFingerprint: 'fp-1',
    model: 'judge-model',
    request: `{"key":"${key}"}`,
    createdAt: '2026-12-03T12:00:00.000Z',
  }
}

let dir = ''
let a: Db
let b: Db
let t = 1_000_000
const clock = () => t

const run = PG_ADMIN_URL ? describe : describe.skip
if (!PG_ADMIN_URL)
  process.stderr.write(`test/server/pg-judge-cache.test.ts: SKIPPED, ${PG_SKIP_REASON}\n`)

run(`the Postgres judgment cache${PG_ADMIN_URL ? '' : ` (SKIPPED: ${PG_SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trecscore-pgjudge-'))
    const url = await createTestDatabase()
    a = await openDatabase(parseDbLocation(url, dir))
    b = await openDatabase(parseDbLocation(url, dir), { migrate: false })
  }, 60_000)

  afterAll(async () => {
    await a?.destroy()
    await b?.destroy()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('two owners racing for the same requests: exactly one mine and one taken per key', async () => {
    const x = new PgJudgeCache(a, HASH, { clock })
    const y = new PgJudgeCache(b, HASH, { clock })
    expect(x.owner).not.toBe(y.owner)
    const keys = Array.from({ length: 20 }, (_, i) => `race-${i}`)
    const results = await Promise.all(keys.flatMap((k) => [x.claim(k, 60_000), y.claim(k, 60_000)]))
    for (let i = 0; i < keys.length; i++) {
      expect([results[2 * i], results[2 * i + 1]].sort(), keys[i]).toEqual(['mine', 'taken'])
    }
    const claims = await a.selectFrom('judge_claims').select(['key', 'owner']).execute()
    expect(claims).toHaveLength(20)
    // Claiming again: our own claims stay ours, the other's stay taken.
    for (let i = 0; i < keys.length; i++) {
      const holder = results[2 * i] === 'mine' ? x : y
      const other = holder === x ? y : x
      expect(await holder.claim(keys[i]!, 60_000)).toBe('mine')
      expect(await other.claim(keys[i]!, 60_000)).toBe('taken')
    }
    await x.releaseClaims()
    await y.releaseClaims()
    expect(await a.selectFrom('judge_claims').selectAll().execute()).toEqual([])
  })

  it('put ends the claim in the same transaction: the key is done for everyone', async () => {
    const x = new PgJudgeCache(a, HASH, { clock })
    const y = new PgJudgeCache(b, HASH, { clock })
    expect(await x.claim('put-1', 60_000)).toBe('mine')
    expect(await y.claim('put-1', 60_000)).toBe('taken')
    expect(await y.get('put-1')).toBeNull()
    await x.put(judgment('put-1'))
    expect(
      await a.selectFrom('judge_claims').selectAll().where('key', '=', 'put-1').execute(),
    ).toEqual([])
    expect(await y.claim('put-1', 60_000)).toBe('done')
    expect(await x.claim('put-1', 60_000)).toBe('done')
    // Every field comes back as written (bigint token counts as numbers).
    expect(await y.get('put-1')).toEqual(judgment('put-1'))
    // done does not leave a claim behind.
    expect(
      await a.selectFrom('judge_claims').selectAll().where('key', '=', 'put-1').execute(),
    ).toEqual([])
    // A second put of the key replaces the judgment (as INSERT OR REPLACE does in the file cache).
    await y.put(judgment('put-1', 2))
    expect((await x.get('put-1'))?.score).toBe(2)
    expect(await x.size()).toBe(1)
  })

  it('an expired claim is taken over; a renewed one is not; release is per owner', async () => {
    const x = new PgJudgeCache(a, HASH, { clock })
    const y = new PgJudgeCache(b, HASH, { clock })
    t = 2_000_000
    expect(await x.claim('lease-1', 1000)).toBe('mine')
    t += 900
    expect(await y.claim('lease-1', 1000)).toBe('taken')
    await x.renewClaims(1000) // now expires at t + 1000
    t += 900
    expect(await y.claim('lease-1', 1000)).toBe('taken')
    t += 200 // past the renewed expiry
    expect(await y.claim('lease-1', 1000)).toBe('mine')
    expect(await x.claim('lease-1', 1000)).toBe('taken')
    const row = await a
      .selectFrom('judge_claims')
      .selectAll()
      .where('key', '=', 'lease-1')
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ owner: y.owner, host: hostname(), pid: process.pid })
    expect(Number(row.expires_at)).toBe(t + 1000)
    // The old owner's release and put leave the new owner's claim alone.
    await x.release('lease-1')
    expect(await x.claim('lease-1', 1000)).toBe('taken')
    await y.release('lease-1')
    expect(await x.claim('lease-1', 1000)).toBe('mine')
    await x.releaseClaims()
  })

  it('a claim of a process on this host that no longer exists is taken over before it expires', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!
    await a
      .insertInto('judge_claims')
      .values({
        config_hash: HASH,
        key: 'dead-1',
        owner: `${hostname()}:${gone}:x`,
        host: hostname(),
        pid: gone,
        expires_at: t + 3_600_000,
      })
      .execute()
    // A live process elsewhere is not: another host's claim stays taken until it expires.
    await a
      .insertInto('judge_claims')
      .values({
        config_hash: HASH,
        key: 'remote-1',
        owner: 'elsewhere:1:x',
        host: 'elsewhere',
        pid: gone,
        expires_at: t + 3_600_000,
      })
      .execute()
    const y = new PgJudgeCache(b, HASH, { clock })
    expect(await y.claim('dead-1', 1000)).toBe('mine')
    expect(await y.claim('remote-1', 1000)).toBe('taken')
    await y.releaseClaims()
    await a.deleteFrom('judge_claims').execute()
  })

  it('config hashes are separate: judgments, claims and meta', async () => {
    const x = new PgJudgeCache(a, HASH, { clock })
    const other = new PgJudgeCache(b, OTHER, { clock })
    expect(await other.get('put-1')).toBeNull()
    expect(await other.claim('put-1', 60_000)).toBe('mine')
    expect(await x.getMeta('structured_rejected:http://x')).toBeNull()
    await x.setMeta('structured_rejected:http://x', 'HTTP 400')
    await x.setMeta('structured_rejected:http://x', 'HTTP 422')
    expect(await x.getMeta('structured_rejected:http://x')).toBe('HTTP 422')
    expect(await other.getMeta('structured_rejected:http://x')).toBeNull()
    await other.releaseClaims()
  })

  it("expiry is by the database's clock when no clock is given", async () => {
    const x = new PgJudgeCache(a, HASH)
    const before = Date.now()
    expect(await x.claim('clock-1', 60_000)).toBe('mine')
    const after = Date.now()
    const row = await a
      .selectFrom('judge_claims')
      .select('expires_at')
      .where('key', '=', 'clock-1')
      .executeTakeFirstOrThrow()
    // The same machine: the database's clock is this one, give or take a second.
    expect(Number(row.expires_at)).toBeGreaterThanOrEqual(before + 60_000 - 1000)
    expect(Number(row.expires_at)).toBeLessThanOrEqual(after + 60_000 + 1000)
    await x.releaseClaims()
  })
})
