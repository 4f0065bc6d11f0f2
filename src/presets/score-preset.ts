/**
 * Rendering of a {@link PresetResult} in the layouts of the presets read from TREC qrels
 * (trec_eval's, ir_measures', a leaderboard, markdown, JSON), and the deprecated
 * {@link scorePreset} shape kept for older callers. Scoring itself is `runPreset`.
 */
import type { Conventions } from '../conventions/conventions.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import type { ConventionSetCounts, RunEvaluation } from '../evaluate/evaluate.js'
import { decodeId, encodeId } from '../io/bytes.js'
import type { Qrels, Run } from '../model/types.js'
import { escapeMarkdown } from '../report/escape.js'
import { conventionsLine, renderResults, toJson } from '../report/leaderboard.js'
import { formatFixed, padRight } from '../report/printf.js'
import { checkQrels, checkRun, type PresetRunContext } from './checks.js'
import type { Preset } from './preset.js'
import {
  getPreset,
  headlineAggregates,
  type PresetInputs,
  type PresetResult,
  type PresetRunResult,
  presetNotes,
  presetWarnings,
  qrelsWarnings,
  runMessages,
  runPresetDetailed,
} from './run-preset.js'

/** The conventions one group of a preset's measures was computed under (presets with per-measure conventions). */
export interface PresetMeasureGroup {
  /** Measures (canonical names) of the group. */
  readonly measures: readonly string[]
  /** The group's conventions. */
  readonly conventions: Conventions
  /** Name of its tie rule, where the preset names one. */
  readonly tieRule: string | null
  /** What the group's preparation dropped, cut or zero-filled. */
  readonly counts: ConventionSetCounts
}

/** One run scored by a preset (the deprecated {@link scorePreset} shape). */
export interface PresetRunScore {
  /** The engine's result (per-query values, aggregates, counts; the counts of the preset's own conventions). */
  readonly evaluation: RunEvaluation
  /** The preset's checks that fired for this run. */
  readonly warnings: readonly string[]
  /** Informational lines (the `topic-sets` check: topics zero-filled and ignored). */
  readonly notes: readonly string[]
  /** Qrels topics absent from the run (scored 0 or skipped, per the conventions), decoded. */
  readonly missingTopics: readonly string[]
  /** Run topics absent from the qrels (ignored), decoded, in run order. */
  readonly ignoredTopics: readonly string[]
  /** One entry per conventions group when the preset has per-measure conventions; else empty. */
  readonly groups: readonly PresetMeasureGroup[]
}

/** Every run of one `score --preset` call (the deprecated {@link scorePreset} shape). */
export interface PresetScore {
  readonly preset: Preset
  readonly qrelsFile: string
  /** The preset's checks that fired for the qrels. */
  readonly qrelsWarnings: readonly string[]
  readonly runs: readonly PresetRunScore[]
  /** The `--rel-map` applied to the qrels grades (grade → value), if any, and how many judgments it changed. */
  readonly relMap?: { readonly map: ReadonlyMap<number, number>; readonly changed: number }
  /** The same score as the plain model every renderer reads. */
  readonly result: PresetResult
}

/**
 * Score TREC run files with a preset (by id or value) against a TREC qrels file.
 * @deprecated `runPreset(preset, { qrels, runs })` returns the same numbers as a plain
 * {@link PresetResult}; this keeps the older shape (with the engine's evaluations).
 */
export async function scorePreset(
  presetOrId: Preset | string,
  inputs: PresetInputs,
): Promise<PresetScore> {
  const { result, evaluations } = await runPresetDetailed(presetOrId, inputs)
  const runs = result.runs.map((r, i): PresetRunScore => {
    const warnings = r.issues.filter((x) => x.severity === 'warning').map((x) => x.message)
    const notes = runMessages(r).slice(warnings.length)
    const groups =
      result.conventions.length > 1
        ? result.conventions.map((g, k) => ({
            measures: g.measures,
            conventions: g.conventions,
            tieRule: g.tieRule,
            counts: r.conventionCounts[k]!,
          }))
        : []
    return {
      evaluation: evaluations[i]!,
      warnings,
      notes,
      missingTopics: r.counts.missingQueries,
      ignoredTopics: r.counts.ignoredQueries,
      groups,
    }
  })
  const preset = typeof presetOrId === 'string' ? getPreset(presetOrId) : presetOrId
  const relMap = result.inputs.relMap
    ? {
        map: new Map(
          Object.entries(result.inputs.relMap.map).map(([k, v]) => [Number(k), v] as const),
        ),
        changed: result.inputs.relMap.changed,
      }
    : null
  return {
    preset,
    qrelsFile: result.inputs.qrels ?? '',
    qrelsWarnings: qrelsWarnings(result),
    runs,
    ...(relMap ? { relMap } : {}),
    result,
  }
}

