/**
 * RETECO tracks in a real browser (Debian's Chromium through playwright-core), against a
 * server listening on a free port with a 1a and a 2a track on test/fixtures/reteco:
 *
 * - an invalid 1a run posted through the team form is refused with the report `trecscore
 *   validate --preset reteco-1a` prints, and no submission is added;
 * - a 2a run posted as one file per domain (the form's multiple file input and a run name) is
 *   queued; the team page, left open, follows it live (its script polls
 *   `/api/v1/submissions` while a row is pending) from queued to scored with its value, without
 *   a reload; the board then shows it with the per-domain and turn-depth breakdowns, at the
 *   value `trecscore score --preset reteco-2a` gives.
 *
 * Scoring is held back by a gate (a worker wrapper that waits for a file before passing jobs to
 * the real worker), so the page is sure to see the queued state first. Without
 * /usr/bin/chromium the suite is skipped with a warning, except under CI.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from '../chromium.js'
import { cli } from '../cli/helpers.js'
import { Client, joinTeam } from './client.js'
import { makeCompetition, RETECO, ROOT, type TestCompetition } from './helpers.js'

const ARTIFACTS = join(ROOT, '.tmp', 'server')
const DATA = join(RETECO, 'data')

const chromiumHere = haveChromium('test/server/browser-reteco.test.ts', 'RETECO tracks in Chromium')

/** A worker that holds every job until `gate` exists, then hands it to the built worker. */
function gatedWorker(dir: string, gate: string): string {
  const file = join(dir, 'gated-worker.mjs')
  const real = pathToFileURL(join(ROOT, 'dist', 'server', 'worker', 'worker-main.js')).href
  writeFileSync(
    file,
    `import { existsSync } from 'node:fs'
const on = process.on.bind(process)
const open = () => new Promise((resolve) => {
  const t = setInterval(() => { if (existsSync(${JSON.stringify(gate)})) { clearInterval(t); resolve() } }, 25)
})
process.on = (event, listener) =>
  event === 'message' ? on('message', (m) => void open().then(() => listener(m))) : on(event, listener)
await import(${JSON.stringify(real)})
`,
  )
  return file
}

