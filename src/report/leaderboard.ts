/**
 * Renderers for `evaluate` results: pure functions from results to text. Ids are decoded from
 * their bytes as UTF-8 for display; JSON output follows the documented `trecscore.evaluate/1`
 * schema (README).
 */

import type { Conventions } from '../conventions/conventions.js'
import type { RunEvaluation } from '../evaluate/evaluate.js'
import { decodeId } from '../io/bytes.js'
import { escapeControlChars } from './escape.js'
import { formatFixed } from './printf.js'
import { renderTable, type Table } from './table.js'

/** Output formats of `evaluate`. */
export const FORMATS = ['table', 'json', 'jsonl', 'csv', 'tsv', 'markdown', 'latex'] as const
/** One of {@link FORMATS}. */
export type Format = (typeof FORMATS)[number]

/**
 * Summary rows of `evaluate`'s tables: `mean`, the `all` row (each measure's own aggregate: the
 * mean, a sum for counts, the geometric mean for GMAP); `std`, a `std` row of population
 * standard deviations instead (see `AggregateValue.std`); `mean+std`, both.
 */
export const SUMMARY_ROWS = ['mean', 'std', 'mean+std'] as const
/** One of {@link SUMMARY_ROWS}. */
export type SummaryRows = (typeof SUMMARY_ROWS)[number]

/** What a report shows. */
export interface ReportOptions {
  readonly format: Format
  readonly perQuery: boolean
  /** Summary rows of tables (JSON and JSONL always carry both value and std). @default 'mean' */
  readonly aggregate?: SummaryRows
  /**
   * Decimals of printed values. Default: 4 in table, markdown and latex; full precision (the
   * shortest text that reads back as the same double) in csv and tsv. JSON is always exact.
   */
  readonly digits?: number
  /**
   * Escape control characters in ids and run labels of csv and tsv too (for a terminal; table,
   * markdown and latex always escape them, JSON escapes them its own way). @default false
   */
  readonly escapeControl?: boolean
}

function cell(v: number | null, aggregate: string, digits: number | null): string {
  if (v === null) return 'undef'
  if (aggregate === 'sum' && Number.isInteger(v)) return String(v)
  if (digits === null)
    return Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : String(v)
  return formatFixed(v, digits)
}

interface Row {
  readonly run: string
  readonly query: string
  readonly values: readonly string[]
}

function rows(
  results: readonly RunEvaluation[],
  perQuery: boolean,
  digits: number | null,
  show: (s: string) => string,
  summary: SummaryRows,
): Row[] {
  const out: Row[] = []
  for (const r of results) {
    if (perQuery) {
      for (const q of r.perQuery) {
        out.push({
          run: show(r.runName),
          query: show(decodeId(q.queryId)),
          values: q.values.map((v, i) =>
            cell(v, r.aggregates[i]!.aggregate === 'sum' ? 'sum' : 'mean', digits),
          ),
        })
      }
    }
    if (summary !== 'std')
      out.push({
        run: show(r.runName),
        query: 'all',
        values: r.aggregates.map((a) => cell(a.value, a.aggregate, digits)),
      })
    if (summary !== 'mean')
      out.push({
        run: show(r.runName),
        query: 'std',
        values: r.aggregates.map((a) => cell(a.std, 'mean', digits)),
      })
  }
  return out
}

/** Render evaluation results in one of {@link FORMATS}. */
export function renderResults(results: readonly RunEvaluation[], opts: ReportOptions): string {
  const machine = opts.format === 'csv' || opts.format === 'tsv'
  const digits = opts.digits ?? (machine ? null : 4)
  const show = !machine || opts.escapeControl ? escapeControlChars : (s: string): string => s
  if (results.length === 0) return ''
  const measures = results[0]!.measures
  if (opts.format === 'json') return JSON.stringify(toJson(results, opts.perQuery), null, 2) + '\n'
  if (opts.format === 'jsonl') {
    const lines: string[] = []
    for (const r of results) {
      if (opts.perQuery)
        for (const q of r.perQuery)
          q.values.forEach((v, i) =>
            lines.push(
              JSON.stringify({
                run: r.runName,
                query: decodeId(q.queryId),
                measure: measures[i],
                value: v,
              }),
            ),
          )
      r.aggregates.forEach((a) =>
        lines.push(
          JSON.stringify({
            run: r.runName,
            query: 'all',
            measure: a.measure,
            value: a.value,
            queries: a.queries,
            undefined: a.undefinedQueries,
            std: a.std,
          }),
        ),
      )
    }
    return lines.join('\n') + '\n'
  }
  const summary = opts.aggregate ?? 'mean'
  const body = rows(results, opts.perQuery, digits, show, summary)
  // The query column only matters with per-query rows or two summary rows; a leaderboard is
  // one row per run.
  const withQuery = opts.perQuery || summary === 'mean+std'
  const fixed = withQuery ? 2 : 1
  const header = withQuery ? ['run', 'query', ...measures] : ['run', ...measures]
  const grid = body.map((r) => (withQuery ? [r.run, r.query, ...r.values] : [r.run, ...r.values]))
  const best = measures.map((_, i) => {
    const vals = body.filter((r) => r.query === 'all').map((r) => Number(r.values[i]))
    return Math.max(...vals.filter((v) => Number.isFinite(v)))
  })
  const table: Table = {
    columns: header.map((h, i) => ({
      key: h,
      header: h,
      align: i < fixed ? ('left' as const) : ('right' as const),
    })),
    rows: grid,
    notes: [`conventions: ${conventionsLine(results[0]!.conventions)}`],
    ...(opts.format === 'latex' && results.length > 1
      ? {
          bold: grid.map((r, ri) =>
            r.map(
              (c, i) => i >= fixed && body[ri]!.query === 'all' && Number(c) === best[i - fixed],
            ),
          ),
        }
      : {}),
  }
  return renderTable(table, opts.format)
}

