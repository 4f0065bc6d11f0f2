/**
 * Renderers of a {@link CompareResult}: pure functions to text. The main table gives every run a
 * letter; a value carries the letters of the runs it significantly beats (ranx's convention),
 * the best mean per measure is bold (`*` in plain text), and a legend says how it was computed.
 *
 * - `table`: aligned plain text (`0.4621*^ab`), then the pairs with every p-value, then breakdowns.
 * - `markdown`: the same as GitHub tables (`**0.4621**<sup>ab</sup>`).
 * - `latex`: booktabs `table` environments ready to paste (`\textbf{0.4621}$^{ab}$`), LaTeX
 *   specials in names escaped.
 * - `csv`: one row per compared pair, measure and scope, full precision.
 * - `json`: the result as is (schema `trecscore.compare/1`).
 * - `html`: see `render-html.ts`.
 *
 * The tables of the text formats are {@link Table}s rendered by `report/table.ts`: bold and the
 * letters are data of the table (`bold`, `marks`), a breakdown's groups in LaTeX are separated by
 * its `rules`; the headings, captions and legend around them are written here.
 *
 * Run names (labels) are printed as given. In the text formats (table, markdown, latex, html)
 * control characters and bidirectional overrides in names, measures and groups are shown as
 * `\xNN` / `\u{NNNN}` (`escapeControlChars`), then escaped for the format; csv and json keep
 * them exact (csv quotes a field with a quote, comma or line break).
 */
import {
  csvField,
  escapeLatex as escapeLatexText,
  escapeMarkdown as escapeMarkdownText,
  escapeControlChars as show,
} from '../report/escape.js'
import { renderTable, type Table } from '../report/table.js'
import { formatP } from './cells.js'
import { CORRECTION_TITLES, legendLines, TEST_TITLES } from './legend.js'
import { renderCompareHtml } from './render-html.js'
import { comparePairsTable, mainTable } from './tables.js'
import type { Breakdown, CompareResult, MeasureComparison } from './types.js'

export { formatP }

/** Output formats of `compare`. */
export const COMPARE_FORMATS = ['table', 'markdown', 'latex', 'csv', 'json', 'html'] as const
/** One of {@link COMPARE_FORMATS}. */
export type CompareFormat = (typeof COMPARE_FORMATS)[number]

/** Options of {@link renderCompare}. */
export interface RenderCompareOptions {
  readonly format: CompareFormat
  /** Decimals of means and differences in text formats. @default 4 */
  readonly digits?: number
}

function scopeTitle(label: string, m: readonly MeasureComparison[]): string {
  const n = m[0]?.queries.length ?? 0
  const undef = m.some((x) => x.undefinedQueries > 0)
  return `${label} (${n} quer${n === 1 ? 'y' : 'ies'}${undef ? ' with a value for every run; see notes' : ''})`
}

function renderText(r: CompareResult, digits: number): string {
  const main = (ms: readonly MeasureComparison[], indent = ''): string =>
    renderTable(mainTable(r, ms, digits, 'run'), 'table', { indent })
  let out = `Compared on ${scopeTitle('all queries', r.overall)}\n${main(r.overall)}\n`
  out += `Pairs (A vs B; "*" after an adjusted p: < ${r.settings.alpha}; every group's pairs: --format csv or json)\n`
  out += `${renderTable(comparePairsTable(r, digits), 'table')}\n`
  for (const b of r.breakdowns) {
    out += `By ${b.by}\n`
    for (const g of b.groups)
      out +=
        `${b.by} = ${show(g.group)} (${g.size} quer${g.size === 1 ? 'y' : 'ies'})${g.note ? `: ${g.note}` : ''}\n` +
        main(g.measures, '  ')
    out += '\n'
  }
  return (
    out +
    'Legend\n' +
    legendLines(r)
      .map((l) => `  ${show(l)}\n`)
      .join('')
  )
}

/** Markdown text with control characters shown as escapes. */
function escapeMarkdown(s: string): string {
  return escapeMarkdownText(show(s))
}

function renderMarkdown(r: CompareResult, digits: number): string {
  const main = (ms: readonly MeasureComparison[]): string =>
    renderTable(mainTable(r, ms, digits, 'run'), 'markdown')
  let out = `**Compared on ${escapeMarkdown(scopeTitle('all queries', r.overall))}**\n\n${main(r.overall)}\n`
  out += `**Pairs** (A vs B; \\* after an adjusted p: < ${r.settings.alpha})\n\n`
  out += `${renderTable(comparePairsTable(r, digits), 'markdown')}\n`
  for (const b of r.breakdowns) {
    out += `**By ${b.by}**\n\n`
    for (const g of b.groups)
      out += `*${escapeMarkdown(`${b.by} = ${g.group}`)}*: ${g.size} quer${g.size === 1 ? 'y' : 'ies'}${g.note ? ` (${escapeMarkdown(g.note)})` : ''}\n\n${main(g.measures)}\n`
  }
  return (
    out +
    '**Legend**\n\n' +
    legendLines(r)
      .map((l) => `- ${escapeMarkdown(l)}\n`)
      .join('')
  )
}

/** LaTeX text ({@link escapeLatexText}) with control characters shown as escapes first. */
export function escapeLatex(s: string): string {
  return escapeLatexText(show(s))
}

