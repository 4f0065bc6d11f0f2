/**
 * Behind a reverse proxy (`serve --trust-proxy`): the CSRF Origin check compares against the
 * scheme the proxy says the browser used (X-Forwarded-Proto), and per-IP limits count the
 * address the proxy saw (the last X-Forwarded-For entry; entries a client sent come before it).
 * Without the flag both headers are ignored. Also: each server process receives uploads in its
 * own tmp folder and sweeps only what dead processes left (storage/tmp.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { sweepTmp } from '../../src/server/storage/tmp.js'
import { dbOptions } from './backend.js'
import { makeCompetition } from './helpers.js'

const comp = makeCompetition({
  config: { rateLimits: { loginPerMinute: 3, uploadPerMinute: 10, apiPerMinute: 120 } },
})
const servers: RunningServer[] = []
afterAll(async () => {
  for (const s of servers) await s.close()
  comp.cleanup()
})

async function server(trustProxy: boolean, data: string): Promise<RunningServer> {
  const s = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: data,
    trustProxy,
    ...(await dbOptions(data)),
  })
  servers.push(s)
  return s
}

/** A sign-in POST with a CSRF token from a fresh GET; returns status and text. */
async function login(s: RunningServer, headers: Record<string, string>) {
  const get = await s.app.request('/login', { headers })
  const cookie = (get.headers.get('set-cookie') ?? '').split(';')[0]!
  const token = /name="_csrf" value="([^"]*)"/.exec(await get.text())?.[1] ?? ''
  const r = await s.app.request('/login', {
    method: 'POST',
    headers: {
      ...headers,
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ _csrf: token, name: 'nobody', password: 'wrong-password!' }),
  })
  return { status: r.status, text: await r.text() }
}

const CSRF_REFUSED = 'refused: missing or wrong CSRF token'

describe('behind a reverse proxy', () => {
  it('--trust-proxy: the Origin check follows X-Forwarded-Proto, limits follow X-Forwarded-For', async () => {
    const s = await server(true, join(comp.dir, 'proxied'))
    const https = { origin: 'https://localhost', 'x-forwarded-proto': 'https' }
    const one = await login(s, { ...https, 'x-forwarded-for': '203.0.113.7' })
    expect(one.text).not.toContain(CSRF_REFUSED)
    expect(one.text).toContain('Wrong name or password.')
    // A foreign origin is still refused.
    const foreign = await login(s, { origin: 'https://evil.example', 'x-forwarded-proto': 'https' })
    expect(foreign).toMatchObject({ status: 403 })
    expect(foreign.text).toContain(CSRF_REFUSED)
    // 3 sign-ins a minute per client address: the fourth of one client is refused, another
    // client (a different last entry) is not, whatever the client put before it.
    for (let i = 0; i < 2; i++)
      expect((await login(s, { ...https, 'x-forwarded-for': '203.0.113.7' })).status).toBe(403)
    expect((await login(s, { ...https, 'x-forwarded-for': '203.0.113.7' })).status).toBe(429)
    const other = await login(s, { ...https, 'x-forwarded-for': '203.0.113.7, 198.51.100.9' })
    expect(other.status).toBe(403)
    expect(other.text).toContain('Wrong name or password.')
  })

  it('without it, both headers are ignored: https origins are refused, one address for all', async () => {
    const s = await server(false, join(comp.dir, 'direct'))
    const r = await login(s, { origin: 'https://localhost', 'x-forwarded-proto': 'https' })
    expect(r.text).toContain(CSRF_REFUSED)
    const codes: number[] = []
    for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'])
      codes.push((await login(s, { 'x-forwarded-for': ip })).status)
    expect(codes).toEqual([403, 403, 403, 429])
  })
})

describe('per-process upload folders in --data/tmp', () => {
  it('a process sweeps what dead processes left, never a live one or a fresh foreign one', () => {
    const data = mkdtempSync(join(tmpdir(), 'trecscore-tmp-'))
    try {
      const host = hostname().replace(/[^A-Za-z0-9.]/g, '_')
      const root = join(data, 'tmp')
      const dead = `${host}-2147483646-0123abcd`
      const live = `${host}-${process.pid}-89abcdef`
      const foreignFresh = 'other-host-12-00000000'
      const foreignOld = 'other-host-13-11111111'
      const legacyOld = 'SUBMISSIONID'
      for (const n of [dead, live, foreignFresh, foreignOld, legacyOld])
        mkdirSync(join(root, n, 'upload'), { recursive: true })
      const old = new Date(Date.now() - 2 * 86_400_000)
      for (const n of [foreignOld, legacyOld]) utimesSync(join(root, n), old, old)
      expect(sweepTmp(data).sort()).toEqual([dead, foreignOld, legacyOld].sort())
      expect(readdirSync(root).sort()).toEqual([foreignFresh, live].sort())
    } finally {
      rmSync(data, { recursive: true, force: true })
    }
  })

  it('two servers on one data folder keep their own folders; closing one leaves the other', async () => {
    const data = join(comp.dir, 'shared')
    const a = await server(false, data)
    const b = await server(false, data)
    expect(a.ctx.tmpDir).not.toBe(b.ctx.tmpDir)
    mkdirSync(join(b.ctx.tmpDir, 'in-flight'))
    await a.close()
    servers.splice(servers.indexOf(a), 1)
    expect(readdirSync(join(data, 'tmp'))).toEqual([b.ctx.tmpDir.split('/').at(-1)])
    expect(readdirSync(b.ctx.tmpDir)).toEqual(['in-flight'])
  })
})
