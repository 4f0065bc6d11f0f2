/**
 * Organizer controls of a judged track (judging/controls.ts), end to end against the scripted
 * judge mock: a paused track and phase starts no judging job (the mock is asked nothing) until
 * it is resumed; a score is written under the judge config's scorer version; re-judging under
 * the same config queues nothing; after a restart with another judge config, re-judging adds a
 * second score version (the first is kept) and the board shows the new one. A budget holds the
 * estimates of submissions not yet judged: a second upload is refused while the first waits (and
 * taken once it is judged and cached), and of two uploads at once only one is taken.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatFixed } from '../../src/report/printf.js'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { TRECSCORE_VERSION } from '../../src/server/scoring.js'
import { type ScriptedServer, startServer as startMock } from '../generation/judge/server.js'
import { dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, ROOT, type TestCompetition } from './helpers.js'
import { EXAMPLE_ANSWERS, JUDGE_KEY_ENV, judgedTrack } from './judge-helpers.js'
import { until } from './scoring-helpers.js'

const ANSWERS = EXAMPLE_ANSWERS

/** Between one and two estimates of the answers below (checked by the test). */
const HELD_BUDGET = 0.035

let mock: ScriptedServer
let comp: TestCompetition
let server: RunningServer
let org: Client
let team: Client

function config(judgeConfig?: string) {
  return {
    limits: { perDay: 50 },
    upload: { maxLineBytes: 65536 },
    tracks: [
      judgedTrack(
        'gen',
        'reteco-2b',
        mock.url,
        judgeConfig ? { config: judgeConfig } : {},
        'Generation',
      ),
      judgedTrack(
        'held',
        'reteco-2b',
        mock.url,
        { budget: { perTeam: HELD_BUDGET }, ...(judgeConfig ? { config: judgeConfig } : {}) },
        'Generation with a budget',
      ),
    ],
  }
}

async function start(): Promise<void> {
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
  })
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  await org.get('/org')
  // The team's session is in the database: the same cookies, on the new server.
  const again = new Client(server.app, 'ann')
  for (const [k, v] of team.cookies) again.cookies.set(k, v)
  again.csrf = team.csrf
  team = again
}

function act(action: string) {
  return org.post(`/org/judging/gen/dev/${action}`)
}

async function scores(id: string) {
  return server.ctx.db
    .selectFrom('scores')
    .select(['version', 'scorer_version', 'primary_value'])
    .where('submission_id', '=', id)
    .orderBy('version')
    .execute()
}

beforeAll(async () => {
  process.env[JUDGE_KEY_ENV] = 'sk-test'
  mock = await startMock((r) => ({
    kind: 'score' as const,
    score: (Number.parseInt(r.hash.slice(0, 2), 16) % 5) + 1,
  }))
  comp = makeCompetition({ config: config() })
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  const o = new Client(server.app, 'org')
  expect((await o.login('org', 'organizer-secret-1')).status).toBe(303)
  team = await joinTeam(server.app, o, 'Team A', 'ann')
  org = o
}, 60_000)

afterAll(async () => {
  await server?.close()
  await mock?.close()
  comp?.cleanup()
  delete process.env[JUDGE_KEY_ENV]
})

describe('judging controls', () => {
  let id = ''
  const hashA = () => server.ctx.competition.tracks[0]!.judging!.configHash.slice(0, 12)

  it('a paused track and phase asks the judge nothing until it is resumed', async () => {
    await org.get('/org')
    const paused = await act('pause')
    expect(paused.text).toContain('Judging of gen / dev paused')
    expect((await org.get('/org')).text).toMatch(/<td>gen<\/td><td>dev<\/td><td>paused<\/td>/)
    const before = mock.total()
    const up = await team.uploadApiFiles('gen', 'dev', 'answers', ANSWERS)
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    id = up.body.id!
    await new Promise((r) => setTimeout(r, 2500))
    const row = await server.ctx.db
      .selectFrom('submissions')
      .select(['state', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ state: 'queued', attempts: 0 })
    expect(mock.total()).toBe(before)
    expect((await act('resume')).text).toContain('Judging of gen / dev resumed')
    expect((await waitDone(team, id, 60_000)).state).toBe('scored')
    expect(mock.total()).toBeGreaterThan(before)
    expect(await scores(id)).toEqual([
      {
        version: 1,
        scorer_version: `${TRECSCORE_VERSION}+judge.${hashA()}`,
        primary_value: expect.any(Number),
      },
    ])
  }, 90_000)

  it('re-judging under the same config queues nothing', async () => {
    const r = await act('rejudge')
    expect(r.text).toContain('0 submission(s) queued; 1 judged under this config already')
    expect(await scores(id)).toHaveLength(1)
  })

  it('under a new judge config, re-judging adds a score version and keeps the old one', async () => {
    const old = hashA()
    const file = join(comp.dir, 'judge-v2.json')
    const base = JSON.parse(
      readFileSync(join(ROOT, 'data', 'judge', 'reteco-judge-v1.json'), 'utf8'),
    )
    writeFileSync(
      file,
      JSON.stringify({ ...base, name: `${base.name}-v2`, model: 'judge-model-v2' }),
    )
    const c = JSON.parse(readFileSync(comp.config, 'utf8'))
    writeFileSync(comp.config, JSON.stringify({ ...c, ...config(file) }))
    await server.close()
    await start()
    const fresh = hashA()
    expect(fresh).not.toBe(old)
    const before = mock.total()
    const r = await act('rejudge')
    expect(r.text).toContain(
      `scorer version ${TRECSCORE_VERSION}+judge.${fresh}: 1 submission(s) queued`,
    )
    const two = await until(
      'the re-judged score',
      async () => {
        const s = await scores(id)
        return s.length === 2 ? s : undefined
      },
      60_000,
    )
    expect(two.map((s) => [s.version, s.scorer_version])).toEqual([
      [1, `${TRECSCORE_VERSION}+judge.${old}`],
      [2, `${TRECSCORE_VERSION}+judge.${fresh}`],
    ])
    // A new config: a new cache, every request asked again.
    expect(mock.total()).toBeGreaterThan(before)
    const board = (
      await team.json<{ judge: { configHash: string }; entries: { primary: number }[] }>(
        '/api/v1/boards/gen/dev',
      )
    ).body
    expect(board.judge.configHash.slice(0, 12)).toBe(fresh)
    expect(board.entries[0]!.primary).toBe(two[1]!.primary_value)
  }, 120_000)
})

