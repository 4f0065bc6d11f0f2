/**
 * Operations: `GET /healthz`, `GET /metrics` (parsed by a small exposition-format parser and
 * checked against real counts after real submissions), request ids and JSON log lines, and
 * `trecscore serve migrate`. Runs on both backends.
 */
import { readFileSync } from 'node:fs'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { openDatabase, parseDbLocation } from '../../src/server/db/database.js'
import { MIGRATIONS } from '../../src/server/db/migrations.js'
import { healthz } from '../../src/server/ops/health.js'
import { Logger } from '../../src/server/ops/log.js'
import { escapeLabel, metrics } from '../../src/server/ops/metrics.js'
import { cli } from '../cli/helpers.js'
import { BACKEND, dbArgs, dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, type TestCompetition } from './helpers.js'

const HOSTILE = 'Secret "team"\\ <x>'

let comp: TestCompetition
let server: RunningServer
let org: Client
let team: Client
const logLines: string[] = []

beforeAll(async () => {
  comp = makeCompetition()
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
    ops: { log: new Logger('json', (l) => logLines.push(l)) },
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  team = await joinTeam(server.app, org, HOSTILE, 'alice')
}, 60_000)

afterAll(async () => {
  await server?.close()
  comp?.cleanup()
})

interface Sample {
  readonly name: string
  readonly labels: Record<string, string>
  readonly value: number
}

/**
 * Parse a Prometheus text exposition, checking its rules: `# HELP` then `# TYPE` once per family
 * and before its samples, sample names of the family (histograms: `_bucket` with `le`, `_sum`,
 * `_count`), label values escaped (only `\\`, `\"`, `\n`), values numbers, a final newline.
 */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  expect(text.endsWith('\n')).toBe(true)
  const types = new Map<string, string>()
  const helped = new Set<string>()
  const samples: Sample[] = []
  const sampleRe = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/
  const labelRe = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/
  for (const line of text.slice(0, -1).split('\n')) {
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line)
    if (help) {
      expect(helped.has(help[1]!), `one HELP for ${help[1]}`).toBe(false)
      helped.add(help[1]!)
      continue
    }
    const type =
      /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type) {
      expect(types.has(type[1]!), `one TYPE for ${type[1]}`).toBe(false)
      types.set(type[1]!, type[2]!)
      continue
    }
    const m = sampleRe.exec(line)
    expect(m, `a sample line: ${line}`).not.toBeNull()
    const name = m![1]!
    const family = [...types.keys()].find(
      (f) =>
        name === f ||
        (types.get(f) === 'histogram' && [`${f}_bucket`, `${f}_sum`, `${f}_count`].includes(name)),
    )
    expect(family, `${name} comes after its TYPE line`).toBeDefined()
    expect(helped.has(family!)).toBe(true)
    const labels: Record<string, string> = {}
    let rest = m![3] ?? ''
    while (rest !== '') {
      const l = labelRe.exec(rest)
      expect(l, `label syntax in ${line}`).not.toBeNull()
      labels[l![1]!] = l![2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
      rest = rest.slice(l![0].length)
    }
    if (name.endsWith('_bucket')) expect(labels.le).toBeDefined()
    const value = m![4] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m![4])
    expect(Number.isNaN(value), `value of ${line}`).toBe(false)
    samples.push({ name, labels, value })
  }
  return { types, samples }
}

function value(samples: readonly Sample[], name: string, labels: Record<string, string>): number {
  const s = samples.filter(
    (x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v),
  )
  expect(s.length, `${name} ${JSON.stringify(labels)}`).toBe(1)
  return s[0]!.value
}

async function settled(): Promise<void> {
  const end = Date.now() + 60_000
  for (;;) {
    const busy = await server.ctx.db
      .selectFrom('submissions')
      .select('id')
      .where('state', 'in', ['queued', 'scoring'])
      .execute()
    if (busy.length === 0) return
    if (Date.now() > end) throw new Error('submissions still queued or scoring')
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe('/healthz', () => {
  it('200 with the backend and version, no sign-in; nothing else', async () => {
    const r = await server.app.request('/healthz')
    expect(r.status).toBe(200)
    const body = (await r.json()) as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['db', 'ok', 'version'])
    expect(body.ok).toBe(true)
    expect(body.db).toBe(BACKEND)
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/)
  })
  it('503 with one line when the database does not answer', async () => {
    const dir = `${comp.dir}/down`
    const db = await openDatabase(parseDbLocation((await dbOptions(dir)).db, dir))
    await db.destroy()
    const app = new Hono().get('/healthz', healthz({ ...server.ctx, db }))
    const r = await app.request('/healthz')
    expect(r.status).toBe(503)
    const text = await r.text()
    expect(text).toMatch(
      new RegExp(`^unhealthy: the ${BACKEND} database does not answer \\(.+\\)\\n$`),
    )
  })
})

