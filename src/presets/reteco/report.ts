/**
 * Rendering of {@link RetecoReport}s (pure: reports in, text out): a text table, Markdown, or
 * JSON (`trecscore.reteco-score/1`: `{ schema, reports: [...] }`, values unrounded, `null` for
 * undefined). Text formats round to `digits` decimals and print undefined values as `null`.
 */
import { escapeMarkdown } from '../../report/escape.js'
import { formatFixed } from '../../report/printf.js'
import { renderTable, type Table } from '../../report/table.js'
import type { ReportTable, ReportValues, RetecoReport } from './report-model.js'

/** Output formats of the RETECO `score` command. */
export const RETECO_REPORT_FORMATS = ['table', 'json', 'markdown'] as const

/** One of {@link RETECO_REPORT_FORMATS}. */
export type RetecoReportFormat = (typeof RETECO_REPORT_FORMATS)[number]

/** Options of {@link renderRetecoReports}. */
export interface RenderRetecoOptions {
  readonly format: RetecoReportFormat
  /** Also print one row per topic. */
  readonly perQuery?: boolean
  /** Decimals in text formats. @default 4 */
  readonly digits?: number
}

const COUNT_COLUMNS = new Set(['n', 'full_coverage', 'tc_defined'])

function cell(v: number | null | undefined, column: string, digits: number): string {
  if (v === null) return 'null'
  if (v === undefined) return ''
  return COUNT_COLUMNS.has(column) ? String(v) : formatFixed(v, digits)
}

/** A table of text cells (first column left, the others right) rendered by `report/table.ts`. */
function grid(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  markdown: boolean,
): string {
  const table: Table = {
    columns: header.map((h, i) => ({ key: h, header: h, align: i === 0 ? 'left' : 'right' })),
    rows,
  }
  return renderTable(table, markdown ? 'markdown' : 'table')
}

function table(t: ReportTable, digits: number, markdown: boolean): string {
  const head = markdown ? `#### ${t.title}\n\n` : `${t.title}\n`
  return (
    head +
    grid(
      [t.key === 'aggregations' ? 'aggregation' : 'group', ...t.columns],
      t.rows.map((r) => [r.label, ...t.columns.map((c) => cell(r.values[c], c, digits))]),
      markdown,
    )
  )
}

function values(v: ReportValues, digits: number): string {
  return Object.entries(v)
    .filter(([k]) => !COUNT_COLUMNS.has(k))
    .map(([k, x]) => {
      const text = `${k} ${cell(x, k, digits)}`
      if (k === 'TC@10' && 'tc_defined' in v)
        return `${text} (${v['tc_defined']} queries with periods)`
      if (k === 'nDCG|FC@10' && 'full_coverage' in v)
        return `${text} (${v['full_coverage']} with full coverage)`
      return text
    })
    .join('  ')
}

function renderOne(r: RetecoReport, o: RenderRetecoOptions, digits: number): string {
  const md = o.format === 'markdown'
  const h = (title: string): string => (md ? `\n#### ${title}\n\n` : `\n${title}\n`)
  let out = md
    ? `### RETECO ${r.subtrack}: ${escapeMarkdown(r.run)}\n\n`
    : `RETECO ${r.subtrack}: ${r.run}\n`
  out += `${md ? '- ' : '  '}conventions: ${r.conventionSet}; split ${r.split}; run layout ${r.runLayout}; domains ${r.domains.join(', ')}\n`
  const hv = r.headline.value === null ? 'not scored' : formatFixed(r.headline.value, digits)
  out += `${md ? '- ' : '  '}headline ${r.headline.measure} = ${md ? `**${hv}**` : hv}${r.headline.aggregation ? ` (${r.headline.aggregation})` : ''}\n`
  if (Object.keys(r.diagnostics).length) {
    out += `${md ? '- ' : '  '}diagnostics: ${values(r.diagnostics, digits)}\n`
  }
  if (r.errors.length)
    out +=
      h(`Errors (${r.errors.length}): the run cannot be scored`) +
      r.errors.map((e) => `${md ? '- ' : '  '}${e}\n`).join('')
  for (const t of r.tables) out += '\n' + table(t, digits, md)
  if (r.counts.length) {
    out += h('Counts')
    out += grid(
      [
        'domain',
        'topics',
        'lines',
        'missing',
        'empty',
        'duplicates',
        'unknown_docs',
        'unknown_topics',
        'rank!=score',
        'f32_ties',
        'unlabelled',
      ],
      r.counts.map((c) =>
        [
          c.domain,
          c.topics,
          c.lines,
          c.missing.length,
          c.emptyAfterCleaning.length,
          c.duplicatesRemoved,
          c.unknownDocsDiscarded,
          `${c.unknownTopics} (${c.unknownTopicLines} lines)`,
          c.rankDisagreements,
          c.float32OnlyTies,
          c.unlabelled,
        ].map(String),
      ),
      md,
    )
    for (const c of r.counts)
      if (c.missing.length)
        out += `${md ? '- ' : '  '}${c.domain}: missing (scored 0): ${c.missing.join(', ')}\n`
    for (const c of r.counts)
      if (c.emptyAfterCleaning.length)
        out += `${md ? '- ' : '  '}${c.domain}: empty after cleaning (scored 0): ${c.emptyAfterCleaning.join(', ')}\n`
  }
  out +=
    h('Conventions in force') +
    r.conventions.map(([k, v]) => `${md ? '- ' : '  '}${k}: ${v}\n`).join('')
  if (r.warnings.length)
    out +=
      h(`Warnings (${r.warnings.length})`) +
      r.warnings.map((w) => `${md ? '- ' : '  '}${w}\n`).join('')
  if (r.printed !== null)
    out +=
      h('Reference output') +
      (md
        ? '```\n' + r.printed.replace(/\n?$/, '\n') + '```\n'
        : r.printed.replace(/^/gm, '  ').replace(/\n?$/, '\n'))
  if (o.perQuery && r.perTopic.length) {
    const cols = [...new Set(r.perTopic.flatMap((t) => Object.keys(t.values)))]
    const infos = [...new Set(r.perTopic.flatMap((t) => Object.keys(t.info)))]
    out += h('Per topic')
    out += grid(
      ['domain', 'topic', 'status', ...infos, ...cols],
      r.perTopic.map((t) => [
        t.domain,
        t.topic,
        t.status,
        ...infos.map((i) => t.info[i] ?? ''),
        ...cols.map((c) => cell(t.values[c], c, digits)),
      ]),
      md,
    )
  }
  return out
}

/**
 * Render reports in one format. JSON is `{ "schema": "trecscore.reteco-score/1", "reports": [...] }`
 * with per-topic rows only when `perQuery` is set; text formats print, per run, the headline and
 * diagnostics, every aggregation table, the counts, the conventions in force and the warnings.
 */
export function renderRetecoReports(
  reports: readonly RetecoReport[],
  options: RenderRetecoOptions,
): string {
  const digits = options.digits ?? 4
  if (options.format === 'json') {
    const shown = reports.map((r) => (options.perQuery ? r : { ...r, perTopic: [] }))
    return JSON.stringify({ schema: 'trecscore.reteco-score/1', reports: shown }, null, 2) + '\n'
  }
  return reports.map((r) => renderOne(r, options, digits)).join('\n')
}
