import type { TrecEvalArgs } from '../args.js'
import type { TrecEvalIO } from '../trec-eval.js'

/** Evaluate with a preference or judgment-group qrels format (`-R prefs|qrels_prefs|qrels_jg`). */
export async function runPreferenceFormat(args: TrecEvalArgs, _sel: unknown, io: TrecEvalIO): Promise<number> {
  io.err(`trec_eval: Illegal rel_format '${args.relFormat}'\n`)
  return 2
}
