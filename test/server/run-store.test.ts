/**
 * The run store contract (src/server/storage/run-store.ts), written once and run on every
 * backend: the directory store, and the database store on this run's database (SQLite in
 * project `main`, Postgres in project `postgres`: with `node scripts/pg-test-cluster.mjs -- npx
 * vitest run test/server/run-store.test.ts` all three run). A file and a directory go in and
 * come back byte for byte, and are removed; the database store streams 1 MiB chunks (a 5 MiB
 * file is 5 rows), refuses a run that does not match its sha256 or lost a chunk, keeps what a
 * job writes beside the run, and sweeps chunks whose submission row never came.
 */
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTeam } from '../../src/server/auth/accounts.js'
import { type Db, openDatabase } from '../../src/server/db/database.js'
import {
  DatabaseRunStore,
  RUN_CHUNK_BYTES,
  sweepOrphanChunks,
} from '../../src/server/storage/database-store.js'
import { DirectoryRunStore, filesUnder } from '../../src/server/storage/directory-store.js'
import { type RunStore, StoredRunDamaged } from '../../src/server/storage/run-store.js'
import { directoryDigest } from '../../src/server/storage/upload.js'
import { BACKEND, createTestDatabase } from './backend.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-runstore-'))
const data = join(tmp, 'data')
const scratch = join(tmp, 'scratch')
let db: Db

beforeAll(async () => {
  mkdirSync(data, { recursive: true })
  db = await openDatabase(
    BACKEND === 'postgres' ? { kind: 'postgres', url: await createTestDatabase() } : data,
  )
})

afterAll(async () => {
  await db?.destroy()
  rmSync(tmp, { recursive: true, force: true })
})

let n = 0
/** A fresh local copy to put (the directory store moves it). */
function localFile(bytes: Buffer): string {
  const p = join(tmp, `in-${n++}`)
  writeFileSync(p, bytes)
  return p
}

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex')

/** Deterministic bytes that are not all alike (so a misplaced chunk would show). */
function bytesOf(length: number, seed = 1): Buffer {
  const b = Buffer.alloc(length)
  let x = seed
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff
    b[i] = x >> 16
  }
  return b
}

/** A directory run as an upload leaves it: two domain files and a nested one. */
function localDir(): { path: string; files: Record<string, string>; sha256: string } {
  const p = join(tmp, `dir-${n++}`)
  const files = {
    'finance.txt': 'f1 Q0 d1 1 2.0 x\nf1 Q0 d2 2 1.0 x\n',
    'health.txt': 'h1 Q0 d9 1 3.5 x\n',
    'answers/empty.jsonl': '',
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(p, rel, '..'), { recursive: true })
    writeFileSync(join(p, rel), text)
  }
  const sha256 = directoryDigest(
    Object.entries(files).map(([rel, text]) => ({
      name: rel.split('/').pop()!,
      sha256: sha(text),
    })),
  )
  return { path: p, files, sha256 }
}

const stores: [string, () => RunStore][] = [
  ...(BACKEND === 'sqlite'
    ? [['directory', () => new DirectoryRunStore(data)] as [string, () => RunStore]]
    : []),
  [`database on ${BACKEND}`, () => new DatabaseRunStore(db)],
]

