/**
 * `trecscore serve backup` / `serve restore`: backup → restore into a fresh database and data
 * folder → the boards' JSON is identical; the same across backends (SQLite → Postgres in the
 * `main` project, Postgres → SQLite in the `postgres` one, when a test Postgres is there); a
 * non-empty target is refused without --force; a tampered file is refused and nothing is
 * restored; the judgment cache's judgments and facts are kept, its claims left out.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { type Competition, loadCompetition } from '../../src/server/config/load.js'
import { cli } from '../cli/helpers.js'
import { BACKEND, createTestDatabase, dbArgs, dbOptions, PG_ADMIN_URL } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, type TestCompetition } from './helpers.js'

let comp: TestCompetition
let competition: Competition
let backupFile = ''
const boards: Record<string, string> = {}
const BOARDS = ['/api/v1/boards/dl/dev', '/api/v1/boards/plain/dev', '/api/v1/boards/dl/test']

async function boardsOf(server: RunningServer): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  for (const b of BOARDS) {
    const r = await org.get(b)
    expect(r.status, `${b}: ${r.text}`).toBe(200)
    out[b] = r.text
  }
  return out
}

beforeAll(async () => {
  comp = makeCompetition()
  competition = loadCompetition(comp.config)
  const server = await startServer({
    competition,
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
  })
  try {
    await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
    const org = new Client(server.app, 'org')
    expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
    const team = await joinTeam(server.app, org, 'Team "A"', 'alice')
    const ids: string[] = []
    for (const [track, run] of [
      ['dl', comp.runs.dense],
      ['dl', comp.runs.hybrid],
      ['plain', comp.runs.bm25],
    ] as const) {
      const r = await team.uploadApi(track, 'dev', `${track}-${ids.length}`, readFileSync(run))
      expect(r.status, JSON.stringify(r.body)).toBe(202)
      ids.push(r.body.id!)
      expect((await waitDone(team, r.body.id!)).state).toBe('scored')
    }
    Object.assign(boards, await boardsOf(server))
    // A judgment cache row of each table (the Postgres backend's cache; empty tables on SQLite).
    const db = server.ctx.db
    await db
      .insertInto('judge_judgments')
      .values({ ...JUDGMENT, config_hash: 'c'.repeat(64), key: 'k1' })
      .execute()
    await db
      .insertInto('judge_meta')
      .values({ config_hash: 'c'.repeat(64), key: 'structured_rejected:x', value: 'HTTP 400' })
      .execute()
    await db
      .insertInto('judge_claims')
      .values({
        config_hash: 'c'.repeat(64),
        key: 'k2',
        owner: 'h:1:x',
        host: 'h',
        pid: 1,
        expires_at: 5_000_000_000_000,
      })
      .execute()
  } finally {
    await server.close()
  }
  backupFile = join(comp.dir, 'board.backup.gz')
  const r = cli([
    'serve',
    'backup',
    '--data',
    comp.data,
    ...(await dbArgs(comp.data)),
    '--out',
    backupFile,
  ])
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  expect(r.stdout).toMatch(/: \d+ row\(s\), [1-9]\d* file\(s\)\n$/)
}, 120_000)

afterAll(() => comp?.cleanup())

const JUDGMENT = {
  dimension: 'correctness',
  turn_id: 't1',
  status: 'ok' as const,
  score: 4,
  rationale: 'fine',
  reason: null,
  attempts: 1,
  prompt_tokens: 120,
  completion_tokens: 12,
  content: '{"score":4}',
  system_fingerprint: null,
  model: 'm',
  request: '{}',
  created_at: '2026-12-03T12:00:00.000Z',
}

async function restoredBoards(data: string, db: { db?: string }): Promise<Record<string, string>> {
  const server = await startServer({ competition, dataDir: data, ...db })
  try {
    return await boardsOf(server)
  } finally {
    await server.close()
  }
}

describe('serve backup / restore', () => {
  it('restores into a fresh database and data folder: every board identical', async () => {
    const data = join(comp.dir, 'restored')
    const r = cli(['serve', 'restore', '--data', data, ...(await dbArgs(data)), backupFile])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /restored into .*: \d+ row\(s\), \d+ file\(s\), every sha256 checked\n$/,
    )
    expect(await restoredBoards(data, await dbOptions(data))).toEqual(boards)
    // The stored runs came back byte for byte.
    const run = readFileSync(comp.runs.dense)
    const server = await startServer({ competition, dataDir: data, ...(await dbOptions(data)) })
    try {
      const rows = await server.ctx.db
        .selectFrom('submissions')
        .select('file')
        .where('original_name', '=', 'dl-0')
        .execute()
      expect(rows).toHaveLength(1)
      expect(readFileSync(join(data, rows[0]!.file)).equals(run)).toBe(true)
      // The cached judgment and fact came back; the claim (a lease of a run) was left out.
      expect(await server.ctx.db.selectFrom('judge_judgments').selectAll().execute()).toEqual([
        { ...JUDGMENT, config_hash: 'c'.repeat(64), key: 'k1' },
      ])
      expect(await server.ctx.db.selectFrom('judge_meta').select('value').execute()).toEqual([
        { value: 'HTTP 400' },
      ])
      expect(await server.ctx.db.selectFrom('judge_claims').selectAll().execute()).toEqual([])
    } finally {
      await server.close()
    }
  }, 60_000)

  it('holds the judgment cache rows but no claim', () => {
    const tables = new Set(
      gunzipSync(readFileSync(backupFile))
        .toString('utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"table":'))
        .map((l) => (JSON.parse(l) as { table: string }).table),
    )
    expect(tables.has('judge_judgments')).toBe(true)
    expect(tables.has('judge_meta')).toBe(true)
    expect(tables.has('judge_claims')).toBe(false)
  })

  it('refuses a non-empty target without --force (one line, exit 1); --force replaces it', async () => {
    const args = ['serve', 'restore', '--data', comp.data, ...(await dbArgs(comp.data))]
    const r = cli([...args, backupFile])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /^trecscore: .*: not empty \(table \w+ has rows\); restore into an empty database and data folder, or add --force to replace everything\n$/,
    )
    const f = cli([...args, '--force', backupFile])
    expect(f.stderr).toBe('')
    expect(f.code).toBe(0)
    expect(await restoredBoards(comp.data, await dbOptions(comp.data))).toEqual(boards)
  }, 60_000)

  it('a tampered stored file is refused by its sha256, and nothing is restored', async () => {
    const lines = gunzipSync(readFileSync(backupFile)).toString('utf8').split('\n')
    const i = lines.findIndex((l) => l.startsWith('{"file":') && l.includes('"chunk"'))
    expect(i).toBeGreaterThan(0)
    const rec = JSON.parse(lines[i]!) as { file: string; chunk: string }
    const bytes = Buffer.from(rec.chunk, 'base64')
    bytes[0] = bytes[0]! ^ 1
    lines[i] = JSON.stringify({ ...rec, chunk: bytes.toString('base64') })
    const bad = join(comp.dir, 'tampered.gz')
    writeFileSync(bad, gzipSync(lines.join('\n')))
    const data = join(comp.dir, 'tampered')
    const args = ['serve', 'restore', '--data', data, ...(await dbArgs(data))]
    const r = cli([...args, bad])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      new RegExp(
        `^trecscore: .*tampered.gz: ${rec.file}: sha256 mismatch .*; nothing restored\\n$`,
      ),
    )
    // Nothing committed: the same target takes the good backup without --force.
    const ok = cli([...args, backupFile])
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
  }, 60_000)

  it('a cut-short backup is refused', async () => {
    const all = gunzipSync(readFileSync(backupFile)).toString('utf8').split('\n')
    const cut = join(comp.dir, 'cut.gz')
    writeFileSync(cut, gzipSync(all.slice(0, Math.floor(all.length / 2)).join('\n')))
    const data = join(comp.dir, 'cut')
    const r = cli(['serve', 'restore', '--data', data, ...(await dbArgs(data)), cut])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/cut short|no end record/)
  })

  it.skipIf(!PG_ADMIN_URL)(
    `restores across backends (${BACKEND === 'sqlite' ? 'SQLite → Postgres' : 'Postgres → SQLite'}): boards identical`,
    async () => {
      const data = join(comp.dir, 'other-backend')
      const db =
        BACKEND === 'sqlite' ? await createTestDatabase() : `sqlite:${join(data, 'board.sqlite')}`
      const r = cli(['serve', 'restore', '--data', data, '--db', db, backupFile])
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(await restoredBoards(data, { db })).toEqual(boards)
    },
    60_000,
  )
})
