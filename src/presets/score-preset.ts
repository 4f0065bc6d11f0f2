/**
 * Run a {@link Preset} on the engine: read the TREC qrels and runs under the preset's
 * conventions, evaluate with {@link RunEvaluator}, and collect the preset's warnings. Rendering
 * (trec_eval layout, leaderboard, JSON) is in {@link renderPresetScore}.
 */
import { basename } from 'node:path'
import type { Qrels, Run } from '../model/types.js'
import { decodeId } from '../io/bytes.js'
import { readQrels, readRun } from '../io/read.js'
import { docCount, docIdsOf } from '../model/run-query.js'
import { RunEvaluator, type RunEvaluation } from '../evaluate/evaluate.js'
import { renderResults, toJson } from '../report/leaderboard.js'
import { formatFixed, padRight } from '../report/printf.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import type { Preset } from './preset.js'
import { findPreset, presetIds } from './registry.js'

/** One run scored by a preset. */
export interface PresetRunScore {
  /** The engine's result (per-query values, aggregates, counts). */
  readonly evaluation: RunEvaluation
  /** The preset's checks that fired for this run. */
  readonly warnings: readonly string[]
}

/** Every run of one `score --preset` call. */
export interface PresetScore {
  readonly preset: Preset
  readonly qrelsFile: string
  /** The preset's checks that fired for the qrels. */
  readonly qrelsWarnings: readonly string[]
  readonly runs: readonly PresetRunScore[]
}

/** The preset with this id; throws {@link TrecscoreError} (exit 2) listing the known ids. */
export function getPreset(id: string): Preset {
  const p = findPreset(id)
  if (!p) throw new TrecscoreError(`unknown preset '${id}'; known presets: ${presetIds().join(', ')}`, 2)
  return p
}

/** Warnings of the preset's qrels checks (e.g. the DL "-no1" variant). */
export function checkPresetQrels(preset: Preset, qrels: Qrels, file: string): string[] {
  const out: string[] = []
  for (const c of preset.checks) {
    if (c.kind !== 'qrels-missing-grade') continue
    let judged = 0
    let ofGrade = 0
    for (const q of qrels.queries.values()) {
      for (const [g, n] of q.relLevels.entries()) {
        judged += n
        if (g === c.grade) ofGrade += n
      }
    }
    const named = basename(file).includes(`-no${c.grade}`)
    if (named || (judged > 0 && ofGrade === 0)) out.push(`${file}: ${c.message}`)
  }
  return out
}

/** Warnings of the preset's run checks (task mix-up by doc id prefix, runs deeper than allowed). */
export function checkPresetRun(preset: Preset, run: Run, file: string): string[] {
  const out: string[] = []
  for (const c of preset.checks) {
    if (c.kind === 'doc-id-prefix') {
      let n = 0
      let first = ''
      for (const q of run.queries.values()) {
        for (const d of docIdsOf(q)) {
          if (d.startsWith(c.prefix)) {
            if (n === 0) first = decodeId(d)
            n++
          }
        }
      }
      if (n > 0) out.push(`${file}: ${n} doc id(s) start with '${c.prefix}' (first: ${first}): ${c.message}`)
    } else if (c.kind === 'max-depth') {
      let n = 0
      let deepest = 0
      let which = ''
      for (const q of run.queries.values()) {
        const k = docCount(q)
        if (k > c.depth) {
          n++
          if (k > deepest) {
            deepest = k
            which = decodeId(q.queryId)
          }
        }
      }
      if (n > 0) out.push(`${file}: ${n} quer${n === 1 ? 'y retrieves' : 'ies retrieve'} more than ${c.depth} documents (deepest: ${which} with ${deepest}): ${c.message}`)
    }
  }
  return out
}

