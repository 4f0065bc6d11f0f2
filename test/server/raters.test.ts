/**
 * Human spot validation in-process (SQLite and Postgres): rater invites and the rater role's
 * confinement on every route, the sample drawn into assignments exactly as `drawSample` says
 * (double annotation to two distinct raters), the rater page (no judge scores, team or other
 * raters' choices; hostile text escaped), autosave with CSRF, skip with a reason, and the
 * results: the exported files give, through `trecscore judge agreement`, the numbers the page
 * shows, and `trecscore judge report` on the downloads writes the page's disclosure report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGREEMENT_STATISTICS, JUDGE_DIMENSIONS } from '../../src/internal.js'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { ciText, statText } from '../../src/server/raters/pages.js'
import { drawSample } from '../../src/server/raters/sample.js'
import { cli } from '../cli/helpers.js'
import { dbOptions } from './backend.js'
import { Client, joinTeam } from './client.js'
import { makeCompetition, type TestCompetition } from './helpers.js'
import {
  fillJudgedItems,
  HOSTILE_ANSWER,
  JUDGE_SCORE_MARKER,
  raterScore,
} from './raters-fixture.js'

const clock = new Date('2030-06-01T12:00:00Z')
let comp: TestCompetition
let server: RunningServer
let org: Client
let member: Client
const raters: Client[] = []
let fixture: Awaited<ReturnType<typeof fillJudgedItems>>
let sampleUrl = ''
let dir = ''

async function inviteRater(name: string): Promise<Client> {
  const page = await org.post('/org/validation/raters')
  expect(page.status).toBe(200)
  const link = new URL(/<code id="rater-invite">([^<]+)<\/code>/.exec(page.text)![1]!).pathname
  const c = new Client(server.app, name)
  expect((await c.get(link)).status).toBe(200)
  expect((await c.post(link, { name, password: `${name}-password` })).status).toBe(303)
  expect((await new Client(server.app, 'x').get(link)).status, 'single use').toBe(404)
  await c.get('/rate')
  return c
}

/** The assignment ids of a rater, in queue order, read from the pages (n links). */
async function queueOf(c: Client): Promise<string[]> {
  const first = await c.get('/rate')
  let at =
    first.status === 303
      ? first.headers.get('location')!
      : /href="(\/rate\/[^"]+)">Review your items/.exec(first.text)![1]!
  const ids: string[] = []
  // go back to the first item, then follow the next links
  for (;;) {
    const p = await c.get(at)
    const prev = /href="(\/rate\/[^"]+)" rel="prev"/.exec(p.text)
    if (!prev) break
    at = prev[1]!
  }
  for (;;) {
    ids.push(at.slice('/rate/'.length))
    const p = await c.get(at)
    const next = /href="(\/rate\/[^"]+)" rel="next"/.exec(p.text)
    if (!next) break
    at = next[1]!
  }
  return ids
}

beforeAll(async () => {
  comp = makeCompetition()
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
    now: () => clock,
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', clock)
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  member = await joinTeam(server.app, org, 'Some Team', 'mia')
  fixture = await fillJudgedItems(server.ctx.db, { track: 'dl', phase: 'dev', now: clock })
  await org.get('/org/validation')
  for (const name of ['rita', 'raj', 'rosa']) raters.push(await inviteRater(name))
  dir = mkdtempSync(join(tmpdir(), 'trecscore-raters-'))
}, 60_000)

