/**
 * The HTML report as one self-contained page: styles, the data (JSON), the charting library and
 * the page script are all inlined; a Content-Security-Policy forbids every network request.
 * Pure: `(data, assets) => string`.
 *
 * Layout rules (checked in a browser by test/report/browser.test.ts): a run name is never cut
 * (long names wrap inside their cell), every table sits in a horizontally scrolling box, and no
 * element is wider than the page; charts label runs by letter and a shortened name (the
 * leaderboard and the key under each chart give the full names).
 */
import { escapeControlChars, escapeHtml, inlineScript, jsonForScript } from '../escape.js'
import { CLIENT_SCRIPT } from './client.js'
import type { ReportData } from './model.js'

/** Script text the page needs besides its own: the bundled charting library. */
export interface ReportAssets {
  /** The Observable Plot IIFE bundle (defines the global `Plot`). */
  readonly plot: string
  /** printf.ts's formatFixed and compare's formatP as an IIFE (defines the global `TrecscoreFormat`). */
  readonly format: string
}

const STYLE = `
:root { color-scheme: light; --fg: #1d1d1f; --muted: #5f6368; --line: #d9d9de; --accent: #1f5fa8; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--fg); background: #fff; }
header { padding: 20px 28px 10px; border-bottom: 1px solid var(--line); }
h1 { margin: 0 0 4px; font-size: 22px; }
h2 { font-size: 17px; margin: 26px 0 8px; }
main { padding: 0 28px 40px; max-width: 1200px; }
#source, .hint, figcaption, #legend { color: var(--muted); }
h1, #source, figcaption, #legend, li, dd, td.text, td.name, .chart-key { overflow-wrap: anywhere; }
.scroll { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: 6px 0; }
td.name, td.text { min-width: 16em; max-width: 36em; }
th, td { padding: 5px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.best { font-weight: 700; }
td.nonzero { color: #8a4b00; font-weight: 600; }
th { font-weight: 600; background: #f6f6f8; }
button.sort { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; cursor: pointer; color: var(--accent); }
th[aria-sort=ascending] button.sort::after { content: " ▲"; }
th[aria-sort=descending] button.sort::after { content: " ▼"; }
sup.sig, span.sig { color: var(--accent); font-weight: 700; margin-left: 2px; }
span.letter { display: inline-block; min-width: 1.4em; color: var(--muted); font-family: ui-monospace, monospace; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 6px 0; }
dt { font-weight: 600; }
dd { margin: 0; }
.chart { min-height: 40px; max-width: 100%; overflow-x: auto; }
.chart svg { max-width: none; }
.chart-key { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
figure.diff { margin: 10px 0 18px; }
label.measure { display: inline-block; margin-top: 18px; font-weight: 600; }
select { font: inherit; margin-left: 6px; }
footer { padding: 12px 28px 24px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); }
`

/**
 * Render a report. Every string from the input (run names and tags, query ids, domains) reaches
 * the page only inside the JSON data and is shown through `textContent`, so markup in an id is
 * displayed as text.
 *
 * @example
 * const html = renderHtmlReport(reportFromEvaluations(results, 'qrels qrels.txt'), await loadReportAssets())
 */
export function renderHtmlReport(data: ReportData, assets: ReportAssets): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="trecscore">
<title>${escapeHtml(escapeControlChars(data.title))}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1 id="title"></h1><p id="source"></p></header>
<main>
<section id="leaderboard-section">
<h2>Leaderboard</h2>
<p class="hint">Click a column header to sort.</p>
<div class="scroll"><table id="leaderboard"></table></div>
<p id="legend"></p>
</section>
<section id="charts-section">
<label class="measure">Measure in the charts<select id="measure"></select></label>
<section id="distribution-section"><h2>Per-query distribution</h2><p class="hint">Box: quartiles and range; dots: one per query.</p><div id="chart-distribution" class="chart"></div></section>
<section id="domains-section"><h2>Per domain</h2><div id="chart-domains" class="chart"></div></section>
<section id="turns-section"><h2>By turn depth</h2><div id="chart-turns" class="chart"></div></section>
<section id="diff-section"><h2>Per-query difference against the baseline</h2><p class="hint">Each bar is one query (run minus baseline), sorted; queries both runs have a value for.</p><div id="chart-diff" class="chart"></div></section>
<section id="significance-section"><h2>Significance</h2><div class="scroll"><table id="significance"></table></div></section>
<section id="sensitivity-section"><h2>Convention sensitivity</h2><p class="hint">Each dot is one run: its score with one convention changed to the alternative shown (every other convention as chosen) minus its score under the chosen conventions.</p><div id="chart-sensitivity" class="chart"></div><h3>Ranking of the runs</h3><p class="hint">Kendall's tau between the run orderings under the chosen conventions and under the alternative, and the pairs of runs that trade places.</p><div class="scroll"><table id="sensitivity-ranking"></table></div><ul id="sensitivity-conventions"></ul></section>
</section>
<section id="conventions-section">
<h2>Conventions in force</h2>
<dl id="conventions"></dl>
<h2>Dropped, deduplicated and zero-filled</h2>
<div class="scroll"><table id="counts"></table></div>
</section>
<section id="notes-section"><h2>Notes</h2><ul id="notes"></ul></section>
</main>
<footer>Generated by trecscore. Self-contained: no network requests. Charts: Observable Plot.</footer>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${inlineScript(assets.plot)}</script>
<script>${inlineScript(assets.format)}</script>
<script>${inlineScript(CLIENT_SCRIPT)}</script>
</body>
</html>
`
}
