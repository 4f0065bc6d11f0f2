/**
 * File edge of `trecscore report`: read the qrels and runs, evaluate (or score a preset), compare
 * for significance, build the report data and write the HTML file. A preset family that reads
 * its own data folder (RETECO) is served by a {@link DataPresetReportRoute} the caller passes in.
 */

import { compareRuns, compareTable } from '../compare/compare.js'
import type { CompareResult } from '../compare/types.js'
import type { Conventions } from '../conventions/conventions.js'
import { resolveConventions } from '../conventions/profiles.js'
import type { InputIssue } from '../errors/issues.js'
import { InputError, isTrecscoreError } from '../errors/trecscore-error.js'
import { evaluate, type RunEvaluation } from '../evaluate/evaluate.js'
import {
  defaultAlternatives,
  narrowRun,
  runsHaveRanks,
  sensitivity,
} from '../evaluate/sensitivity.js'
import { writeOutputFile } from '../io/output.js'
import { readQrels, readRun } from '../io/read.js'
import { type RunInput, runInputName, runInputPath } from '../io/run-labels.js'
import { parseMeasures } from '../measures/name.js'
import type { Run } from '../model/types.js'
import { loadReportAssets } from '../report/html/assets.js'
import { type ReportData, reportFromEvaluations } from '../report/html/model.js'
import { renderHtmlReport } from '../report/html/render.js'
import { conventionsLine } from '../report/leaderboard.js'
import { scorePresetForComparison } from './compare-preset.js'
import { findPreset } from './registry.js'
import { presetRunEvaluation } from './score-preset.js'
import { presetSensitivity } from './sensitivity.js'

/** The measures a report shows when none are given (plain qrels). */
export const DEFAULT_REPORT_MEASURES: readonly string[] = ['nDCG@10', 'AP', 'RR@10', 'R@100', 'P@5']

/** What to report on. */
export interface ReportRequest {
  /** TREC qrels (every source but a preset served by a {@link DataPresetReportRoute}). */
  readonly qrels?: string
  /** Run paths, or `{ path, name }` with the label each run is shown under. */
  readonly runs: readonly RunInput[]
  /** Measures (default: {@link DEFAULT_REPORT_MEASURES}, the preset's, or the route's). */
  readonly measures?: readonly string[]
  /** A preset id: one of a route's (with `data`, e.g. `reteco-2a`) or a registry preset with TREC qrels (`dl21-…`). */
  readonly preset?: string
  /** The data directory of a route's preset. */
  readonly data?: string
  /** The split of a route's preset. @default 'dev' */
  readonly split?: string
  /** Baseline run (the name of one of `runs`): the difference chart and the significance tests. */
  readonly baseline?: string
  /** Conventions of a plain evaluation. @default trec_eval 10's */
  readonly conventions?: Partial<Conventions>
  readonly title?: string
  /** Preset families that read their own data folder (the CLI passes RETECO's). @default [] */
  readonly routes?: readonly DataPresetReportRoute[]
  /** Add the convention sensitivity section. @default false */
  readonly sensitivity?: boolean
}

/**
 * A preset family that reads its own data folder (`--data`) and has its own report model, such
 * as RETECO (`retecoReportRoute`): it checks the measures asked for and builds the report data.
 * Passed in by the caller, so this module imports no preset family.
 */
export interface DataPresetReportRoute {
  /** The family's name in messages (`RETECO`). */
  readonly family: string
  /** The preset ids it serves. */
  readonly presets: readonly string[]
  /** Problems with the measures asked for (`-m`). */
  checkMeasures(measures: readonly string[]): InputIssue[]
  /** Score the runs (baseline first), compare them when there are several, build the report data. */
  build(req: DataPresetReportRequest): Promise<ReportData>
}

/** What a {@link DataPresetReportRoute} is asked to report on (checked: `data` given, no qrels). */
export interface DataPresetReportRequest {
  readonly preset: string
  readonly data: string
  readonly split: string
  /** The runs, the baseline first. */
  readonly runs: readonly RunInput[]
  readonly measures?: readonly string[]
  readonly baseline?: string
  readonly title?: string
}