/** Warnings of the preset's checks on the parsed qrels (e.g. the DL "-no1" variant). */
export function checkPresetQrels(preset: Preset, qrels: Qrels, file: string): string[] {
  return checkQrels(preset, qrels, file).map((i) => i.message)
}

/**
 * Findings of the preset's run checks (task mix-up by doc id prefix, runs deeper than allowed,
 * candidate lists, one unified ranking per topic): warnings when scoring, errors in `validate --preset`.
 */
export function checkPresetRun(
  preset: Preset,
  run: Run,
  file: string,
  context: PresetRunContext = {},
): string[] {
  return checkRun(preset, run, file, context).map((i) => i.message)
}

/**
 * A run of a {@link PresetResult} as the engine's {@link RunEvaluation} shape, for the shared
 * leaderboard renderers (ids back in the engine's byte encoding; headline aggregates).
 */
export function presetRunEvaluation(result: PresetResult, run: PresetRunResult): RunEvaluation {
  const c = run.counts
  return {
    runName: run.name,
    runTag: encodeId(run.tag),
    measures: result.measures,
    conventions: result.conventions[0]!.conventions,
    perQuery: run.queries.map((q) => ({
      queryId: encodeId(q.queryId),
      status: q.status,
      values: q.values,
    })),
    aggregates: headlineAggregates(result, run),
    counts: {
      declaredQueries: c.declaredQueries,
      runQueries: c.runQueries,
      evaluatedQueries: c.evaluatedQueries,
      missingQueries: c.missingQueries.map(encodeId),
      missingPolicy: c.missingPolicy,
      extraQueries: c.ignoredQueries.length,
      duplicatesRemoved: c.duplicatesRemoved,
      unknownDiscarded: c.unknownDiscarded,
      cutByDepth: c.cutByDepth,
      unjudgedDropped: c.unjudgedDropped,
      negativeOnlyQueries: c.negativeOnlyQueries.map(encodeId),
      negativeJudgmentsDropped: 0,
      failedQueries: [],
    },
  }
}

/** The `schema` of {@link renderPresetScore}'s JSON (as `trecscore.reteco-score/1` for RETECO, `trecscore.skillret-score/1` for SkillRet). */
export const PRESET_SCORE_SCHEMA = 'trecscore.preset-score/1'

/** Output formats of {@link renderPresetScore}. */
export const PRESET_REPORT_FORMATS = ['table', 'json', 'markdown'] as const
/** One of {@link PRESET_REPORT_FORMATS}. */
export type PresetReportFormat = (typeof PRESET_REPORT_FORMATS)[number]

/** What the layouts read of a preset (a {@link Preset} or a result's `preset`). */
export type LayoutOf = Pick<Preset, 'id' | 'report' | 'rounding'>

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * One run in trec_eval's printed layout (`%-22s\t%s\t%6.4f`): with `perQuery`, the run's queries
 * in byte order of qid, then the `all` rows; exactly what the official command prints.
 */
export function renderTrecEvalLayout(
  preset: LayoutOf,
  evaluation: RunEvaluation,
  perQuery: boolean,
): string {
  if (preset.report.layout !== 'trec_eval')
    throw new TrecscoreError(`preset '${preset.id}' has no trec_eval layout`, 2)
  const idx = preset.report.names.map(
    ([m, printed]) => [evaluation.measures.indexOf(m), printed] as const,
  )
  const digits = preset.rounding.digits
  const line = (printed: string, qid: string, v: number | null): string =>
    `${padRight(printed, 22)}\t${qid}\t${formatFixed(v ?? 0, digits)}\n`
  let out = ''
  if (perQuery) {
    const qs = evaluation.perQuery
      .filter((q) => q.status === 'evaluated')
      .sort((a, b) => byteOrder(a.queryId, b.queryId))
    for (const q of qs)
      for (const [i, printed] of idx) out += line(printed, decodeId(q.queryId), q.values[i]!)
  }
  for (const [i, printed] of idx) out += line(printed, 'all', evaluation.aggregates[i]!.value)
  return out
}

