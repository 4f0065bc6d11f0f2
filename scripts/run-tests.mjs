#!/usr/bin/env node
// Runs the vitest suite (arguments are passed on) and ends with one plain line,
// "tests: N passed, N failed, N skipped", whatever the outcome; exits with vitest's code.
//
// The server suite runs on SQLite and on Postgres (test/server/backend.ts): when
// TRECSCORE_TEST_PG is not set and PostgreSQL is installed, a throwaway cluster is started for
// the run (scripts/pg-test-cluster.mjs) and removed at the end. TRECSCORE_TEST_PG=off: SQLite only.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findPostgres, startCluster } from './pg-test-cluster.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, '.tmp', 'vitest.json')
mkdirSync(dirname(out), { recursive: true })
rmSync(out, { force: true })
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
const env = { ...process.env }
let cluster = null
if (env.TRECSCORE_TEST_PG === undefined && findPostgres()) {
  try {
    cluster = await startCluster()
    env.TRECSCORE_TEST_PG = cluster.url
    process.on('exit', () => cluster.stop())
    // Ctrl-C reaches vitest too; the cluster is removed once it has ended.
    for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130))
  } catch (e) {
    console.log(`tests: no Postgres cluster (${e.message}); the server suite runs on SQLite only`)
  }
}
if (env.TRECSCORE_TEST_PG === 'off') delete env.TRECSCORE_TEST_PG
console.log(
  env.TRECSCORE_TEST_PG
    ? `tests: the server suite runs on SQLite and on Postgres (${env.TRECSCORE_TEST_PG})`
    : 'tests: the server suite runs on SQLite only (no PostgreSQL installed, or TRECSCORE_TEST_PG=off)',
)
const r = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env },
)
cluster?.stop()
if (existsSync(out)) {
  const j = JSON.parse(readFileSync(out, 'utf8'))
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0)
  console.log(`tests: ${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`)
} else console.log('tests: 0 passed, 1 failed (vitest wrote no results)')
process.exit(r.status ?? 1)
