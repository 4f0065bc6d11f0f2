#!/usr/bin/env node
/**
 * `npm run load-test`: the bounded load test of `trecscore serve` (loopback only; figures for
 * the README). With `--postgres` (a throwaway cluster) or `--db postgres://…` it runs the
 * scaled-out test, 2 web and 3 worker processes (scripts/load-test-postgres.mjs); otherwise the
 * SQLite test of one server process (scripts/load-test-sqlite.mjs). `--help` on either mode.
 */
const postgres = process.argv
  .slice(2)
  .some((a) => a === '--postgres' || a === '--db' || a.startsWith('--db='))
await import(postgres ? './load-test-postgres.mjs' : './load-test-sqlite.mjs')
