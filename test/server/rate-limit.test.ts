/**
 * The rate limiter lives in the database, so that web processes behind one load balancer count
 * the same requests: two limiters on two connections (two processes' worth) share one budget,
 * also when they ask at the same moment, and the sliding window never lets more than the limit
 * through (property). Runs on SQLite and, with the Postgres project, on Postgres.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { RateLimiter } from '../../src/server/auth/rate-limit.js'
import { type Db, openDatabase, parseDbLocation } from '../../src/server/db/database.js'
import { BACKEND, dbOptions } from './backend.js'

const dir = mkdtempSync(join(tmpdir(), 'trecscore-rate-'))
const opened: Db[] = []
afterAll(async () => {
  for (const db of opened) await db.destroy()
  rmSync(dir, { recursive: true, force: true })
})

let first: Db | null = null
/**
 * A new connection to the test database (each one stands for a web process). SQLite serves one
 * process (its web processes are not scaled out), and better-sqlite3 is synchronous, so two
 * connections in one test process would wait on each other's locks: there they share one.
 */
async function connect(): Promise<Db> {
  if (BACKEND === 'sqlite' && first) return first
  const db = await openDatabase(parseDbLocation((await dbOptions(dir)).db, dir))
  opened.push(db)
  first ??= db
  return db
}

describe(`rate limiter in the database (${BACKEND})`, () => {
  it('allows `limit` requests per window and frees them as the window slides', async () => {
    let t = 1_000_000
    const r = new RateLimiter(await connect(), () => t)
    const got: boolean[] = []
    for (let i = 0; i < 4; i++) got.push(await r.allow('slide', 3, 1000))
    expect(got).toEqual([true, true, true, false])
    expect(await r.allow('slide-other', 3, 1000)).toBe(true)
    t += 1001
    expect(await r.allow('slide', 3, 1000)).toBe(true)
  })

  it('two processes share one budget, also when they ask at once', async () => {
    const t = 2_000_000
    const a = new RateLimiter(await connect(), () => t)
    const b = new RateLimiter(await connect(), () => t)
    // Taking turns: the second process sees the first one's requests.
    const turns: boolean[] = []
    for (let i = 0; i < 6; i++) turns.push(await (i % 2 ? b : a).allow('turns', 4))
    expect(turns).toEqual([true, true, true, true, false, false])
    // At the same moment: 40 requests, 10 allowed in all, whichever process got them.
    const all = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? b : a).allow('burst', 10)),
    )
    expect(all.filter(Boolean).length).toBe(10)
  })

  it.runIf(BACKEND === 'postgres')(
    'does not wait for the transaction lock that scoring holds (Postgres)',
    async () => {
      const db = await connect()
      const r = new RateLimiter(await connect())
      let release = (): void => {}
      let held = false
      // Another process's long transaction (a scoring claim, a score write) holds the lock.
      const holder = db.transaction().execute(async (trx) => {
        await trx.selectFrom('rate_hits').select('key').execute()
        held = true
        await new Promise<void>((resolve) => {
          release = resolve
        })
      })
      while (!held) await new Promise((resolve) => setTimeout(resolve, 10))
      const answer = await Promise.race([
        r.allow('api:busy', 5),
        new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5000)),
      ])
      release()
      await holder
      expect(answer).toBe(true)
    },
  )

  it('never allows more than the limit in any window (property)', async () => {
    const db = await connect()
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        async (steps, limit) => {
          let t = 0
          const r = new RateLimiter(db, () => t)
          const key = `prop-${n++}`
          const allowed: number[] = []
          for (const s of steps) {
            t += s
            if (await r.allow(key, limit, 100)) allowed.push(t)
          }
          for (const x of allowed)
            expect(allowed.filter((y) => y > x - 100 && y <= x).length).toBeLessThanOrEqual(limit)
        },
      ),
      { numRuns: 40 },
    )
  })
})
