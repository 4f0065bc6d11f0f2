/**
 * `npm run load-test -- --postgres` (or `--db postgres://…`): the scaled-out load test. A
 * bounded script on loopback only, never a timed unit test; it prints figures for the README.
 *
 * A throwaway Postgres cluster (scripts/pg-test-cluster.mjs) unless --db names one; `serve
 * migrate`; N teams (accounts made in-process, on Postgres); 2 web processes (`serve --workers
 * 0`, two loopback ports, one --data folder) and 3 `trecscore worker` processes sharing it.
 *
 * 1. Uploads: --small runs of --small-mb MB and --large runs of --large-mb MB (interleaved
 *    evenly), round-robin over the two web ports, --inflight at once. A large run is written
 *    once to a temp file (streamed by query, never held whole) and streamed from it per upload.
 *    Figures: submissions per minute accepted and scored, queue latency per submission from
 *    the submissions table (created_at → started_at, → finished_at: p50/p95/max, small and
 *    large apart; created_at is stamped when the upload starts, so it includes receiving and
 *    validating the run; the queue alone is from the 202 to started_at), peak RSS (VmHWM, sampled every second) of each web process, each worker and
 *    its scoring children, and the Postgres backends, and CPU seconds per kind of process
 *    (/proc/PID/stat utime+stime, children included) against the machine's (/proc/stat: busy,
 *    iowait), with the load average: what saturates first.
 * 2. Board: the workers stop, the database is filled to --board scored submissions (200
 *    teams), the web processes restart, and the board is fetched --requests times as JSON and
 *    HTML, one at a time through one web process and 10 at once over both: p50 and p95.
 *
 * Every wait has a deadline (--deadline-min); temp data is removed at the end unless --keep.
 * A web or worker process that dies during the test ends it (exit 1) with its last log lines.
 */
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { Agent, request } from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const root = resolve(import.meta.dirname, '..')
const usage =
  'usage: node scripts/load-test.mjs --postgres | --db postgres://URL [--small N] [--small-mb M] [--large N] [--large-mb M] [--teams T] [--inflight K] [--board B] [--requests R] [--deadline-min D] [--keep]'
