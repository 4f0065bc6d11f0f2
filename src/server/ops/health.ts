/**
 * `GET /healthz`: 200 `{"ok":true,"db":"sqlite"|"postgres","version":"…"}` when the database
 * answers `select 1` (within 5 s), else 503 with one line saying why. No authentication; it
 * tells nothing else (no counts, no paths, no database address).
 */
import type { Context } from 'hono'
import { sql } from 'kysely'
import type { ServerContext } from '../context.js'
import { dialectOf } from '../db/database.js'
import { TRECSCORE_VERSION } from '../scoring.js'

const TIMEOUT_MS = 5000

/** The handler of `GET /healthz`. */
export function healthz(ctx: ServerContext): (c: Context) => Promise<Response> {
  return async (c) => {
    const db = dialectOf(ctx.db)
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        sql`select 1`.execute(ctx.db),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS)
        }),
      ])
    } catch (e) {
      const why = String((e as Error).message ?? e).split('\n')[0]
      return c.text(`unhealthy: the ${db} database does not answer (${why})\n`, 503)
    } finally {
      clearTimeout(timer)
    }
    return c.json({ ok: true, db, version: TRECSCORE_VERSION })
  }
}
