/**
 * HTML rendering of a comparison: a table fragment (for the HTML report or any page) and a small
 * standalone page around it. Every string from input (run names, measures, groups, notes) is
 * escaped; nothing is executed.
 */
import { legendLines } from './legend.js'
import { mainCells } from './cells.js'
import type { CompareResult, MeasureComparison } from './types.js'

/** Escape `& < > " '` for HTML text and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'))
}

function table(r: CompareResult, ms: readonly MeasureComparison[], digits: number, caption: string): string {
  const head = `<tr><th></th><th>run</th>${r.measures.map((m) => `<th>${escapeHtml(m)}</th>`).join('')}</tr>`
  const body = mainCells(r, ms, digits)
    .map(
      (row, i) =>
        `<tr><td>${escapeHtml(r.runs[i]!.letter)}</td><td>${escapeHtml(r.runs[i]!.name)}</td>${row
          .map((c) => `<td>${c.best ? `<b>${escapeHtml(c.value)}</b>` : escapeHtml(c.value)}${c.beats ? `<sup>${escapeHtml(c.beats)}</sup>` : ''}</td>`)
          .join('')}</tr>`,
    )
    .join('\n')
  return `<table class="trecscore-compare">\n<caption>${escapeHtml(caption)}</caption>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`
}

/** The comparison as an HTML fragment: main table, breakdown tables, legend. */
export function renderCompareHtmlFragment(r: CompareResult, digits = 4): string {
  const parts = [table(r, r.overall, digits, `All queries (${r.overall[0]?.queries.length ?? 0})`)]
  for (const b of r.breakdowns)
    for (const g of b.groups) parts.push(table(r, g.measures, digits, `${b.by} = ${g.group} (${g.size} queries)${g.note ? `: ${g.note}` : ''}`))
  parts.push(`<ul class="trecscore-compare-legend">\n${legendLines(r).map((l) => `<li>${escapeHtml(l)}</li>`).join('\n')}\n</ul>`)
  return parts.join('\n') + '\n'
}

/** A standalone page (no scripts, no external resources) around {@link renderCompareHtmlFragment}. */
export function renderCompareHtml(r: CompareResult, digits = 4): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>trecscore compare</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; }
table.trecscore-compare { border-collapse: collapse; margin: 1em 0; }
table.trecscore-compare caption { text-align: left; font-weight: bold; }
table.trecscore-compare th, table.trecscore-compare td { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
table.trecscore-compare td:nth-child(-n+2), table.trecscore-compare th:nth-child(-n+2) { text-align: left; }
</style>
</head>
<body>
${renderCompareHtmlFragment(r, digits)}</body>
</html>
`
}
