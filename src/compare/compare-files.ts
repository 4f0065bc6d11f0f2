/**
 * Edge of `compare`: read the inputs and build the {@link PerQueryTable} that `compareTable`
 * compares, for TREC qrels and runs (evaluated on the engine). Used by `trecscore compare` and by
 * anything else that compares files (the HTML report); a preset's table comes from
 * `presets/compare-preset.ts`.
 */
import type { Conventions } from '../conventions/conventions.js'
import { formatPrepareFailure } from '../errors/format-issue.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import type { RunEvaluation } from '../evaluate/evaluate.js'
import { evaluateRunFile } from '../evaluate/evaluate-file.js'
import { readIdList, readQrels } from '../io/read.js'
import { type RunInput, runInputName, runInputPath } from '../io/run-labels.js'
import { parseMeasures } from '../measures/name.js'
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
      (f) => `${e.runName}: ${formatPrepareFailure(f.queryId, f.failure)}`,
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
