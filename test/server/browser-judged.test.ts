/**
 * Judged tracks as a participant sees them, in a real browser (Debian's Chromium through
 * playwright-core), against a server on a free port judging with the scripted judge mock: a 2b
 * and a 2c submission are judged by the worker; the board page shows the five dimensions (and
 * for 2c the retrieval scores beside them), the Judge section with the model, the config hash and
 * the invalid policy, and each entry's tokens, cost, cache hits, invalid and missing counts, as
 * the JSON board has them; the submission page lists the same columns. Screenshots of the two
 * pages go to .tmp/server/ (the README's copies in docs/ are refreshed from there by hand).
 * Without /usr/bin/chromium the suite is skipped with a warning, except under CI.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from '../chromium.js'
import { type ScriptedServer, startServer as startMock } from '../generation/judge/server.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, ROOT, type TestCompetition } from './helpers.js'
import {
  EXAMPLE_ANSWERS,
  EXAMPLE_RUN,
  JUDGE_KEY_ENV,
  judgedTrack,
  scriptedJudge,
} from './judge-helpers.js'

const SHOTS = join(ROOT, '.tmp', 'server')
const DIMS = ['correctness', 'completeness', 'relevance', 'coherence', 'faithfulness']

const chromiumHere = haveChromium('test/server/browser-judged.test.ts', 'judged boards in Chromium')

interface BoardJson {
  columns: string[]
  judge: { model: string; configHash: string; invalidPolicy: string; columns: string[] }
  entries: { run: string | null; columns: Record<string, number | null> }[]
}

describe.skipIf(!chromiumHere)('judged boards in Chromium', () => {
  let mock: ScriptedServer
  let comp: TestCompetition
  let server: RunningServer
  let browser: Browser
  let page: Page
  let url = ''
  const ids: Record<string, string> = {}
  const errors: string[] = []

  beforeAll(async () => {
    process.env[JUDGE_KEY_ENV] = 'sk-test-browser'
    // A deterministic judge; the eggshell answer's coherence out of range (an invalid judgment).
    mock = await startMock(scriptedJudge)
    const track = (id: string, preset: 'reteco-2b' | 'reteco-2c') =>
      judgedTrack(id, preset, mock.url, {}, `RETECO ${preset.slice(-2)} (generation)`)
    comp = makeCompetition({
      config: {
        limits: { perDay: 50 },
        upload: { maxLineBytes: 65536 },
        tracks: [track('gen-2b', 'reteco-2b'), track('gen-2c', 'reteco-2c')],
      },
    })
    server = await startServer({
      competition: loadCompetition(comp.config),
      dataDir: comp.data,
      port: 0,
    })
    url = server.url!
    await createOrganizer(server.ctx.db, 'olive', 'organizer-secret-1', new Date())
    const org = new Client(server.app, 'olive')
    expect((await org.login('olive', 'organizer-secret-1')).status).toBe(303)
    const team = await joinTeam(server.app, org, 'Team Tomato', 'ann')
    const answers = EXAMPLE_ANSWERS
    for (const [track, name, sent] of [
      ['gen-2b', 'answers-v1', answers],
      ['gen-2c', 'rag-bm25-top5', { ...answers, ...EXAMPLE_RUN }],
    ] as const) {
      const up = await team.uploadApiFiles(track, 'dev', name, sent)
      expect(up.status, JSON.stringify(up.body)).toBe(202)
      const done = await waitDone(team, up.body.id!, 60_000)
      expect(done.state, done.reason ?? '').toBe('scored')
      ids[track] = up.body.id!
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    page = await ctx.newPage()
    page.on('pageerror', (e) => errors.push(String(e)))
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico'))
        errors.push(`${r.status()} ${r.url()}`)
    })
    await page.goto(`${url}/login`)
    await page.getByLabel('Name').fill('ann')
    await page.getByLabel('Password').fill('ann-password')
    await Promise.all([
      page.waitForURL(`${url}/`),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ])
    mkdirSync(SHOTS, { recursive: true })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await mock?.close()
    comp?.cleanup()
    delete process.env[JUDGE_KEY_ENV]
  })

  /** The header cells and the first row of the page's first table, as rendered. */
  async function firstTable(): Promise<{ headers: string[]; cells: string[] }> {
    const table = page.locator('table').first()
    const headers = (await table.locator('thead th').allTextContents()).map((t) => t.trim())
    const cells = (await table.locator('tbody tr').first().locator('td, th').allTextContents()).map(
      (t) => t.trim(),
    )
    return { headers, cells }
  }

  it('the 2c board shows the retrieval scores beside the five dimensions, and the judge', async () => {
    const json = (await new Client(server.app, 'anon').json<BoardJson>('/api/v1/boards/gen-2c/dev'))
      .body
    await page.goto(`${url}/boards/gen-2c/dev`)
    const { headers } = await firstTable()
    for (const c of [...DIMS, 'retrieval nDCG@10', 'retrieval MRR', 'ROUGE-L', 'METEOR'])
      expect(headers, c).toContain(c)
    await expect.poll(() => page.getByRole('heading', { name: 'Judge' }).isVisible()).toBe(true)
    const text = await page.locator('main').innerText()
    expect(text).toContain(json.judge.configHash)
    expect(text).toContain(json.judge.model)
    expect(text).toContain(json.judge.invalidPolicy)
    // The Judge section's table: the accounting columns, with the JSON board's numbers.
    const judgeTable = page.locator('h2:has-text("Judge") ~ table').first()
    const jHeaders = (await judgeTable.locator('thead th').allTextContents()).map((t) => t.trim())
    for (const c of ['judge tokens in', 'judge cost', 'judge cache hits', 'invalid coherence'])
      expect(jHeaders, c).toContain(c)
    const row = (
      await judgeTable.locator('tbody tr').first().locator('td, th').allTextContents()
    ).map((t) => t.trim())
    const entry = json.entries[0]!
    expect(row[jHeaders.indexOf('judge tokens in')]).toBe(String(entry.columns['judge tokens in']))
    expect(row[jHeaders.indexOf('invalid coherence')]).toBe(
      String(entry.columns['invalid coherence']),
    )
    await page.screenshot({ path: join(SHOTS, 'serve-judged-board.png'), fullPage: true })
    expect(errors).toEqual([])
  }, 60_000)

  it("the submission page lists the judge's columns and provenance", async () => {
    await page.goto(`${url}/submissions/${ids['gen-2b']}`)
    const text = await page.locator('main').innerText()
    for (const c of [...DIMS, 'judge cost', 'judge cache hits', 'invalid coherence'])
      expect(text, c).toContain(c)
    // Counts as whole numbers, the cost and the scores with six decimals.
    expect(text).toMatch(/^judge requests\t\d+$/m)
    expect(text).toMatch(/^invalid coherence\t1$/m)
    expect(text).toMatch(/^judge cost\t\d+\.\d{6}$/m)
    expect(text).toMatch(/^correctness\t\d\.\d{6}$/m)
    await page.screenshot({ path: join(SHOTS, 'serve-judged-submission.png'), fullPage: true })
    expect(errors).toEqual([])
  }, 60_000)
})
