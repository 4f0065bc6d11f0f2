/**
 * A queue worker as its own process, for test/server/queue-faults.test.ts:
 * `node --import tsx queue-worker-proc.ts DB_URL CONFIG DATA_DIR STUB_MODULE WORKER_JSON`.
 * It is `trecscore worker` with a stub scoring child and test timings; prints `ready` once
 * it takes jobs, and stops (putting running jobs back) on SIGTERM.
 */
import { loadCompetition } from '../../src/server/config/load.js'
import { openDatabase, parseDbLocation } from '../../src/server/db/database.js'
import { openQueue, QueueWorker } from '../../src/server/queue/pg-queue.js'

const [url, config, data, module, overrides] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
]
const base = loadCompetition(config)
const competition = { ...base, worker: { ...base.worker, ...JSON.parse(overrides) } }
const db = await openDatabase(parseDbLocation(url, data))
const boss = await openQueue(url, competition)
const worker = new QueueWorker({
  db,
  boss,
  competition,
  dataDir: data,
  dbUrl: url,
  workerModule: module,
  log: (line) => process.stdout.write(`${line}\n`),
})
await worker.start()
process.stdout.write('ready\n')
process.once('SIGTERM', () => {
  void worker
    .stop()
    .then(() => boss.stop({ graceful: true, timeout: 5_000 }))
    .then(() => db.destroy())
    .then(() => process.exit(0))
})
