#!/usr/bin/env node
/**
 * `npm run load-test` on SQLite (the default; scripts/load-test.mjs picks this file): a bounded
 * load test of one `trecscore serve`, on loopback only (never a timed unit test; it prints
 * figures for the README).
 *
 * 1. Uploads: N teams (default 50) upload a run of about M MB (default 10) each, all at once,
 *    through the API to the real CLI server (a child process, with its scoring worker). It
 *    reports the time until every upload is accepted and until every one is scored, as
 *    submissions per minute, and the server's and worker's peak RSS (VmHWM).
 * 2. Board: the database is filled to B submissions (default 10,000: 200 teams × 50 scored
 *    runs with 30 per-query values each), the server restarted, and the board fetched K times
 *    (default 100) as JSON and as HTML, one request at a time and 10 at once: p50 and p95
 *    latency, and the server's peak RSS.
 *
 * Usage: node scripts/load-test.mjs [--teams N] [--mb M] [--board B] [--requests K] [--keep]
 * Needs `npm run build` (the npm script runs it) and the optional better-sqlite3.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const root = resolve(import.meta.dirname, '..')
const { values: opt } = parseArgs({
  options: {
    teams: { type: 'string', default: '50' },
    mb: { type: 'string', default: '10' },
    board: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (opt.help) {
  process.stdout.write(`usage: node scripts/load-test.mjs [--teams N] [--mb M] [--board B] [--requests K] [--keep]
  (SQLite, one serve process; --postgres or --db postgres://URL: the scaled-out test, see its --help)
  --teams N     teams uploading at once, one run each [50]
  --mb M        the size of each run in MB [10]
  --board B     scored submissions for the board phase [10000]
  --requests K  board fetches per measurement [100]
  --keep        keep the temp folder
`)
  process.exit(0)
}
const TEAMS = Number(opt.teams)
const MB = Number(opt.mb)
const BOARD = Number(opt.board)
const REQUESTS = Number(opt.requests)
for (const [k, v] of Object.entries({ teams: TEAMS, mb: MB, board: BOARD, requests: REQUESTS })) {
  if (!Number.isInteger(v) || v < 1) {
    process.stderr.write(`load-test: --${k} must be a positive integer\n`)
    process.exit(2)
  }
}

const server = await import(join(root, 'dist', 'server', 'index.js'))
const dir = mkdtempSync(join(tmpdir(), 'trecscore-load-'))
const data = join(dir, 'board')
const trackDir = join(dir, 'track')
mkdirSync(trackDir, { recursive: true })
const qrelsLines = readFileSync(join(root, 'demo', 'qrels.txt'), 'utf8')
  .split('\n')
  .filter(Boolean)
writeFileSync(join(trackDir, 'qrels.txt'), qrelsLines.join('\n') + '\n')
const queries = [...new Set(qrelsLines.map((l) => l.split(/\s+/)[0]))]
const judged = new Map()
for (const l of qrelsLines) {
  const [q, , d] = l.split(/\s+/)
  if (!judged.has(q)) judged.set(q, [])
  judged.get(q).push(d)
}
const now = Date.now()
const config = {
  name: 'load test',
  phases: [
    {
      id: 'dev',
      start: new Date(now - 86400e3).toISOString(),
      end: new Date(now + 86400e3).toISOString(),
    },
  ],
  tracks: [
    {
      id: 'load',
      title: 'Load',
      preset: 'dl21-passage',
      data: 'track',
      qrels: { dev: 'qrels.txt' },
      primary: 'nDCG@10',
      columns: ['nDCG@10', 'AP', 'RR'],
    },
  ],
  limits: { perDay: 1_000_000, perPhase: 1_000_000, concurrent: 1_000_000, counts: 'best' },
  rateLimits: { loginPerMinute: 1_000_000, uploadPerMinute: 1_000_000, apiPerMinute: 1_000_000 },
  upload: { maxBytes: 256 * 1024 * 1024, maxDecompressedBytes: 1024 * 1024 * 1024 },
  worker: { timeLimitSeconds: 3600 },
}
const configFile = join(dir, 'competition.json')
writeFileSync(configFile, JSON.stringify(config, null, 2))

/** A run of about MB megabytes: every query, judged documents first, then synthetic ones; team-specific order. */
function makeRun(team) {
  const perQuery = Math.ceil((MB * 1e6) / queries.length / 38.5)
  const lines = []
  let seed = team * 2654435761
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
  for (const q of queries) {
    const docs = [...(judged.get(q) ?? [])]
    for (let i = docs.length; i < perQuery; i++) docs.push(`L${q}x${i}`)
    const scored = docs.map((d, i) => [d, i < 40 ? 100 + rnd() * 10 : perQuery - i])
    scored.sort((a, b) => b[1] - a[1])
    scored.forEach(([d, s], i) => lines.push(`${q} Q0 ${d} ${i + 1} ${s.toFixed(4)} team${team}`))
  }
  return Buffer.from(lines.join('\n') + '\n')
}

