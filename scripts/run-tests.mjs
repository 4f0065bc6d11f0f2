#!/usr/bin/env node
// Runs the vitest suite (arguments are passed on) and ends with one plain line,
// "tests: N passed, N failed, N skipped", whatever the outcome; exits with vitest's code.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, '.tmp', 'vitest.json')
mkdirSync(dirname(out), { recursive: true })
rmSync(out, { force: true })
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
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
  { cwd: root, stdio: 'inherit' },
)
if (existsSync(out)) {
  const j = JSON.parse(readFileSync(out, 'utf8'))
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0)
  console.log(`tests: ${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`)
} else console.log('tests: 0 passed, 1 failed (vitest wrote no results)')
process.exit(r.status ?? 1)
