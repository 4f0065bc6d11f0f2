/**
 * The database layer on both backends (src/server/db): `--db` parsing and its errors, and the
 * same migrations and queries giving the same values on SQLite and on Postgres (floats, 64-bit
 * sizes, counts, byte-order text sorting, autoincrement ids, ON CONFLICT, RETURNING,
 * transactions). The Postgres half needs TRECSCORE_TEST_PG (see backend.ts); without it, it is
 * reported as skipped with the reason. The rest of the server suite runs on both through
 * vitest's `postgres` project (vitest.config.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isTrecscoreError } from '../../src/errors/trecscore-error.js'
import { AccountError, createTeam } from '../../src/server/auth/accounts.js'
import { type Db, dialectOf, openDatabase, parseDbLocation } from '../../src/server/db/database.js'
import { cli } from '../cli/helpers.js'
import { createTestDatabase, PG_ADMIN_URL, PG_SKIP_REASON } from './backend.js'
import { makeCompetition, ROOT } from './helpers.js'
import { SQLITE_ONLY } from './sqlite-only.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-db-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

async function failure(p: Promise<unknown>): Promise<{ message: string; exitCode: number }> {
  try {
    await p
  } catch (e) {
    if (isTrecscoreError(e)) return { message: e.message, exitCode: e.exitCode }
    throw e
  }
  throw new Error('expected a failure')
}

describe('the server suite on both backends', () => {
  it('every test/server file that starts a server takes its database from backend.ts, or is listed SQLite-only with a reason', () => {
    const dir = join(ROOT, 'test', 'server')
    const files = readdirSync(dir).filter((f) => f.endsWith('.test.ts'))
    expect(files.length).toBeGreaterThan(8)
    for (const f of files) {
      const key = `test/server/${f}`
      const text = readFileSync(join(dir, f), 'utf8')
      const starts = /startServer\(|'serve'/.test(text)
      const usesBackend = /\bdb(Options|Args)\(/.test(text)
      expect(
        key in SQLITE_ONLY || !starts || usesBackend,
        `${key} starts a server without dbOptions()/dbArgs() from backend.ts`,
      ).toBe(true)
    }
    for (const key of Object.keys(SQLITE_ONLY))
      expect(files.includes(key.replace('test/server/', '')), key).toBe(true)
  })
})

describe('--db', () => {
  it('defaults to board.sqlite in the data folder; sqlite:PATH and postgres:// URLs select a backend', () => {
    expect(parseDbLocation(undefined, '/srv/board')).toEqual({
      kind: 'sqlite',
      file: '/srv/board/board.sqlite',
    })
    expect(parseDbLocation('sqlite:/tmp/x.db', '/srv/board')).toEqual({
      kind: 'sqlite',
      file: '/tmp/x.db',
    })
    for (const url of [
      'postgres://u:p@db.example:5433/board',
      'postgresql://u@127.0.0.1/board',
      'postgres:///board?host=/run/postgresql',
    ])
      expect(parseDbLocation(url, '/srv/board')).toEqual({ kind: 'postgres', url })
  })
  it('a bad value is one line, exit 2, naming both forms and never the password', () => {
    const cases: [string, string][] = [
      [
        'mysql://u@h/db',
        "--db: 'mysql://u@h/db' is not a database: expected sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE",
      ],
      [
        'sqlite:',
        '--db sqlite: needs a file: sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE',
      ],
      [
        'postgres://u:secret@h:5432',
        "--db: 'postgres://u:***@h:5432' names no database: expected sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE",
      ],
      [
        'postgres://u:secret@h:99999/db',
        "--db: 'postgres://u:***@h:99999/db' is not a valid URL: expected sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE",
      ],
    ]
    for (const [value, message] of cases) {
      let got: unknown
      try {
        parseDbLocation(value, '/srv/board')
      } catch (e) {
        got = e
      }
      expect(isTrecscoreError(got), value).toBe(true)
      expect((got as Error).message).toBe(message)
      expect((got as { exitCode: number }).exitCode).toBe(2)
    }
  })
  it('an unreachable Postgres is one line naming the URL (password hidden) and the cause, exit 1', async () => {
    const f = await failure(
      openDatabase(parseDbLocation('postgres://u:secret@127.0.0.1:1/board', tmp)),
    )
    expect(f.exitCode).toBe(1)
    expect(f.message).toBe(
      'postgres://u:***@127.0.0.1:1/board: cannot open the database (connect ECONNREFUSED 127.0.0.1:1)',
    )
  })
  it('`trecscore serve` and `serve admin create-organizer`: a bad --db is one line on stderr, exit 2; an unreachable one, exit 1', () => {
    const comp = makeCompetition()
    try {
      const bad = cli(['serve', '--config', comp.config, '--data', comp.data, '--db', 'nope'])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toBe(
        "trecscore: --db: 'nope' is not a database: expected sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE\n",
      )
      const down = cli([
        'serve',
        'admin',
        'create-organizer',
        '--data',
        comp.data,
        '--db',
        'postgres://postgres@127.0.0.1:1/board',
        '--name',
        'alice',
      ])
      expect(down.code).toBe(1)
      expect(down.stderr).toBe(
        'trecscore: postgres://postgres@127.0.0.1:1/board: cannot open the database (connect ECONNREFUSED 127.0.0.1:1)\n',
      )
      expect(down.stdout).toBe('')
    } finally {
      comp.cleanup()
    }
  })
})

/** The same checks on each backend; the expected values are literals, so both must agree. */
function sameOnEveryBackend(name: 'sqlite' | 'postgres', open: () => Promise<Db>): void {
  let db: Db
  const now = '2027-03-01T00:00:00.000Z'
  afterAll(async () => {
    await db?.destroy()
  })

  it('migrates an empty database and finds it migrated on reopen', async () => {
    db = await open()
    expect(dialectOf(db)).toBe(name)
    const tables = (await db.introspection.getTables())
      .map((t) => t.name)
      .filter((n) => !n.startsWith('kysely_'))
      .sort()
    expect(tables).toEqual([
      'api_tokens',
      'invites',
      'judge_claims',
      'judge_judgments',
      'judge_meta',
      'judged_items',
      'judging_pauses',
      'qrels_versions',
      'rate_hits',
      'rater_invites',
      'raters',
      'rating_assignments',
      'rating_samples',
      'ratings',
      'releases',
      'rescores',
      'run_chunks',
      'scores',
      'selections',
      'sessions',
      'submissions',
      'teams',
      'topic_lists',
      'users',
    ])
  })

  it('stores and returns the same values: doubles, sizes past 2^31, counts as numbers', async () => {
    await db
      .insertInto('teams')
      .values({ id: 't1', name: 'Team 1', is_baseline: 0, created_at: now })
      .execute()
    await db
      .insertInto('submissions')
      .values({
        id: 's1',
        team_id: 't1',
        user_id: null,
        track: 'dl',
        phase: 'dev',
        state: 'scored',
        reason: null,
        charged: 1,
        original_name: 'run.txt',
        file: 'runs/s1/run.txt',
        run_sha256: 'ab',
        bytes: 5_000_000_123,
        metadata: '{}',
        attempts: 1,
        created_at: now,
        started_at: null,
        finished_at: null,
      })
      .execute()
    const row = await db
      .selectFrom('submissions')
      .select(['bytes', 'charged', 'attempts', 'reason'])
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ bytes: 5_000_000_123, charged: 1, attempts: 1, reason: null })
    const count = await db
      .selectFrom('submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(count.n).toBe(1)
    const team = await db.selectFrom('teams').selectAll().executeTakeFirstOrThrow()
    expect(team).toEqual({
      id: 't1',
      name: 'Team 1',
      is_baseline: 0,
      anonymous: 0,
      created_at: now,
    })
  })

  it('autoincrement score ids, RETURNING, exact doubles and max()', async () => {
    const values = [0.1 + 0.2, 1 / 3, null]
    const ids: number[] = []
    for (const [i, v] of values.entries()) {
      const r = await db
        .insertInto('scores')
        .values({
          submission_id: 's1',
          version: i + 1,
          // One score per (submission, qrels version, scorer version): vary the scorer.
          scorer_version: `v${i}`,
          primary_value: v,
          columns: '{}',
          per_query: '[]',
          notes: '{}',
          provenance: '{}',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      ids.push(r.id)
    }
    expect(ids).toEqual([1, 2, 3])
    const back = await db
      .selectFrom('scores')
      .select(['primary_value', 'qrels_version'])
      .orderBy('id')
      .execute()
    expect(back).toEqual(values.map((v) => ({ primary_value: v, qrels_version: 1 })))
    const max = await db
      .selectFrom('scores')
      .select((eb) => eb.fn.max('version').as('v'))
      .executeTakeFirstOrThrow()
    expect(max.v).toBe(3)
  })

  it('text sorts in byte order (not the locale), ties and ISO instants alike', async () => {
    const names = ['b', 'B', 'a', '_x', 'é', 'Z', 'a b', 'ab']
    for (const [i, n] of names.entries())
      await db
        .insertInto('teams')
        .values({ id: `o${i}`, name: n, is_baseline: 0, created_at: now })
        .execute()
    const sorted = await db
      .selectFrom('teams')
      .select('name')
      .where('id', 'like', 'o%')
      .orderBy('name')
      .execute()
    expect(sorted.map((r) => r.name)).toEqual(['B', 'Z', '_x', 'a', 'a b', 'ab', 'b', 'é'])
    // Names are unique case-sensitively, as SQLite's binary collation has it.
    await expect(
      db
        .insertInto('teams')
        .values({ id: 'dup', name: 'b', is_baseline: 0, created_at: now })
        .execute(),
    ).rejects.toThrow()
  })

  it('INSERT … ON CONFLICT: do nothing and do update', async () => {
    const release = (at: string) =>
      db
        .insertInto('releases')
        .values({ phase: 'test', released_at: at, released_by: 'u' })
        .onConflict((oc) => oc.doNothing())
        .execute()
    await release('2027-04-01T00:00:00.000Z')
    await release('2027-05-01T00:00:00.000Z')
    expect(await db.selectFrom('releases').select('released_at').execute()).toEqual([
      { released_at: '2027-04-01T00:00:00.000Z' },
    ])
    const select = (at: string) =>
      db
        .insertInto('selections')
        .values({ team_id: 't1', track: 'dl', phase: 'dev', submission_id: 's1', selected_at: at })
        .onConflict((oc) =>
          oc.columns(['team_id', 'track', 'phase']).doUpdateSet({ selected_at: at }),
        )
        .execute()
    await select('2027-04-01T00:00:00.000Z')
    await select('2027-05-01T00:00:00.000Z')
    expect(await db.selectFrom('selections').select('selected_at').execute()).toEqual([
      { selected_at: '2027-05-01T00:00:00.000Z' },
    ])
  })

  it('a transaction that throws leaves nothing behind; one that ends commits', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('releases')
          .values({ phase: 'gone', released_at: now, released_by: 'u' })
          .execute()
        throw new Error('abort')
      }),
    ).rejects.toThrow('abort')
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('releases')
        .values({ phase: 'kept', released_at: now, released_by: 'u' })
        .execute()
    })
    const phases = await db.selectFrom('releases').select('phase').orderBy('phase').execute()
    expect(phases.map((p) => p.phase)).toEqual(['kept', 'test'])
  })

  it('concurrent read-then-write transactions run one at a time, as on SQLite: ten next versions, no conflict', async () => {
    const next = () =>
      db.transaction().execute(async (trx) => {
        const last = await trx
          .selectFrom('scores')
          .select((eb) => eb.fn.max('version').as('v'))
          .where('submission_id', '=', 's1')
          .executeTakeFirstOrThrow()
        await new Promise((r) => setTimeout(r, 5))
        await trx
          .insertInto('scores')
          .values({
            submission_id: 's1',
            version: Number(last.v ?? 0) + 1,
            scorer_version: `v${Number(last.v ?? 0) + 1}`,
            primary_value: 0.5,
            columns: '{}',
            per_query: '[]',
            notes: '{}',
            provenance: '{}',
            created_at: now,
          })
          .execute()
      })
    await Promise.all(Array.from({ length: 10 }, next))
    const versions = await db
      .selectFrom('scores')
      .select('version')
      .where('submission_id', '=', 's1')
      .orderBy('version')
      .execute()
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1))
  })

  it('a name with a NUL character (Postgres text cannot hold one) is refused on both alike', async () => {
    await expect(createTeam(db, 'a\u0000b', new Date(now))).rejects.toThrow(
      new AccountError('a name may not contain a NUL character'),
    )
    await expect(createTeam(db, 'Team \u00e9\u{1F600}', new Date(now))).resolves.toMatch(/./)
  })

  it('a foreign key to a missing row is refused', async () => {
    await expect(
      db
        .insertInto('invites')
        .values({
          id: 'i1',
          team_id: 'no-such-team',
          token_hash: 'h',
          created_by: 'nobody',
          created_at: now,
          used_at: null,
        })
        .execute(),
    ).rejects.toThrow()
  })
}

describe('sqlite: the same queries and values', () => {
  sameOnEveryBackend('sqlite', async () => {
    const db = await openDatabase(parseDbLocation(`sqlite:${join(tmp, 'same.sqlite')}`, tmp))
    await db.destroy()
    return openDatabase(parseDbLocation(`sqlite:${join(tmp, 'same.sqlite')}`, tmp))
  })
})

if (PG_ADMIN_URL) {
  describe('postgres: the same queries and values', () => {
    sameOnEveryBackend('postgres', async () => {
      const url = await createTestDatabase()
      const db = await openDatabase(parseDbLocation(url, tmp))
      await db.destroy()
      return openDatabase(parseDbLocation(url, tmp))
    })
  })
} else {
  process.stderr.write(
    `test/server: the Postgres half of the server suite is SKIPPED: ${PG_SKIP_REASON}\n`,
  )
  describe.skip(`postgres: SKIPPED, ${PG_SKIP_REASON}`, () => {
    sameOnEveryBackend('postgres', () => Promise.reject(new Error('no Postgres')))
  })
}