describe.each(stores)('the %s run store', (label, make) => {
  const database = label.startsWith('database')
  it('puts a file, opens it byte for byte, removes it', async () => {
    const store = make()
    const bytes = bytesOf(2_500_000)
    const file = await store.put('sub-file', 'run.txt', localFile(bytes))
    expect(file).toBe(database ? 'db:runs/sub-file/run.txt' : 'runs/sub-file/run.txt')
    expect(await store.files('sub-file')).toEqual([{ path: 'run.txt' }])
    const run = { id: 'sub-file', file, run_sha256: sha(bytes) }
    const opened = await store.open(run, scratch)
    expect(readFileSync(opened.path).equals(bytes)).toBe(true)
    // The database store's copy is in the scratch folder, and goes on release.
    if (database) expect(opened.path.startsWith(`${scratch}/`)).toBe(true)
    else expect(opened.path).toBe(join(data, 'runs', 'sub-file', 'run.txt'))
    await opened.release()
    expect(existsSync(opened.path)).toBe(!database)
    const streamed: Buffer[] = []
    for await (const b of store.read('sub-file', 'run.txt')) streamed.push(Buffer.from(b))
    expect(Buffer.concat(streamed).equals(bytes)).toBe(true)
    await store.remove('sub-file')
    expect(await store.files('sub-file')).toEqual([])
    if (database) await expect(store.open(run, scratch)).rejects.toThrow(StoredRunDamaged)
    else expect(existsSync(join(data, 'runs', 'sub-file'))).toBe(false)
    await store.remove('sub-file') // nothing left: nothing to do
  })

  it('puts a directory (nested, with an empty file) and opens the same tree', async () => {
    const store = make()
    const dir = localDir()
    const file = await store.put('sub-dir', 'per-domain', dir.path)
    expect(file).toBe(`${database ? 'db:' : ''}runs/sub-dir/per-domain`)
    expect((await store.files('sub-dir')).map((f) => f.path)).toEqual([
      'per-domain/answers/empty.jsonl',
      'per-domain/finance.txt',
      'per-domain/health.txt',
    ])
    const opened = await store.open({ id: 'sub-dir', file, run_sha256: dir.sha256 }, scratch)
    expect(filesUnder(opened.path)).toEqual(Object.keys(dir.files).sort())
    for (const [rel, text] of Object.entries(dir.files))
      expect(readFileSync(join(opened.path, rel), 'utf8')).toBe(text)
    await opened.release()
    await store.remove('sub-dir')
    expect(await store.files('sub-dir')).toEqual([])
  })

  it("keeps what a job writes beside the run (a judged track's judge-…/), and a second write replaces it", async () => {
    const store = make()
    const bytes = Buffer.from('q1 Q0 d1 1 1.0 r\n')
    const file = await store.put('sub-out', 'run.txt', localFile(bytes))
    const run = { id: 'sub-out', file, run_sha256: sha(bytes) }
    for (const text of ['first\n', 'second\n']) {
      const opened = await store.open(run, scratch)
      mkdirSync(join(opened.path, '..', 'judge-0123456789ab'), { recursive: true })
      writeFileSync(join(opened.path, '..', 'judge-0123456789ab', 'judgments.jsonl'), text)
      await opened.keepOutputs()
      await opened.release()
    }
    expect((await store.files('sub-out')).map((f) => f.path)).toEqual([
      'judge-0123456789ab/judgments.jsonl',
      'run.txt',
    ])
    const again = await store.open(run, scratch)
    expect(
      readFileSync(join(again.path, '..', 'judge-0123456789ab', 'judgments.jsonl'), 'utf8'),
    ).toBe('second\n')
    await again.release()
    await store.remove('sub-out')
  })
})