describe.skipIf(!chromiumHere)('RETECO tracks in Chromium', () => {
  let comp: TestCompetition
  let server: RunningServer
  let browser: Browser
  let url = ''
  let gate = ''
  const errors: string[] = []

  async function signedIn(member: string): Promise<Page> {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 800 } })
    const page = await ctx.newPage()
    page.on('pageerror', (e) => errors.push(String(e)))
    // The refused upload answers 422 (expected); the browser's own favicon request may 404.
    page.on('response', (r) => {
      if (r.status() >= 400 && r.status() !== 422 && !r.url().endsWith('/favicon.ico'))
        errors.push(`${r.status()} ${r.url()}`)
    })
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of (404|422)/.test(m.text())) errors.push(m.text())
    })
    await page.goto(`${url}/login`)
    await page.getByLabel('Name').fill(member)
    await page.getByLabel('Password').fill(`${member}-password`)
    await Promise.all([
      page.waitForURL(`${url}/`),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ])
    return page
  }

  async function submissionCount(): Promise<number> {
    const r = await server.ctx.db
      .selectFrom('submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(r.n)
  }

  beforeAll(async () => {
    comp = makeCompetition({ reteco: true, track2: true })
    mkdirSync(ARTIFACTS, { recursive: true })
    gate = join(comp.dir, 'gate-open')
    server = await startServer({
      competition: loadCompetition(comp.config),
      dataDir: comp.data,
      port: 0,
      workerModule: gatedWorker(comp.dir, gate),
    })
    url = server.url!
    await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
    const org = new Client(server.app, 'org')
    expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
    await joinTeam(server.app, org, 'Team Recor', 'rita')
    // Baselines (the DL track's bm25) are scored once the gate opens; they do not matter here.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    comp?.cleanup()
  })

  it('1a: an invalid run posted through the form shows the report of `trecscore validate --preset reteco-1a`; nothing is added', async () => {
    const page = await signedIn('rita')
    const before = await submissionCount()
    await page.goto(`${url}/team`)
    const form = page.locator('form:has(#up-reteco-1a-dev)')
    const bad = join(RETECO, 'runs', 'bad_5cols', 'bitcoin.trec')
    await form.locator('#up-reteco-1a-dev').setInputFiles(bad)
    await form.getByLabel('kind').selectOption('automatic')
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/team/submissions')),
      form.getByRole('button', { name: 'Submit' }).click(),
    ])
    expect(response.status()).toBe(422)
    await page.waitForLoadState('load')
    const report = await page.locator('pre.report').textContent()
    const out = cli(['validate', '--preset', 'reteco-1a', '--data', DATA, bad])
    expect(out.code).toBe(2)
    expect(report).toBe(out.stdout.split(bad).join('bitcoin.trec'))
    expect(report).toContain('bitcoin.trec:')
    expect(await page.locator('p.error').textContent()).toMatch(/^the run has \d+ error\(s\)/)
    expect(await submissionCount()).toBe(before)
  })

  it('2a: one file per domain through the form; the open team page follows it live from queued to scored; the board shows the breakdowns', async () => {
    const page = await signedIn('rita')
    await page.goto(`${url}/team`)
    const form = page.locator('form:has(#up-reteco-2a-dev)')
    const dir = join(RETECO, 'runs', '2a_random')
    const files = readdirSync(dir).map((f) => join(dir, f))
    expect(files).toHaveLength(3)
    await form.getByLabel('Run name').fill('recor-random')
    await form.getByLabel('kind').selectOption('automatic')
    await form.locator('#up-reteco-2a-dev').setInputFiles(files)
    await Promise.all([
      page.waitForURL(/\/submissions\/[\w-]+$/),
      form.getByRole('button', { name: 'Submit' }).click(),
    ])
    const id = new URL(page.url()).pathname.split('/').pop()!
    // The team page, opened while the run waits at the gate.
    await page.goto(`${url}/team`)
    const state = page.locator(`td[data-submission="${id}"]`)
    expect(await state.textContent()).toBe('queued')
    await page.evaluate('window.__sameDocument = true')
    writeFileSync(gate, '')
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe('scored')
    expect(await state.getAttribute('class')).toBe('state-scored')
    // Updated in place by the page's script: no reload happened.
    expect(await page.evaluate('window.__sameDocument')).toBe(true)
    const out = cli(['score', '--preset', 'reteco-2a', '--data', DATA, dir, '-f', 'json'])
    expect(out.code, out.stderr).toBe(0)
    const value = (JSON.parse(out.stdout) as { reports: { headline: { value: number } }[] })
      .reports[0]!.headline.value
    await expect
      .poll(() => page.locator(`td[data-primary="${id}"]`).textContent())
      .toBe(value.toFixed(4))
    await page.goto(`${url}/boards/reteco-2a/dev`)
    const row = page.locator('table.board').first().locator('tbody tr', { hasText: 'Team Recor' })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain(value.toFixed(4))
    expect(await page.locator('h2', { hasText: 'Per domain' }).count()).toBe(1)
    expect(await page.locator('h2', { hasText: 'By turn depth' }).count()).toBe(1)
    expect(await page.locator('table.board').last().locator('th').allTextContents()).toEqual([
      'Rank',
      'Team',
      'T1',
      'T2',
      'T3',
      'T4',
      'T5+',
    ])
    await page.screenshot({ path: join(ARTIFACTS, 'board-reteco-2a.png'), fullPage: true })
    expect(readFileSync(join(ARTIFACTS, 'board-reteco-2a.png')).subarray(1, 4).toString()).toBe(
      'PNG',
    )
  })

  it('no page script errors', () => {
    expect(errors).toEqual([])
  })
})
