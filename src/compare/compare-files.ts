/**
 * Edge of `compare`: read the inputs and build the {@link PerQueryTable} that `compareTable`
 * compares, for TREC qrels and runs (evaluated on the engine) and for RETECO data (scored by the
 * plan convention set). Used by `trecscore compare` and by anything else that compares files
 * (the HTML report).
 */
import type { Conventions } from '../conventions/conventions.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import type { RunEvaluation } from '../evaluate/evaluate.js'
import { evaluateRunFile } from '../evaluate/evaluate-file.js'
import { decodeId } from '../io/bytes.js'
import { readIdList, readQrels } from '../io/read.js'
import { type RunInput, runInputName, runInputPath } from '../io/run-labels.js'
import { parseMeasures } from '../measures/name.js'
import type { Preset } from '../presets/preset.js'
import { type PresetResult, qrelsWarnings, runMessages, runPreset } from '../presets/run-preset.js'
import { conventionSetLines, presetRunEvaluation } from '../presets/score-preset.js'
import { tableFromEvaluations } from './compare.js'
import type { PerQueryTable } from './types.js'

/** Inputs of {@link perQueryTableFromFiles}. */
export interface CompareFilesInput {
  /** TREC qrels file (`-`: stdin). */
  readonly qrels: string
  /** TREC run files (at least 2), each a path or `{ path, name }` (the label it is shown under). */
  readonly runs: readonly RunInput[]
  readonly measures: readonly string[]
  /** Conventions to evaluate under; `missingQueries` is overridden to `zero` (and noted when it said `skip`). */
  readonly conventions: Conventions
  /** Where the conventions came from, for the note (`profile trec-eval`, `preset dl21-passage`). */
  readonly conventionsFrom: string
  /** Grade remapping applied when reading the qrels. */
  readonly remap?: ReadonlyMap<number, number> | null
  /** Corpus id list file (for `unknownDocs: 'discard'`). */
  readonly corpus?: string
}

/**
 * Evaluate every run file on the qrels queries (missing queries zero-filled and counted) and
 * return their per-query table. Throws {@link TrecscoreError} (exit 2) when a query cannot be
 * evaluated (e.g. duplicate documents under the `error` policy) and InputError for bad files.
 */
export async function perQueryTableFromFiles(input: CompareFilesInput): Promise<PerQueryTable> {
  if (input.runs.length < 2)
    throw new TrecscoreError(
      `compare needs QRELS and at least 2 runs, got ${input.runs.length} run(s)`,
      2,
    )
  const measures = parseMeasures(input.measures)
  const conventions: Conventions = { ...input.conventions, missingQueries: 'zero' }
  const remap = input.remap ?? null
  const qrels = await readQrels(input.qrels, {
    comments: conventions.comments,
    ...(remap ? { remap: new Map(remap) } : {}),
  })
  const corpus = input.corpus ? await readIdList(input.corpus) : undefined
  const origin = input.qrels === '-' ? {} : { origin: { file: input.qrels, remap } }
  const evals: RunEvaluation[] = []
  for (const f of input.runs) {
    const runName = runInputName(f)
    evals.push(
      await evaluateRunFile(
        qrels,
        runInputPath(f),
        measures,
        conventions,
        corpus ? { corpus, runName } : { runName, ...origin },
      ),
    )
  }
  const failed = evals.flatMap((e) =>
    e.counts.failedQueries.map(
      (f) => `${e.runName}: query ${JSON.stringify(decodeId(f.queryId))}: ${f.failure.code}`,
    ),
  )
  if (failed.length)
    throw new TrecscoreError(
      `${failed.length} query evaluation(s) failed (see trecscore evaluate --explain):\n  ${failed.slice(0, 20).join('\n  ')}`,
      2,
    )
  const table = tableFromEvaluations(
    evals,
    `qrels ${input.qrels}, ${input.conventionsFrom} conventions`,
  )
  const notes = [...table.notes]
  if (input.conventions.missingQueries === 'skip')
    notes.push(
      `missing queries are zero-filled here, although the ${input.conventionsFrom} conventions skip them: paired tests need every run on the same queries`,
    )
  const extra = evals
    .filter((e) => e.counts.extraQueries > 0)
    .map((e) => `${e.runName} ${e.counts.extraQueries}`)
  if (extra.length) notes.push(`run queries without qrels (ignored): ${extra.join(', ')}`)
  return { ...table, notes }
}

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
