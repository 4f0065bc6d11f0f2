/**
 * File edge of `trecscore report`: read the qrels and runs (or score a RETECO preset), evaluate,
 * compare for significance, build the report data and write the HTML file.
 */
import { writeOutputFile } from '../../io/output.js'
import { compareRuns, compareTable } from '../../compare/compare.js'
import { scorePresetForComparison } from '../../compare/compare-files.js'
import { tableFromRetecoReports } from '../../compare/reteco.js'
import type { CompareResult } from '../../compare/types.js'
import type { Conventions } from '../../conventions/conventions.js'
import { resolveConventions } from '../../conventions/profiles.js'
import type { InputIssue } from '../../errors/issues.js'
import { InputError, isTrecscoreError } from '../../errors/trecscore-error.js'
import { evaluate, type RunEvaluation } from '../../evaluate/evaluate.js'
import { readQrels, readRun } from '../../io/read.js'
import { runInputName, runInputPath, type RunInput } from '../../io/run-labels.js'
import type { Run } from '../../model/types.js'
import { PLAN_METRICS } from '../../presets/reteco/aggregate.js'
import { RETECO_PRESETS, scoreRetecoRuns, type RetecoPreset } from '../../presets/reteco/score-runs.js'
import { findPreset } from '../../presets/registry.js'
import { conventionsLine } from '../leaderboard.js'
import { loadReportAssets } from './assets.js'
import { reportFromEvaluations, reportFromReteco, type ReportData } from './model.js'
import { renderHtmlReport } from './render.js'

/** The measures a report shows when none are given (plain qrels). */
export const DEFAULT_REPORT_MEASURES: readonly string[] = ['nDCG@10', 'AP', 'RR@10', 'R@100', 'P@5']

/** What to report on. */
export interface ReportRequest {
  /** TREC qrels (every source but a RETECO preset). */
  readonly qrels?: string
  /** Run paths, or `{ path, name }` with the label each run is shown under. */
  readonly runs: readonly RunInput[]
  /** Measures (default: {@link DEFAULT_REPORT_MEASURES}, the preset's, or the RETECO plan metrics). */
  readonly measures?: readonly string[]
  /** A preset id: `reteco-…` (with `data`) or a registry preset with TREC qrels (`dl21-…`). */
  readonly preset?: string
  /** RETECO data directory. */
  readonly data?: string
  /** RETECO split. @default 'dev' */
  readonly split?: string
  /** Baseline run (the name of one of `runs`): the difference chart and the significance tests. */
  readonly baseline?: string
  /** Conventions of a plain evaluation. @default trec_eval 10's */
  readonly conventions?: Partial<Conventions>
  readonly title?: string
}

function isReteco(p: string | undefined): p is RetecoPreset {
  return p !== undefined && (RETECO_PRESETS as readonly string[]).includes(p)
}

/** Run a comparison; on a refusal (e.g. one run only) return the reason as a note instead. */
function tryCompare(f: () => CompareResult): { comparison: CompareResult | null; notes: string[] } {
  try {
    return { comparison: f(), notes: [] }
  } catch (e) {
    if (isTrecscoreError(e)) return { comparison: null, notes: [`significance not computed: ${e.message}`] }
    throw e
  }
}

/**
 * Evaluate (or score) the runs and build the report data. Throws {@link InputError} for bad
 * arguments and unreadable inputs.
 */
