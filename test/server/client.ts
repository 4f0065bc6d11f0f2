/**
 * A tiny browser for in-process API tests: keeps cookies, reads the CSRF token from forms,
 * posts forms and uploads, and waits for submissions to be scored.
 */
import type { Hono } from 'hono'
import { expect } from 'vitest'

type App = Pick<Hono, 'request'>

export interface Reply {
  readonly status: number
  readonly text: string
  readonly headers: Headers
}

export class Client {
  readonly cookies = new Map<string, string>()
  csrf = ''

  constructor(
    private readonly app: App,
    readonly label: string,
    private readonly bearer: string | null = null,
  ) {}

  /** A client that authenticates with an API token instead of cookies. */
  static withToken(app: App, token: string): Client {
    return new Client(app, 'token', token)
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async request(
    path: string,
    init: {
      method?: string
      body?: string | Uint8Array | FormData
      headers?: Record<string, string>
    } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers }
    if (this.cookies.size) headers['cookie'] = this.cookieHeader()
    if (this.bearer) headers['authorization'] = `Bearer ${this.bearer}`
    const r = await this.app.request(path, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: init.body, duplex: 'half' } : {}),
    } as RequestInit)
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      if (value === '' || /Max-Age=0/i.test(c)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await r.text()
    const m = /name="_csrf" value="([^"]*)"/.exec(text) ?? /_csrf=([A-Za-z0-9_%-]+)/.exec(text)
    if (m) this.csrf = decodeURIComponent(m[1]!)
    return { status: r.status, text, headers: r.headers }
  }

  get(path: string): Promise<Reply> {
    return this.request(path)
  }

  /** POST an urlencoded form with this client's CSRF token (unless `_csrf` is given). */
  post(path: string, fields: Record<string, string> = {}): Promise<Reply> {
    const body = new URLSearchParams({ _csrf: this.csrf, ...fields })
    return this.request(path, {
      method: 'POST',
      body: body.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
  }

  async json<T = unknown>(path: string): Promise<{ status: number; body: T }> {
    const r = await this.get(path)
    return { status: r.status, body: JSON.parse(r.text) as T }
  }

  /** Sign in through the form. */
  async login(name: string, password: string): Promise<Reply> {
    await this.get('/login')
    const r = await this.post('/login', { name, password })
    if (r.status === 303) await this.get('/')
    return r
  }

  /** Upload through the team page's multipart form. */
  async uploadForm(
    track: string,
    phase: string,
    name: string,
    content: string | Uint8Array,
    meta: Record<string, string> = { kind: 'automatic' },
  ): Promise<Reply> {
    const fd = new FormData()
    fd.set('track', track)
    fd.set('phase', phase)
    for (const [k, v] of Object.entries(meta)) fd.set(`meta.${k}`, v)
    fd.set('run', new Blob([content]), name)
    return this.request(`/team/submissions?_csrf=${encodeURIComponent(this.csrf)}`, {
      method: 'POST',
      body: fd,
    })
  }

  /** Upload several files through the team page's form (a per-domain run): `runName`, then the files. */
  async uploadFormFiles(
    track: string,
    phase: string,
    runName: string,
    files: Readonly<Record<string, string | Uint8Array>>,
    meta: Record<string, string> = { kind: 'automatic' },
  ): Promise<Reply> {
    const fd = new FormData()
    fd.set('track', track)
    fd.set('phase', phase)
    for (const [k, v] of Object.entries(meta)) fd.set(`meta.${k}`, v)
    fd.set('runName', runName)
    for (const [name, content] of Object.entries(files)) fd.append('run', new Blob([content]), name)
    return this.request(`/team/submissions?_csrf=${encodeURIComponent(this.csrf)}`, {
      method: 'POST',
      body: fd,
    })
  }

  /** Upload several files through the API as multipart/form-data (a per-domain run named `name`). */
  async uploadApiFiles(
    track: string,
    phase: string,
    name: string,
    files: Readonly<Record<string, string | Uint8Array>>,
    meta: Record<string, unknown> = { kind: 'automatic' },
  ): Promise<{ status: number; body: { id?: string; error?: string; report?: string } }> {
    const fd = new FormData()
    for (const [file, content] of Object.entries(files)) fd.append('run', new Blob([content]), file)
    const r = await this.request(
      `/api/v1/submissions?track=${track}&phase=${phase}&name=${encodeURIComponent(name)}`,
      {
        method: 'POST',
        body: fd,
        headers: {
          'x-trecscore-metadata': JSON.stringify(meta),
          ...(this.csrf && !this.bearer ? { 'x-csrf-token': this.csrf } : {}),
        },
      },
    )
    return { status: r.status, body: JSON.parse(r.text) as { id?: string; error?: string } }
  }

  /** Upload through the API (raw body, metadata header). */
  async uploadApi(
    track: string,
    phase: string,
    name: string,
    content: string | Uint8Array,
    meta: Record<string, unknown> = { kind: 'automatic' },
  ): Promise<{ status: number; body: { id?: string; error?: string; report?: string } }> {
    const r = await this.request(
      `/api/v1/submissions?track=${track}&phase=${phase}&name=${encodeURIComponent(name)}`,
      {
        method: 'POST',
        body: content,
        headers: {
          'x-trecscore-metadata': JSON.stringify(meta),
          ...(this.csrf && !this.bearer ? { 'x-csrf-token': this.csrf } : {}),
        },
      },
    )
    return { status: r.status, body: JSON.parse(r.text) as { id?: string; error?: string } }
  }
}

/** The invite link on an organizer page. */
export function inviteLinkOf(page: string): string {
  const m = /(\/invite\/inv_[A-Za-z0-9_-]+)/.exec(page)
  expect(m, 'invite link on the page').not.toBeNull()
  return m![1]!
}

/** Wait until a submission leaves queued/scoring (polling the database through the API). */
export async function waitDone(
  c: Client,
  id: string,
  timeoutMs = 30_000,
): Promise<{ state: string; reason: string | null }> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const r = await c.json<{ state: string; reason: string | null }>(`/api/v1/submissions/${id}`)
    expect(r.status).toBe(200)
    if (r.body.state === 'scored' || r.body.state === 'failed') return r.body
    if (Date.now() > end)
      throw new Error(`submission ${id} still ${r.body.state} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** As the signed-in organizer `org`, create a team and join it through its single-use invite link; the member's client, signed in. */
export async function joinTeam(
  app: App,
  org: Client,
  team: string,
  member: string,
): Promise<Client> {
  const page = await org.post('/org/teams', { name: team })
  expect(page.status).toBe(200)
  const link = inviteLinkOf(page.text)
  const c = new Client(app, member)
  expect((await c.get(link)).status).toBe(200)
  expect((await c.post(link, { name: member, password: `${member}-password` })).status).toBe(303)
  await c.get('/team')
  expect((await new Client(app, 'x').get(link)).status, 'an invite is single-use').toBe(404)
  return c
}
