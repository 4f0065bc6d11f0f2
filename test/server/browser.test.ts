/**
 * The leaderboard server in a real browser: the organizer starts the demo config
 * (`scripts/demo-board.mjs`, the script behind `npm run demo:board`, on a free port), and
 * Debian's Chromium driven by playwright-core signs in as its teams and its organizer:
 * an invalid upload shows every problem with line numbers and changes no count; a valid upload
 * goes from queued to scored and onto the board; hostile names render as text; a cross-site
 * form post is refused; the second team cannot open the first team's submission; test scores
 * are invisible before release and visible after. Screenshots go to .tmp/ (the README's
 * copies in docs/ are refreshed from there by hand).
 *
 * Without /usr/bin/chromium the suite is skipped with a warning, except under CI.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from '../chromium.js'
import { ROOT } from './helpers.js'

const ARTIFACTS = join(ROOT, '.tmp', 'server')
const HOSTILE = '<img src=x onerror="window.__pwned=1">Evil & Co'

const chromiumHere = haveChromium('test/server/browser.test.ts', 'leaderboard server in Chromium')

interface Demo {
  readonly url: string
  readonly organizer: { name: string; password: string }
  readonly teams: { team: string; member: string; password: string }[]
}

/** Start `scripts/demo-board.mjs` on a free port and read its URL and sign-ins from what it prints. */
async function startDemo(dir: string): Promise<{ child: ChildProcess; demo: Demo }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo-board.mjs'), dir], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`demo board did not start: ${out}`)), 60_000)
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      if (/Upload a run[\s\S]*hybrid/.test(out)) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`demo board exited with ${code}: ${out}`)))
  })
  const url = /trecscore demo board: (http:\/\/\S+)/.exec(out)![1]!
  const org = /organizer\s+(\S+) \/ (\S+)/.exec(out)!
  const teams = [...out.matchAll(/^ {2}(Team \w+)\s+(\w+) \/ (\S+)\s+API token/gm)].map((m) => ({
    team: m[1]!,
    member: m[2]!,
    password: m[3]!,
  }))
  expect(teams).toHaveLength(2)
  return { child, demo: { url, organizer: { name: org[1]!, password: org[2]! }, teams } }
}