/**
 * One run in ir_measures' command-line layout: `name<TAB>value` per measure in the preset's
 * order, values with `rounding.digits` decimals (Python's `{:.4f}`, the same rounding as C's).
 * With `perQuery` (ir_measures `-q`): `qid<TAB>name<TAB>value` for every averaged topic
 * (zero-filled ones included), then `all<TAB>name<TAB>value`. ir_measures lists the per-topic
 * rows in its providers' order; here they are in byte order of qid, measures in command order.
 */
export function renderIrMeasuresLayout(
  preset: LayoutOf,
  evaluation: RunEvaluation,
  perQuery: boolean,
): string {
  const digits = preset.rounding.digits
  let out = ''
  if (perQuery) {
    const qs = [...evaluation.perQuery].sort((a, b) => byteOrder(a.queryId, b.queryId))
    for (const q of qs)
      evaluation.measures.forEach(
        (m, i) =>
          (out += `${decodeId(q.queryId)}\t${m}\t${formatFixed(q.values[i] ?? 0, digits)}\n`),
      )
  }
  const prefix = perQuery ? 'all\t' : ''
  evaluation.measures.forEach(
    (m, i) =>
      (out += `${prefix}${m}\t${formatFixed(evaluation.aggregates[i]!.value ?? 0, digits)}\n`),
  )
  return out
}

/** The per-measure conventions as lines (`MEASURES: tie rule NAME; conventions`), empty without overrides. */
export function conventionSetLines(result: PresetResult): string[] {
  if (result.conventions.length < 2) return []
  return result.conventions.map(
    (g) =>
      `${g.measures.join(', ')}: ${g.tieRule ? `tie rule ${g.tieRule}; ` : ''}${conventionsLine(g.conventions)}`,
  )
}

/**
 * Render a preset result as text (the preset's layout), JSON (full precision; the
 * `trecscore.preset-score/1` view of the result) or markdown. Accepts the deprecated
 * {@link PresetScore} too (its `result` is rendered).
 */
export function renderPresetScore(
  score: PresetResult | PresetScore,
  opts: { readonly format: PresetReportFormat; readonly perQuery: boolean },
): string {
  const result = 'result' in score ? score.result : score
  const { preset } = result
  const evaluations = result.runs.map((r) => presetRunEvaluation(result, r))
  const grouped = result.conventions.length > 1
  if (opts.format === 'json') {
    const body = {
      schema: PRESET_SCORE_SCHEMA,
      preset: preset.id,
      official: preset.official,
      conventions: result.conventions[0]!.conventions,
      ...(grouped
        ? {
            measure_conventions: result.conventions.map((g) => ({
              measures: g.measures,
              tie_rule: g.tieRule,
              conventions: g.conventions,
            })),
          }
        : {}),
      qrels: result.inputs.qrels,
      ...(result.inputs.relMap
        ? {
            rel_map: {
              map: result.inputs.relMap.map,
              judgments_changed: result.inputs.relMap.changed,
            },
          }
        : {}),
      warnings: presetWarnings(result),
      notes: presetNotes(result),
      topics: result.runs.map((r) => ({
        run: r.name,
        averaged: r.queries.length,
        qrels_topics_missing_from_run: r.counts.missingQueries,
        run_topics_not_in_qrels: r.counts.ignoredQueries,
      })),
      results: toJson(evaluations, opts.perQuery),
      provenance: result.provenance,
    }
    return JSON.stringify(body, null, 2) + '\n'
  }
  if (opts.format === 'markdown' || preset.report.layout === 'leaderboard') {
    const table = renderResults(evaluations, {
      format: opts.format === 'markdown' ? 'markdown' : 'table',
      perQuery: opts.perQuery,
      digits: preset.rounding.digits,
    })
    const lines = conventionSetLines(result)
    if (!lines.length) return table
    return (
      table +
      (opts.format === 'markdown'
        ? lines.map((l) => `\n${escapeMarkdown(l)}`).join('\n') + '\n'
        : lines.map((l) => `${l}\n`).join(''))
    )
  }
  const one = (e: RunEvaluation): string =>
    preset.report.layout === 'ir_measures'
      ? renderIrMeasuresLayout(preset, e, opts.perQuery)
      : renderTrecEvalLayout(preset, e, opts.perQuery)
  if (evaluations.length === 1) return one(evaluations[0]!)
  return evaluations.map((e) => `# ${e.runName}\n${one(e)}`).join('\n')
}