function kib(status, key) {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)
  return m ? Number(m[1]) : 0
}

function peakRss(pid) {
  let own = 0
  const kids = []
  try {
    own = kib(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM')
    for (const t of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean))
      kids.push(kib(readFileSync(`/proc/${t}/status`, 'utf8'), 'VmHWM'))
  } catch {
    // not Linux, or the process is gone
  }
  return { server: own, worker: Math.max(0, ...kids) }
}

function serve() {
  return new Promise((res, rej) => {
    const proc = spawn(
      process.execPath,
      [
        join(root, 'bin', 'trecscore.js'),
        'serve',
        '--config',
        configFile,
        '--data',
        data,
        '--port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    proc.stdout.on('data', (d) => {
      out += d
      const m = / on (http:\/\/127\.0\.0\.1:\d+) /.exec(out)
      if (m) res({ url: m[1], proc })
    })
    proc.on('exit', (code) => rej(new Error(`serve exited with ${code}: ${out}`)))
  })
}

function stop(proc) {
  return new Promise((res) => {
    proc.removeAllListeners('exit')
    proc.once('exit', () => res())
    proc.kill('SIGTERM')
  })
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}
const ms = (x) => `${x.toFixed(1)} ms`
const mib = (k) => `${(k / 1024).toFixed(0)} MiB`

// Accounts: made in-process while no server runs.
const setup = await server.startServer({
  competition: server.loadCompetition(configFile),
  dataDir: data,
})
const at = new Date()
const org = await server.createOrganizer(
  setup.ctx.db,
  'org',
  randomBytes(12).toString('base64url'),
  at,
)
const tokens = []
for (let t = 0; t < TEAMS; t++) {
  const team = await server.createTeam(setup.ctx.db, `Team ${t}`, at)
  const user = await server.acceptInvite(
    setup.ctx.db,
    await server.createInvite(setup.ctx.db, team, org, at),
    `member${t}`,
    `password-${t}-secret`,
    at,
  )
  tokens.push((await server.createApiToken(setup.ctx.db, user, team, 'load', at)).token)
}
await setup.close()

process.stdout.write(
  `load test: ${TEAMS} teams × ${MB} MB runs, then a board of ${BOARD} submissions (data in ${dir})\n`,
)
const runs = tokens.map((_, t) => makeRun(t))
let { url, proc } = await serve()
const t0 = performance.now()
const ids = await Promise.all(
  tokens.map(async (token, t) => {
    const r = await fetch(`${url}/api/v1/submissions?track=load&phase=dev&name=team${t}.run`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: runs[t],
    })
    const body = await r.json()
    if (r.status !== 202)
      throw new Error(`team ${t}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`)
    return body.id
  }),
)
const accepted = performance.now() - t0
let done = 0
let failed = 0
while (done + failed < ids.length) {
  await new Promise((r) => setTimeout(r, 250))
  done = 0
  failed = 0
  for (let t = 0; t < ids.length; t++) {
    const s = await (
      await fetch(`${url}/api/v1/submissions/${ids[t]}`, {
        headers: { Authorization: `Bearer ${tokens[t]}` },
      })
    ).json()
    if (s.state === 'scored') done++
    else if (s.state === 'failed') failed++
  }
}
const scored = performance.now() - t0
const mem1 = peakRss(proc.pid)
const bytes = runs.reduce((a, r) => a + r.length, 0)
await stop(proc)

// The board: fill the database up to BOARD scored submissions over 200 teams (or fewer).
const fill = await server.startServer({
  competition: server.loadCompetition(configFile),
  dataDir: data,
})
const db = fill.ctx.db
const template = await db
  .selectFrom('scores')
  .selectAll()
  .where('submission_id', '=', ids[0])
  .executeTakeFirstOrThrow()
