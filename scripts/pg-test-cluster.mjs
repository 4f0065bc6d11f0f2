#!/usr/bin/env node
// A throwaway PostgreSQL cluster for the tests: initdb with trust auth in a temp folder, listening
// on 127.0.0.1 on a free private port (and a socket in that folder), fsync off; run as the
// `postgres` user when we are root (the server refuses to run as root). Removed on exit.
//
//   node scripts/pg-test-cluster.mjs                 start, print the URL, stop on Ctrl-C / SIGTERM
//   node scripts/pg-test-cluster.mjs -- CMD ARGS…    start, run CMD with TRECSCORE_TEST_PG=URL, stop;
//                                                    exits with CMD's code
//
// As a module (scripts/run-tests.mjs): `findPostgres()` → the bin folder or null, and
// `startCluster()` → { url, stop(), restart(downMs) } (restart: a fast shutdown, which ends every
// session, then a start on the same folder and port; test/server/pg-faults.test.ts). Binaries: $PG_BIN, else the newest
// /usr/lib/postgresql/N/bin (Debian), else `pg_config --bindir`.
import { execFile, spawn, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of initdb/pg_ctl, or null when PostgreSQL is not installed. */
export function findPostgres() {
  const ok = (dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))
  if (process.env.PG_BIN) return ok(process.env.PG_BIN) ? process.env.PG_BIN : null
  const debian = '/usr/lib/postgresql'
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
    for (const v of versions) if (ok(join(debian, v, 'bin'))) return join(debian, v, 'bin')
  }
  const r = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' })
  const dir = r.status === 0 ? r.stdout.trim() : ''
  return ok(dir) ? dir : null
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

/**
 * Start a cluster; returns its URL, a synchronous stop() that also removes its folder, and an
 * asynchronous restart(downMs = 0): `pg_ctl stop -m fast` (every session ended), `downMs` with
 * no server listening, then a start with the same options, port and data folder. It runs
 * pg_ctl as a child process without blocking the event loop, so the caller's servers keep
 * running (and failing) meanwhile.
 */
export async function startCluster({ bin = findPostgres(), quiet = false } = {}) {
  if (!bin) throw new Error('PostgreSQL is not installed (no initdb/pg_ctl found; set PG_BIN)')
  const root = process.getuid?.() === 0
  let uid = null
  let gid = null
  if (root) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
    const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
    if (id.status !== 0)
      throw new Error('running as root, but there is no postgres user to run the server as')
    uid = Number(id.stdout.trim())
    gid = Number(g.stdout.trim())
  }
  const dir = mkdtempSync(join(tmpdir(), 'trecscore-pg-'))
  if (root) chownSync(dir, uid, gid)
  chmodSync(dir, 0o700)
  const as = (cmd, args) =>
    root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
  const run = (cmd, args) => {
    const [c, a] = as(join(bin, cmd), args)
    const r = spawnSync(c, a, { encoding: 'utf8' })
    if (r.status !== 0)
      throw new Error(
        `${cmd} failed (exit ${r.status}): ${(r.stderr || r.stdout || String(r.error)).trim()}`,
      )
    return r
  }
  const data = join(dir, 'data')
  const log = join(dir, 'log')
  let options = ''
  let started = false
  const stop = () => {
    if (started) {
      started = false
      const [c, a] = as(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])
      spawnSync(c, a, { stdio: 'ignore' })
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'])
    const port = await freePort()
    options = [
      '-c listen_addresses=127.0.0.1',
      `-p ${port}`,
      `-k ${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ')
    run('pg_ctl', ['-D', data, '-l', log, '-w', '-o', options, 'start'])
    started = true
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`
    if (!quiet) process.stderr.write(`pg-test-cluster: PostgreSQL (${bin}) on ${url}\n`)
    const pgCtl = (args) =>
      new Promise((resolve, reject) => {
        const [c, a] = as(join(bin, 'pg_ctl'), ['-D', data, ...args])
        execFile(c, a, { encoding: 'utf8' }, (e, stdout, stderr) =>
          e
            ? reject(
                new Error(
                  `pg_ctl ${args.at(-1)} failed: ${(stderr || stdout || e.message).trim()}`,
                ),
              )
            : resolve(),
        )
      })
    const restart = async (downMs = 0) => {
      if (!started) throw new Error('pg-test-cluster: the cluster is not running')
      await pgCtl(['-m', 'fast', '-w', 'stop'])
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs))
      await pgCtl(['-l', log, '-w', '-o', options, 'start'])
    }
    return { url, stop, dir, restart }
  } catch (e) {
    stop()
    throw e
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dash = process.argv.indexOf('--')
  const command = dash >= 0 ? process.argv.slice(dash + 1) : []
  let cluster
  try {
    cluster = await startCluster()
  } catch (e) {
    process.stderr.write(`pg-test-cluster: ${e.message}\n`)
    process.exit(1)
  }
  process.on('exit', () => cluster.stop())
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => process.exit(130))
  if (command.length === 0) {
    process.stdout.write(`${cluster.url}\n`)
    setInterval(() => {}, 1 << 30)
  } else {
    const child = spawn(command[0], command.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, TRECSCORE_TEST_PG: cluster.url },
    })
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
  }
}
