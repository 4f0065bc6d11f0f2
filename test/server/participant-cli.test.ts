/**
 * `trecscore submit` and `trecscore board` (the built CLI) against a listening test server on
 * loopback: an invalid run is refused locally with the validate report and nothing uploaded; a
 * valid one is uploaded, waited for, and appears on the printed board.
 */
import { execFile } from 'node:child_process'
import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import {
  acceptInvite,
  createApiToken,
  createInvite,
  createOrganizer,
  createTeam,
} from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { cli } from '../cli/helpers.js'
import { dbOptions } from './backend.js'
import { makeCompetition, RETECO, ROOT, runSubset } from './helpers.js'

const comp = makeCompetition({ track2: true })
let server: RunningServer
let token = ''

function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin', 'trecscore.js'), ...args],
      { cwd: comp.dir },
      (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    )
  })
}

beforeAll(async () => {
  const competition = loadCompetition(comp.config)
  server = await startServer({
    competition: {
      ...competition,
      tracks: competition.tracks.map((t) => ({ ...t, baselines: {} })),
    },
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
    port: 0,
  })
  const now = new Date()
  const org = await createOrganizer(server.ctx.db, 'org', 'organizer-password', now)
  const team = await createTeam(server.ctx.db, 'CLI team', now)
  const user = await acceptInvite(
    server.ctx.db,
    await createInvite(server.ctx.db, team, org, now),
    'carol',
    'carol-password',
    now,
  )
  token = (await createApiToken(server.ctx.db, user, team, 'cli', now)).token
}, 60_000)

afterAll(async () => {
  await server?.close()
  comp.cleanup()
})

describe('trecscore submit / board', () => {
  it('refuses an invalid run locally with the validate report; nothing reaches the server', async () => {
    writeFileSync(join(comp.dir, 'bad.run'), 'q01 Q0 d1 1 x t\n')
    const r = await run([
      'submit',
      '--server',
      server.url!,
      '--token',
      token,
      '--track',
      'dl',
      'bad.run',
    ])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe(cli(['validate', 'bad.run'], { cwd: comp.dir }).stdout)
    expect(r.stderr).toBe('trecscore: the run has errors; nothing was uploaded\n')
    expect(await server.ctx.db.selectFrom('submissions').selectAll().execute()).toEqual([])
  })
  it('uploads a valid run, waits for its score and prints the board', async () => {
    writeFileSync(
      join(comp.dir, 'dense.run'),
      runSubset(comp.runs.dense, () => true),
    )
    writeFileSync(join(comp.dir, 'meta.json'), JSON.stringify({ kind: 'automatic' }))
    const r = await run([
      'submit',
      '--server',
      server.url!,
      '--token',
      token,
      '--track',
      'dl',
      '--phase',
      'dev',
      '--meta',
      'meta.json',
      '--wait',
      'dense.run',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const id = /^submitted (\S+) \(queued\)$/m.exec(r.stdout)![1]!
    const score = await server.ctx.db
      .selectFrom('scores')
      .select('columns')
      .where('submission_id', '=', id)
      .executeTakeFirstOrThrow()
    const ndcg = (JSON.parse(score.columns) as Record<string, number>)['nDCG@10']!
    expect(r.stdout).toContain(`  nDCG@10\t${ndcg}\n`)
    const b = await run(['board', '--server', server.url!, '--track', 'dl'])
    expect(b.code).toBe(0)
    const lines = b.stdout.split('\n')
    expect(lines[0]).toMatch(/^rank\s+team\s+run\s+nDCG@10\s+AP\s+RR$/)
    expect(lines[1]).toMatch(
      new RegExp(`^1\\s+CLI team\\s+dense\\.run\\s+${ndcg.toFixed(4).replace('.', '\\.')}\\s`),
    )
    const hidden = await run(['board', '--server', server.url!, '--track', 'dl', '--phase', 'test'])
    expect(hidden.stdout).toBe('dl / test: hidden until the organizers release it\n')
    const wrong = await run([
      'submit',
      '--server',
      server.url!,
      '--token',
      'tsk_nope',
      '--track',
      'dl',
      'dense.run',
    ])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toMatch(/refused the run \(HTTP 401\): invalid or revoked API token/)
  })
  it('a folder is a per-domain run (RETECO Track 2): every file checked locally, all uploaded together, scored as `trecscore score`', async () => {
    const dir = join(comp.dir, 'recor-random')
    cpSync(join(RETECO, 'runs', '2a_random'), dir, { recursive: true })
    writeFileSync(join(comp.dir, 'meta.json'), JSON.stringify({ kind: 'automatic' }))
    const args = ['submit', '--server', server.url!, '--token', token, '--track', 'reteco-2a']
    const r = await run([...args, '--meta', 'meta.json', '--wait', 'recor-random/'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const rep = cli([
      'score',
      '--preset',
      'reteco-2a',
      '--data',
      join(RETECO, 'data'),
      dir,
      '-f',
      'json',
    ])
    const value = (JSON.parse(rep.stdout) as { reports: { headline: { value: number } }[] })
      .reports[0]!.headline.value
    expect(r.stdout).toContain(`  nDCG@10\t${value}\n`)
    const b = await run(['board', '--server', server.url!, '--track', 'reteco-2a'])
    expect(b.stdout.split('\n')[1]).toMatch(/^1\s+CLI team\s+recor-random\s+0\.0907\s/)
    // A bad file in the folder: refused locally, with that file's report.
    const bad = join(comp.dir, 'recor-bad')
    cpSync(dir, bad, { recursive: true })
    writeFileSync(join(bad, 'drones.trec'), 'ex_4102_turn_1 Q0 d1 1 x t\n')
    const refused = await run([...args, '--meta', 'meta.json', 'recor-bad'])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toContain('recor-bad/drones.trec:1:')
    expect(refused.stderr).toBe('trecscore: the run has errors; nothing was uploaded\n')
  })
})
