/**
 * Human spot validation in a real browser (Debian's Chromium through playwright-core), against
 * a server listening on a free port with judged items in its pool (raters-fixture.ts): the
 * organizer invites two raters and draws a sample with a double-annotated share; each rater
 * rates every item by keyboard only (1-5, k to go back a dimension, n to the next item, p back,
 * s to skip with a reason), each choice saved at once; the double-annotated items are assigned
 * to both raters; and the agreement numbers on the organizer's page equal `trecscore judge
 * agreement` on the files the page exports. Screenshots of the three pages go to .tmp/server/
 * (the README's copies in docs/ are refreshed from there by hand). Without /usr/bin/chromium
 * the suite is skipped with a warning, except under CI.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGREEMENT_STATISTICS, JUDGE_DIMENSIONS } from '../../src/internal.js'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { ciText, statText } from '../../src/server/raters/pages.js'
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from '../chromium.js'
import { cli } from '../cli/helpers.js'
import { makeCompetition, ROOT, type TestCompetition } from './helpers.js'
import { fillJudgedItems, raterScore } from './raters-fixture.js'

const SHOTS = join(ROOT, '.tmp', 'server')

const chromiumHere = haveChromium(
  'test/server/browser-raters.test.ts',
  'spot validation in Chromium',
)

describe.skipIf(!chromiumHere)('spot validation in Chromium', () => {
  let comp: TestCompetition
  let server: RunningServer
  let browser: Browser
  let url = ''
  let dir = ''
  let orgCtx: BrowserContext
  let org: Page
  const raterPages: Page[] = []
  const errors: string[] = []

  function watch(page: Page): Page {
    page.on('pageerror', (e) => errors.push(String(e)))
    page.on('console', (m) => {
      // a failed request is reported below with its address
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text())
    })
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico'))
        errors.push(`${r.status()} ${r.url()}`)
    })
    return page
  }

  beforeAll(async () => {
    comp = makeCompetition()
    server = await startServer({
      competition: loadCompetition(comp.config),
      dataDir: comp.data,
      port: 0,
    })
    url = server.url!
    await createOrganizer(server.ctx.db, 'olive', 'organizer-secret-1', new Date())
    await fillJudgedItems(server.ctx.db, { track: 'dl', phase: 'dev', now: new Date() })
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    orgCtx = await browser.newContext({ viewport: { width: 1100, height: 800 } })
    org = watch(await orgCtx.newPage())
    await org.goto(`${url}/login`)
    await org.getByLabel('Name').fill('olive')
    await org.getByLabel('Password').fill('organizer-secret-1')
    await Promise.all([
      org.waitForURL(`${url}/`),
      org.getByRole('button', { name: 'Sign in' }).click(),
    ])
    dir = mkdtempSync(join(tmpdir(), 'trecscore-raters-browser-'))
    mkdirSync(SHOTS, { recursive: true })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    comp?.cleanup()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('the organizer invites two raters and draws a sample; double items go to both', async () => {
    for (const name of ['rhea', 'ravi']) {
      await org.goto(`${url}/org/validation`)
      await Promise.all([
        org.waitForLoadState('load'),
        org.getByRole('button', { name: 'Invite a rater' }).click(),
      ])
      const link = (await org.locator('#rater-invite').textContent())!
      const ctx = await browser.newContext({ viewport: { width: 1000, height: 900 } })
      const page = watch(await ctx.newPage())
      await page.goto(link)
      await page.getByLabel('Your name').fill(name)
      await page.getByLabel('Password').fill(`${name}-password`)
      await Promise.all([
        page.waitForURL(/\/rate/),
        page.getByRole('button', { name: 'Become a rater' }).click(),
      ])
      raterPages.push(page)
    }
    await org.goto(`${url}/org/validation`)
    await org.getByLabel('Track').selectOption('dl')
    await org.getByLabel('Phase').selectOption('dev')
    await org.getByLabel('Sample size').fill('8')
    await org.getByLabel('Seed').fill('42')
    await org.getByLabel('Double-annotated share').fill('0.5')
    await org.screenshot({ path: join(SHOTS, 'spot-validation-organizer.png') })
    await Promise.all([
      org.waitForURL(/\/org\/validation\/samples\//),
      org.getByRole('button', { name: 'Draw the sample' }).click(),
    ])
    // 8 items, 4 of them twice: 12 assignments, 6 per rater; each double item has both raters.
    const rows = await server.ctx.db
      .selectFrom('rating_assignments')
      .select(['item_id', 'rater_id', 'slot'])
      .execute()
    expect(rows).toHaveLength(12)
    const doubled = rows.filter((r) => r.slot === 2).map((r) => r.item_id)
    expect(doubled).toHaveLength(4)
    for (const id of doubled)
      expect(new Set(rows.filter((r) => r.item_id === id).map((r) => r.rater_id)).size).toBe(2)
    const progress = await org.locator('#progress-table tbody tr').allTextContents()
    expect(progress).toHaveLength(2)
    for (const p of progress) expect(p).toMatch(/\(rater-[12]\)600$/) // assigned 6, rated 0, skipped 0
  })

  it('each rater rates by keyboard only, every choice saved at once', async () => {
    const db = server.ctx.db
    for (const [r, page] of raterPages.entries()) {
      await page.goto(`${url}/rate`)
      for (let i = 0; i < 6; i++) {
        const id = new URL(page.url()).pathname.split('/').pop()!
        await expect
          .poll(() => page.locator('#progress').textContent())
          .toContain(`Item ${i + 1} of 6`)
        if (r === 1 && i === 5) {
          await page.keyboard.press('s')
          await page.keyboard.type('the response is cut off')
          await Promise.all([page.waitForURL(`${url}/rate`), page.keyboard.press('Enter')])
          break
        }
        if (i === 0) {
          // a wrong first choice, k back to it, and the right one
          await page.keyboard.press('1')
          await page.keyboard.press('k')
        }
        for (const d of JUDGE_DIMENSIONS.keys())
          await page.keyboard.press(String(raterScore(r, i, d)))
        await expect
          .poll(async () =>
            (
              await db
                .selectFrom('ratings')
                .select(['dimension', 'score'])
                .where('assignment_id', '=', id)
                .execute()
            )
              .map((x) => `${x.dimension}=${x.score}`)
              .sort(),
          )
          .toEqual(
            [...JUDGE_DIMENSIONS.entries()]
              .map(([d, dim]) => `${dim}=${raterScore(r, i, d)}`)
              .sort(),
          )
        if (r === 0 && i === 1) {
          await page.screenshot({ path: join(SHOTS, 'spot-validation-rater.png'), fullPage: true })
          // p goes back an item, n forward again
          await Promise.all([page.waitForURL(/\/rate\//), page.keyboard.press('p')])
          await expect.poll(() => page.locator('#progress').textContent()).toContain('Item 1 of 6')
          await Promise.all([page.waitForURL(`${url}/rate/${id}`), page.keyboard.press('n')])
        }
        if (i < 5) {
          await Promise.all([
            page.waitForURL((u) => !u.pathname.endsWith(id)),
            page.keyboard.press('n'),
          ])
        }
      }
      await page.goto(`${url}/rate`)
      await expect(page.locator('main').textContent()).resolves.toContain(
        'All 6 of your items are done',
      )
    }
    expect(await db.selectFrom('ratings').select('score').execute()).toHaveLength(55)
    expect(
      (await db.selectFrom('rating_assignments').select('skip_reason').execute())
        .map((x) => x.skip_reason)
        .filter((x) => x !== null),
    ).toEqual(['the response is cut off'])
  }, 120_000)

  it('the agreement on the page equals `trecscore judge agreement` on the exported files', async () => {
    await org.reload()
    await org.screenshot({ path: join(SHOTS, 'spot-validation-results.png') })
    const base = org.url()
    for (const f of ['human-labels.jsonl', 'judgments.jsonl', 'human-a.jsonl', 'human-b.jsonl']) {
      const r = await org.request.get(`${base}/${f}`)
      expect(r.status(), f).toBe(200)
      writeFileSync(join(dir, f), await r.text())
    }
    for (const [id, human, judged] of [
      ['judge-human', 'human-labels.jsonl', 'judgments.jsonl'],
      ['human-human', 'human-a.jsonl', 'human-b.jsonl'],
    ] as const) {
      const out = cli(
        ['judge', 'agreement', '--human', human, '--judgments', judged, '--format', 'json'],
        {
          cwd: dir,
        },
      )
      expect(out.code, out.stderr).toBe(0)
      const json = JSON.parse(out.stdout) as {
        dimensions: {
          dimension: string
          statistics: Record<string, Parameters<typeof statText>[1]>
        }[]
      }
      expect(json.dimensions.map((d) => d.dimension)).toEqual([...JUDGE_DIMENSIONS])
      for (const d of json.dimensions)
        for (const name of AGREEMENT_STATISTICS) {
          const row = org.locator(`table#${id} tr[data-statistic="${name}"]`)
          const value = await row
            .locator(`td[data-dimension="${d.dimension}"][data-part="value"]`)
            .textContent()
          const ci = await row
            .locator(`td[data-dimension="${d.dimension}"][data-part="ci"]`)
            .textContent()
          expect(value, `${id} ${d.dimension} ${name}`).toBe(statText(name, d.statistics[name]!))
          expect(ci).toBe(ciText(name, d.statistics[name]!))
        }
    }
    await org.goto(`${base}/disclosure`)
    await expect(org.locator('#disclosure').textContent()).resolves.toContain(
      '## Agreement with human labels',
    )
    expect(errors).toEqual([])
  }, 60_000)
})
