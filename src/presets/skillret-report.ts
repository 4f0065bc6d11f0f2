/**
 * Rendering of a {@link SkillRetScore}: a table or markdown with one row per run (values rounded
 * with Python's `round(v, 5)`, as the official dict; a {@link Table} rendered by
 * `report/table.ts`, so labels are escaped as in every table), or JSON with the rounded and
 * full-precision values; `--explain` adds why the two conventions differ.
 */

import { TrecscoreError } from '../errors/trecscore-error.js'
import type { RunInput } from '../io/run-labels.js'
import { pythonFloatRepr, pythonRound } from '../report/python-round.js'
import { renderTable, type Table } from '../report/table.js'
import { describePresetConventions } from './describe.js'
import type { Preset } from './preset.js'
import { type PresetResult, type PresetRunResult, runPreset } from './run-preset.js'
import { SKILLRET_DEFAULT_CUTOFFS, SKILLRET_PRESETS } from './skillret.js'

/** One run scored by a SkillRet preset (the deprecated {@link scoreSkillRet} shape; see {@link PresetResult}). */
export interface SkillRetRunScore {
  /** The run's label: its file as given, or the `name` of a `{ path, name }` run input. */
  readonly run: string
  /** Its format. */
  readonly format: 'json' | 'trec'
  /** Printed measure names (`NDCG@5`, …, `MRR@10`). */
  readonly measures: readonly string[]
  /** Full-precision means, one per measure (`official_unrounded` / `fusion` of the fixtures). */
  readonly values: readonly number[]
  /** The values as printed: Python `round(v, 5)` (the official dict); fusion: the same rounding for display. */
  readonly rounded: readonly number[]
  /** Queries averaged (the official `n`, or every qrels query). */
  readonly numQueries: number
  /** Averaged queries in summation order. */
  readonly queryOrder: readonly string[]
  /** Per-query values (printed names), by query id, for the averaged queries. */
  readonly perQuery: ReadonlyMap<string, readonly number[]>
  /** Qrels queries absent from the run (dropped by `skillret`, 0 under `skillret-fusion`). */
  readonly missingQueries: readonly string[]
  /** Run queries present with an empty ranking (0 under both). */
  readonly emptyQueries: readonly string[]
  /** Run queries not in the queries file (ignored). */
  readonly unknownQueries: readonly string[]
}

/** Every run of one SkillRet `score --preset` call (the deprecated {@link scoreSkillRet} shape). */
export interface SkillRetScore {
  readonly preset: Preset
  readonly data: string
  readonly cutoffs: readonly number[]
  readonly runs: readonly SkillRetRunScore[]
}

/** Options of {@link scoreSkillRet}. */
export interface SkillRetScoreOptions {
  /** Cutoffs (default 5, 10, 15). */
  readonly cutoffs?: readonly number[]
  /**
   * A run query not in the queries file: `ignore` (default; what the official code does: it is
   * left out of the average and listed in `unknownQueries`) or `error` (exit 2, naming file and
   * ids; `score --strict`).
   */
  readonly unknownQueries?: 'error' | 'ignore'
}

/** A SkillRet run of a {@link PresetResult} in the {@link SkillRetRunScore} shape (headline aggregation, rounded as the preset says). */
export function skillRetRunScore(result: PresetResult, r: PresetRunResult): SkillRetRunScore {
  const agg = result.aggregations[0]!
  const values = r.aggregates[agg.id]!.map((a) => a.value ?? 0)
  const order = r.summationOrders[agg.id] ?? r.queries.map((q) => q.queryId)
  const byId = new Map(r.queries.map((q) => [q.queryId, q.values.map((v) => v ?? 0)] as const))
  const digits = result.preset.rounding.digits
  return {
    run: r.name,
    format: r.format,
    measures: result.labels,
    values,
    rounded: values.map((v) => pythonRound(v, digits)),
    numQueries: r.queries.length,
    queryOrder: order,
    perQuery: new Map(order.map((q) => [q, byId.get(q)!])),
    missingQueries: r.counts.missingQueries,
    emptyQueries: r.counts.emptyRankings,
    unknownQueries: r.counts.ignoredQueries,
  }
}

/**
 * Score SkillRet runs (official JSON or TREC files) with `skillret` or `skillret-fusion`.
 * @deprecated `runPreset(preset, { data, runs }, { cutoffs, unknownQueries })` returns the same
 * numbers as a {@link PresetResult}; this keeps the older shape.
 * @example
 * const s = await scoreSkillRet('skillret', 'data', ['runs/bm25.json'])
 * s.runs[0].rounded // the official dict's values, in s.runs[0].measures order
 */