describe('budgets hold the estimates of submissions not yet judged', () => {
  // Answers no earlier test judged (the judgment cache would make them free).
  const fresh = Object.fromEntries(
    Object.entries(ANSWERS).map(([f, t]) => [f, t.replaceAll('tomato', 'tomato vine')]),
  )
  const heldAct = (action: string) => org.post(`/org/judging/held/dev/${action}`)

  it('a second upload is refused while the first waits, and taken once it is judged', async () => {
    await org.get('/org')
    expect((await heldAct('pause')).text).toContain('Judging of held / dev paused')
    const before = mock.total()
    const first = await team.uploadApiFiles('held', 'dev', 'first', fresh)
    expect(first.status, JSON.stringify(first.body)).toBe(202)
    const row = await server.ctx.db
      .selectFrom('submissions')
      .select(['state', 'judge_estimate'])
      .where('id', '=', first.body.id!)
      .executeTakeFirstOrThrow()
    expect(row.state).toBe('queued')
    const e = row.judge_estimate!
    // The budget fits one estimate, not two.
    expect(e).toBeGreaterThan(HELD_BUDGET / 2)
    expect(e).toBeLessThan(HELD_BUDGET)
    const second = await team.uploadApiFiles('held', 'dev', 'second', fresh)
    expect(second.status).toBe(403)
    const money = (x: number) => `${formatFixed(x, 4)} USD`
    expect(second.body.error).toBe(
      `judging this submission would cost an estimated ${money(e)}; with 0.0000 USD spent and ${money(e)} held by submissions not yet judged it would exceed your team's judge budget for track held in phase dev (${money(HELD_BUDGET)}); nothing was stored, charged or sent to the judge`,
    )
    expect(mock.total()).toBe(before)
    // Judged: the first counts by its recorded cost; the same answers are now cached (free).
    expect((await heldAct('resume')).text).toContain('Judging of held / dev resumed')
    expect((await waitDone(team, first.body.id!, 60_000)).state).toBe('scored')
    const third = await team.uploadApiFiles('held', 'dev', 'third', fresh)
    expect(third.status, JSON.stringify(third.body)).toBe(202)
    const held = await server.ctx.db
      .selectFrom('submissions')
      .select('judge_estimate')
      .where('id', '=', third.body.id!)
      .executeTakeFirstOrThrow()
    expect(held.judge_estimate).toBe(0)
    expect((await waitDone(team, third.body.id!, 60_000)).state).toBe('scored')
  }, 120_000)

  it('two uploads at once: one is taken, the other refused', async () => {
    const other = Object.fromEntries(
      Object.entries(ANSWERS).map(([f, t]) => [f, t.replaceAll('tomato', 'tomato bush')]),
    )
    expect((await heldAct('pause')).text).toContain('Judging of held / dev paused')
    const both = await Promise.all(
      ['x', 'y'].map((n) => team.uploadApiFiles('held', 'dev', n, other)),
    )
    expect(both.map((u) => u.status).sort()).toEqual([202, 403])
    expect(both.find((u) => u.status === 403)!.body.error).toMatch(
      / held by submissions not yet judged /,
    )
    expect((await heldAct('resume')).text).toContain('Judging of held / dev resumed')
    const taken = both.find((u) => u.status === 202)!.body.id!
    expect((await waitDone(team, taken, 60_000)).state).toBe('scored')
  }, 120_000)
})
