/**
 * HTML rendering of a comparison: a fragment (for the HTML report or any page) and a small
 * standalone page around it. The fragment holds the main table, the table of compared pairs
 * (every p-value, effect sizes, wins/ties/losses: what the legend describes), the breakdown
 * tables and the legend. Every string from input (run names, measures, groups, notes) is shown
 * with control characters as `\xNN` and then entity-escaped; nothing is executed. Each table sits
 * in a horizontally scrolling box and long names wrap, so no table widens the page.
 */
import { escapeControlChars, escapeHtml as escapeHtmlText } from '../report/escape.js'
import { renderTable } from '../report/table.js'
import { legendLines } from './legend.js'
import { comparePairsTable, mainTable } from './tables.js'
import type { CompareResult, MeasureComparison } from './types.js'

/** Escape `& < > " '` for HTML text and attribute values (control characters shown as `\xNN` first). */
export function escapeHtml(s: string): string {
  return escapeHtmlText(escapeControlChars(s))
}

function scroll(tableHtml: string): string {
  return `<div class="trecscore-scroll">\n${tableHtml}</div>`
}

function table(
  r: CompareResult,
  ms: readonly MeasureComparison[],
  digits: number,
  caption: string,
): string {
  const t = mainTable(r, ms, digits, 'run')
  const columns = t.columns.map((c) => (c.key === 'run' ? { ...c, cellClass: 'name' } : c))
  return scroll(renderTable({ ...t, columns }, 'html', { htmlClass: 'trecscore-compare', caption }))
}

/** The compared pairs over all queries: the same columns as the plain-text pairs table. */
function pairsTable(r: CompareResult, digits: number): string {
  const caption = `Pairs (A vs B; * after an adjusted p: < ${r.settings.alpha}; every group's pairs: --format csv or json)`
  return scroll(
    renderTable(comparePairsTable(r, digits), 'html', {
      htmlClass: 'trecscore-compare-pairs',
      caption,
    }),
  )
}

/** The comparison as an HTML fragment: main table, pairs table, breakdown tables, legend. */
export function renderCompareHtmlFragment(r: CompareResult, digits = 4): string {
  const parts = [
    table(r, r.overall, digits, `All queries (${r.overall[0]?.queries.length ?? 0})`),
    pairsTable(r, digits),
  ]
  for (const b of r.breakdowns)
    for (const g of b.groups)
      parts.push(
        table(
          r,
          g.measures,
          digits,
          `${b.by} = ${g.group} (${g.size} queries)${g.note ? `: ${g.note}` : ''}`,
        ),
      )
  parts.push(
    `<ul class="trecscore-compare-legend">\n${legendLines(r)
      .map((l) => `<li>${escapeHtml(l)}</li>`)
      .join('\n')}\n</ul>`,
  )
  return parts.join('\n') + '\n'
}

/** A standalone page (no scripts, no external resources) around {@link renderCompareHtmlFragment}. */
export function renderCompareHtml(r: CompareResult, digits = 4): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>trecscore compare</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; }
.trecscore-scroll { max-width: 100%; overflow-x: auto; margin: 1em 0; }
table.trecscore-compare, table.trecscore-compare-pairs { border-collapse: collapse; }
table caption { text-align: left; font-weight: bold; }
table.trecscore-compare th, table.trecscore-compare td, table.trecscore-compare-pairs th, table.trecscore-compare-pairs td { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }
table.trecscore-compare td:nth-child(-n+2), table.trecscore-compare th:nth-child(-n+2), table.trecscore-compare-pairs td:nth-child(-n+3), table.trecscore-compare-pairs th:nth-child(-n+3) { text-align: left; }
table.trecscore-compare td.name { white-space: normal; overflow-wrap: anywhere; min-width: 12em; max-width: 40em; }
ul.trecscore-compare-legend li { overflow-wrap: anywhere; }
</style>
</head>
<body>
${renderCompareHtmlFragment(r, digits)}</body>
</html>
`
}
