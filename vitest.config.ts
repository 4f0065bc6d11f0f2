import { defineConfig } from 'vitest/config'

// The server suite runs on both database backends (see test/server/backend.ts): every test file
// in project `main` (the server's on SQLite), and, when TRECSCORE_TEST_PG names a Postgres server
// (`npm test` starts a throwaway one when PostgreSQL is installed), test/server again in project
// `postgres`.
const pg = /^postgres(ql)?:\/\//.test(process.env.TRECSCORE_TEST_PG ?? '')

/**
 * SQLite-only for now: the browser test (it drives scripts/demo-board.mjs, a SQLite demo) and the
 * fault tests (to be rewritten for the Postgres job queue and its workers); units.test.ts has no
 * database.
 */
const SQLITE_ONLY = [
  'test/server/browser.test.ts',
  'test/server/faults.test.ts',
  'test/server/units.test.ts',
  'test/server/backend.test.ts',
]

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      ...(pg
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: ['test/server/*.test.ts'],
                exclude: SQLITE_ONLY,
                env: { TRECSCORE_TEST_BACKEND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
})
