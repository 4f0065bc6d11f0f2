/**
 * Convention sensitivity of a preset read from TREC qrels or a SkillRet data folder (`score
 * --preset P --sensitivity`, `report --preset P --sensitivity`): the preset's measures under its
 * own conventions (per-measure overrides kept), each convention varied in turn. A preset fixes
 * its relevance level (part of its official evaluation: `-l 2` for the DL passage task), so no
 * other level is tried; every other convention is varied around the preset's value.
 */
import { TrecscoreError } from '../errors/trecscore-error.js'
import {
  defaultAlternatives,
  runsHaveRanks,
  type SensitivityReport,
  type SensitivityRun,
  type SkippedConvention,
  sensitivity,
} from '../evaluate/sensitivity.js'
import { runInputName, runInputPath } from '../io/run-labels.js'
import type { Preset } from './preset.js'
import {
  conventionSets,
  getPreset,
  measuresOf,
  PRESET_INPUTS,
  type PresetInputs,
  type RunPresetOptions,
} from './run-preset.js'

/** The conventions a preset fixes, and why (no alternative is tried for them). */
export function presetFixedConventions(preset: Preset): SkippedConvention[] {
  return [
    {
      convention: 'relevanceLevel',
      reason: `fixed by preset ${preset.id}: grade >= ${preset.conventions.relevanceLevel} is relevant in its official evaluation`,
    },
  ]
}

/**
 * Read the preset's inputs (qrels checks as `runPreset` runs them), every run once at full
 * precision with its rank column, and report how much each score and the ranking of the runs
 * depend on each convention the preset does not fix.
 */
export async function presetSensitivity(
  presetOrId: Preset | string,
  inputs: PresetInputs,
  options: Pick<RunPresetOptions, 'measures' | 'cutoffs' | 'zeroFillMissing'> = {},
): Promise<SensitivityReport> {
  const preset = typeof presetOrId === 'string' ? getPreset(presetOrId) : presetOrId
  if (inputs.runs.length === 0) throw new TrecscoreError(`preset '${preset.id}': no run given`, 2)
  const adapter = PRESET_INPUTS[preset.input.qrels]
  adapter.check(preset, inputs)
  const { measures, labels } = measuresOf(preset, options)
  const { conventions, input } = conventionSets(preset, measures, !!options.zeroFillMissing)
  const loaded = await adapter.load(preset, inputs, [])
  const runs: SensitivityRun[] = []
  for (const r of inputs.runs) {
    const read = await loaded.readRun(
      runInputPath(r),
      { ...conventions, scorePrecision: 'float64' },
      { float32: false, keepRanks: true },
    )
    runs.push({
      name: runInputName(r),
      run: read.run,
      ...(read.evaluate ? { options: read.evaluate } : {}),
    })
  }
  const headline = (preset.aggregations ?? [])[0]
  const notes =
    headline && headline.kind !== 'query-mean'
      ? [
          `scores are each measure's mean over the preset's queries, not its headline aggregation '${headline.id}'`,
        ]
      : []
  const { alternatives, skipped } = defaultAlternatives(conventions, {
    qrels: loaded.qrels,
    // A preset with a per-query corpus (RETECO's documents.jsonl per domain) tells unknown docs apart.
    corpus: runs.some((r) => r.options?.corpusOf !== undefined),
    ranks: runsHaveRanks(runs),
    fixed: presetFixedConventions(preset),
  })
  return sensitivity({
    qrels: loaded.qrels,
    runs,
    measures: input,
    conventions,
    alternatives,
    skipped,
    labels,
    notes,
    ...(loaded.queries ? { queries: loaded.queries } : {}),
  })
}
