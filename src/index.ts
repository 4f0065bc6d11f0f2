/**
 * trecscore: score retrieval runs exactly as shared tasks do, with every convention explicit.
 *
 * The root holds the verbs and the data types; each family has its own subpath with the rest
 * (`trecscore/io`, `trecscore/evaluate`, `trecscore/presets`, `trecscore/reteco`,
 * `trecscore/textsim`, `trecscore/judge`, `trecscore/stats`, `trecscore/trec-eval`, …: one file
 * of `src/entries` each, listed in `package.json` `exports`). `test/exports.test.ts` asserts
 * this list.
 *
 * @example
 * import { readQrels, readRun, evaluate } from 'trecscore'
 * const qrels = await readQrels('qrels.txt')
 * const run = await readRun('run.txt')
 * const result = evaluate(qrels, run, ['nDCG@10', 'AP', 'RR@10'], { relevanceLevel: 1 })
 * console.log(result.aggregates.map((a) => `${a.measure} ${a.value}`))
 *
 * @module
 */

// Comparing, fusing, the trec_eval drop-in, tables
export { type CompareResult, compareRuns } from './entries/compare.js'
// Conventions
export { type Conventions, resolveConventions } from './entries/conventions.js'
// Errors
export {
  InputError,
  type InputIssue,
  type Issue,
  isTrecscoreError,
  MissingPackageError,
  ProblemListError,
  TrecscoreError,
} from './entries/errors.js'
// Evaluating
export { evaluate, type RunEvaluation, RunEvaluator } from './entries/evaluate.js'
export { fuse } from './entries/fuse.js'
// Reading inputs and the data model
export {
  OutputError,
  parseQrels,
  parseRun,
  type Qrels,
  type Run,
  readQrels,
  readRun,
  SourceError,
} from './entries/io.js'
// Benchmark presets
export { listPresets, type PresetResult, runPreset } from './entries/presets.js'
export { renderTable, type Table } from './entries/report.js'
export { trecEval } from './entries/trec-eval.js'
// Checking a submission
export { type RunProblem, validateRun } from './entries/validate.js'
