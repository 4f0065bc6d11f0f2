import type { Conventions } from '../conventions/conventions.js'
import type { Measure } from '../measures/measure.js'
import type { Qrels } from '../model/types.js'
import { streamRunQueries } from '../io/run-reader.js'
import { InputError } from '../errors/trecscore-error.js'
import { RunEvaluator, type EvaluateOptions, type RunEvaluation } from './evaluate.js'

/**
 * Evaluate a run file in bounded memory (queries are scored as their lines end). Throws
 * {@link InputError} with every problem of the file.
 */
export async function evaluateRunFile(
  qrels: Qrels,
  source: string,
  measures: readonly Measure[],
  conventions: Conventions,
  options: EvaluateOptions = {},
): Promise<RunEvaluation> {
  const ev = new RunEvaluator(qrels, measures, conventions, { runName: source, ...options })
  const needsRanks = conventions.ordering === 'rank'
  const summary = await streamRunQueries(
    source,
    { file: source, comments: conventions.comments, float32: conventions.scorePrecision === 'float32', keepRanks: needsRanks },
    () => true,
    (q) => ev.add(q),
  )
  const p = summary.parser
  if (p.issues.length) throw new InputError(p.issues)
  if (p.contentLines === 0 && p.blankLines === 0 && p.commentLines === 0) throw new InputError([{ code: 'empty_file', file: source }])
  return ev.finish(p.lastTag)
}