let parsed
try {
  parsed = parseArgs({
    options: {
      postgres: { type: 'boolean', default: false },
      db: { type: 'string' },
      small: { type: 'string', default: '1000' },
      'small-mb': { type: 'string', default: '1' },
      large: { type: 'string', default: '20' },
      'large-mb': { type: 'string', default: '400' },
      teams: { type: 'string', default: '50' },
      inflight: { type: 'string', default: '16' },
      board: { type: 'string', default: '10000' },
      requests: { type: 'string', default: '100' },
      'deadline-min': { type: 'string', default: '120' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
} catch (e) {
  process.stderr.write(`load-test: ${e.message}\n${usage}\n`)
  process.exit(2)
}
const opt = parsed.values
if (opt.help) {
  process.stdout.write(`${usage}
  --postgres        a throwaway PostgreSQL cluster (initdb in a temp folder, loopback)
  --db URL          an existing, empty postgres:// database instead
  --small N         small runs [1000]          --small-mb M   their size in MB [1]
  --large N         large runs [20]            --large-mb M   their size in MB [400]
  --teams T         teams the uploads rotate over [50]
  --inflight K      uploads in flight at once, round-robin over the 2 web processes [16]
  --board B         scored submissions for the board phase [10000]
  --requests R      board fetches per measurement [100]
  --deadline-min D  give up (exit 1) after D minutes [120]
  --keep            keep the temp folder (data, logs, config)
`)
  process.exit(0)
}
const num = (k, min) => {
  const v = Number(opt[k])
  if (!Number.isInteger(v) || v < min) {
    process.stderr.write(`load-test: --${k} must be an integer >= ${min}\n`)
    process.exit(2)
  }
  return v
}
const SMALL = num('small', 0)
const SMALL_MB = num('small-mb', 1)
const LARGE = num('large', 0)
const LARGE_MB = num('large-mb', 1)
const TEAMS = num('teams', 1)
const INFLIGHT = num('inflight', 1)
const BOARD = num('board', 1)
const REQUESTS = num('requests', 1)
const deadline = Date.now() + num('deadline-min', 1) * 60e3
if (SMALL + LARGE < 1) {
  process.stderr.write('load-test: --small plus --large must be at least 1\n')
  process.exit(2)
}
if (opt.db !== undefined && !/^postgres(ql)?:\/\//.test(opt.db)) {
  process.stderr.write(`load-test: --db must be a postgres:// URL, not '${opt.db}'\n`)
  process.exit(2)
}
const WEBS = 2
const WORKERS = 3

const server = await import(join(root, 'dist', 'server', 'index.js'))
const { startCluster } = await import(join(root, 'scripts', 'pg-test-cluster.mjs'))
const dir = mkdtempSync(join(tmpdir(), 'trecscore-load-pg-'))
const data = join(dir, 'board')
const logs = join(dir, 'logs')
const trackDir = join(dir, 'track')
mkdirSync(trackDir, { recursive: true })
mkdirSync(logs)
mkdirSync(data)

/** Everything started here, stopped (and the folder removed) on the way out. */
const procs = new Set()
let cluster = null
let cleaned = false
let failed = false
function cleanup() {
  if (cleaned) return
  cleaned = true
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL')
  cluster?.stop()
  if (opt.keep) return
  if (!failed) rmSync(dir, { recursive: true, force: true })
  else {
    // A failed run keeps its logs (and the config), not its gigabytes of runs.
    for (const f of ['board', 'large.run']) rmSync(join(dir, f), { recursive: true, force: true })
    process.stderr.write(`load-test: the logs are kept in ${logs}\n`)
  }
}
process.on('exit', cleanup)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130))
const fail = (msg) => {
  failed = true
  process.stderr.write(`load-test: ${msg}\n`)
  process.exit(1)
}
const left = (what) => {
  if (Date.now() > deadline) fail(`deadline passed while ${what} (--deadline-min)`)
}

// The track: the demo qrels; runs rank judged documents first, then synthetic ones.
const qrelsLines = readFileSync(join(root, 'demo', 'qrels.txt'), 'utf8')
  .split('\n')
  .filter(Boolean)
writeFileSync(join(trackDir, 'qrels.txt'), `${qrelsLines.join('\n')}\n`)
const queries = [...new Set(qrelsLines.map((l) => l.split(/\s+/)[0]))]
const judged = new Map()
for (const l of qrelsLines) {
  const [q, , d] = l.split(/\s+/)
  if (!judged.has(q)) judged.set(q, [])
  judged.get(q).push(d)
}
const now = Date.now()
const maxMb = Math.max(SMALL ? SMALL_MB : 0, LARGE ? LARGE_MB : 0)
const limitBytes = Math.ceil(maxMb * 1.1e6) + 16 * 1024 * 1024
const config = {
  name: 'load test (postgres)',
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
  // A 400 MB run is about 10.4 million lines; the limits admit the largest run with room.
  upload: {
    maxBytes: limitBytes,
    maxDecompressedBytes: limitBytes,
    maxLines: Math.ceil(limitBytes / 30),
  },
  worker: { timeLimitSeconds: 3600 },
}
const configFile = join(dir, 'competition.json')
writeFileSync(configFile, JSON.stringify(config, null, 2))

/** The lines of one query of a run of about `mb` MB, in a seed-specific order. */
function queryLines(q, mb, rnd, tag, lineBytes = lineSize(mb, tag)) {
  const perQuery = Math.ceil((mb * 1e6) / queries.length / lineBytes)
  const docs = [...(judged.get(q) ?? [])]
  for (let i = docs.length; i < perQuery; i++) docs.push(`L${q}x${i}`)
  const scored = docs.map((d, i) => [d, i < 40 ? 100 + rnd() * 10 : perQuery - i])
  scored.sort((a, b) => b[1] - a[1])
  return scored.map(([d, s], i) => `${q} Q0 ${d} ${i + 1} ${s.toFixed(4)} ${tag}`).join('\n')
}
/** The mean line length of a run of about `mb` MB (longer ids and ranks in larger runs). */
function lineSize(mb, tag) {
  let guess = 38.5
  for (let i = 0; i < 2; i++)
    guess =
      queryLines(queries[0], mb, () => 0.5, tag, guess).length /
      Math.ceil((mb * 1e6) / queries.length / guess)
  return guess
}
const seeded = (seed) => {
  let s = seed * 2654435761
  return () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32
}
/** A small run, in memory. */
function smallRun(team, lineBytes) {
  const rnd = seeded(team + 1)
  return Buffer.from(
    `${queries.map((q) => queryLines(q, SMALL_MB, rnd, `team${team}`, lineBytes)).join('\n')}\n`,
  )
}
/** A large run, written once to a file one query at a time. */
async function largeRunFile(file) {
  const out = createWriteStream(file)
  const rnd = seeded(999)
  const lineBytes = lineSize(LARGE_MB, 'large')
  for (const q of queries) {
    if (!out.write(`${queryLines(q, LARGE_MB, rnd, 'large', lineBytes)}\n`))
      await new Promise((r) => out.once('drain', r))
  }
  await new Promise((r, j) => out.end((e) => (e ? j(e) : r())))
}

// ---- /proc sampling: peak RSS and CPU time per kind of process ----
const tck = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100
const read = (f) => {
  try {
    return readFileSync(f, 'utf8')
  } catch {
    return null
  }
}
/** utime+stime (own) and cutime+cstime (reaped children), in seconds; VmHWM in KiB. */
function procInfo(pid) {
  const stat = read(`/proc/${pid}/stat`)
  const status = read(`/proc/${pid}/status`)
  if (!stat || !status) return null
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status)
  return {
    own: (Number(f[11]) + Number(f[12])) / tck,
    reaped: (Number(f[13]) + Number(f[14])) / tck,
    hwm: hwm ? Number(hwm[1]) : 0,
  }
}
function childPids(pid) {
  const tasks = (() => {
    try {
      return readdirSync(`/proc/${pid}/task`)
    } catch {
      return []
    }
  })()
  return tasks.flatMap((t) =>
    (read(`/proc/${pid}/task/${t}/children`) ?? '').trim().split(/\s+/).filter(Boolean).map(Number),
  )
}
/** role → main pids (web, worker, postgres); peaks per pid and per role. */
const roles = { web: [], worker: [], postgres: [] }
const peak = new Map() // process label → KiB
const bump = (key, kib) => peak.set(key, Math.max(peak.get(key) ?? 0, kib))
/** Per role: CPU seconds of its processes and their children (reaped or alive), now. */
function sample() {
  const cpu = { web: 0, worker: 0, postgres: 0 }
  for (const [role, mains] of Object.entries(roles)) {
    for (const { pid, label } of mains) {
      const me = procInfo(pid)
      if (!me) continue
      cpu[role] += me.own + me.reaped
      if (role !== 'postgres') bump(label, me.hwm)
      for (const c of childPids(pid)) {
        const k = procInfo(c)
        if (!k) continue
        cpu[role] += k.own + k.reaped
        if (role === 'worker') bump(`${label}'s scoring child`, k.hwm)
        else if (role === 'postgres') bump('postgres backend (largest)', k.hwm)
      }
    }
  }
  const self = process.cpuUsage()
  cpu.driver = (self.user + self.system) / 1e6
  const m = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  const total = m.slice(0, 8).reduce((a, b) => a + b, 0) / tck
  cpu.machineBusy = total - (m[3] + m[4]) / tck
  cpu.machineIowait = m[4] / tck
  cpu.machineTotal = total
  cpu.at = performance.now()
  return cpu
}
const loads = []
let sampler = null
const startSampling = () => {
  sampler = setInterval(() => {
    sample()
    loads.push(loadavg()[0])
  }, 1000)
}

// ---- processes ----
const bin = join(root, 'bin', 'trecscore.js')
/** Start a CLI child; resolves once `readyLine` matches its stdout or stderr. */
function startProc(args, readyLine, logName) {
  return new Promise((res, rej) => {
    const log = openSync(join(logs, logName), 'a')
    const proc = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    procs.add(proc)
    let out = ''
    let ready = false
    const timer = setTimeout(
      () => rej(new Error(`${logName}: not ready after 60 s: ${out.slice(-500)}`)),
      60e3,
    )
    const on = (d) => {
      writeFileSync(log, d)
      out = (out + d).slice(-1e5)
      const m = ready ? null : readyLine.exec(out)
      if (m) {
        ready = true
        clearTimeout(timer)
        res({ proc, match: m })
      }
    }
    proc.stdout.on('data', on)
    proc.stderr.on('data', on)
    proc.on('exit', (code, signal) => {
      clearTimeout(timer)
      // stopProc() removes this listener first: an exit here is a crash.
      if (ready) fail(`${logName} died (${code ?? signal}) during the test:\n${out.slice(-2000)}`)
      rej(new Error(`${logName} exited with ${code}: ${out.slice(-500)}`))
    })
  })
}
function stopProc(proc) {
  procs.delete(proc)
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve()
  return new Promise((res) => {
    proc.removeAllListeners('exit')
    const kill = setTimeout(() => proc.kill('SIGKILL'), 20e3)
    proc.once('exit', () => {
      clearTimeout(kill)
      res()
    })
    proc.kill('SIGTERM')
  })
}
const common = (url) => ['--config', configFile, '--data', data, '--db', url]
async function startWebs(url) {
  const webs = []
  for (let i = 0; i < WEBS; i++) {
    const { proc, match } = await startProc(
      ['serve', ...common(url), '--port', '0', '--workers', '0', '--log-format', 'text'],
      / on (http:\/\/127\.0\.0\.1:\d+) /,
      `web${i + 1}.log`,
    )
    webs.push({ proc, url: match[1] })
  }
  roles.web = webs.map((w, i) => ({ pid: w.proc.pid, label: `web ${i + 1}` }))
  return webs
}
async function startWorkers(url) {
  const workers = []
  for (let i = 0; i < WORKERS; i++) {
    const { proc } = await startProc(
      ['worker', ...common(url), '--concurrency', '1', '--log-format', 'text'],
      /taking scoring jobs/,
      `worker${i + 1}.log`,
    )
    workers.push(proc)
  }
  roles.worker = workers.map((p, i) => ({ pid: p.pid, label: `worker ${i + 1}` }))
  return workers
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN
}
const sec = (x) => `${x.toFixed(1)} s`
const ms = (x) => `${x.toFixed(0)} ms`
const mib = (k) => `${(k / 1024).toFixed(0)} MiB`

/**
 * POST one run (a Buffer or a file) with a Content-Length; resolves to the submission id. One
 * connection per upload: a kept-alive socket the server closes when idle (5 s) would reset
 * the next upload sent on it.
 */
const agent = new Agent({ keepAlive: false, maxSockets: INFLIGHT })
function upload(base, token, name, body) {
  const size = Buffer.isBuffer(body) ? body.length : statSync(body).size
  const t0 = performance.now()
  const after = () =>
    `after ${sec((performance.now() - t0) / 1000)} (${(size / 1e6).toFixed(1)} MB to ${base})`
  const u = new URL(`/api/v1/submissions?track=load&phase=dev&name=${name}`, base)
  return new Promise((res, rej) => {
    const req = request(
      u,
      {
        method: 'POST',
        agent,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'text/plain',
          'Content-Length': size,
        },
        timeout: 30 * 60e3,
      },
      (r) => {
        let text = ''
        r.setEncoding('utf8')
        r.on('data', (d) => (text += d))
        r.on('end', () => {
          if (r.statusCode !== 202)
            rej(new Error(`${name}: ${r.statusCode} ${after()}: ${text.slice(0, 300)}`))
          else res(JSON.parse(text).id)
        })
      },
    )
    req.on('timeout', () => req.destroy(new Error(`${name}: no answer in 30 min`)))
    req.on('error', (e) => rej(new Error(`${name}: ${e.message} ${after()}`)))
    if (Buffer.isBuffer(body)) req.end(body)
    else createReadStream(body).pipe(req)
  })
}

