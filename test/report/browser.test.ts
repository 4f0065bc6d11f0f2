/**
 * The HTML report in a real browser: Debian's Chromium driven by playwright-core, the page
 * opened from disk (file://). Checks: no console errors, no failed (or any) network requests,
 * charts drawn by Plot (non-empty SVG), sorting on a header click, hostile ids shown as text with
 * no injected script run; saves screenshots under .tmp/.
 *
 * Without /usr/bin/chromium the suite is skipped with a warning, except under CI (CI installs
 * chromium), where that is a failure.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildReportData } from '../../src/entries/presets.js'
import {
  loadReportAssets,
  type ReportAssets,
  type ReportData,
  renderHtmlReport,
} from '../../src/entries/report.js'
import { retecoReportRoute } from '../../src/presets/reteco/html-route.js'
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from '../chromium.js'

const ROOT = join(import.meta.dirname, '..', '..')
const ARTIFACTS = join(ROOT, '.tmp')
const HOSTILE_QUERY = '<script>window.__pwned=1</script>'
const HOSTILE_TAG = '<img/src=x/onerror=window.__pwned=2>'
const HOSTILE_DOC = '</script><script>window.__pwned=3</script>'

const chromiumHere = haveChromium('test/report/browser.test.ts', 'HTML report in Chromium')

interface Loaded {
  readonly page: Page
  readonly consoleErrors: string[]
  readonly requests: string[]
  readonly failed: string[]
}

describe.skipIf(!chromiumHere)('HTML report in Chromium', () => {
  let browser: Browser
  let dir: string

  async function open(
    html: string,
    name: string,
    viewport = { width: 1200, height: 900 },
  ): Promise<Loaded> {
    const file = join(dir, `${name}.html`)
    writeFileSync(file, html)
    const page = await browser.newPage({ viewport })
    const consoleErrors: string[] = []
    const requests: string[] = []
    const failed: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text())
    })
    page.on('pageerror', (e) => consoleErrors.push(String(e)))
    page.on('request', (r) => requests.push(r.url()))
    page.on('requestfailed', (r) => failed.push(r.url()))
    await page.goto(pathToFileURL(file).href)
    await page.waitForSelector('body[data-ready=true]', { timeout: 20_000 })
    return { page, consoleErrors, requests, failed }
  }

  function render(data: ReportData, assets: ReportAssets): string {
    return renderHtmlReport(data, assets)
  }

  let assets: ReportAssets

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'report-assets', 'format.js')))
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-report-assets.mjs')], {
        cwd: ROOT,
      })
    assets = await loadReportAssets()
    mkdirSync(ARTIFACTS, { recursive: true })
    dir = mkdtempSync(join(tmpdir(), 'trecscore-report-'))
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('demo data: loads offline with no errors, draws every chart, sorts the leaderboard on click', async () => {
    const data = await buildReportData({
      qrels: join(ROOT, 'demo/qrels.txt'),
      runs: ['bm25', 'dense', 'hybrid'].map((r) => join(ROOT, `demo/runs/${r}.run`)),
      measures: ['nDCG@10', 'AP', 'P@5'],
    })
    const { page, consoleErrors, requests, failed } = await open(render(data, assets), 'demo')
    expect(consoleErrors).toEqual([])
    expect(failed).toEqual([])
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([])
    expect(requests).toHaveLength(1)
    // Plot drew a non-empty SVG for the distribution and one difference chart per non-baseline run.
    expect(await page.locator('#chart-distribution svg').count()).toBeGreaterThan(0)
    expect(await page.locator('#chart-distribution svg g.query-dots circle').count()).toBe(90) // 3 runs × 30 queries
    expect(await page.locator('#chart-diff g.diff-bars').count()).toBe(2)
    expect(await page.locator('#chart-diff figure svg g.diff-bars rect').count()).toBe(60)
    expect(await page.locator('#domains-section').isHidden()).toBe(true)
    expect(await page.locator('#significance tbody tr').count()).toBe(3) // all pairs of 3 runs on nDCG@10
    // Sorting: nDCG@10 column (index 2), first click descending, second ascending.
    const order = async (): Promise<string[]> =>
      page.locator('#leaderboard tbody tr td:first-child').allInnerTexts()
    const values = data.leaderboard.map((r) => ({ name: data.runs[r.run]!.name, v: r.values[0]! }))
    const desc = [...values].sort((a, b) => b.v - a.v).map((x) => x.name)
    await page.locator('#leaderboard thead th').nth(2).locator('button').click()
    expect((await order()).map((t) => t.replace(/^[a-z]+\s+/, ''))).toEqual(desc)
    expect(await page.locator('#leaderboard thead th').nth(2).getAttribute('aria-sort')).toBe(
      'descending',
    )
    await page.locator('#leaderboard thead th').nth(2).locator('button').click()
    expect((await order()).map((t) => t.replace(/^[a-z]+\s+/, ''))).toEqual([...desc].reverse())
    // Sorting by run name (text) ascending.
    await page.locator('#leaderboard thead th').nth(0).locator('button').click()
    expect((await order()).map((t) => t.replace(/^[a-z]+\s+/, ''))).toEqual(
      values.map((x) => x.name).sort(),
    )
    // Switching the measure redraws the charts.
    await page.selectOption('#measure', 'AP')
    expect(await page.locator('#chart-distribution svg').first().textContent()).toContain(
      'AP per query',
    )
    await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true })
    expect(consoleErrors).toEqual([])
    await page.close()
  })

  it('RETECO 2a fixtures: per-domain bars and the turn-depth line chart', async () => {
    const runs = ['2a_perfect', '2a_random', '2a_missing_turns_unknown'].map((r) =>
      join(ROOT, 'test/fixtures/reteco/runs', r),
    )
    const data = await buildReportData({
      preset: 'reteco-2a',
      data: join(ROOT, 'test/fixtures/reteco/data'),
      runs,
      baseline: runs[1]!,
      routes: [retecoReportRoute],
    })
    expect(data.domains?.map((d) => d.group)).toEqual([
      'biology',
      'drones',
      'earth_science',
      'biology',
      'drones',
      'earth_science',
      'biology',
      'drones',
      'earth_science',
    ])
    const { page, consoleErrors, failed, requests } = await open(render(data, assets), 'reteco')
    expect(consoleErrors).toEqual([])
    expect(failed).toEqual([])
    expect(requests).toHaveLength(1)
    expect(await page.locator('#chart-domains svg g.domain-bars rect').count()).toBe(9)
    expect(await page.locator('#chart-turns svg g.turn-lines > path').count()).toBe(3)
    expect(await page.locator('#chart-diff figure.diff').count()).toBe(2)
    // Against the baseline 2a_random, the perfect run is significantly better on nDCG@10.
    expect(
      await page.locator('#chart-diff figure.diff > figcaption').first().textContent(),
    ).toMatch(
      /^.*2a_perfect − .*2a_random on nDCG@10: mean \+0\.\d{4}.*\(significant: .*2a_perfect better\)/,
    )
    const row = page.locator('#leaderboard tbody tr').filter({ hasText: '2a_perfect' })
    // The baseline comes first in the report, so 2a_random is run a.
    expect(data.runs.map((r) => r.letter + ' ' + r.name.split('/').pop())).toEqual([
      'a 2a_random',
      'b 2a_perfect',
      'c 2a_missing_turns_unknown',
    ])
    expect(await row.locator('sup.sig').first().textContent()).toBe('a')
    await page.screenshot({ path: join(ARTIFACTS, 'report-reteco.png'), fullPage: true })
    await page.close()
  })

  it('numbers read as the command line prints them: exact ties to even (0.03125 -> 0.0312)', async () => {
    const qrels = join(dir, 'tie.qrels')
    const run = join(dir, 'tie.run')
    writeFileSync(qrels, 'q1 0 d32 1\n')
    // The only relevant doc at rank 32: RR = 1/32 = 0.03125 exactly, a tie at 4 decimals.
    writeFileSync(
      run,
      Array.from({ length: 32 }, (_, i) => `q1 Q0 d${i + 1} ${i + 1} ${100 - i} t\n`).join(''),
    )
    const data = await buildReportData({ qrels, runs: [run], measures: ['RR'] })
    expect(data.leaderboard[0]!.values[0]).toBe(0.03125)
    const { page, consoleErrors } = await open(render(data, assets), 'tie')
    expect(consoleErrors).toEqual([])
    const cells = await page.locator('#leaderboard tbody td.num').allInnerTexts()
    expect(cells).toContain('0.0312') // printf %.4f, as `trecscore evaluate` prints it
    expect(cells).not.toContain('0.0313') // Number.prototype.toFixed would round the tie up
    await page.close()
  })
  it('hostile ids render as text and no injected script runs', async () => {
    const qrels = join(dir, 'hostile.qrels')
    const run = join(dir, '<b>evil<i>.run')
    const plain = join(dir, 'plain\u001b[31m\u202e.run') // control characters in a run name
    writeFileSync(
      qrels,
      `${HOSTILE_QUERY} 0 ${HOSTILE_DOC} 1\n${HOSTILE_QUERY} 0 d2 0\nq2 0 d2 1\n`,
    )
    writeFileSync(
      run,
      `${HOSTILE_QUERY} Q0 ${HOSTILE_DOC} 1 2.0 ${HOSTILE_TAG}\n${HOSTILE_QUERY} Q0 d2 2 1.0 ${HOSTILE_TAG}\nq2 Q0 d2 1 1 ${HOSTILE_TAG}\n`,
    )
    writeFileSync(plain, `${HOSTILE_QUERY} Q0 d2 1 2.0 plain\nq2 Q0 d9 1 1 plain\n`)
    const data = await buildReportData({
      qrels,
      runs: [run, plain],
      measures: ['RR'],
      title: '<i>report</i>',
    })
    const html = render(data, assets)
    // The raw HTML holds the ids only as JSON escapes.
    expect(html).not.toContain(HOSTILE_QUERY)
    expect(html).not.toContain(HOSTILE_TAG)
    expect(html).toContain('\\u003cscript\\u003ewindow.__pwned=1\\u003c/script\\u003e')
    const { page, consoleErrors, failed, requests } = await open(html, 'hostile')
    expect(consoleErrors).toEqual([])
    expect(failed).toEqual([])
    expect(requests).toHaveLength(1)
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined')
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.locator('#leaderboard b').count()).toBe(0)
    const text = await page.locator('body').innerText()
    expect(text).toContain(HOSTILE_TAG)
    expect(text).toContain('<b>evil<i>.run')
    // Control characters and bidi overrides in names are shown escaped, never raw.
    expect(text).toContain('plain\\x1b[31m\\u{202e}.run')
    expect(text).not.toMatch(/[\u001b\u202e]/)
    expect(await page.locator('#title').textContent()).toBe('<i>report</i>')
    expect(await page.title()).toBe('<i>report</i>')
    // The hostile query id is a data point with a text tooltip in the distribution chart.
    const titles = await page.locator('#chart-distribution svg title').allTextContents()
    expect(titles.some((t) => t.includes(HOSTILE_QUERY))).toBe(true)
    await page.screenshot({ path: join(ARTIFACTS, 'report-hostile.png'), fullPage: true })
    await page.close()
  })

  it('convention sensitivity: a delta chart per measure, the float32 swap in the ranking table, names as text', async () => {
    const ex = (f: string): string => join(ROOT, 'examples/sensitivity', f)
    const data = await buildReportData({
      qrels: ex('qrels.txt'),
      runs: [
        { path: ex('tied.run'), name: '<b>tied</b>' },
        { path: ex('steady.run'), name: 'steady.run' },
      ],
      measures: ['RR', 'nDCG@10'],
      sensitivity: true,
    })
    const html = render(data, assets)
    expect(html).not.toContain('<b>tied</b>')
    const { page, consoleErrors, failed, requests } = await open(html, 'sensitivity')
    expect(consoleErrors).toEqual([])
    expect(failed).toEqual([])
    expect(requests).toHaveLength(1)
    expect(await page.locator('#sensitivity-section').isVisible()).toBe(true)
    expect(await page.locator('#sensitivity-section b').count()).toBe(0)
    // 2 runs x 14 alternatives (4 orderings, float32, 4 duplicate policies, missing zero,
    // no-relevant undefined, relevance level 2, exp and binary gains), every delta defined.
    expect(await page.locator('#chart-sensitivity svg g.sensitivity-dots circle').count()).toBe(28)
    const rows = await page.locator('#sensitivity-ranking tbody tr').allInnerTexts()
    expect(rows.map((r) => r.split('\t'))).toEqual([
      [
        'score precision',
        'float32',
        '-1.0000',
        '<b>tied</b> > steady.run becomes steady.run > <b>tied</b>',
      ],
      [
        'missing queries',
        'zero',
        '-1.0000',
        '<b>tied</b> > steady.run becomes steady.run > <b>tied</b>',
      ],
      [
        'relevance level',
        '2',
        '-1.0000',
        '<b>tied</b> > steady.run becomes steady.run > <b>tied</b>',
      ],
    ])
    await page.screenshot({ path: join(ARTIFACTS, 'report-sensitivity.png'), fullPage: true })
    await page.close()
  })

  it('200-character run names and 12 runs: no name cut, no element wider than the viewport, chart labels inside their charts', async () => {
    const runsDir = join(dir, 'long')
    mkdirSync(runsDir, { recursive: true })
    const sources = ['bm25', 'dense', 'hybrid'].map((r) =>
      readFileSync(join(ROOT, `demo/runs/${r}.run`), 'utf8'),
    )
    const runs = Array.from({ length: 12 }, (_, i) => {
      const stem = `${String(i + 1).padStart(2, '0')}-${'very-long-run-name-'.repeat(11)}`.slice(
        0,
        196,
      )
      const file = join(runsDir, `${stem}.run`)
      writeFileSync(file, sources[i % 3]!)
      return file
    })
    expect(runs.every((f) => f.split('/').pop()!.length === 200)).toBe(true)
    const measures = ['nDCG@10', 'AP', 'P@5', 'RR', 'R@100', 'nDCG@20', 'P@10', 'R@1000']
    const data = await buildReportData({ qrels: join(ROOT, 'demo/qrels.txt'), runs, measures })
    const html = render(data, assets)
    for (const viewport of [
      { width: 1200, height: 900 },
      { width: 800, height: 900 },
    ]) {
      const { page, consoleErrors, failed } = await open(html, `long-${viewport.width}`, viewport)
      expect(consoleErrors).toEqual([])
      expect(failed).toEqual([])
      // Measured in the page (plain JS: the test's compiler settings have no DOM types).
      const layout = (await page.evaluate(`(() => {
        const vw = document.documentElement.clientWidth
        const inScroll = (e) => e.parentElement !== null && e.parentElement.closest('.scroll, .chart') !== null
        const tooWide = [...document.querySelectorAll('body *')]
          .filter((e) => !inScroll(e))
          .filter((e) => {
            const r = e.getBoundingClientRect()
            return r.width > 0 && (r.left < -0.5 || r.right > vw + 0.5)
          })
          .map((e) => e.tagName.toLowerCase() + '#' + e.id + '.' + e.className)
        const clipped = [...document.querySelectorAll('td.name')].filter((td) => td.scrollWidth > td.clientWidth + 0.5).map((td) => td.textContent)
        const labelsOutside = [...document.querySelectorAll('.chart svg')].flatMap((svg) => {
          const box = svg.getBoundingClientRect()
          return [...svg.querySelectorAll('text')]
            .filter((t) => {
              const r = t.getBoundingClientRect()
              return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
            })
            .map((t) => t.textContent)
        })
        const leaderboardNames = [...document.querySelectorAll('#leaderboard tbody td.name')].map((td) => td.textContent)
        return { vw, pageWidth: document.documentElement.scrollWidth, tooWide, clipped, labelsOutside, leaderboardNames, keys: [...document.querySelectorAll('.chart-key')].map((k) => k.textContent) }
      })()`)) as {
        vw: number
        pageWidth: number
        tooWide: string[]
        clipped: string[]
        labelsOutside: string[]
        leaderboardNames: string[]
        keys: string[]
      }
      expect(layout.pageWidth).toBeLessThanOrEqual(layout.vw)
      expect(layout.tooWide).toEqual([])
      expect(layout.clipped).toEqual([])
      expect(layout.labelsOutside).toEqual([])
      // Every full name is on the page (leaderboard: letter, space, name) and in the chart key.
      expect(layout.leaderboardNames).toEqual(data.runs.map((r) => `${r.letter} ${r.name}`))
      for (const r of data.runs) expect(layout.keys[0]).toContain(`${r.letter} = ${r.name}`)
      // Chart axis labels: letter and a shortened name, at most 34 characters.
      const ticks = await page
        .locator('#chart-distribution svg [aria-label="y-axis tick label"] text')
        .allTextContents()
      expect(ticks).toHaveLength(12)
      expect(ticks.every((t) => t.length <= 34 && /^[a-l] \d\d-very-long.*…/.test(t))).toBe(true)
      if (viewport.width === 1200)
        await page.screenshot({ path: join(ARTIFACTS, 'report-long-names.png'), fullPage: true })
      await page.close()
    }
  })
})
