/**
 * Fault test of the web process itself: `trecscore serve` (the real CLI, a child process) is
 * SIGKILLed while a team's upload is half received. After a restart on the same --data folder:
 * no half submission appears anywhere (database, API, stored runs, temp files), and every state
 * from before is back (the scored submission, its board, the team's API token).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../../src/server/app.js'
import {
  acceptInvite,
  createApiToken,
  createInvite,
  createOrganizer,
  createTeam,
} from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { dbArgs, dbOptions } from './backend.js'
import { makeCompetition, type TestCompetition } from './helpers.js'

const ROOT = join(import.meta.dirname, '..', '..')
let comp: TestCompetition
let token = ''
let child: ChildProcess | null = null
/** `--db URL` on Postgres (see backend.ts), nothing on SQLite. */
let db: string[] = []

/** Start `trecscore serve` on a free port; resolves with its base URL once it listens. */
function serve(): Promise<{ url: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'trecscore.js'),
        'serve',
        '--config',
        comp.config,
        '--data',
        comp.data,
        ...db,
        '--port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}${err}`)), 60_000)
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = / on (http:\/\/[^ ]+) /.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ url: m[1]!, proc })
      }
    })
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString()
    })
    proc.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}: ${out}${err}`))
    })
  })
}

function killed(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
    proc.once('exit', () => resolve())
    proc.kill('SIGKILL')
  })
}

const auth = () => ({ Authorization: `Bearer ${token}` })

beforeAll(async () => {
  comp = makeCompetition()
  // Accounts and one scored submission, made in-process, then the server stops.
  // On Postgres `serve` scores only with --workers (a web process only, by default).
  db = await dbArgs(comp.data)
  if (db.length > 0) db.push('--workers', '1')
  const s = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
  })
  const now = new Date()
  const org = await createOrganizer(s.ctx.db, 'org', 'organizer-secret-1', now)
  const team = await createTeam(s.ctx.db, 'Team K', now)
  const user = await acceptInvite(
    s.ctx.db,
    await createInvite(s.ctx.db, team, org, now),
    'kim',
    'kim-password-1',
    now,
  )
  token = (await createApiToken(s.ctx.db, user, team, 'ci', now)).token
  await s.close()
}, 120_000)

afterAll(async () => {
  if (child) await killed(child)
  comp?.cleanup()
})

describe('SIGKILL of the server', () => {
  it('during an upload: no half submission ever appears; after restart every earlier state is back', async () => {
    let { url, proc } = await serve()
    child = proc
    const up = await fetch(`${url}/api/v1/submissions?track=dl&phase=dev&name=dense.run`, {
      method: 'POST',
      headers: { ...auth(), 'X-Trecscore-Metadata': '{"kind":"automatic"}' },
      body: readFileSync(comp.runs.dense),
    })
    expect(up.status).toBe(202)
    const id = ((await up.json()) as { id: string }).id
    let state = ''
    for (let i = 0; i < 600 && state !== 'scored'; i++) {
      state = (
        (await (await fetch(`${url}/api/v1/submissions/${id}`, { headers: auth() })).json()) as {
          state: string
        }
      ).state
      if (state !== 'scored') await new Promise((r) => setTimeout(r, 50))
    }
    expect(state).toBe('scored')
    const board = await (await fetch(`${url}/api/v1/boards/dl/dev`)).text()
    const list = await (await fetch(`${url}/api/v1/submissions`, { headers: auth() })).text()
    const stored = readdirSync(join(comp.data, 'runs')).sort()
    expect(stored).toContain(id)

    // A second upload: half of a run is sent, then the stream stalls; the server is killed.
    const run = readFileSync(comp.runs.hybrid)
    const half = run.subarray(0, Math.floor(run.length / 2))
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(half)
      },
    })
    const pending = fetch(`${url}/api/v1/submissions?track=dl&phase=dev&name=hybrid.run`, {
      method: 'POST',
      headers: { ...auth(), 'X-Trecscore-Metadata': '{"kind":"automatic"}' },
      body,
      duplex: 'half',
    } as RequestInit).catch((e: unknown) => e)
    // Each server process receives uploads in its own folder in tmp/ (storage/tmp.ts).
    const tmp = join(comp.data, 'tmp')
    const inFlight = (): string[] =>
      existsSync(tmp) ? readdirSync(tmp, { recursive: true, encoding: 'utf8' }) : []
    const files = (): string[] => inFlight().filter((f) => f.split(sep).length > 1)
    for (let i = 0; i < 400 && files().length === 0; i++)
      await new Promise((r) => setTimeout(r, 25))
    expect(files().length, 'the upload was being received').toBeGreaterThan(0)
    await killed(proc)
    expect(await pending).toBeInstanceOf(Error)

    ;({ url, proc } = await serve())
    child = proc
    expect(files(), 'temp files of the killed upload are gone').toEqual([])
    expect(inFlight(), "only the new process's own, empty folder").toHaveLength(1)
    expect(
      readdirSync(join(comp.data, 'runs')).sort(),
      'no run stored for the killed upload',
    ).toEqual(stored)
    expect(
      await (await fetch(`${url}/api/v1/submissions`, { headers: auth() })).text(),
      'the token still works; the same submissions',
    ).toBe(list)
    expect(await (await fetch(`${url}/api/v1/boards/dl/dev`)).text(), 'the same board').toBe(board)
    await killed(proc)
    child = null
  }, 180_000)
})