export async function buildReportData(req: ReportRequest): Promise<ReportData> {
  const issues: InputIssue[] = []
  if (req.runs.length === 0) issues.push({ code: 'bad_argument', option: 'RUN', found: '', expected: 'at least one run' })
  const names = req.runs.map(runInputName)
  if (req.baseline !== undefined && !names.includes(req.baseline)) issues.push({ code: 'bad_argument', option: '--baseline', found: req.baseline, expected: `one of the runs given (${names.join(', ')})` })
  if (isReteco(req.preset)) {
    if (req.data === undefined) issues.push({ code: 'bad_argument', option: '--data', found: '', expected: `the RETECO data directory (preset ${req.preset})` })
    if (req.qrels !== undefined) issues.push({ code: 'bad_argument', option: 'QRELS', found: req.qrels, expected: `no qrels file with --preset ${req.preset} (the qrels come from --data)` })
    for (const m of req.measures ?? []) if (!(PLAN_METRICS as readonly string[]).includes(m)) issues.push({ code: 'bad_argument', option: '-m', found: m, expected: `a RETECO plan metric (${PLAN_METRICS.join(', ')})` })
  } else {
    if (req.qrels === undefined) issues.push({ code: 'bad_argument', option: 'QRELS', found: '', expected: 'a TREC qrels file before the runs' })
    if (req.data !== undefined) issues.push({ code: 'bad_argument', option: '--data', found: req.data, expected: '--data only with a RETECO preset (reteco-1a, reteco-1b, reteco-2a, reteco-2c)' })
    const p = req.preset === undefined ? undefined : findPreset(req.preset)
    if (req.preset !== undefined && (!p || p.input.qrels !== 'trec-qrels'))
      issues.push({ code: 'bad_argument', option: '--preset', found: req.preset, expected: 'a RETECO preset (with --data) or a preset read from TREC qrels (see trecscore presets)' })
  }
  if (issues.length) throw new InputError(issues)
  const order = req.baseline !== undefined ? [...req.runs.filter((r) => runInputName(r) === req.baseline), ...req.runs.filter((r) => runInputName(r) !== req.baseline)] : [...req.runs]

  if (isReteco(req.preset)) {
    const split = req.split ?? 'dev'
    const measures = req.measures ?? [...PLAN_METRICS]
    const scored = await scoreRetecoRuns({ preset: req.preset, data: req.data!, split, runs: order.map(runInputPath), conventions: 'plan' })
    const reports = scored.map((r, i) => ({ ...r, run: runInputName(order[i]!) }))
    const source = `preset ${req.preset} (plan conventions) on ${req.data}, split ${split}`
    const { comparison, notes } = reports.length > 1 ? tryCompare(() => compareTable(tableFromRetecoReports(reports, measures, source), { baseline: req.baseline ?? null })) : { comparison: null, notes: [] }
    return reportFromReteco(reports, measures, source, { comparison, notes, ...(req.baseline !== undefined ? { baseline: req.baseline } : {}), ...(req.title !== undefined ? { title: req.title } : {}) })
  }

  const preset = req.preset === undefined ? undefined : findPreset(req.preset)
  const build = { ...(req.baseline !== undefined ? { baseline: req.baseline } : {}), ...(req.title !== undefined ? { title: req.title } : {}) }
  if (preset) {
    // The route `score --preset` takes (scorePreset): its checks, tie rules and per-measure conventions.
    const { score, table, notes: presetNotes } = await scorePresetForComparison({ preset, qrels: req.qrels!, runs: order, ...(req.measures ? { measures: req.measures } : {}) })
    const source = `qrels ${req.qrels}, preset ${preset.id} (${preset.title})`
    const { comparison, notes } = order.length > 1 ? tryCompare(() => compareTable({ ...table, source }, { baseline: req.baseline ?? null })) : { comparison: null, notes: [] }
    const data = reportFromEvaluations(score.runs.map((r, i) => ({ ...r.evaluation, runName: runInputName(order[i]!) })), source, { comparison, notes: [...presetNotes, ...notes], ...build })
    const groups = (score.runs[0]?.groups ?? []).map((g): [string, string] => [g.measures.join(', '), `${g.tieRule ? `tie rule ${g.tieRule}; ` : ''}${conventionsLine(g.conventions)}`])
    return { ...data, conventions: [...data.conventions, ...groups] }
  }
  const conventions = resolveConventions(req.conventions ?? {})
  const measures = req.measures ?? DEFAULT_REPORT_MEASURES
  const qrels = await readQrels(req.qrels!, { comments: conventions.comments })
  const runs: { name: string; run: Run }[] = []
  for (const f of order) runs.push({ name: runInputName(f), run: await readRun(runInputPath(f), { comments: conventions.comments, float32: conventions.scorePrecision === 'float32' }) })
  const results: RunEvaluation[] = runs.map((r) => evaluate(qrels, r.run, measures, conventions, { runName: r.name }))
  const source = `qrels ${req.qrels}`
  const { comparison, notes } = runs.length > 1 ? tryCompare(() => compareRuns(qrels, runs, measures, { conventions, source, baseline: req.baseline ?? null })) : { comparison: null, notes: [] }
  return reportFromEvaluations(results, source, { comparison, notes, ...build })
}

/** Render the report with the inlined assets and write it to `out`; returns the HTML. */
export async function writeHtmlReport(data: ReportData, out: string): Promise<string> {
  const html = renderHtmlReport(data, await loadReportAssets())
  await writeOutputFile(out, html)
  return html
}