/** Run a comparison; on a refusal (e.g. one run only) return the reason as a note instead. */
export function tryCompare(f: () => CompareResult): {
  comparison: CompareResult | null
  notes: string[]
} {
  try {
    return { comparison: f(), notes: [] }
  } catch (e) {
    if (isTrecscoreError(e))
      return { comparison: null, notes: [`significance not computed: ${e.message}`] }
    throw e
  }
}

/**
 * Evaluate (or score) the runs and build the report data. Throws {@link InputError} for bad
 * arguments and unreadable inputs.
 */
export async function buildReportData(req: ReportRequest): Promise<ReportData> {
  const issues: InputIssue[] = []
  if (req.runs.length === 0)
    issues.push({ code: 'bad_argument', option: 'RUN', found: '', expected: 'at least one run' })
  const names = req.runs.map(runInputName)
  if (req.baseline !== undefined && !names.includes(req.baseline))
    issues.push({
      code: 'bad_argument',
      option: '--baseline',
      found: req.baseline,
      expected: `one of the runs given (${names.join(', ')})`,
    })
  const routes = req.routes ?? []
  const route =
    req.preset === undefined ? undefined : routes.find((r) => r.presets.includes(req.preset!))
  if (route) {
    if (req.data === undefined)
      issues.push({
        code: 'bad_argument',
        option: '--data',
        found: '',
        expected: `the ${route.family} data directory (preset ${req.preset})`,
      })
    if (req.qrels !== undefined)
      issues.push({
        code: 'bad_argument',
        option: 'QRELS',
        found: req.qrels,
        expected: `no qrels file with --preset ${req.preset} (the qrels come from --data)`,
      })
    issues.push(...route.checkMeasures(req.measures ?? []))
  } else if (req.preset !== undefined && findPreset(req.preset)?.input.qrels === 'skillret-data') {
    if (req.data === undefined)
      issues.push({
        code: 'bad_argument',
        option: '--data',
        found: '',
        expected: `the SkillRet data folder (preset ${req.preset})`,
      })
    if (req.qrels !== undefined)
      issues.push({
        code: 'bad_argument',
        option: 'QRELS',
        found: req.qrels,
        expected: `no qrels file with --preset ${req.preset} (the qrels come from --data)`,
      })
  } else {
    const folders = [
      ...routes.map((r) => `a ${r.family} preset (${r.presets.join(', ')})`),
      'a SkillRet preset (skillret, skillret-fusion)',
    ].join(' or ')
    if (req.qrels === undefined)
      issues.push({
        code: 'bad_argument',
        option: 'QRELS',
        found: '',
        expected: 'a TREC qrels file before the runs',
      })
    if (req.data !== undefined)
      issues.push({
        code: 'bad_argument',
        option: '--data',
        found: req.data,
        expected: `--data only with ${folders}`,
      })
    const p = req.preset === undefined ? undefined : findPreset(req.preset)
    if (req.preset !== undefined && (!p || p.input.qrels !== 'trec-qrels'))
      issues.push({
        code: 'bad_argument',
        option: '--preset',
        found: req.preset,
        expected: `${routes.map((r) => `a ${r.family} preset (with --data) or `).join('')}a preset read from TREC qrels (see trecscore presets)`,
      })
  }
  if (issues.length) throw new InputError(issues)
  const order =
    req.baseline !== undefined
      ? [
          ...req.runs.filter((r) => runInputName(r) === req.baseline),
          ...req.runs.filter((r) => runInputName(r) !== req.baseline),
        ]
      : [...req.runs]

  if (route) {
    const data = await route.build({
      preset: req.preset!,
      data: req.data!,
      split: req.split ?? 'dev',
      runs: order,
      ...(req.measures ? { measures: req.measures } : {}),
      ...(req.baseline !== undefined ? { baseline: req.baseline } : {}),
      ...(req.title !== undefined ? { title: req.title } : {}),
    })
    // The preset's own measures on the engine, each convention varied (RETECO: the plan's).
    if (!req.sensitivity) return data
    const sens = await presetSensitivity(req.preset!, {
      data: req.data!,
      split: req.split ?? 'dev',
      runs: order,
    })
    return { ...data, sensitivity: sens }
  }

  const preset = req.preset === undefined ? undefined : findPreset(req.preset)
  const build = {
    ...(req.baseline !== undefined ? { baseline: req.baseline } : {}),
    ...(req.title !== undefined ? { title: req.title } : {}),
  }
  if (preset) {
    // The route `score --preset` takes (runPreset): its checks, tie rules and per-measure conventions.
    const fromData = preset.input.qrels !== 'trec-qrels'
    const {
      score,
      table,
      notes: presetNotes,
    } = await scorePresetForComparison({
      preset,
      ...(fromData ? { data: req.data! } : { qrels: req.qrels! }),
      runs: order,
      ...(req.measures ? { measures: req.measures } : {}),
    })
    const source = `${fromData ? `data ${req.data}` : `qrels ${req.qrels}`}, preset ${preset.id} (${preset.title})`
    const { comparison, notes } =
      order.length > 1
        ? tryCompare(() => compareTable({ ...table, source }, { baseline: req.baseline ?? null }))
        : { comparison: null, notes: [] }
    const sens = req.sensitivity
      ? await presetSensitivity(
          preset,
          { ...(fromData ? { data: req.data! } : { qrels: req.qrels! }), runs: order },
          req.measures ? { measures: req.measures } : {},
        )
      : null
    const data = reportFromEvaluations(
      score.runs.map((r) => presetRunEvaluation(score, r)),
      source,
      {
        comparison,
        notes: [...presetNotes, ...notes],
        ...build,
        ...(sens ? { sensitivity: sens } : {}),
      },
    )
    const groups =
      score.conventions.length > 1
        ? score.conventions.map((g): [string, string] => [
            g.measures.join(', '),
            `${g.tieRule ? `tie rule ${g.tieRule}; ` : ''}${conventionsLine(g.conventions)}`,
          ])
        : []
    return { ...data, conventions: [...data.conventions, ...groups] }
  }
  const conventions = resolveConventions(req.conventions ?? {})
  const measures = req.measures ?? DEFAULT_REPORT_MEASURES
  const qrels = await readQrels(req.qrels!, { comments: conventions.comments })
  // With the sensitivity section every run is read once at full precision with its rank column
  // (the float32 conventions narrow it in memory), so both precisions and every ordering serve.
  const full = !!req.sensitivity
  const read: { name: string; run: Run }[] = []
  for (const f of order)
    read.push({
      name: runInputName(f),
      run: await readRun(runInputPath(f), {
        comments: conventions.comments,
        float32: !full && conventions.scorePrecision === 'float32',
        keepRanks: full,
      }),
    })
  const runs =
    full && conventions.scorePrecision === 'float32'
      ? read.map((r) => ({ name: r.name, run: narrowRun(r.run) }))
      : read
  const results: RunEvaluation[] = runs.map((r) =>
    evaluate(qrels, r.run, measures, conventions, { runName: r.name }),
  )
  const source = `qrels ${req.qrels}`
  const { comparison, notes } =
    runs.length > 1
      ? tryCompare(() =>
          compareRuns(qrels, runs, measures, {
            conventions,
            source,
            baseline: req.baseline ?? null,
          }),
        )
      : { comparison: null, notes: [] }
  if (!full) return reportFromEvaluations(results, source, { comparison, notes, ...build })
  const { alternatives, skipped } = defaultAlternatives(conventions, {
    qrels,
    corpus: false,
    ranks: runsHaveRanks(read),
  })
  const sens = sensitivity({
    qrels,
    runs: read,
    measures: parseMeasures(measures),
    conventions,
    alternatives,
    skipped,
  })
  return reportFromEvaluations(results, source, {
    comparison,
    notes,
    ...build,
    sensitivity: sens,
  })
}

/** Render the report with the inlined assets and write it to `out`; returns the HTML. */
export async function writeHtmlReport(data: ReportData, out: string): Promise<string> {
  const html = renderHtmlReport(data, await loadReportAssets())
  await writeOutputFile(out, html)
  return html
}
