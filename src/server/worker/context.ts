/**
 * The server context of a `trecscore worker` process, for what it does besides scoring jobs:
 * submitting the configured baselines (it holds the data folder; a web process on Postgres may
 * not). It serves no route; uploads it makes are picked up by the queue's dispatcher.
 */
import { RateLimiter } from '../auth/rate-limit.js'
import type { Competition } from '../config/load.js'
import type { ServerContext } from '../context.js'
import type { Db } from '../db/database.js'
import type { RunStoreKind } from '../storage/run-store.js'
import { RunStores } from '../storage/run-stores.js'
import { processTmpDir } from '../storage/tmp.js'
import { TopicCache } from '../topic-cache.js'

export function workerContext(
  db: Db,
  competition: Competition,
  dataDir: string,
  runs: RunStoreKind = 'directory',
): ServerContext {
  return {
    db,
    competition,
    dataDir,
    runs: new RunStores(db, dataDir, runs),
    tmpDir: processTmpDir(dataDir),
    limiter: new RateLimiter(db),
    now: () => new Date(),
    // The queue's dispatcher sends a job for every queued row within seconds.
    kick: () => undefined,
    secureCookies: false,
    trustProxy: false,
    topics: new TopicCache(db, dataDir, 'files'),
    holdsQrels: true,
  }
}