describe('/metrics', () => {
  it('counts real submissions by track, phase and state; durations; no team names', async () => {
    const ids: string[] = []
    for (const [i, run] of [comp.runs.dense, comp.runs.hybrid].entries()) {
      const r = await team.uploadApi('dl', 'dev', `run${i}`, readFileSync(run, 'utf8'))
      expect(r.status, JSON.stringify(r.body)).toBe(202)
      ids.push(r.body.id!)
    }
    for (const id of ids) expect((await waitDone(team, id)).state).toBe('scored')
    await settled()
    // One failed submission, so the failure count is not 0 by construction.
    await server.ctx.db
      .updateTable('submissions')
      .set({ state: 'failed', reason: 'test' })
      .where('id', '=', ids[1]!)
      .execute()
    const r = await server.app.request('/metrics')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const text = await r.text()
    expect(text).not.toContain('Secret')
    expect(text).not.toContain('run0')
    const { types, samples } = parseExposition(text)
    expect(types.get('trecscore_submissions')).toBe('gauge')
    expect(types.get('trecscore_job_duration_seconds')).toBe('histogram')
    expect(types.get('trecscore_failures_total')).toBe('counter')
    // dl/dev: the bm25 baseline (scored) + run0 (scored) + run1 (failed); dl/test: the baseline.
    const sub = (track: string, phase: string, state: string): number =>
      value(samples, 'trecscore_submissions', { track, phase, state })
    expect(sub('dl', 'dev', 'scored')).toBe(2)
    expect(sub('dl', 'dev', 'failed')).toBe(1)
    expect(sub('dl', 'dev', 'queued')).toBe(0)
    expect(sub('dl', 'test', 'scored')).toBe(1)
    expect(sub('plain', 'dev', 'scored')).toBe(0)
    expect(value(samples, 'trecscore_submissions_total', { track: 'dl', phase: 'dev' })).toBe(3)
    expect(value(samples, 'trecscore_submissions_total', { track: 'plain', phase: 'test' })).toBe(0)
    expect(value(samples, 'trecscore_failures_total', { kind: 'score' })).toBe(1)
    expect(value(samples, 'trecscore_failures_total', { kind: 'rescore' })).toBe(0)
    const scoreRows = await server.ctx.db.selectFrom('scores').select('id').execute()
    expect(scoreRows.length).toBe(4)
    expect(value(samples, 'trecscore_scores_total', {})).toBe(4)
    // Histogram: 4 finished dl submissions (3 scored, 1 failed); buckets cumulative; +Inf = count.
    expect(value(samples, 'trecscore_job_duration_seconds_count', { track: 'dl' })).toBe(4)
    const buckets = samples.filter(
      (s) => s.name === 'trecscore_job_duration_seconds_bucket' && s.labels.track === 'dl',
    )
    for (let i = 1; i < buckets.length; i++)
      expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value)
    expect(buckets.at(-1)!.labels.le).toBe('+Inf')
    expect(buckets.at(-1)!.value).toBe(4)
    const rows = await server.ctx.db
      .selectFrom('submissions')
      .select(['started_at', 'finished_at'])
      .where('track', '=', 'dl')
      .execute()
    const sum = rows.reduce(
      (a, x) => a + (Date.parse(x.finished_at!) - Date.parse(x.started_at!)) / 1000,
      0,
    )
    expect(value(samples, 'trecscore_job_duration_seconds_sum', { track: 'dl' })).toBeCloseTo(
      sum,
      6,
    )
  })
  it('label values are escaped', () => {
    expect(escapeLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd')
  })
  it('loopback only without a token; with one, Bearer TOKEN from anywhere', async () => {
    const remote = new Hono().get(
      '/metrics',
      metrics(server.ctx, undefined, () => '10.1.2.3'),
    )
    const r = await remote.request('/metrics')
    expect(r.status).toBe(403)
    expect(await r.text()).toBe(
      'forbidden: /metrics answers loopback only (set TRECSCORE_METRICS_TOKEN to allow others)\n',
    )
    const loop = new Hono().get(
      '/metrics',
      metrics(server.ctx, undefined, () => '::1'),
    )
    expect((await loop.request('/metrics')).status).toBe(200)
    const tok = new Hono().get(
      '/metrics',
      metrics(server.ctx, 'tok-123', () => '10.1.2.3'),
    )
    expect((await tok.request('/metrics')).status).toBe(403)
    const bad = { headers: { authorization: 'Bearer tok-124' } }
    expect((await tok.request('/metrics', bad)).status).toBe(403)
    const good = { headers: { authorization: 'Bearer tok-123' } }
    expect((await tok.request('/metrics', good)).status).toBe(200)
  })
})

