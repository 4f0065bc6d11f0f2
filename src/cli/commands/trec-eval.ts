import { trecEval } from '../../index.js'

/** `trecscore trec-eval ARGS`: the trec_eval drop-in; writes bytes exactly as trec_eval does. */
export async function trecEvalCommand(argv: readonly string[]): Promise<number> {
  // The drop-in hands over text in large pieces; each is written as the bytes it stands for.
  return trecEval(argv, {
    out: (s) => process.stdout.write(Buffer.from(s, 'latin1')),
    err: (s) => process.stderr.write(Buffer.from(s, 'latin1')),
  })
}
