#!/usr/bin/env node
import { randomBytes } from 'node:crypto'
/**
 * `npm run demo:board`: a demo competition on the bundled demo collection (demo/), served by
 * `trecscore serve` on http://127.0.0.1:8080 (PORT to change it). Dev phase: qrels of q01–q15,
 * live board; test phase: q16–q30, hidden until an organizer releases it. One organizer, two
 * teams with API tokens, and the bm25 run as the organizers' baseline. Prints URLs, sign-ins
 * and ready-to-run upload commands. Data goes to a fresh temp folder (or the folder given as
 * the first argument). Ctrl-C stops it.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const server = await import(join(root, 'dist', 'server', 'index.js'))

const dir = process.argv[2]
  ? resolve(process.argv[2])
  : mkdtempSync(join(tmpdir(), 'trecscore-demo-board-'))
const trackDir = join(dir, 'demo-track')
mkdirSync(trackDir, { recursive: true })
const qrels = readFileSync(join(root, 'demo', 'qrels.txt'), 'utf8')
  .split('\n')
  .filter(Boolean)
const topic = (line) => Number(line.slice(1, 3))
writeFileSync(
  join(trackDir, 'qrels-dev.txt'),
  qrels.filter((l) => topic(l) <= 15).join('\n') + '\n',
)
writeFileSync(
  join(trackDir, 'qrels-test.txt'),
  qrels.filter((l) => topic(l) > 15).join('\n') + '\n',
)
const now = Date.now()
const config = {
  name: 'trecscore demo board',
  description:
    'A demo competition on the synthetic demo collection (30 queries). Dev phase: q01–q15 with a live board; test phase: q16–q30, hidden until release.',
  phases: [
    {
      id: 'dev',
      title: 'Development',
      start: new Date(now - 86400e3).toISOString(),
      end: new Date(now + 30 * 86400e3).toISOString(),
    },
    {
      id: 'test',
      title: 'Test (hidden)',
      start: new Date(now - 86400e3).toISOString(),
      end: new Date(now + 30 * 86400e3).toISOString(),
      hidden: true,
    },
  ],
  tracks: [
    {
      id: 'passages',
      title: 'Passage ranking (DL21 conventions)',
      preset: 'dl21-passage',
      data: 'demo-track',
      qrels: { dev: 'qrels-dev.txt', test: 'qrels-test.txt' },
      primary: 'nDCG@10',
      columns: ['nDCG@10', 'AP', 'RR', 'R@100'],
      baselines: { bm25: join(root, 'demo', 'runs', 'bm25.run') },
    },
  ],
  limits: { perDay: 10, perPhase: 20, concurrent: 2, counts: 'best' },
  metadata: [
    { name: 'kind', label: 'Run type', type: 'enum', values: ['automatic', 'manual'] },
    { name: 'uses_llm', label: 'Uses an LLM', type: 'boolean' },
    { name: 'description', label: 'Description', type: 'string', required: false, maxLength: 500 },
  ],
}
const configFile = join(dir, 'competition.json')
writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n')

const competition = server.loadCompetition(configFile)
const port = process.env.PORT === undefined ? 8080 : Number(process.env.PORT)
const running = await server.startServer({ competition, dataDir: join(dir, 'board'), port })
const db = running.ctx.db
const at = new Date()
const secret = () => randomBytes(12).toString('base64url')
const orgPassword = secret()
const orgId = await server.createOrganizer(db, 'organizer', orgPassword, at)
const teams = []
for (const [team, member] of [
  ['Team Dense', 'dana'],
  ['Team Hybrid', 'hugo'],
]) {
  const teamId = await server.createTeam(db, team, at)
  const invite = await server.createInvite(db, teamId, orgId, at)
  const password = secret()
  const userId = await server.acceptInvite(db, invite, member, password, at)
  const { token } = await server.createApiToken(db, userId, teamId, 'demo', at)
  teams.push({
    team,
    member,
    password,
    token,
    invite: await server.createInvite(db, teamId, orgId, at),
  })
}
const url = running.url
const upload = (t, run) =>
  `curl -s -X POST -H 'Authorization: Bearer ${t.token}' -H 'X-Trecscore-Metadata: {"kind":"automatic","uses_llm":false}' --data-binary @demo/runs/${run}.run '${url}/api/v1/submissions?track=passages&phase=dev&name=${run}.run'`
process.stdout.write(`
trecscore demo board: ${url}   (data: ${dir}; Ctrl-C stops)

  Overview      ${url}/
  Dev board     ${url}/boards/passages/dev       (bm25 baseline is being scored)
  Test board    ${url}/boards/passages/test      (hidden until released on ${url}/org)
  Board JSON    ${url}/api/v1/boards/passages/dev

Sign in at ${url}/login
  organizer     organizer / ${orgPassword}
${teams.map((t) => `  ${t.team.padEnd(13)} ${t.member} / ${t.password}    API token: ${t.token}\n                extra invite link: ${url}/invite/${t.invite}`).join('\n')}

Upload a run from the repository root (validated first; an invalid run is refused and not charged):
  ${upload(teams[0], 'dense')}
  ${upload(teams[1], 'hybrid')}
`)
const stop = () => void running.close().then(() => process.exit(0))
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