describe.skipIf(!chromiumHere)('leaderboard server in Chromium', () => {
  let dir: string
  let child: ChildProcess
  let demo: Demo
  let browser: Browser
  const errors: string[] = []
  const contexts: Record<string, BrowserContext> = {}
  let devSubmission = ''

  async function as(who: 'dana' | 'hugo' | 'organizer'): Promise<Page> {
    if (!contexts[who]) {
      const ctx = await browser.newContext({ viewport: { width: 1000, height: 720 } })
      const page = await ctx.newPage()
      const team = demo.teams.find((t) => t.member === who)
      const cred = team ? { name: team.member, password: team.password } : demo.organizer
      await page.goto(`${demo.url}/login`)
      await page.getByLabel('Name').fill(cred.name)
      await page.getByLabel('Password').fill(cred.password)
      await Promise.all([
        page.waitForURL(`${demo.url}/`),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ])
      await page.close()
      contexts[who] = ctx
    }
    const page = await contexts[who]!.newPage()
    page.on('pageerror', (e) => errors.push(String(e)))
    page.on('console', (m) => {
      // A 403, 404 or 422 page is expected where the test asks for one; anything else is an error.
      if (m.type() === 'error' && !/status of (403|404|422)/.test(m.text())) errors.push(m.text())
    })
    return page
  }

  async function upload(page: Page, phase: 'dev' | 'test', file: string): Promise<void> {
    await page.goto(`${demo.url}/team`)
    const form = page.locator(`form:has(#up-passages-${phase})`)
    await form.locator(`#up-passages-${phase}`).setInputFiles(file)
    await form.getByLabel('Run type').selectOption('automatic')
    await Promise.all([
      page.waitForLoadState('load'),
      form.getByRole('button', { name: 'Submit' }).click(),
    ])
  }

  async function submissionCount(page: Page): Promise<number> {
    await page.goto(`${demo.url}/team`)
    return page.locator('table').first().locator('tbody tr a[href^="/submissions/"]').count()
  }

  async function waitScored(page: Page): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const state = (await page.locator('td[class^="state-"]').first().textContent()) ?? ''
      if (state.startsWith('scored')) return
      expect(state).toMatch(/^(queued|scoring)/)
      await page.waitForTimeout(100)
      await page.reload()
    }
    throw new Error('not scored in time')
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trecscore-browser-board-'))
    mkdirSync(ARTIFACTS, { recursive: true })
    ;({ child, demo } = await startDemo(dir))
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    if (child && child.exitCode === null) {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('an invalid run is checked in the browser: every problem with its line number, as the CLI words it; it cannot be submitted and nothing is sent', async () => {
    const page = await as('dana')
    const before = await submissionCount(page)
    const bad = join(dir, 'broken.run')
    writeFileSync(bad, 'q01 Q0 d1 1 2.5 t\nq01 Q0 d2 two 1.5 t\nq02 Q0 d3 1\n')
    await page.goto(`${demo.url}/team`)
    const form = page.locator('form:has(#up-passages-dev)')
    const sent: string[] = []
    page.on('request', (r) => {
      if (r.method() === 'POST') sent.push(r.url())
    })
    await form.locator('#up-passages-dev').setInputFiles(bad)
    const report = form.locator('.validation pre.report')
    await expect.poll(() => report.textContent(), { timeout: 20_000 }).toContain('broken.run:2:')
    // The very text `trecscore validate` prints for the same file against the dev qrels.
    const cli = spawnSync(
      process.execPath,
      [
        join(ROOT, 'bin', 'trecscore.js'),
        'validate',
        'broken.run',
        '--qrels',
        join(dir, 'demo-track', 'qrels-dev.txt'),
      ],
      { cwd: dir, encoding: 'utf8' },
    )
    expect(cli.status).toBe(2)
    expect(await report.textContent()).toBe(cli.stdout)
    expect(await form.locator('.validation p.error').textContent()).toBe(
      '2 error(s) in broken.run: fix them before submitting; nothing was sent and no quota was spent.',
    )
    expect(await form.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true)
    await page
      .locator('section:has(#up-passages-dev)')
      .screenshot({ path: join(ARTIFACTS, 'upload-problems.png') })
    expect(sent, 'no upload request').toEqual([])
    expect(await submissionCount(page)).toBe(before)
  })

  it('a gzip run is checked in the browser too (DecompressionStream); a valid file enables the button', async () => {
    const page = await as('dana')
    await page.goto(`${demo.url}/team`)
    const form = page.locator('form:has(#up-passages-dev)')
    const gz = join(dir, 'bad.run.gz')
    writeFileSync(gz, gzipSync('q01 Q0 d1 1 abc t\n'))
    await form.locator('#up-passages-dev').setInputFiles(gz)
    await expect
      .poll(() => form.locator('.validation pre.report').textContent(), { timeout: 20_000 })
      .toContain('bad.run.gz:1:')
    expect(await form.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true)
    await form.locator('#up-passages-dev').setInputFiles(join(ROOT, 'demo', 'runs', 'bm25.run'))
    await expect
      .poll(() => form.locator('.validation p').first().textContent(), { timeout: 20_000 })
      .toMatch(/^No errors in bm25\.run/)
    expect(await form.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(false)
  })

  it('a valid run goes from queued to scored and onto the board', async () => {
    const page = await as('dana')
    await upload(page, 'dev', join(ROOT, 'demo', 'runs', 'dense.run'))
    expect(page.url()).toMatch(/\/submissions\/[\w-]+$/)
    devSubmission = new URL(page.url()).pathname
    expect(await page.locator('td[class^="state-"]').first().textContent()).toMatch(
      /^(queued|scoring|scored)/,
    )
    await waitScored(page)
    await expect.poll(() => page.locator('h3').first().textContent()).toContain('Score version 1')
    await page.screenshot({ path: join(ARTIFACTS, 'submission.png') })
    await page.goto(`${demo.url}/boards/passages/dev`)
    const row = page.locator('table.board tbody tr', { hasText: 'Team Dense' })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.locator('td').first().textContent()).toMatch(/^\d+$/)
    await page.screenshot({ path: join(ARTIFACTS, 'board.png') })
    const team = await as('dana')
    await team.goto(`${demo.url}/team`)
    await team.screenshot({ path: join(ARTIFACTS, 'team.png') })
  })

  it('the second team cannot open the first team’s submission', async () => {
    const page = await as('hugo')
    const r = await page.goto(`${demo.url}${devSubmission}`)
    expect(r!.status()).toBe(404)
    expect(await page.locator('main').textContent()).toContain(
      'There is nothing here, or it is not yours to see.',
    )
    expect(await page.content()).not.toContain('dense.run')
  })

  it('a hostile team name renders as text; no injected script runs', async () => {
    const page = await as('organizer')
    await page.goto(`${demo.url}/org`)
    await page.getByLabel('New team').fill(HOSTILE)
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Create team and invite link' }).click(),
    ])
    await expect.poll(() => page.locator('td', { hasText: HOSTILE }).count()).toBe(1)
    const link = (await page.locator('.notice code').textContent())!
    await page.goto(link)
    expect(await page.locator('main strong').textContent()).toBe(HOSTILE)
    expect(await page.locator('main img').count()).toBe(0)
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined')
  })

  it('a form posted from another site is refused (CSRF), and nothing changes', async () => {
    const page = await as('dana')
    await page.goto(`${demo.url}/team`)
    const tokens = await page.locator('form[action$="/revoke"]').count()
    const evil = join(dir, 'evil.html')
    writeFileSync(
      evil,
      `<!doctype html><form method="post" action="${demo.url}/team/tokens"><input name="label" value="stolen"><input name="_csrf" value="guess"></form><script>document.forms[0].submit()</script>`,
    )
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${demo.url}/team/tokens`),
      page.goto(pathToFileURL(evil).href),
    ])
    expect(response.status()).toBe(403)
    expect(await response.text()).toContain('refused')
    await page.goto(`${demo.url}/team`)
    expect(await page.locator('form[action$="/revoke"]').count()).toBe(tokens)
    expect(await page.content()).not.toContain('stolen')
  })

  it('test-phase scores are invisible before release and visible after', async () => {
    const page = await as('dana')
    await upload(page, 'test', join(ROOT, 'demo', 'runs', 'dense.run'))
    const mine = page.url()
    await waitScored(page)
    expect(await page.locator('main').textContent()).toContain(
      'Scores of this phase are hidden until the organizers release it.',
    )
    expect(await page.locator('h3', { hasText: 'Score version' }).count()).toBe(0)
    await page.goto(`${demo.url}/boards/passages/test`)
    expect(await page.locator('main').textContent()).toContain(
      'is hidden; its board is published when the organizers release it',
    )
    expect(await page.locator('table.board').count()).toBe(0)
    const org = await as('organizer')
    await org.goto(`${demo.url}/org`)
    await Promise.all([
      org.waitForLoadState('load'),
      org.getByRole('button', { name: 'Release now' }).click(),
    ])
    expect(await org.locator('main').textContent()).toMatch(/test: released/)
    await page.goto(mine)
    expect(await page.locator('h3', { hasText: 'Score version 1' }).count()).toBe(1)
    await page.goto(`${demo.url}/boards/passages/test`)
    await expect
      .poll(() => page.locator('table.board tbody tr', { hasText: 'Team Dense' }).count())
      .toBe(1)
  })

  it('no page script errors anywhere; screenshots are real PNGs', () => {
    expect(errors).toEqual([])
    for (const f of ['board.png', 'submission.png', 'upload-problems.png'])
      expect(readFileSync(join(ARTIFACTS, f)).subarray(1, 4).toString()).toBe('PNG')
  })
})