describe(`the database run store on ${BACKEND}: chunks, damage, orphans`, () => {
  async function chunks(id: string): Promise<{ seq: number; bytes: number }[]> {
    const rows = await db
      .selectFrom('run_chunks')
      .select(['seq', 'data'])
      .where('submission_id', '=', id)
      .orderBy('path')
      .orderBy('seq')
      .execute()
    return rows.map((r) => ({ seq: r.seq, bytes: r.data.length }))
  }

  it('streams in 1 MiB chunks: 5 MiB is 5 rows, one byte more is 6, an empty file is one empty row', async () => {
    const store = new DatabaseRunStore(db)
    const five = bytesOf(5 * RUN_CHUNK_BYTES, 7)
    await store.put('c5', 'run.txt', localFile(five))
    expect(await chunks('c5')).toEqual([0, 1, 2, 3, 4].map((seq) => ({ seq, bytes: 1 << 20 })))
    await store.put('c6', 'run.txt', localFile(bytesOf(5 * RUN_CHUNK_BYTES + 1, 8)))
    expect((await chunks('c6')).map((c) => c.bytes)).toEqual([
      1 << 20,
      1 << 20,
      1 << 20,
      1 << 20,
      1 << 20,
      1,
    ])
    await store.put('c0', 'run.txt', localFile(Buffer.alloc(0)))
    expect(await chunks('c0')).toEqual([{ seq: 0, bytes: 0 }])
    // Out again chunk by chunk, never longer than one.
    const sizes: number[] = []
    const h = createHash('sha256')
    for await (const b of store.read('c5', 'run.txt')) {
      sizes.push(b.length)
      h.update(b)
    }
    expect(sizes).toEqual([1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20])
    expect(h.digest('hex')).toBe(sha(five))
    for (const id of ['c5', 'c6', 'c0']) await store.remove(id)
  })

  it('refuses a run that does not match its sha256, or lost a chunk, and leaves no copy behind', async () => {
    const store = new DatabaseRunStore(db)
    const bytes = bytesOf(3 * RUN_CHUNK_BYTES + 10, 3)
    const file = await store.put('bad', 'run.txt', localFile(bytes))
    const own = join(tmp, 'scratch-bad')
    const run = { id: 'bad', file, run_sha256: sha(bytes) }
    // The recorded sha256 is another: refused.
    await expect(store.open({ ...run, run_sha256: sha('other') }, own)).rejects.toThrow(
      /the stored run is damaged: its sha256 is [0-9a-f]{12}…, the upload's was [0-9a-f]{12}…/,
    )
    expect(readdirSync(own)).toEqual([])
    // One byte changed in a chunk: refused.
    const changed = Buffer.from(bytesOf(RUN_CHUNK_BYTES, 99))
    await db
      .updateTable('run_chunks')
      .set({ data: changed })
      .where('submission_id', '=', 'bad')
      .where('seq', '=', 1)
      .execute()
    await expect(store.open(run, own)).rejects.toThrow(StoredRunDamaged)
    // A chunk gone: refused, naming the loss.
    await store.remove('bad')
    await store.put('bad', 'run.txt', localFile(bytes))
    const fine = await store.open(run, own)
    expect(readFileSync(fine.path).equals(bytes)).toBe(true)
    await fine.release()
    await db
      .deleteFrom('run_chunks')
      .where('submission_id', '=', 'bad')
      .where('seq', '=', 2)
      .execute()
    await expect(store.open(run, join(tmp, 'scratch-bad-2'))).rejects.toThrow(
      /lost chunks \(3 of 4\)/,
    )
    expect(readdirSync(join(tmp, 'scratch-bad-2'))).toEqual([])
    await store.remove('bad')
  })

  it('sweeps chunks with no submission row once they are an hour old, and nothing else', async () => {
    const now = new Date('2026-12-03T18:00:00.000Z')
    const old = new DatabaseRunStore(db, () => new Date(now.getTime() - 61 * 60_000))
    const recent = new DatabaseRunStore(db, () => new Date(now.getTime() - 59 * 60_000))
    const team = await createTeam(db, 'Sweep team', now)
    await old.put('orphan-old', 'run.txt', localFile(bytesOf(RUN_CHUNK_BYTES + 5)))
    await recent.put('orphan-new', 'run.txt', localFile(bytesOf(100)))
    const file = await old.put('with-row', 'run.txt', localFile(bytesOf(100)))
    await db
      .insertInto('submissions')
      .values({
        id: 'with-row',
        team_id: team,
        user_id: null,
        track: 'dl',
        phase: 'dev',
        state: 'scored',
        reason: null,
        charged: 1,
        original_name: 'run.txt',
        file,
        run_sha256: sha(bytesOf(100)),
        bytes: 100,
        metadata: '{}',
        attempts: 1,
        created_at: now.toISOString(),
        started_at: null,
        finished_at: null,
      })
      .execute()
    expect(await sweepOrphanChunks(db, now)).toBe(1)
    const left = await db
      .selectFrom('run_chunks')
      .select('submission_id')
      .distinct()
      .orderBy('submission_id')
      .execute()
    expect(left.map((r) => r.submission_id)).toEqual(['orphan-new', 'with-row'])
    expect(await sweepOrphanChunks(db, now)).toBe(0)
    await old.remove('orphan-new')
    await old.remove('with-row')
  })
})
