/**
 * The team page's upload form is read as a stream, in-process on real SQLite: an oversized
 * multipart body is refused with 413 after reading little more than the limit (the body is a
 * generator that counts what was pulled), a too-long line stops the upload at once, fields
 * must come before the file, and a valid form upload is stored and scored. Also the team page's
 * topic lists: read once per track, phase and qrels version, and again after a new version.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, type TestCompetition } from './helpers.js'

const MAX_BYTES = 200_000

let comp: TestCompetition
let server: RunningServer
let org: Client
let a: Client

beforeAll(async () => {
  comp = makeCompetition({
    config: { upload: { maxBytes: MAX_BYTES }, rateLimits: { uploadPerMinute: 100 } },
  })
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  a = await joinTeam(server.app, org, 'Team A', 'ann')
}, 60_000)

afterAll(async () => {
  await server?.close()
  comp?.cleanup()
})

const BOUNDARY = '----trecscoreTestBoundary7MA4YWxk'

/**
 * A multipart body made on demand (a pull stream): the fields, then a run file part whose
 * content is `first` followed by valid run lines up to `fileBytes`; `pulled()` says how many
 * bytes the server asked for.
 */
function streamedForm(
  fields: Record<string, string>,
  fileBytes: number,
  first = '',
): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  const enc = new TextEncoder()
  let head = ''
  for (const [k, v] of Object.entries(fields))
    head += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`
  head += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="run"; filename="big.run"\r\nContent-Type: application/octet-stream\r\n\r\n${first}`
  const line = 'q01 Q0 d1 1 1.0 big\n'
  const chunk = enc.encode(line.repeat(Math.ceil(16_384 / line.length)))
  let sent = 0
  let fileSent = first.length
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head'
  const body = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      let out: Uint8Array
      if (stage === 'head') {
        out = enc.encode(head)
        stage = 'file'
      } else if (stage === 'file') {
        out = chunk
        fileSent += chunk.length
        if (fileSent >= fileBytes) stage = 'tail'
      } else if (stage === 'tail') {
        out = enc.encode(`\r\n--${BOUNDARY}--\r\n`)
        stage = 'done'
      } else {
        ctrl.close()
        return
      }
      sent += out.length
      ctrl.enqueue(out)
    },
  })
  return { body, pulled: () => sent }
}

async function postForm(
  body: ReadableStream<Uint8Array>,
): Promise<{ status: number; text: string }> {
  return a.request(`/team/submissions?_csrf=${encodeURIComponent(a.csrf)}`, {
    method: 'POST',
    body: body as unknown as Uint8Array,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  })
}

async function submissionCount(): Promise<number> {
  const r = await server.ctx.db
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

const FIELDS = { track: 'dl', phase: 'dev', 'meta.kind': 'automatic' }

describe('the upload form is read as a stream', () => {
  it('an oversized body is refused with 413 after reading little more than the limit; nothing is stored', async () => {
    const before = await submissionCount()
    const form = streamedForm(FIELDS, 50 * MAX_BYTES)
    const r = await postForm(form.body)
    expect(r.status).toBe(413)
    expect(r.text).toContain(`upload limit: the upload is over ${MAX_BYTES} bytes`)
    // The file alone is over `upload.maxBytes`: the run's limit stops it first, long before
    // the 50× body is sent.
    expect(form.pulled()).toBeGreaterThan(MAX_BYTES)
    expect(form.pulled()).toBeLessThan(MAX_BYTES + 64 * 1024)
    expect(await submissionCount()).toBe(before)
  })

  it('a line over upload.maxLineBytes stops the upload at once (413)', async () => {
    const form = streamedForm(FIELDS, 50 * MAX_BYTES, `q01 Q0 ${'x'.repeat(5000)} 1 1 t\n`)
    const r = await postForm(form.body)
    expect(r.status).toBe(413)
    expect(r.text).toContain('upload limit: line 1 is longer than 4096 bytes')
    expect(form.pulled()).toBeLessThan(64 * 1024)
  })

  it('the fields must come before the file (as the page sends them)', async () => {
    const r = await postForm(streamedForm({ 'meta.kind': 'automatic' }, 1000).body)
    expect(r.status).toBe(400)
    expect(r.text).toContain('the track and phase fields must come before the run file')
    const text = await a.request(`/team/submissions?_csrf=${encodeURIComponent(a.csrf)}`, {
      method: 'POST',
      body: 'track=dl',
      headers: { 'content-type': 'multipart/form-data' },
    })
    expect(text.status).toBe(400)
    expect(text.text).toContain('expected multipart/form-data with a run file')
  })

  it('the page puts the file inputs after every other field; a form upload is stored and scored', async () => {
    const page = (await a.get('/team')).text
    const form = /<form method="post" enctype="multipart\/form-data"[^>]*>(.*?)<\/form>/s.exec(
      page,
    )![1]!
    expect(form.indexOf('name="track"')).toBeLessThan(form.indexOf('type="file"'))
    expect(form.indexOf('name="meta.kind"')).toBeLessThan(form.indexOf('type="file"'))
    const r = await a.uploadForm('dl', 'dev', 'dense.run', readFileSync(comp.runs.dense, 'utf8'))
    expect(r.status, r.text).toBe(303)
    const id = r.headers.get('location')!.split('/').pop()!
    expect((await waitDone(a, id)).state).toBe('scored')
  })
})

describe('the team page caches its topic lists per qrels version', () => {
  it('reads each public qrels once, and again after a new qrels version', async () => {
    const cache = server.ctx.topics
    await a.get('/team')
    const reads = cache.reads
    // dl and plain: one public phase each (the hidden test phase has no topic list).
    expect(reads).toBeGreaterThanOrEqual(2)
    await a.get('/team')
    await a.uploadApi('dl', 'dev', 'bm25.run', readFileSync(comp.runs.bm25, 'utf8'))
    await a.get('/team')
    expect(cache.reads).toBe(reads)
    const topicsOf = (page: string): string[] =>
      JSON.parse(
        (/data-topics="([^"]*)"/.exec(page)?.[1] ?? '[]').replace(/&quot;/g, '"'),
      ) as string[]
    expect(topicsOf((await a.get('/team')).text)).toHaveLength(15)
    const fd = new FormData()
    fd.set('track', 'dl')
    fd.set('phase', 'dev')
    fd.set('note', 'fewer topics')
    fd.set('qrels', new Blob(['q01 0 d1 1\nq02 0 d2 1\n']), 'qrels.txt')
    const added = await org.request(`/org/qrels?_csrf=${encodeURIComponent(org.csrf)}`, {
      method: 'POST',
      body: fd,
    })
    expect(added.status, added.text).toBe(200)
    const page = (await a.get('/team')).text
    expect(cache.reads).toBe(reads + 1)
    expect(topicsOf(page)).toEqual(['q01', 'q02'])
    await a.get('/team')
    expect(cache.reads).toBe(reads + 1)
  })
})