const perQuery = JSON.parse(template.per_query)
const teamCount = Math.min(200, BOARD)
const teamIds = (
  await db.selectFrom('teams').select('id').where('is_baseline', '=', 0).execute()
).map((r) => r.id)
for (let t = teamIds.length; t < teamCount; t++)
  teamIds.push(await server.createTeam(db, `Board team ${t}`, at))
const existing = Number(
  (
    await db
      .selectFrom('submissions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst()
  ).n,
)
let seed = 7
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
await db.transaction().execute(async (tx) => {
  for (let i = existing; i < BOARD; i++) {
    const id = `load${String(i).padStart(7, '0')}`
    const created = new Date(now - (BOARD - i) * 1000).toISOString()
    await tx
      .insertInto('submissions')
      .values({
        id,
        team_id: teamIds[i % teamIds.length],
        user_id: null,
        track: 'load',
        phase: 'dev',
        state: 'scored',
        reason: null,
        charged: 1,
        original_name: `r${i}.run`,
        file: `runs/${id}/r.run`,
        run_sha256: '0'.repeat(64),
        bytes: 1,
        metadata: '{}',
        attempts: 1,
        created_at: created,
        started_at: created,
        finished_at: created,
      })
      .execute()
    const pq = perQuery.map((q) => ({
      query: q.query,
      values: Object.fromEntries(
        Object.entries(q.values).map(([m, v]) => [
          m,
          v === null ? null : Math.min(1, Math.max(0, v * (0.5 + rnd()))),
        ]),
      ),
    }))
    const mean = (m) => pq.reduce((a, q) => a + (q.values[m] ?? 0), 0) / pq.length
    const columns = { 'nDCG@10': mean('nDCG@10'), AP: mean('AP'), RR: mean('RR') }
    await tx
      .insertInto('scores')
      .values({
        submission_id: id,
        version: 1,
        primary_value: columns['nDCG@10'],
        columns: JSON.stringify(columns),
        per_query: JSON.stringify(pq),
        notes: template.notes,
        provenance: template.provenance,
        created_at: created,
      })
      .execute()
  }
})
const total = Number(
  (
    await db
      .selectFrom('submissions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst()
  ).n,
)
await fill.close()
;({ url, proc } = await serve())
async function time(path, concurrency) {
  const lat = []
  let entries = 0
  for (let i = 0; i < REQUESTS; i += concurrency) {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, REQUESTS - i) }, async () => {
        const s = performance.now()
        const r = await fetch(url + path)
        const text = await r.text()
        lat.push(performance.now() - s)
        if (r.status !== 200) throw new Error(`${path}: ${r.status}`)
        if (path.startsWith('/api')) entries = JSON.parse(text).entries.length
      }),
    )
  }
  return { p50: pct(lat, 50), p95: pct(lat, 95), entries }
}
await time('/api/v1/boards/load/dev', 1) // warm-up
const json1 = await time('/api/v1/boards/load/dev', 1)
const json10 = await time('/api/v1/boards/load/dev', 10)
const html1 = await time('/boards/load/dev', 1)
const mem2 = peakRss(proc.pid)
await stop(proc)

const lines = [
  '',
  `uploads: ${TEAMS} teams at once, ${(bytes / 1e6).toFixed(1)} MB in all (${(bytes / TEAMS / 1e6).toFixed(1)} MB each, ${queries.length} queries)`,
  `  all accepted (stored and validated) after ${(accepted / 1000).toFixed(1)} s; all scored after ${(scored / 1000).toFixed(1)} s: ${((done / scored) * 60000).toFixed(1)} submissions per minute (${failed} failed)`,
  `  peak RSS: server ${mib(mem1.server)}, scoring worker ${mib(mem1.worker)}`,
  `board: ${total} submissions, ${json1.entries} entries (one per team)`,
  `  JSON, 1 at a time: p50 ${ms(json1.p50)}, p95 ${ms(json1.p95)}; 10 at once: p50 ${ms(json10.p50)}, p95 ${ms(json10.p95)}`,
  `  HTML, 1 at a time: p50 ${ms(html1.p50)}, p95 ${ms(html1.p95)}`,
  `  peak RSS: server ${mib(mem2.server)}`,
  `machine: ${(await import('node:os')).cpus().length} CPUs, load average ${(await import('node:os')).loadavg()[0].toFixed(2)} at the end`,
]
process.stdout.write(lines.join('\n') + '\n')
if (!opt.keep) rmSync(dir, { recursive: true, force: true })
if (failed) process.exit(1)
