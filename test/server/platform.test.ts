/**
 * The server's published surfaces, in-process on real SQLite with the real scoring worker:
 * the OpenAPI document against the routes the app registers (and real answers against its
 * schemas), the exports (JSON, CSV, Markdown, LaTeX) under a hidden test phase and an anonymous
 * team, the counting submission selected by a team, and AoE display with the server clock on
 * every page.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { anonymousAlias } from '../../src/server/board.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { API_ROUTES } from '../../src/server/routes/api-schemas.js'
import { openApiPath } from '../../src/server/routes/openapi.js'
import { dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, runSubset, type TestCompetition } from './helpers.js'

const START = '2030-01-01T00:00:00Z'
const END = '2031-01-01T00:00:00Z'
let clock = new Date('2030-06-01T12:00:00Z')
let comp: TestCompetition
let server: RunningServer
let org: Client
let secret: Client
let open: Client
let anon: Client
let tokenOpen = ''
const ids: Record<string, string> = {}

async function upload(c: Client, phase: string, name: string, body: string): Promise<string> {
  clock = new Date(clock.getTime() + 60_000)
  const r = await c.uploadApi('dl', phase, name, body)
  expect(r.status, JSON.stringify(r.body)).toBe(202)
  expect((await waitDone(c, r.body.id!)).state).toBe('scored')
  return r.body.id!
}

beforeAll(async () => {
  comp = makeCompetition({
    config: {
      phases: [
        { id: 'dev', start: START, end: END },
        { id: 'test', start: START, end: END, hidden: true },
      ],
      limits: { counts: 'selected', perDay: 50 },
      timeDisplay: 'aoe',
    },
  })
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
    now: () => clock,
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', clock)
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  secret = await joinTeam(server.app, org, 'Secret Lab', 'sam')
  open = await joinTeam(server.app, org, 'Open Team', 'olga')
  anon = new Client(server.app, 'anonymous')
  await anon.get('/')
  const page = await open.post('/team/tokens', { label: 'ci' })
  tokenOpen = /<code>(tsk_[A-Za-z0-9_-]+)<\/code>/.exec(page.text)![1]!
  expect((await secret.post('/team/anonymity', { anonymous: 'true' })).status).toBe(303)
  ids['secretDev'] = await upload(
    secret,
    'dev',
    'secretlab-dense.run',
    readFileSync(comp.runs.dense, 'utf8'),
  )
  ids['secretTest'] = await upload(
    secret,
    'test',
    'secretlab-dense.run',
    readFileSync(comp.runs.dense, 'utf8'),
  )
  ids['openHybrid'] = await upload(
    open,
    'dev',
    'open-hybrid.run',
    readFileSync(comp.runs.hybrid, 'utf8'),
  )
  ids['openSmall'] = await upload(
    open,
    'dev',
    'open-small.run',
    runSubset(comp.runs.bm25, (q) => q <= 5),
  )
  ids['openTest'] = await upload(
    open,
    'test',
    'open-hybrid.run',
    readFileSync(comp.runs.hybrid, 'utf8'),
  )
}, 120_000)

afterAll(async () => {
  await server?.close()
  comp?.cleanup()
})

describe('OpenAPI document', () => {
  it('is served and documents exactly the routes the app registers', async () => {
    const r = await anon.json<{
      openapi: string
      paths: Record<string, Record<string, unknown>>
      components: { schemas: Record<string, unknown> }
    }>('/api/v1/openapi.json')
    expect(r.status).toBe(200)
    expect(r.body.openapi).toBe('3.1.0')
    const documented = Object.entries(r.body.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    )
    const registered = server.app.routes
      .filter((x) => x.method !== 'ALL' && x.path.startsWith('/api/v1/'))
      .map((x) => `${x.method} ${openApiPath(x.path)}`)
    expect(new Set(registered).size).toBe(registered.length)
    expect([...documented].sort()).toEqual([...registered].sort())
    expect(documented.length).toBe(12)
    const text = JSON.stringify(r.body)
    for (const m of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g))
      expect(r.body.components.schemas, `$ref ${m[1]}`).toHaveProperty([m[1]!])
    expect(text).not.toContain('__shared')
  })
  it('every JSON answer matches its documented schema (no undocumented keys)', async () => {
    const t = Client.withToken(server.app, tokenOpen)
    const schema = (method: string, path: string, status: number): z.ZodType => {
      const s = API_ROUTES.find((x) => x.method === method && x.path === path)?.responses[status]
        ?.schema
      expect(s, `${method} ${path} ${status}`).toBeDefined()
      return s!
    }
    const check = async (c: Client, route: string, path: string, status = 200): Promise<void> => {
      const r = await c.get(path)
      expect(r.status, path).toBe(status)
      const parsed = schema('get', route, status).safeParse(JSON.parse(r.text))
      expect(parsed.success, `${path}: ${parsed.error?.message}`).toBe(true)
    }
    await check(anon, '/competition', '/api/v1/competition')
    await check(anon, '/boards/:track/:phase', '/api/v1/boards/dl/dev')
    await check(anon, '/boards/:track/:phase', '/api/v1/boards/dl/test')
    await check(anon, '/boards/:track/:phase', '/api/v1/boards/nope/dev', 404)
    await check(anon, '/boards/:track/:phase/diff', '/api/v1/boards/dl/dev/diff', 400)
    await check(t, '/submissions', '/api/v1/submissions')
    await check(anon, '/submissions', '/api/v1/submissions', 401)
    await check(t, '/submissions/:id', `/api/v1/submissions/${ids['openHybrid']}`)
    await check(t, '/submissions/:id', `/api/v1/submissions/${ids['secretDev']}`, 404)
    await check(
      t,
      '/submissions/:id/per-query',
      `/api/v1/submissions/${ids['openHybrid']}/per-query`,
    )
    const bad = await t.uploadApi('dl', 'dev', 'bad.run', 'q01 Q0 d 1\n')
    expect(bad.status).toBe(422)
    expect(schema('post', '/submissions', 422).safeParse(bad.body).success).toBe(true)
  })
})

describe('exports honour visibility and anonymity', () => {
  const formats = ['', '/csv', '/markdown', '/latex']
  const leaks = (): string[] => ['Secret Lab', 'secretlab', ids['secretDev']!, ids['secretTest']!]
  it('before release a hidden phase exports no rows in any format; the dev phase shows the anonymous team by alias only', async () => {
    expect(
      (await anon.json<{ released: boolean; entries: unknown[] }>('/api/v1/boards/dl/test')).body,
    ).toMatchObject({ released: false, entries: [] })
    expect((await anon.get('/api/v1/boards/dl/test/csv')).text).toBe(
      'rank,team,baseline,run,submitted,nDCG@10,AP,RR,tier,p_vs_tier_head,p_vs_above\r\n',
    )
    expect(
      (await anon.get('/api/v1/boards/dl/test/markdown')).text.trimEnd().split('\n'),
    ).toHaveLength(2)
    const tex = (await anon.get('/api/v1/boards/dl/test/latex')).text
    expect(tex.split('\n').filter((l) => l.endsWith('\\\\'))).toHaveLength(1)
    for (const who of [anon, open, secret]) {
      for (const f of formats) {
        const r = await who.get(`/api/v1/boards/dl/test${f}`)
        for (const name of [
          'Open Team',
          'Secret Lab',
          anonymousAlias(await teamId('Secret Lab')),
          'hybrid',
        ])
          expect(r.text, `${name} in test${f}`).not.toContain(name)
      }
    }
    const alias = anonymousAlias(await teamId('Secret Lab'))
    for (const f of formats) {
      const r = await anon.get(`/api/v1/boards/dl/dev${f}`)
      expect(r.status).toBe(200)
      expect(r.text, `alias in dev${f}`).toContain(alias)
      expect(r.text, `open team in dev${f}`).toContain(
        f === '/markdown' ? 'open\\-small\\.run' : 'open-small.run',
      )
      for (const leak of leaks()) expect(r.text, `${leak} in dev${f}`).not.toContain(leak)
    }
    expect((await anon.get('/api/v1/boards/dl/dev/markdown')).headers.get('content-type')).toBe(
      'text/markdown; charset=utf-8',
    )
    expect((await anon.get('/api/v1/boards/dl/dev/latex')).headers.get('content-disposition')).toBe(
      'attachment; filename="dl-dev.tex"',
    )
  })
  it('after release the test board exports its rows, still without the anonymous team name, run or id', async () => {
    expect((await org.post('/org/phases/test/release')).status).toBe(303)
    const alias = anonymousAlias(await teamId('Secret Lab'))
    for (const f of formats) {
      for (const path of [`/api/v1/boards/dl/test${f}`, '/boards/dl/test', '/boards/dl/dev']) {
        const r = await anon.get(path)
        expect(r.text, path).toContain(alias)
        expect(r.text, path).toContain('Open Team')
        for (const leak of leaks()) expect(r.text, `${leak} in ${path}`).not.toContain(leak)
      }
    }
    const md = (await anon.get('/api/v1/boards/dl/test/markdown')).text.trimEnd().split('\n')
    expect(md).toHaveLength(2 + 3)
    expect(md.filter((l) => l.includes(`| ${alias} | false |  |`))).toHaveLength(1)
    // The team itself still sees its own name and files on its pages.
    expect((await secret.get('/team')).text).toContain('secretlab-dense.run')
  })
})

async function teamId(name: string): Promise<string> {
  return (
    await server.ctx.db
      .selectFrom('teams')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
  ).id
}

async function devEntryOf(
  team: string,
): Promise<{ submissionId: string | null; primary: number } | undefined> {
  const b = await anon.json<{
    counts: string
    entries: { team: string; submissionId: string | null; primary: number }[]
  }>('/api/v1/boards/dl/dev')
  expect(b.body.counts).toBe('selected')
  return b.body.entries.find((e) => e.team === team)
}

describe('the counting submission, selected by the team', () => {
  it('until a team selects one its latest scored run counts; the page control and the API select; others get 404', async () => {
    expect((await devEntryOf('Open Team'))?.submissionId).toBe(ids['openSmall'])
    const team = await open.get('/team')
    expect(team.text).toContain(`action="/team/submissions/${ids['openHybrid']}/select"`)
    const sub = await open.get(`/submissions/${ids['openHybrid']}`)
    expect(sub.text).toContain('Select to count')
    const r = await open.post(`/team/submissions/${ids['openHybrid']}/select`)
    expect(r.status).toBe(303)
    expect((await devEntryOf('Open Team'))?.submissionId).toBe(ids['openHybrid'])
    expect((await open.get(`/submissions/${ids['openHybrid']}`)).text).toContain(
      '<strong>selected</strong>',
    )
    expect(
      (
        await open.json<{ submissions: { id: string; selected: boolean }[] }>('/api/v1/submissions')
      ).body.submissions
        .filter((s) => s.selected)
        .map((s) => s.id),
    ).toEqual([ids['openHybrid']])
    const api = await Client.withToken(server.app, tokenOpen).request(
      `/api/v1/submissions/${ids['openSmall']}/select`,
      { method: 'POST' },
    )
    expect(api.status).toBe(200)
    expect(JSON.parse(api.text)).toEqual({ track: 'dl', phase: 'dev', selected: ids['openSmall'] })
    expect((await devEntryOf('Open Team'))?.submissionId).toBe(ids['openSmall'])
    expect(
      (await secret.post(`/team/submissions/${ids['openHybrid']}/select`)).status,
      "another team's id",
    ).toBe(404)
    expect(
      (await open.post(`/team/submissions/${ids['openHybrid']}/select`, { _csrf: 'forged' }))
        .status,
      'CSRF',
    ).toBe(403)
    expect((await devEntryOf('Open Team'))?.submissionId).toBe(ids['openSmall'])
  })
  it('a hidden phase: the team selects blind, and the choice is frozen once the phase closes', async () => {
    expect((await open.post(`/team/submissions/${ids['openTest']}/select`)).status).toBe(303)
    const saved = clock
    clock = new Date(new Date(END).getTime() + 1000)
    try {
      expect(
        (await open.login('olga', 'olga-password')).status,
        'sessions expire after 12 hours: sign in again',
      ).toBe(303)
      const r = await open.post(`/team/submissions/${ids['openHybrid']}/select`)
      expect(r.status).toBe(403)
      expect(r.text).toContain('phase dev is closed')
      expect((await open.get(`/submissions/${ids['openHybrid']}`)).text).not.toContain(
        'Select to count',
      )
      expect((await devEntryOf('Open Team'))?.submissionId).toBe(ids['openSmall'])
    } finally {
      clock = saved
    }
  })
})

describe('time display', () => {
  it('every page shows the server clock in UTC and AoE; phase instants are shown in AoE beside UTC', async () => {
    clock = new Date('2030-06-01T12:00:00Z')
    const pages: [Client, string][] = [
      [anon, '/'],
      [anon, '/login'],
      [anon, '/boards/dl/dev'],
      [anon, '/boards/dl/test'],
      [anon, '/submissions/nope'],
      [open, '/team'],
      [open, `/submissions/${ids['openHybrid']}`],
      [org, '/org'],
    ]
    for (const [c, path] of pages) {
      const r = await c.get(path)
      expect(r.text, path).toContain(
        '<p class="clock">Server time: <time datetime="2030-06-01T12:00:00.000Z">2030-06-01 12:00:00 UTC</time> (2030-06-01 00:00:00 AoE)</p>',
      )
    }
    const overview = (await anon.get('/')).text
    expect(overview).toContain(
      '<time datetime="2031-01-01T00:00:00.000Z">2031-01-01 00:00:00 UTC</time> (2030-12-31 12:00:00 AoE)',
    )
    expect((await open.get('/team')).text).toContain(
      'to before <time datetime="2031-01-01T00:00:00.000Z">2031-01-01 00:00:00 UTC</time> (2030-12-31 12:00:00 AoE)',
    )
    expect(
      (await anon.json<{ timeDisplay: string; serverTime: string }>('/api/v1/competition')).body,
    ).toMatchObject({ timeDisplay: 'aoe', serverTime: '2030-06-01T12:00:00.000Z' })
  })
})
