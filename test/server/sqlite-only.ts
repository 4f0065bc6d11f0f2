/**
 * The test/server files that run on SQLite only (vitest.config.ts leaves them out of the
 * `postgres` project), each with its reason. Every other file there that starts a server takes
 * its database from backend.ts (backend.test.ts checks it).
 */
export const SQLITE_ONLY: Readonly<Record<string, string>> = {
  'test/server/browser.test.ts':
    'drives scripts/demo-board.mjs, a SQLite demo, in Chromium (for now)',
  'test/server/browser-reteco.test.ts':
    'Chromium against RETECO tracks; what it checks (pages, the live team page) does not depend on the backend',
  'test/server/browser-raters.test.ts':
    'Chromium on the spot-validation pages; raters.test.ts checks the same flow on both backends',
  'test/server/browser-judged.test.ts':
    'Chromium on judged boards and submission pages; judged.test.ts checks the same numbers on both backends',
  'test/server/units.test.ts': 'no database',
  'test/server/board.test.ts': 'no database (board ranking and exports as pure functions)',
  'test/server/backend.test.ts': 'opens both backends itself',
  'test/server/web-only.test.ts':
    'a web process on Postgres without the qrels folder, beside a worker process: opens its own Postgres database (skipped, with the reason, without one)',
  'test/server/queue-faults.test.ts':
    'the Postgres job queue: opens its own Postgres databases (skipped, with the reason, without one)',
  'test/server/pg-judge-cache.test.ts':
    'the Postgres judgment cache: opens its own Postgres databases (skipped, with the reason, without one)',
  'test/server/pg-faults.test.ts':
    'Postgres connection faults (terminated sessions, a restarted server): opens its own databases and cluster (skipped, with the reason, without one)',
}
