/**
 * `score --explain` for the presets scored from TREC qrels (TREC 2021 DL, TREC 2023 NeuCLIR) and
 * for RETECO: the conventions that produced the numbers, and per run what was zero-filled,
 * ignored, deduplicated or cut, with counts. Pure: scores in, text out. The conventions prose is
 * that of `trecscore presets show` ({@link describePresetConventions}) and `--explain` elsewhere
 * ({@link describeCounts}); the CLI writes the text to stderr next to JSON, else after the table.
 */
import { describeCounts } from '../report/leaderboard.js'
import { describePresetConventions } from './describe.js'
import type { Preset } from './preset.js'
import { RETECO_CONVENTION_SETS } from './reteco/conventions.js'
import type { RetecoReport } from './reteco/report-model.js'
import type { PresetResult } from './run-preset.js'
import { presetRunEvaluation } from './score-preset.js'

/**
 * The conventions of a preset result (as its definition `preset` states them) and, per run, what
 * its preparation dropped or zero-filled.
 */
export function explainPresetScore(preset: Preset, result: PresetResult): string {
  const qrelsFile = result.inputs.qrels ?? ''
  const relMap = result.inputs.relMap
  const qrels = relMap
    ? `qrels: ${qrelsFile}; --rel-map ${Object.entries(relMap.map)
        .map(([g, v]) => `${g}:${v}`)
        .join(',')} applied before scoring (${relMap.changed} judgment(s) changed)`
    : `qrels: ${qrelsFile}`
  const runs = result.runs.map((r) => {
    const others =
      result.conventions.length > 1
        ? result.conventions
            .map((g, i) => ({ g, counts: r.conventionCounts[i]! }))
            .filter(({ g }) => g.conventions !== result.conventions[0]!.conventions)
            .map(
              ({ g, counts }) =>
                `  ${g.measures.join(', ')}${g.tieRule ? ` (tie rule ${g.tieRule})` : ''}: duplicate docs removed: ${counts.duplicatesRemoved}; docs below the depth cut: ${counts.cutByDepth}`,
            )
        : []
    return [describeCounts(presetRunEvaluation(result, r)), ...others].join('\n')
  })
  return (
    [
      `preset ${preset.id}: ${preset.title}`,
      '',
      ...describePresetConventions(preset),
      '',
      qrels,
      '',
      runs.join('\n\n'),
    ].join('\n') + '\n'
  )
}

/** Options of {@link explainRetecoReports}. */
export interface ExplainRetecoOptions {
  /** The `--digits` of the text output. @default 4 */
  readonly digits?: number
}

/** The convention set, the conventions in force and, per run and domain, what was zero-filled, ignored or removed. */
export function explainRetecoReports(
  reports: readonly RetecoReport[],
  options: ExplainRetecoOptions = {},
): string {
  const digits = options.digits ?? 4
  const blocks = reports.map((r) => {
    const set = RETECO_CONVENTION_SETS.get(r.conventionSet)
    return [
      `run ${r.run}: RETECO ${r.subtrack}, convention set ${r.conventionSet}${set ? ` (${set.description})` : ''}; split ${r.split}; run layout ${r.runLayout}`,
      `  headline: ${r.headline.measure}${r.headline.aggregation ? `, ${r.headline.aggregation}` : ''}; printed with ${digits} decimals (--digits), JSON unrounded${r.printed !== null ? "; the reference output is the tool's own" : ''}`,
      '  conventions in force:',
      ...r.conventions.map(([k, v]) => `    ${k}: ${v}`),
      ...r.counts.map(
        (c) =>
          `  ${c.domain}: ${c.topics} topics, ${c.lines} lines; missing from the run: ${c.missing.length}; empty after cleaning: ${c.emptyAfterCleaning.length}; duplicates removed: ${c.duplicatesRemoved}; unknown docs discarded: ${c.unknownDocsDiscarded}; run topics without qrels (ignored): ${c.unknownTopics} (${c.unknownTopicLines} lines)`,
      ),
      ...(r.errors.length ? [`  not scored: ${r.errors.length} error(s)`] : []),
    ].join('\n')
  })
  return blocks.join('\n\n') + '\n'
}