afterAll(async () => {
  await server?.close()
  comp?.cleanup()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('spot validation', () => {
  it('refuses a bad design with its reason and draws nothing', async () => {
    await org.get('/org/validation')
    const r = await org.post('/org/validation/samples', {
      track: 'dl',
      phase: 'dev',
      size: '500',
      seed: '42',
      doubleShare: '0.25',
    })
    expect(r.status).toBe(400)
    expect(r.text).toContain('the sample size 500 is larger than the 24 judged items')
    expect(await server.ctx.db.selectFrom('rating_samples').select('id').execute()).toEqual([])
  })

  it('draws the sample drawSample gives, double items to two distinct raters', async () => {
    await org.get('/org/validation')
    const r = await org.post('/org/validation/samples', {
      track: 'dl',
      phase: 'dev',
      size: '12',
      seed: '7',
      doubleShare: '0.25',
    })
    expect(r.status).toBe(303)
    sampleUrl = r.headers.get('location')!
    const db = server.ctx.db
    const pool = await db.selectFrom('judged_items').selectAll().execute()
    const raterIds = (
      await db
        .selectFrom('raters')
        .innerJoin('users', 'users.id', 'raters.user_id')
        .select(['users.id', 'users.name'])
        .orderBy('raters.created_at')
        .orderBy('users.name')
        .execute()
    ).map((x) => x.id)
    const expected = drawSample(
      pool.map((p) => ({
        id: p.id,
        submission: p.submission_id,
        domain: p.domain,
        turnId: p.turn_id,
        turnDepth: p.turn_depth,
      })),
      { size: 12, seed: 7, doubleShare: 0.25, raters: raterIds },
    )
    const stored = await db
      .selectFrom('rating_assignments')
      .select(['item_id', 'rater_id', 'slot', 'position'])
      .execute()
    const norm = (xs: { itemId: string; raterId: string; slot: number; position: number }[]) =>
      xs.map((x) => `${x.raterId}:${x.position}:${x.itemId}:${x.slot}`).sort()
    expect(
      norm(
        stored.map((s) => ({
          itemId: s.item_id,
          raterId: s.rater_id,
          slot: s.slot,
          position: s.position,
        })),
      ),
    ).toEqual(norm([...expected.assignments]))
    expect(stored).toHaveLength(15) // 12 items, round(0.25·12) = 3 of them twice
    const doubled = expected.items.filter((x) => x.double).map((x) => x.itemId)
    expect(doubled).toHaveLength(3)
    for (const id of doubled) {
      const to = stored.filter((s) => s.item_id === id)
      expect(new Set(to.map((s) => s.rater_id)).size).toBe(2)
    }
    // 5 assignments each, every rater
    for (const id of raterIds) expect(stored.filter((s) => s.rater_id === id)).toHaveLength(5)
  })

  it('keeps raters on the rating pages and everybody else off them', async () => {
    const rita = raters[0]!
    expect((await rita.get('/')).headers.get('location')).toBe('/rate')
    for (const path of [
      '/boards/dl/dev',
      '/org',
      '/org/validation',
      sampleUrl,
      `${sampleUrl}/human-labels.jsonl`,
      '/team',
      `/submissions/${fixture.submissions[0]}`,
      '/api/v1/boards/dl/dev',
      '/api/v1/submissions',
    ])
      expect((await rita.get(path)).status, path).toBe(404)
    const ritaQueue = await queueOf(rita)
    const rajQueue = await queueOf(raters[1]!)
    expect(ritaQueue).toHaveLength(5)
    // another rater's assignment is a 404, for reading and for saving
    expect((await rita.get(`/rate/${rajQueue[0]}`)).status).toBe(404)
    const steal = await rita.request(`/rate/${rajQueue[0]}/score`, {
      method: 'POST',
      body: 'dimension=correctness&score=3',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': rita.csrf },
    })
    expect(steal.status).toBe(404)
    // members, organizers and anonymous visitors have no rating pages
    for (const c of [member, org, new Client(server.app, 'anon')]) {
      expect((await c.get('/rate')).status).toBe(404)
      expect((await c.get(`/rate/${ritaQueue[0]}`)).status).toBe(404)
    }
    for (const c of [member, new Client(server.app, 'anon')]) {
      expect((await c.get('/org/validation')).status).toBe(404)
      expect((await c.get(sampleUrl)).status).toBe(404)
      expect((await c.get(`${sampleUrl}/judgments.jsonl`)).status).toBe(404)
    }
    // an autosave without the CSRF token is refused
    const noCsrf = await rita.request(`/rate/${ritaQueue[0]}/score`, {
      method: 'POST',
      body: 'dimension=correctness&score=3',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(noCsrf.status).toBe(403)
    expect(await server.ctx.db.selectFrom('ratings').select('score').execute()).toEqual([])
  })

  it('shows the item and the rubric, never judge scores, teams or submissions', async () => {
    for (const c of raters)
      for (const id of await queueOf(c)) {
        const p = await c.get(`/rate/${id}`)
        expect(p.status).toBe(200)
        expect(p.text).not.toContain(JUDGE_SCORE_MARKER)
        expect(p.text).not.toContain(fixture.team)
        for (const s of fixture.submissions) expect(p.text).not.toContain(s)
        expect(p.text).not.toContain('<script>window')
        expect(p.text).toContain('The central claim is false, or most claims are false.')
        expect(p.headers.get('content-security-policy')).toContain("script-src 'self'")
        expect(HOSTILE_ANSWER).toContain('<script>window')
        expect(p.text).toContain(
          '&lt;script&gt;window.__pwned=1&lt;/script&gt;The answer &amp; more',
        )
      }
  })

  it('saves each choice at once, skips with a reason, and other raters never see them', async () => {
    let item = 0
    for (const [r, c] of raters.entries()) {
      const ids = await queueOf(c)
      for (const [i, id] of ids.entries()) {
        if (r === 2 && i === 4) {
          expect((await c.post(`/rate/${id}/skip`, { reason: '' })).status).toBe(400)
          expect(
            (await c.post(`/rate/${id}/skip`, { reason: 'answer is in <b>Dutch</b>' })).status,
          ).toBe(303)
          continue
        }
        for (const [d, dimension] of JUDGE_DIMENSIONS.entries()) {
          const res = await c.request(`/rate/${id}/score`, {
            method: 'POST',
            body: `dimension=${dimension}&score=${raterScore(r, item, d)}`,
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'x-csrf-token': c.csrf,
            },
          })
          expect(res.status, res.text).toBe(200)
          expect(JSON.parse(res.text)).toMatchObject({ saved: true, rated: d + 1 })
        }
        item++
      }
      // all done: /rate says so
      expect((await c.get('/rate')).text).toContain('All 5 of your items are done')
    }
    const bad = await raters[0]!.request(`/rate/${(await queueOf(raters[0]!))[0]}/score`, {
      method: 'POST',
      body: 'dimension=correctness&score=6',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-csrf-token': raters[0]!.csrf,
      },
    })
    expect(bad.status).toBe(400)
    expect(await server.ctx.db.selectFrom('ratings').select('score').execute()).toHaveLength(70)
  })

  it('shows the agreement `trecscore judge agreement` computes on the exported files', async () => {
    const page = await org.get(sampleUrl)
    expect(page.status).toBe(200)
    expect(page.text).toContain('answer is in &lt;b&gt;Dutch&lt;/b&gt;')
    for (const f of [
      'human-labels.jsonl',
      'judgments.jsonl',
      'human-a.jsonl',
      'human-b.jsonl',
      'judge-config.json',
    ]) {
      const r = await org.get(`${sampleUrl}/${f}`)
      expect(r.status, f).toBe(200)
      expect(r.headers.get('content-disposition')).toContain(f)
      writeFileSync(join(dir, f), r.text)
    }
    const labels = (await org.get(`${sampleUrl}/human-labels.jsonl`)).text.trim().split('\n')
    expect(labels).toHaveLength(70)
    expect(JSON.parse(labels[0]!)).toMatchObject({
      annotator: expect.stringMatching(/^rater-[123]$/),
    })
    for (const [id, human, judged] of [
      ['judge-human', 'human-labels.jsonl', 'judgments.jsonl'],
      ['human-human', 'human-a.jsonl', 'human-b.jsonl'],
    ] as const) {
      const out = cli(
        ['judge', 'agreement', '--human', human, '--judgments', judged, '--format', 'json'],
        { cwd: dir },
      )
      expect(out.code, out.stderr).toBe(0)
      const json = JSON.parse(out.stdout) as {
        dimensions: {
          dimension: string
          statistics: Record<string, Parameters<typeof statText>[1]>
        }[]
      }
      expect(json.dimensions.map((d) => d.dimension)).toEqual([...JUDGE_DIMENSIONS])
      const table = page.text.slice(page.text.indexOf(`id="${id}"`))
      let checked = 0
      for (const d of json.dimensions)
        for (const name of AGREEMENT_STATISTICS) {
          const s = d.statistics[name]!
          const cell = (part: string) =>
            new RegExp(
              `<tr data-statistic="${name}">.*?<td class="num" data-dimension="${d.dimension}" data-part="${part}">([^<]*)</td>`,
            ).exec(table)![1]
          expect(cell('value'), `${id} ${d.dimension} ${name}`).toBe(statText(name, s))
          expect(cell('ci')).toBe(ciText(name, s))
          checked++
        }
      expect(checked).toBe(40)
    }
  })

  it('gives the disclosure report `trecscore judge report` writes on the downloads', async () => {
    const md = await org.get(`${sampleUrl}/disclosure.md`)
    expect(md.status).toBe(200)
    const out = cli(
      [
        'judge',
        'report',
        'judgments.jsonl',
        '--human',
        'human-labels.jsonl',
        '--config',
        'judge-config.json',
        '--format',
        'markdown',
      ],
      { cwd: dir },
    )
    expect(out.code, out.stderr).toBe(0)
    // `judge report` on the downloads, then what only the platform knows
    expect(md.text.startsWith(out.stdout)).toBe(true)
    const platform = md.text.slice(out.stdout.length)
    expect(platform).toContain('## Human spot validation on the platform')
    expect(platform).toContain('size 12, seed 7')
    expect(platform).toContain('- double annotation: 3 item(s)')
    expect(platform).toContain('answer is in \\<b\\>Dutch\\<\\/b\\>')
    expect(platform).toContain('### Human against human (double-annotated share)')
    expect(md.text).toContain('## Invalid and missing judge outputs')
    const json = await org.get(`${sampleUrl}/disclosure.json`)
    const cliJson = cli(
      [
        'judge',
        'report',
        'judgments.jsonl',
        '--human',
        'human-labels.jsonl',
        '--config',
        'judge-config.json',
        '--format',
        'json',
      ],
      { cwd: dir },
    )
    const { spot_validation: sv, ...rest } = JSON.parse(json.text) as Record<string, unknown>
    expect(rest).toEqual(JSON.parse(cliJson.stdout))
    const hh = cli(
      [
        'judge',
        'agreement',
        '--human',
        'human-a.jsonl',
        '--judgments',
        'human-b.jsonl',
        '--format',
        'json',
      ],
      { cwd: dir },
    )
    expect((sv as { human_human: unknown }).human_human).toEqual(JSON.parse(hh.stdout))
    expect(sv).toMatchObject({ size: 12, seed: 7, double_annotated: 3, items: 12, labels: 70 })
    const pageView = await org.get(`${sampleUrl}/disclosure`)
    expect(pageView.status).toBe(200)
    expect(pageView.text).toContain('Judge disclosure report')
    expect((await raters[0]!.get(`${sampleUrl}/disclosure`)).status).toBe(404)
  })
})