describe('request ids and JSON logs', () => {
  it('a sane X-Request-Id is kept and echoed; another is replaced; one JSON line per request', async () => {
    logLines.length = 0
    const r = await server.app.request('/healthz?token=abc123secret', {
      headers: { 'x-request-id': 'lb-42.a:b_c' },
    })
    expect(r.headers.get('x-request-id')).toBe('lb-42.a:b_c')
    const bad = await server.app.request('/healthz', {
      headers: { 'x-request-id': `x y${'z'.repeat(70)}` },
    })
    const generated = bad.headers.get('x-request-id')!
    expect(generated).toMatch(/^[0-9a-f-]{36}$/)
    expect(logLines).toHaveLength(2)
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'request',
      requestId: 'lb-42.a:b_c',
      method: 'GET',
      path: '/healthz',
      status: 200,
    })
    expect(typeof lines[0]!.ms).toBe('number')
    expect(Number.isNaN(Date.parse(String(lines[0]!.ts)))).toBe(false)
    expect(lines[1]!.requestId).toBe(generated)
    expect(logLines.join('')).not.toContain('abc123secret')
  })
  it("the upload's request id is stored on the row and carried into the job's log lines", async () => {
    logLines.length = 0
    const r = await team.request('/api/v1/submissions?track=plain&phase=dev&name=carried', {
      method: 'POST',
      body: readFileSync(comp.runs.bm25, 'utf8'),
      headers: {
        'x-trecscore-metadata': JSON.stringify({ kind: 'automatic' }),
        'x-csrf-token': team.csrf,
        'x-request-id': 'upload-req-7',
      },
    })
    expect(r.status, r.text).toBe(202)
    const id = (JSON.parse(r.text) as { id: string }).id
    expect((await waitDone(team, id)).state).toBe('scored')
    const row = await server.ctx.db
      .selectFrom('submissions')
      .select('request_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.request_id).toBe('upload-req-7')
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>)
    const upload = lines.find((l) => l.msg === 'request' && l.method === 'POST')
    expect(upload).toMatchObject({ requestId: 'upload-req-7', status: 202 })
    // The job's own lines (the scoring start and the result) carry the upload's id.
    const job = lines.filter((l) => l.msg !== 'request' && JSON.stringify(l).includes(id))
    expect(job.length).toBeGreaterThanOrEqual(2)
    for (const l of job) expect(l.requestId).toBe('upload-req-7')
    expect(job.some((l) => /scored/.test(String(l.msg)))).toBe(true)
  })
  it('fields named like secrets are never written; text format is one line', () => {
    const out: string[] = []
    const log = new Logger('json', (l) => out.push(l))
    log.info('x', { password: 'hunter2', apiToken: 'tsk_1', cookie: 'c=1', judgeKey: 'k', n: 1 })
    expect(out[0]).not.toMatch(/hunter2|tsk_1|c=1|"k"/)
    expect(JSON.parse(out[0]!)).toMatchObject({ password: '[redacted]', n: 1 })
    const text: string[] = []
    new Logger('text', (l) => text.push(l)).warn('slow', { requestId: 'r1', ms: 5 })
    expect(text[0]).toMatch(/^\S+Z warn slow requestId=r1 ms=5\n$/)
  })
})

describe('trecscore serve migrate', () => {
  it('applies every migration once and says so; a second run applies nothing', async () => {
    const data = `${comp.dir}/migrate`
    const args = ['serve', 'migrate', '--data', data, ...(await dbArgs(data))]
    const first = cli(args)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const names = Object.keys(MIGRATIONS).sort()
    expect(first.stdout.split('\n').slice(0, names.length)).toEqual(
      names.map((n) => `applied ${n}`),
    )
    expect(first.stdout).toContain(`: ${names.length} migration(s) applied\n`)
    const second = cli(args)
    expect(second.code).toBe(0)
    expect(second.stdout).toMatch(/: up to date \(nothing to apply\)\n$/)
  })
})
