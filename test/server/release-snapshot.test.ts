/**
 * Signed release snapshots, in-process on real SQLite with the real scoring worker: releasing
 * the hidden phase writes a snapshot whose board equals the API's, whose manifest lists every
 * file with its sha256 and is signed with the server's Ed25519 key; per-query files wait for
 * the embargo, and a second snapshot adds them; tampering, extra files and a foreign key are
 * caught, by the library, by `trecscore serve admin verify-release` and by openssl/sha256sum.
 */
import { spawnSync } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import {
  listSnapshots,
  verifySnapshot,
  writeDueSnapshots,
} from '../../src/server/release-snapshot.js'
import { cli } from '../cli/helpers.js'
import { dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { CANARIES, makeCompetition, type TestCompetition } from './helpers.js'

let comp: TestCompetition
let server: RunningServer
let org: Client
let a: Client
let anon: Client
let clock = new Date('2030-06-01T00:00:00Z')
const EMBARGO = '2031-01-01T00:00:00Z'

function files(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(dir, join(prefix, d.name)) : [join(prefix, d.name)],
  )
}

beforeAll(async () => {
  comp = makeCompetition({
    config: {
      phases: [
        { id: 'dev', start: '2020-01-01T00:00:00Z', end: '2099-01-01T00:00:00Z' },
        {
          id: 'test',
          start: '2020-01-01T00:00:00Z',
          end: '2099-01-01T00:00:00Z',
          hidden: true,
          perQueryEmbargo: EMBARGO,
        },
      ],
    },
  })
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
    now: () => clock,
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  a = await joinTeam(server.app, org, 'Team A', 'alice')
  anon = new Client(server.app, 'anonymous')
  const r = await a.uploadApi('dl', 'test', 'dense.run', readFileSync(comp.runs.dense))
  expect(r.status).toBe(202)
  expect((await waitDone(a, r.body.id!)).state).toBe('scored')
  for (
    let i = 0;
    i < 600 &&
    (
      await server.ctx.db
        .selectFrom('submissions')
        .select('id')
        .where('state', '!=', 'scored')
        .execute()
    ).length;
    i++
  )
    await new Promise((resolve) => setTimeout(resolve, 50))
}, 120_000)

afterAll(async () => {
  await server?.close()
  comp?.cleanup()
})