// ---- the run ----
let dbUrl = opt.db
if (dbUrl === undefined) {
  cluster = await startCluster({ quiet: true })
  dbUrl = cluster.url
  const pm = Number(read(join(cluster.dir, 'data', 'postmaster.pid'))?.split('\n')[0])
  if (pm) roles.postgres = [{ pid: pm, label: 'postmaster' }]
}
const migrated = spawnSync(
  process.execPath,
  [bin, 'serve', 'migrate', '--data', data, '--db', dbUrl],
  {
    encoding: 'utf8',
  },
)
if (migrated.status !== 0)
  fail(`serve migrate failed: ${(migrated.stderr || migrated.stdout).trim()}`)

// Accounts: made in-process (no scoring here) before the processes start.
const setup = await server.startServer({
  competition: server.loadCompetition(configFile),
  dataDir: data,
  db: dbUrl,
  workers: 0,
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

// The uploads: large runs spread evenly among the small ones.
const plan = Array.from({ length: SMALL + LARGE }, () => 'small')
for (let k = 0; k < LARGE; k++) plan[Math.floor(((k + 0.5) * plan.length) / LARGE)] = 'large'
const smallLine = SMALL ? lineSize(SMALL_MB, 'team10') : 0
const smallRuns = Array.from({ length: Math.min(TEAMS, SMALL) }, (_, t) => smallRun(t, smallLine))
const largeFile = join(dir, 'large.run')
if (LARGE) await largeRunFile(largeFile)
const smallBytes = smallRuns[0]?.length ?? 0
const largeBytes = LARGE ? statSync(largeFile).size : 0
process.stdout.write(
  `load test (postgres, ${opt.db ? 'given database' : 'throwaway cluster'}): ${SMALL} × ${(smallBytes / 1e6).toFixed(2)} MB + ${LARGE} × ${(largeBytes / 1e6).toFixed(1)} MB, ${TEAMS} teams, ${INFLIGHT} in flight, ${WEBS} web + ${WORKERS} worker processes (data in ${dir})\n`,
)

let webs = await startWebs(dbUrl)
const workers = await startWorkers(dbUrl)
startSampling()
const load0 = loadavg()[0]
const c0 = sample()
const ids = new Array(plan.length)
const acceptedAt = new Array(plan.length)
let next = 0
let acceptedCount = 0
await Promise.all(
  Array.from({ length: Math.min(INFLIGHT, plan.length) }, async () => {
    while (next < plan.length) {
      left('uploading')
      const i = next++
      const team = i % TEAMS
      const body = plan[i] === 'large' ? largeFile : smallRuns[team % smallRuns.length]
      ids[i] = await upload(webs[i % WEBS].url, tokens[team], `${plan[i]}${i}.run`, body)
      acceptedAt[i] = Date.now()
      if (++acceptedCount % 100 === 0)
        process.stdout.write(
          `  ${acceptedCount}/${plan.length} accepted at ${sec((performance.now() - c0.at) / 1000)}\n`,
        )
    }
  }),
).catch((e) => fail(`upload failed: ${e.message}`))
const c1 = sample()
const load1 = loadavg()[0]

// Wait until every submission is scored or failed, reading the database.
const pg = (await import('pg')).default
const client = new pg.Client({ connectionString: dbUrl })
await client.connect()
let finished = 0
for (;;) {
  left('waiting for the scores')
  const r = await client.query(
    "select count(*)::int as n from submissions where id = any($1) and state in ('scored', 'failed')",
    [ids],
  )
  if (r.rows[0].n !== finished) {
    const before = finished
    finished = r.rows[0].n
    if (Math.floor(finished / 100) > Math.floor(before / 100) || finished === ids.length)
      process.stdout.write(
        `  ${finished}/${ids.length} finished at ${sec((performance.now() - c0.at) / 1000)}\n`,
      )
  }
  if (finished >= ids.length) break
  await new Promise((r) => setTimeout(r, 1000))
}
const c2 = sample()
const load2 = loadavg()[0]
const runLoads = [...loads]
const rows = (
  await client.query(
    'select id, state, reason, bytes, attempts, created_at, started_at, finished_at from submissions where id = any($1)',
    [ids],
  )
).rows
const kinds = new Map(ids.map((id, i) => [id, plan[i]]))
const accepted = new Map(ids.map((id, i) => [id, acceptedAt[i]]))
const lat = Object.fromEntries(
  ['small', 'large'].map((k) => [k, { wait: [], queue: [], total: [], score: [] }]),
)
let unscored = 0
let lastFinish = 0
for (const r of rows) {
  if (r.state !== 'scored') {
    unscored++
    process.stderr.write(`load-test: ${r.id} ${r.state}: ${r.reason}\n`)
    continue
  }
  const [c, s, f] = [r.created_at, r.started_at, r.finished_at].map((x) => Date.parse(x))
  const l = lat[kinds.get(r.id)]
  l.wait.push((s - c) / 1000)
  l.queue.push(Math.max(0, s - accepted.get(r.id)) / 1000)
  l.total.push((f - c) / 1000)
  l.score.push((f - s) / 1000)
  lastFinish = Math.max(lastFinish, f)
}
const firstCreate = Math.min(...rows.map((r) => Date.parse(r.created_at)))
const scoredSpan = (lastFinish - firstCreate) / 1000
const uploadSpan = (c1.at - c0.at) / 1000
const wholeSpan = (c2.at - c0.at) / 1000
const uploadPeaks = new Map(peak)
await Promise.all(workers.map(stopProc))
roles.worker = []

// ---- the board ----
for (const w of webs) await stopProc(w.proc)
roles.web = []
const fill = await server.startServer({
  competition: server.loadCompetition(configFile),
  dataDir: data,
  db: dbUrl,
  workers: 0,
})
const db = fill.ctx.db
const template = await db
  .selectFrom('scores')
  .selectAll()
  .where('submission_id', '=', ids[plan.indexOf('small') >= 0 ? plan.indexOf('small') : 0])
  .executeTakeFirstOrThrow()
const perQuery = JSON.parse(template.per_query)
const teamCount = Math.min(200, BOARD)
const teamIds = (
  await db.selectFrom('teams').select('id').where('is_baseline', '=', 0).execute()
).map((r) => r.id)
for (let t = teamIds.length; t < teamCount; t++)
  teamIds.push(await server.createTeam(db, `Board team ${t}`, at))
const count = async () =>
  Number(
    (
      await db
        .selectFrom('submissions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    ).n,
  )
const existing = await count()
let seed = 7
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
for (let from = existing; from < BOARD; from += 1000) {
  left('filling the board')
  await db.transaction().execute(async (tx) => {
    for (let i = from; i < Math.min(BOARD, from + 1000); i++) {
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
}
const total = await count()
await fill.close()
for (const key of [...peak.keys()]) if (key.startsWith('web')) peak.delete(key)
webs = await startWebs(dbUrl)
/** K fetches of `path`, `concurrency` at a time, rotating over the web processes in `over`. */
async function time(path, concurrency, over) {
  const l = []
  let entries = 0
  let n = 0
  for (let i = 0; i < REQUESTS; i += concurrency) {
    left('timing the board')
    await Promise.all(
      Array.from({ length: Math.min(concurrency, REQUESTS - i) }, async () => {
        const base = over[n++ % over.length].url
        const s = performance.now()
        const r = await fetch(base + path)
        const text = await r.text()
        l.push(performance.now() - s)
        if (r.status !== 200) throw new Error(`${path}: ${r.status}`)
        if (path.startsWith('/api')) entries = JSON.parse(text).entries.length
      }),
    )
  }
  return { p50: pct(l, 50), p95: pct(l, 95), max: Math.max(...l), entries }
}
await time('/api/v1/boards/load/dev', 1, webs) // warm-up, both processes
const json1 = await time('/api/v1/boards/load/dev', 1, webs.slice(0, 1))
const json10 = await time('/api/v1/boards/load/dev', 10, webs)
const html1 = await time('/boards/load/dev', 1, webs.slice(0, 1))
sample()
const boardPeaks = new Map([...peak].filter(([k]) => k.startsWith('web')))
for (const w of webs) await stopProc(w.proc)
clearInterval(sampler)
await client.end()
agent.destroy()

// ---- the summary ----
const cpuRow = (a, b, span) => {
  const keys = ['web', 'worker', 'postgres', 'driver']
  const used = Object.fromEntries(keys.map((k) => [k, b[k] - a[k]]))
  const busy = b.machineBusy - a.machineBusy
  const ours = keys.reduce((s, k) => s + used[k], 0)
  const capacity = span * cpus().length
  const share = (x) => `${((x / capacity) * 100).toFixed(0)}%`
  return [
    ...keys.map(
      (k) =>
        `    ${k.padEnd(9)} ${sec(used[k]).padStart(9)} CPU  ${share(used[k]).padStart(4)} of the machine`,
    ),
    `    other processes on the machine ${sec(Math.max(0, busy - ours))} (${share(Math.max(0, busy - ours))}); idle ${share(capacity - busy)}; iowait ${share(b.machineIowait - a.machineIowait)}`,
  ]
}
const stats = (xs) =>
  `p50 ${sec(pct(xs, 50))}, p95 ${sec(pct(xs, 95))}, max ${sec(Math.max(...xs))}`
const peakLines = (m) =>
  [...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `    ${k.padEnd(24)} ${mib(v)}`)
const scoredCount = ids.length - unscored
const lines = [
  '',
  `uploads: ${SMALL} × ${(smallBytes / 1e6).toFixed(2)} MB + ${LARGE} × ${(largeBytes / 1e6).toFixed(1)} MB = ${((SMALL * smallBytes + LARGE * largeBytes) / 1e9).toFixed(2)} GB, ${INFLIGHT} in flight over ${WEBS} web processes`,
  `  all accepted after ${sec(uploadSpan)}: ${((ids.length / uploadSpan) * 60).toFixed(0)} submissions per minute accepted`,
  `  all finished after ${sec(wholeSpan)} (first created to last scored ${sec(scoredSpan)}): ${((scoredCount / scoredSpan) * 60).toFixed(0)} submissions per minute scored by ${WORKERS} workers (${unscored} failed)`,
  ...['small', 'large']
    .filter((k) => lat[k].wait.length)
    .flatMap((k) => [
      `  ${k} runs (${lat[k].wait.length}): created → started ${stats(lat[k].wait)}; created → scored ${stats(lat[k].total)}`,
      `    queue alone (202 received → started) ${stats(lat[k].queue)}; scoring alone (started → finished) ${stats(lat[k].score)}`,
    ]),
  `  CPU while uploading (${sec(uploadSpan)}, ${cpus().length} CPUs):`,
  ...cpuRow(c0, c1, uploadSpan),
  `  CPU over the whole upload and scoring (${sec(wholeSpan)}):`,
  ...cpuRow(c0, c2, wholeSpan),
  `  load average: ${load0.toFixed(2)} at the start, ${load1.toFixed(2)} when all were accepted, ${load2.toFixed(2)} at the end; mean ${(runLoads.reduce((a, b) => a + b, 0) / Math.max(1, runLoads.length)).toFixed(2)}, max ${Math.max(...runLoads).toFixed(2)}`,
  '  peak RSS (VmHWM) during uploads and scoring:',
  ...peakLines(uploadPeaks),
  `board: ${total} submissions, ${json1.entries} entries (one per team), after a restart of the web processes`,
  `  JSON, 1 at a time (one web process): p50 ${ms(json1.p50)}, p95 ${ms(json1.p95)}, max ${ms(json1.max)}`,
  `  JSON, 10 at once (both web processes): p50 ${ms(json10.p50)}, p95 ${ms(json10.p95)}, max ${ms(json10.max)}`,
  `  HTML, 1 at a time: p50 ${ms(html1.p50)}, p95 ${ms(html1.p95)}`,
  '  peak RSS while serving the board:',
  ...peakLines(boardPeaks),
]
process.stdout.write(`${lines.join('\n')}\n`)
if (opt.keep) process.stdout.write(`kept: ${dir} (logs in ${logs})\n`)
process.exit(unscored ? 1 : 0)