/** The `trecscore.evaluate/1` JSON document. */
export function toJson(results: readonly RunEvaluation[], perQuery: boolean): unknown {
  return {
    schema: 'trecscore.evaluate/1',
    measures: results[0]?.measures ?? [],
    conventions: results[0]?.conventions,
    runs: results.map((r) => ({
      run: r.runName,
      tag: decodeId(r.runTag),
      aggregates: Object.fromEntries(
        r.aggregates.map((a) => [
          a.measure,
          {
            value: a.value,
            aggregate: a.aggregate,
            queries: a.queries,
            undefined: a.undefinedQueries,
            std: a.std,
          },
        ]),
      ),
      counts: {
        ...r.counts,
        missingQueries: r.counts.missingQueries.map(decodeId),
        failedQueries: r.counts.failedQueries.map((f) => ({
          query: decodeId(f.queryId),
          ...f.failure,
          ...('docId' in f.failure ? { docId: decodeId(f.failure.docId) } : {}),
        })),
      },
      ...(perQuery
        ? {
            perQuery: r.perQuery.map((q) => ({
              query: decodeId(q.queryId),
              status: q.status,
              values: Object.fromEntries(q.values.map((v, i) => [r.measures[i], v])),
            })),
          }
        : {}),
    })),
  }
}

/** The conventions on one line, for the foot of text and markdown tables (JSON carries them whole). */
export function conventionsLine(c: Conventions): string {
  const gains = c.gains.kind === 'map' ? `map ${JSON.stringify(c.gains.gains)}` : c.gains.kind
  return [
    `ordering ${c.ordering}`,
    `scores ${c.scorePrecision}`,
    `duplicates ${c.duplicates}`,
    `unknown docs ${c.unknownDocs}`,
    `missing queries ${c.missingQueries}`,
    `depth ${c.depth ?? 'all'}`,
    `judged only ${c.judgedOnly ? 'yes' : 'no'}`,
    `negative judgments ${c.negativeJudgments}`,
    `relevant grade >= ${c.relevanceLevel}`,
    `gains ${gains}`,
    `IPrec rounding ${c.recallRounding}`,
    `no-relevant queries ${c.queriesWithoutRelevant}`,
  ].join('; ')
}

/** Human-readable conventions, one per line (`--explain` and report headers). */
export function describeConventions(c: Conventions): string {
  const gains = c.gains.kind === 'map' ? `map ${JSON.stringify(c.gains.gains)}` : c.gains.kind
  return [
    `ordering: ${c.ordering}`,
    `score precision: ${c.scorePrecision}`,
    `duplicate docs: ${c.duplicates}`,
    `unknown docs: ${c.unknownDocs}`,
    `missing queries: ${c.missingQueries}`,
    `run queries without qrels: ${c.extraQueries}`,
    `depth: ${c.depth ?? 'no cap'}`,
    `judged only: ${c.judgedOnly ? 'yes' : 'no'}`,
    `negative judgments: ${c.negativeJudgments}`,
    `relevance level: grade >= ${c.relevanceLevel}`,
    `gains: ${gains}`,
    `IPrec recall rounding: ${c.recallRounding === 'lround' ? 'lround(r·R) (trec_eval 10)' : '(long)(r·R + 0.9) (trec_eval 9.0.8, pytrec_eval, ranx)'}`,
    `queries without relevant docs: ${c.queriesWithoutRelevant}`,
    `query key: ${c.queryKey}`,
    `comment lines (#): ${c.comments ? 'skipped' : 'data'}`,
  ].join('\n')
}

/** What was dropped, deduplicated or zero-filled for one run (`--explain`). */
export function describeCounts(r: RunEvaluation): string {
  const c = r.counts
  const missing = c.missingQueries.length
  const list = (ids: readonly string[]): string =>
    ids.length
      ? ` (${ids.slice(0, 10).map(decodeId).join(', ')}${ids.length > 10 ? ', …' : ''})`
      : ''
  return [
    `run ${r.runName} (tag ${decodeId(r.runTag) || '-'}):`,
    `  queries: ${c.declaredQueries} declared, ${c.runQueries} in run, ${c.evaluatedQueries} evaluated`,
    `  missing from run: ${missing}${list(c.missingQueries)} → ${c.missingPolicy === 'zero' ? 'scored 0 (zero-filled)' : 'skipped (not averaged)'}`,
    `  run queries without qrels (ignored): ${c.extraQueries}`,
    `  duplicate docs removed: ${c.duplicatesRemoved}`,
    `  unknown docs discarded: ${c.unknownDiscarded}`,
    `  docs below the depth cut: ${c.cutByDepth}`,
    `  unjudged docs dropped (judged only): ${c.unjudgedDropped}`,
    `  queries judged only negative (scored with no relevant doc): ${c.negativeOnlyQueries.length}${list(c.negativeOnlyQueries)}`,
    `  negative judgment lines dropped (negative judgments: unjudged): ${c.negativeJudgmentsDropped}`,
    `  queries that failed: ${c.failedQueries.length}${list(c.failedQueries.map((f) => f.queryId))}`,
    ...r.aggregates
      .filter((a) => a.undefinedQueries > 0)
      .map(
        (a) => `  ${a.measure}: undefined for ${a.undefinedQueries} queries (left out of the mean)`,
      ),
  ].join('\n')
}
