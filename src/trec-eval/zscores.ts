import type { ActiveMeasure, TrecEvalIO } from './trec-eval.js'

/** Per-query means and standard deviations for `-Z` (qid → measure name → [mean, stddev]). */
export type Zscores = Map<string, Map<string, readonly [number, number]>>

/** Read a `-Z` z-score file. */
export async function readZscores(_file: string, io: TrecEvalIO): Promise<Zscores> {
  io.err('trec_eval: -Z is not implemented yet\n')
  throw new Error('not implemented')
}

/** Replace per-query values by z-scores in place. */
export function applyZscores(_z: Zscores, _qid: string, _active: readonly ActiveMeasure[], _values: Float64Array, _io: TrecEvalIO): void {}
