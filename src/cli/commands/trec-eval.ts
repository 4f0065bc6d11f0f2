import { trecEvalProcess } from '../../entries/trec-eval.js'

/**
 * `trecscore trec-eval ARGS`: the trec_eval drop-in on this process's streams (bytes exactly as
 * trec_eval writes them). The `bin` script calls `trecEvalProcess` without loading the rest of the
 * command line; this route serves `main()` callers.
 */
export function trecEvalCommand(argv: readonly string[]): Promise<number> {
  return trecEvalProcess(argv)
}