export async function scoreSkillRet(
  presetId: string,
  dataDir: string,
  runFiles: readonly RunInput[],
  options: SkillRetScoreOptions = {},
): Promise<SkillRetScore> {
  const preset = SKILLRET_PRESETS.get(presetId)
  if (!preset)
    throw new TrecscoreError(
      `unknown SkillRet preset '${presetId}'; known: ${[...SKILLRET_PRESETS.keys()].join(', ')}`,
      2,
    )
  const result = await runPreset(
    preset,
    { data: dataDir, runs: runFiles },
    {
      ...(options.cutoffs ? { cutoffs: options.cutoffs } : {}),
      ...(options.unknownQueries ? { unknownQueries: options.unknownQueries } : {}),
    },
  )
  return {
    preset,
    data: dataDir,
    cutoffs: result.inputs.cutoffs ?? SKILLRET_DEFAULT_CUTOFFS,
    runs: result.runs.map((r) => skillRetRunScore(result, r)),
  }
}

/** Why the two conventions differ on one run (for `--explain`). */
export function explainSkillRetRun(r: SkillRetRunScore, totalQueries: number): string {
  const m = r.missingQueries.length
  const lines = [
    `${r.run}: ${m} quer${m === 1 ? 'y differs' : 'ies differ'} between skillret and skillret-fusion` +
      (m
        ? ` (absent from the run: dropped from the official average, 0 in fusion: ${r.missingQueries.slice(0, 10).join(', ')}${m > 10 ? ', …' : ''})`
        : ''),
    `  official n = ${totalQueries - m} (run queries in the qrels), fusion n = ${totalQueries} (every qrels query)`,
    `  empty rankings (0 under both): ${r.emptyQueries.length}${r.format === 'trec' ? ' (a TREC file cannot hold an empty ranking: such a query is absent, so the official evaluator drops it)' : ''}`,
    `  run queries not in the qrels (ignored by both): ${r.unknownQueries.length}`,
  ]
  return lines.join('\n') + '\n'
}

/**
 * `score --explain` for a SkillRet preset: the preset's conventions (as `presets show` prints
 * them), the data folder and cutoffs, then per run why `skillret` and `skillret-fusion` differ.
 */
export function explainSkillRetScore(result: PresetResult): string {
  const preset = SKILLRET_PRESETS.get(result.preset.id)
  const head = preset
    ? [`preset ${preset.id}: ${preset.title}`, '', ...describePresetConventions(preset), '']
    : [`preset ${result.preset.id}`, '']
  const runs = result.runs.map((r) =>
    explainSkillRetRun(skillRetRunScore(result, r), r.counts.declaredQueries),
  )
  return [
    ...head,
    `data: ${result.inputs.data ?? ''}; cutoffs: ${(result.inputs.cutoffs ?? SKILLRET_DEFAULT_CUTOFFS).join(', ')}`,
    '',
    runs.join('\n'),
  ].join('\n')
}

/** The `schema` of the SkillRet JSON output. */
export const SKILLRET_SCORE_SCHEMA = 'trecscore.skillret-score/1'

/**
 * Render a SkillRet {@link PresetResult} as `table`, `markdown` or `json` (the
 * `trecscore.skillret-score/1` view); `--explain` is {@link explainSkillRetScore}, written apart.
 */
export function renderSkillRetScore(
  result: PresetResult,
  opts: { readonly format: 'table' | 'json' | 'markdown' },
): string {
  const { preset } = result
  const digits = preset.rounding.digits
  const runs = result.runs.map((r) => skillRetRunScore(result, r))
  if (opts.format === 'json') {
    const body = {
      schema: SKILLRET_SCORE_SCHEMA,
      preset: preset.id,
      official: preset.official,
      conventions: result.conventions[0]!.conventions,
      data: result.inputs.data,
      cutoffs: result.inputs.cutoffs,
      runs: runs.map((r) => ({
        run: r.run,
        format: r.format,
        num_queries: r.numQueries,
        rounded: Object.fromEntries(r.measures.map((m, i) => [m, r.rounded[i]!])),
        values: Object.fromEntries(r.measures.map((m, i) => [m, r.values[i]!])),
        missing_queries: r.missingQueries,
        empty_queries: r.emptyQueries,
        unknown_queries: r.unknownQueries,
      })),
      provenance: result.provenance,
    }
    return JSON.stringify(body, null, 2) + '\n'
  }
  const table: Table = {
    columns: [
      { key: 'run', header: 'run', align: 'left' },
      { key: 'n', header: 'n', align: 'right', digits: 0 },
      ...result.labels.map((m) => ({ key: m, header: m, align: 'right' as const })),
    ],
    rows: runs.map((r) => [r.run, r.numQueries, ...r.rounded]),
  }
  return renderTable(table, opts.format, { digits, headerRule: false })
}

/** The official dict as Python prints it (`{'NDCG@5': 0.21486, …}`), for one run. */
export function officialDictRepr(measures: readonly string[], rounded: readonly number[]): string {
  return `{${measures.map((m, i) => `'${m}': ${pythonFloatRepr(rounded[i]!)}`).join(', ')}}`
}