/** Score TREC run files with a preset (by id or value) against a TREC qrels file. */
export async function scorePreset(presetOrId: Preset | string, inputs: { readonly qrels: string; readonly runs: readonly string[] }): Promise<PresetScore> {
  const preset = typeof presetOrId === 'string' ? getPreset(presetOrId) : presetOrId
  const c = preset.conventions
  if (preset.input.qrels !== 'trec-qrels') throw new TrecscoreError(`preset '${preset.id}' reads --data DIR, not TREC qrels (use scoreSkillRet)`, 2)
  if (inputs.runs.length === 0) throw new TrecscoreError(`preset '${preset.id}': no run given`, 2)
  const qrels = await readQrels(inputs.qrels, { comments: c.comments })
  const qrelsWarnings = checkPresetQrels(preset, qrels, inputs.qrels)
  const runs: PresetRunScore[] = []
  for (const file of inputs.runs) {
    const run = await readRun(file, { comments: c.comments, float32: c.scorePrecision === 'float32', keepRanks: c.ordering === 'rank' })
    const ev = new RunEvaluator(qrels, preset.parsedMeasures, c, { runName: file })
    for (const q of run.queries.values()) ev.add(q)
    const evaluation = ev.finish(run.tag)
    const failed = evaluation.counts.failedQueries
    if (failed.length) {
      // The official evaluator stops here too (trec_eval: "duplicate docs"); never a silent 0.
      const why = failed.slice(0, 10).map(({ queryId, failure: f }) =>
        `query ${JSON.stringify(decodeId(queryId))}: ${f.code === 'duplicate_doc' ? `document ${JSON.stringify(decodeId(f.docId))} retrieved more than once` : f.code === 'duplicate_judgment' ? `document ${JSON.stringify(decodeId(f.docId))} judged more than once in the qrels` : 'only negative (unjudged) judgments'}`,
      )
      throw new TrecscoreError(`${file}: ${failed.length} quer${failed.length === 1 ? 'y' : 'ies'} cannot be scored under preset '${preset.id}' (duplicates: ${c.duplicates}): ${why.join('; ')}${failed.length > 10 ? '; …' : ''}`, 2)
    }
    runs.push({ evaluation, warnings: checkPresetRun(preset, run, file) })
  }
  return { preset, qrelsFile: inputs.qrels, qrelsWarnings, runs }
}

/** Output formats of {@link renderPresetScore}. */
export const PRESET_REPORT_FORMATS = ['table', 'json', 'markdown'] as const
/** One of {@link PRESET_REPORT_FORMATS}. */
export type PresetReportFormat = (typeof PRESET_REPORT_FORMATS)[number]

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * One run in trec_eval's printed layout (`%-22s\t%s\t%6.4f`): with `perQuery`, the run's queries
 * in byte order of qid, then the `all` rows; exactly what the official command prints.
 */
export function renderTrecEvalLayout(preset: Preset, evaluation: RunEvaluation, perQuery: boolean): string {
  if (preset.report.layout !== 'trec_eval') throw new TrecscoreError(`preset '${preset.id}' has no trec_eval layout`, 2)
  const idx = preset.report.names.map(([m, printed]) => [evaluation.measures.indexOf(m), printed] as const)
  const digits = preset.rounding.digits
  const line = (printed: string, qid: string, v: number | null): string => `${padRight(printed, 22)}\t${qid}\t${formatFixed(v ?? 0, digits)}\n`
  let out = ''
  if (perQuery) {
    const qs = evaluation.perQuery.filter((q) => q.status === 'evaluated').sort((a, b) => byteOrder(a.queryId, b.queryId))
    for (const q of qs) for (const [i, printed] of idx) out += line(printed, decodeId(q.queryId), q.values[i]!)
  }
  for (const [i, printed] of idx) out += line(printed, 'all', evaluation.aggregates[i]!.value)
  return out
}

/** Render a preset score as text (the preset's layout), JSON (full precision) or markdown. */
export function renderPresetScore(score: PresetScore, opts: { readonly format: PresetReportFormat; readonly perQuery: boolean }): string {
  const { preset } = score
  const evaluations = score.runs.map((r) => r.evaluation)
  if (opts.format === 'json') {
    const body = {
      preset: preset.id,
      official: preset.official,
      conventions: preset.conventions,
      qrels: score.qrelsFile,
      warnings: [...score.qrelsWarnings, ...score.runs.flatMap((r) => r.warnings)],
      results: toJson(evaluations, opts.perQuery),
    }
    return JSON.stringify(body, null, 2) + '\n'
  }
  if (opts.format === 'markdown' || preset.report.layout === 'leaderboard') {
    return renderResults(evaluations, { format: opts.format === 'markdown' ? 'markdown' : 'table', perQuery: opts.perQuery, digits: preset.rounding.digits })
  }
  if (score.runs.length === 1) return renderTrecEvalLayout(preset, evaluations[0]!, opts.perQuery)
  return evaluations.map((e) => `# ${e.runName}\n${renderTrecEvalLayout(preset, e, opts.perQuery)}`).join('\n')
}
