/**
 * What every route reads: the database, the competition, the data folder, the rate limiter,
 * the clock and the scoring queue. One value per server; nothing module-level.
 */

import type { RateLimiter } from './auth/rate-limit.js'
import type { Competition } from './config/load.js'
import type { Db } from './db/database.js'
import type { RunStores } from './storage/run-stores.js'
import type { TopicCache } from './topic-cache.js'

export interface ServerContext {
  readonly db: Db
  readonly competition: Competition
  /** The `--data` folder (database, stored runs of the directory store). */
  readonly dataDir: string
  /** Where runs are stored (`--runs`): new uploads go to `runs.write` (see storage/run-store.ts). */
  readonly runs: RunStores
  /** This process's own folder for uploads in flight, in `dataDir/tmp` (see storage/tmp.ts). */
  readonly tmpDir: string
  readonly limiter: RateLimiter
  readonly now: () => Date
  /** Tell the scoring queue a submission is waiting. */
  readonly kick: () => void
  /** Set cookies with `Secure` (behind HTTPS). */
  readonly secureCookies: boolean
  /** Client address and scheme from the reverse proxy's headers (`serve --trust-proxy`). */
  readonly trustProxy: boolean
  /** The upload check's topic lists, per track, phase and qrels version. */
  readonly topics: TopicCache
  /**
   * Whether this process reads the qrels (false: a web process on Postgres that scores nothing;
   * its topic lists come from the database, and it stores no qrels version).
   */
  readonly holdsQrels: boolean
}

/** Who is asking. */
export type Viewer =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'organizer'
      readonly userId: string
      readonly name: string
      readonly csrf: string
    }
  /** A rater of human spot validation: sees only the rating pages (see raters/routes.ts). */
  | {
      readonly kind: 'rater'
      readonly userId: string
      readonly name: string
      readonly csrf: string
    }
  | {
      readonly kind: 'member'
      readonly userId: string
      readonly name: string
      readonly teamId: string
      readonly csrf: string | null
      readonly via: 'session' | 'token'
    }

/** The team a viewer acts for, if any. */
export function teamOf(v: Viewer): string | null {
  return v.kind === 'member' ? v.teamId : null
}
