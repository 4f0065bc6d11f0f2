/**
 * Rendering of a {@link SkillRetScore}: a table or markdown with one row per run (values rounded
 * with Python's `round(v, 5)`, as the official dict), or JSON with the rounded and full-precision
 * values; `--explain` adds why the two conventions differ.
 */
import { formatFixed } from '../report/printf.js'
import { explainSkillRetRun, type SkillRetScore } from './skillret.js'
import { pythonFloatRepr } from '../report/python-round.js'

/** The `schema` of the SkillRet JSON output. */
export const SKILLRET_SCORE_SCHEMA = 'trecscore.skillret-score/1'

/** Render SkillRet scores as `table`, `markdown` or `json`. */
export function renderSkillRetScore(score: SkillRetScore, opts: { readonly format: 'table' | 'json' | 'markdown'; readonly explain: boolean; readonly totalQueries: number }): string {
  const { preset } = score
  const digits = preset.rounding.digits
  const explain = opts.explain ? score.runs.map((r) => explainSkillRetRun(r, opts.totalQueries)).join('') : ''
  if (opts.format === 'json') {
    const body = {
      schema: SKILLRET_SCORE_SCHEMA,
      preset: preset.id,
      official: preset.official,
      conventions: preset.conventions,
      data: score.data,
      cutoffs: score.cutoffs,
      runs: score.runs.map((r) => ({
        run: r.run,
        format: r.format,
        num_queries: r.numQueries,
        rounded: Object.fromEntries(r.measures.map((m, i) => [m, r.rounded[i]!])),
        values: Object.fromEntries(r.measures.map((m, i) => [m, r.values[i]!])),
        missing_queries: r.missingQueries,
        empty_queries: r.emptyQueries,
        unknown_queries: r.unknownQueries,
      })),
      ...(opts.explain ? { explain } : {}),
    }
    return JSON.stringify(body, null, 2) + '\n'
  }
  const measures = score.runs[0]?.measures ?? []
  const header = ['run', 'n', ...measures]
  const rows = score.runs.map((r) => [r.run, String(r.numQueries), ...r.rounded.map((v) => formatFixed(v, digits))])
  let out: string
  if (opts.format === 'markdown') {
    out = [header, header.map((_, i) => (i === 0 ? '---' : '---:')), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n') + '\n'
  } else {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
    out = [header, ...rows].map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n'
  }
  return explain ? `${out}\n${explain}` : out
}

/** The official dict as Python prints it (`{'NDCG@5': 0.21486, …}`), for one run. */
export function officialDictRepr(measures: readonly string[], rounded: readonly number[]): string {
  return `{${measures.map((m, i) => `'${m}': ${pythonFloatRepr(rounded[i]!)}`).join(', ')}}`
}
