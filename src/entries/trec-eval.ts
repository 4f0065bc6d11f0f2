/**
 * `trecscore/trec-eval`: the byte-identical trec_eval drop-in, with injectable output.
 *
 * @example
 * import { trecEval } from 'trecscore/trec-eval'
 * const code = await trecEval(['-m', 'map', 'qrels.txt', 'run.txt'], { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) })
 *
 * @module
 */

export { trecEvalProcess } from '../trec-eval/process-entry.js'
export { trecEval } from '../trec-eval/trec-eval.js'
export type { TrecEvalIO } from '../trec-eval/types.js'