/** The caption: what the letters and bold mean, in LaTeX (math-mode `<`, no plain-text markers). */
function latexCaption(r: CompareResult): string {
  const s = r.settings
  const base = s.baseline === null ? null : r.runs.find((x) => x.name === s.baseline)
  const family = base
    ? `each measure's ${r.runs.length - 1} comparisons against the baseline ${escapeLatex(base.letter)}`
    : `each measure's ${(r.runs.length * (r.runs.length - 1)) / 2} pairwise comparisons`
  const correction =
    s.correction === 'none'
      ? 'uncorrected'
      : `${CORRECTION_TITLES[s.correction].replace(/ \(.*\)$/, '')}-adjusted`
  return `Superscript letters: significantly better than the runs with those letters (${escapeLatex(TEST_TITLES[s.tests[0]!])}, two-sided, ${correction} $p < ${s.alpha}$ over ${family}). Best mean per measure in bold.`
}

/**
 * A breakdown as one {@link Table}: a group column (its label and size on the group's first row,
 * `†` when it was too small to test), then each group's main table, a rule between groups.
 */
function breakdownTable(r: CompareResult, b: Breakdown, digits: number): Table {
  const parts = b.groups.map((g) => ({ g, t: mainTable(r, g.measures, digits, 'Run') }))
  return {
    columns: [
      { key: 'group', header: show(b.by), align: 'left' },
      ...mainTable(r, r.overall, digits, 'Run').columns,
    ],
    rows: parts.flatMap(({ g, t }) =>
      t.rows.map((row, i) => [i === 0 ? `${show(g.group)} (${g.size})` : '', ...row]),
    ),
    bold: parts.flatMap(({ t }) => t.bold!.map((row) => [false, ...row])),
    marks: parts.flatMap(({ g, t }) =>
      t.marks!.map((row, i) => [i === 0 && !g.tested ? '†' : '', ...row]),
    ),
    rules: parts.slice(1).map((_p, i) => (i + 1) * r.runs.length),
  }
}

function renderLatex(r: CompareResult, digits: number): string {
  const caption = latexCaption(r)
  const tabular = (t: Table): string => renderTable(t, 'latex', { preamble: false })
  let out =
    '% requires \\usepackage{booktabs}\n' +
    `% ${legendLines(r).slice(2).map(escapeLatex).join('\n% ')}\n` +
    `\\begin{table}\n\\centering\n\\caption{${caption}}\n` +
    tabular(mainTable(r, r.overall, digits, 'Run')) +
    '\\end{table}\n'
  for (const b of r.breakdowns)
    out +=
      `\n\\begin{table}\n\\centering\n\\caption{By ${escapeLatex(b.by)}; tested and corrected inside each group. ${caption}${b.groups.some((g) => !g.tested) ? ` Groups marked $\\dagger$ have fewer than ${r.settings.minGroupSize} queries and were not tested.` : ''}}\n` +
      tabular(breakdownTable(r, b, digits)) +
      '\\end{table}\n'
  return out
}

function num(x: number | null | undefined): string {
  return x === null || x === undefined ? '' : String(x)
}

function renderCsv(r: CompareResult): string {
  const header = [
    'scope',
    'group',
    'measure',
    'run_a',
    'letter_a',
    'run_b',
    'letter_b',
    'n',
    'tested',
    'mean_a',
    'mean_b',
    'mean_difference',
    'ci95_low',
    'ci95_high',
    'cohens_dz',
    'wins',
    'ties',
    'losses',
    ...r.settings.tests.flatMap((t) => [
      `${t}_statistic`,
      `${t}_p`,
      `${t}_p_adjusted`,
      `${t}_significant`,
    ]),
  ]
  const rows: string[][] = []
  const add = (
    scope: string,
    group: string,
    tested: boolean,
    ms: readonly MeasureComparison[],
  ): void => {
    for (const m of ms)
      for (const p of m.pairs)
        rows.push([
          scope,
          group,
          m.measure,
          r.runs[p.a]!.name,
          r.runs[p.a]!.letter,
          r.runs[p.b]!.name,
          r.runs[p.b]!.letter,
          String(p.n),
          String(tested),
          num(p.meanA),
          num(p.meanB),
          num(p.effect.meanDifference),
          num(p.effect.ci95?.[0]),
          num(p.effect.ci95?.[1]),
          num(p.effect.cohensDz),
          String(p.wins),
          String(p.ties),
          String(p.losses),
          ...p.tests.flatMap((t) => [
            num(t.statistic),
            num(t.p),
            num(t.pAdjusted),
            String(t.significant),
          ]),
        ])
  }
  add('all', '', true, r.overall)
  for (const b of r.breakdowns) for (const g of b.groups) add(b.by, g.group, g.tested, g.measures)
  return [header, ...rows].map((row) => row.map((c) => csvField(c)).join(',')).join('\n') + '\n'
}

/** JSON: the result as is; non-finite statistics (|t| = ∞) become strings so the document stays valid JSON. */
export function compareToJson(r: CompareResult): string {
  return (
    JSON.stringify(
      r,
      (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v),
      2,
    ) + '\n'
  )
}

/** Render a comparison in one of {@link COMPARE_FORMATS}. */
export function renderCompare(r: CompareResult, options: RenderCompareOptions): string {
  const digits = options.digits ?? 4
  switch (options.format) {
    case 'table':
      return renderText(r, digits)
    case 'markdown':
      return renderMarkdown(r, digits)
    case 'latex':
      return renderLatex(r, digits)
    case 'csv':
      return renderCsv(r)
    case 'json':
      return compareToJson(r)
    case 'html':
      return renderCompareHtml(r, digits)
  }
}
