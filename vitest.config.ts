import { defineConfig } from 'vitest/config'
import { SQLITE_ONLY } from './test/server/sqlite-only.js'

// The server suite runs on both database backends (see test/server/backend.ts): every test file
// in project `main` (the server's on SQLite), and, when TRECSCORE_TEST_PG names a Postgres server
// (`npm test` starts a throwaway one when PostgreSQL is installed), test/server again in project
// `postgres`.
const pg = /^postgres(ql)?:\/\//.test(process.env.TRECSCORE_TEST_PG ?? '')

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
                exclude: Object.keys(SQLITE_ONLY),
                env: { TRECSCORE_TEST_BACKEND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
})