describe('release snapshots', () => {
  it('nothing is written before release', async () => {
    expect(await writeDueSnapshots(server.ctx)).toEqual([])
    expect(existsSync(join(comp.data, 'releases'))).toBe(false)
  })

  it('releasing writes a signed snapshot: the board as served, provenance, no per-query values before the embargo', async () => {
    expect((await org.post('/org/phases/test/release')).status).toBe(303)
    const list = listSnapshots(comp.data, 'test')
    expect(list).toHaveLength(1)
    const s = list[0]!
    expect(s).toMatchObject({
      schema: 'trecscore.release-snapshot/1',
      phase: 'test',
      number: 1,
      perQueryIncluded: false,
      perQueryEmbargo: '2031-01-01T00:00:00.000Z',
      writtenAt: clock.toISOString(),
      qrelsVersions: { dl: 1, plain: 1 },
    })
    expect(verifySnapshot(s.dir)).toEqual([])
    const board = (await anon.json<unknown>('/api/v1/boards/dl/test')).body
    expect(JSON.parse(readFileSync(join(s.dir, 'boards', 'dl.json'), 'utf8'))).toEqual(board)
    const listed = readFileSync(join(s.dir, 'MANIFEST.sha256'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => l.slice(66))
    expect(listed).toEqual([...listed].sort())
    expect(new Set(listed)).toEqual(new Set(files(s.dir).filter((f) => !f.startsWith('MANIFEST'))))
    const entries = readdirSync(join(s.dir, 'entries', 'dl')).sort()
    expect(entries).toEqual(['001.json', '002.json'])
    const first = JSON.parse(
      readFileSync(join(s.dir, 'entries', 'dl', '001.json'), 'utf8'),
    ) as Record<string, unknown>
    expect(first).toMatchObject({ position: 1, rank: 1, perQuery: null, qrelsVersion: 1 })
    expect((first['provenance'] as { command: string }).command).toContain(
      'trecscore score --preset dl21-passage',
    )
    // Hidden qrels never leave the server: the snapshot holds their sha256, not their lines.
    for (const f of files(s.dir))
      for (const canary of CANARIES)
        expect(readFileSync(join(s.dir, f), 'utf8'), f).not.toContain(canary)
    // The organizer page lists it.
    expect((await org.get('/org')).text).toContain(s.manifestSha256)
    // Nothing more is due until the embargo passes.
    expect(await writeDueSnapshots(server.ctx)).toEqual([])
  })

  it('after the embargo a second snapshot adds the per-query values; the first stays', async () => {
    clock = new Date('2031-01-02T00:00:00Z')
    const written = await writeDueSnapshots(server.ctx)
    expect(written).toHaveLength(1)
    const [one, two] = listSnapshots(comp.data, 'test')
    expect(one!.perQueryIncluded).toBe(false)
    expect(two).toMatchObject({ number: 2, perQueryIncluded: true })
    expect(verifySnapshot(one!.dir)).toEqual([])
    expect(verifySnapshot(two!.dir)).toEqual([])
    const e = JSON.parse(readFileSync(join(two!.dir, 'entries', 'dl', '001.json'), 'utf8')) as {
      perQuery: { query: string; values: Record<string, number> }[]
      submissionId: string
    }
    const row = await server.ctx.db
      .selectFrom('scores')
      .select('per_query')
      .where('submission_id', '=', e.submissionId)
      .orderBy('version', 'desc')
      .executeTakeFirstOrThrow()
    expect(e.perQuery).toEqual(JSON.parse(row.per_query))
    expect(e.perQuery.map((q) => q.query)).toEqual([
      'q16',
      'q17',
      'q18',
      'q19',
      'q20',
      'q21',
      'q22',
      'q23',
      'q24',
      'q25',
      'q26',
      'q27',
      'q28',
      'q29',
      'q30',
    ])
    expect(await writeDueSnapshots(server.ctx)).toEqual([])
  })

  it('a changed byte, an added file or another key is caught', () => {
    const s = listSnapshots(comp.data, 'test')[1]!
    const board = join(s.dir, 'boards', 'dl.json')
    const original = readFileSync(board)
    writeFileSync(board, original.toString().replace('"rank": 1', '"rank": 2'))
    expect(verifySnapshot(s.dir)).toEqual(['boards/dl.json: sha256 differs from MANIFEST.sha256'])
    writeFileSync(board, original)
    appendFileSync(join(s.dir, 'extra.txt'), 'x')
    expect(verifySnapshot(s.dir)).toEqual(['extra.txt: not listed in MANIFEST.sha256'])
    const other = generateKeyPairSync('ed25519')
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString()
    expect(verifySnapshot(s.dir, other)).toContain(
      'MANIFEST.sha256.sig: the signature does not match MANIFEST.sha256 under this key',
    )
  })

  it('`trecscore serve admin verify-release`: exit 0 when valid, 2 with every problem listed', () => {
    const [one, two] = listSnapshots(comp.data, 'test')
    const ok = cli(['serve', 'admin', 'verify-release', one!.dir])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toBe(`${one!.dir}: valid (signature and every file's sha256 match)\n`)
    const bad = cli([
      'serve',
      'admin',
      'verify-release',
      two!.dir,
      '--public-key',
      join(one!.dir, 'release-ed25519.pub.pem'),
    ])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe(
      `${two!.dir}: extra.txt: not listed in MANIFEST.sha256\n${two!.dir}: NOT valid (1 problem)\n`,
    )
    const usage = cli(['serve', 'admin', 'verify-release'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('admin verify-release needs one snapshot folder')
  })

  it('standard tools agree: sha256sum -c and openssl pkeyutl -verify', () => {
    const s = listSnapshots(comp.data, 'test')[0]!
    const sum = spawnSync('sha256sum', ['-c', '--quiet', 'MANIFEST.sha256'], {
      cwd: s.dir,
      encoding: 'utf8',
    })
    if (sum.error) console.warn('sha256sum not found: skipped')
    else expect(sum.status, sum.stdout + sum.stderr).toBe(0)
    writeFileSync(
      join(comp.dir, 'sig.bin'),
      Buffer.from(readFileSync(join(s.dir, 'MANIFEST.sha256.sig'), 'utf8').trim(), 'base64'),
    )
    const v = spawnSync(
      'openssl',
      [
        'pkeyutl',
        '-verify',
        '-pubin',
        '-inkey',
        join(s.dir, 'release-ed25519.pub.pem'),
        '-rawin',
        '-in',
        join(s.dir, 'MANIFEST.sha256'),
        '-sigfile',
        join(comp.dir, 'sig.bin'),
      ],
      { encoding: 'utf8' },
    )
    if (v.error) console.warn('openssl not found: skipped')
    else expect(v.status, v.stdout + v.stderr).toBe(0)
  })
})
