/**
 * `compare --preset` and `report --preset` for the registry presets: score the runs with
 * `runPreset`, exactly as `score --preset` does, and give the per-query table the paired tests
 * read (see {@link scorePresetForComparison}).
 */
import { tableFromEvaluations } from '../compare/compare.js'
import type { PerQueryTable } from '../compare/types.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import type { RunInput } from '../io/run-labels.js'
import type { Preset } from './preset.js'
import { type PresetResult, qrelsWarnings, runMessages, runPreset } from './run-preset.js'
import { conventionSetLines, presetRunEvaluation } from './score-preset.js'

/** Inputs of {@link scorePresetForComparison}. */
export interface ComparePresetInput {
  /** A preset read from TREC qrels (`dl21-…`, `neuclir23-…`, with `qrels`) or a SkillRet data folder (`skillret`, `skillret-fusion`, with `data`). */
  readonly preset: Preset
  /** The TREC qrels file (presets whose input is `trec-qrels`). */
  readonly qrels?: string
  /** The data folder (SkillRet presets). */
  readonly data?: string
  /** Run paths, or `{ path, name }` with the label to show. */
  readonly runs: readonly RunInput[]
  /** Measures (default: the preset's). Each is computed under the conventions the preset gives it. */
  readonly measures?: readonly string[]
  /** `--rel-map`: a named map of the preset or `grade:value,...`. */
  readonly relMap?: string
}

/**
 * Score TREC runs with a preset exactly as `score --preset` does (`runPreset`: its qrels checks,
 * score precision, tie rules and per-measure conventions, e.g. NeuCLIR's RBP under cwl_eval's),
 * and return:
 * - `score`: the preset's own result (what `score --preset` prints; the report's leaderboard);
 * - `table`: the per-query table `compareTable` tests, every run on the qrels queries (a query
 *   missing from a run zero-filled; scored a second time only when the preset skips them);
 * - `notes`: the per-measure conventions, the preset's warnings and notes, for the legend.
 */
export async function scorePresetForComparison(input: ComparePresetInput): Promise<{
  readonly score: PresetResult
  readonly table: PerQueryTable
  readonly notes: readonly string[]
}> {
  if (input.runs.length < 1)
    throw new TrecscoreError(`preset '${input.preset.id}': no run given`, 2)
  const fromData = input.preset.input.qrels !== 'trec-qrels'
  const where = fromData ? input.data : input.qrels
  if (where === undefined)
    throw new TrecscoreError(
      `preset '${input.preset.id}' needs ${fromData ? '--data <dir>' : '--qrels <file>'}`,
      2,
    )
  const inputs = {
    ...(fromData ? { data: where } : { qrels: where }),
    runs: input.runs,
    ...(input.relMap !== undefined ? { relMap: input.relMap } : {}),
  }
  const options = input.measures ? { measures: input.measures } : {}
  const score = await runPreset(input.preset, inputs, options)
  const skips = score.conventions.some((c) => c.conventions.missingQueries !== 'zero')
  const zeroFilled = skips
    ? await runPreset(input.preset, inputs, { ...options, zeroFillMissing: true })
    : score
  const table = tableFromEvaluations(
    zeroFilled.runs.map((r) => presetRunEvaluation(zeroFilled, r)),
    `${fromData ? 'data' : 'qrels'} ${where}, preset ${input.preset.id} conventions`,
  )
  const notes = conventionSetLines(score)
  if (skips)
    notes.push(
      `missing queries are zero-filled here, although the preset ${input.preset.id} skips them: paired tests need every run on the same queries`,
    )
  notes.push(...qrelsWarnings(score), ...score.runs.flatMap(runMessages))
  return { score, table: { ...table, notes: [...table.notes, ...notes] }, notes }
}
