import { trecEval } from '../../index.js'

/** `trecscore trec-eval ARGS`: the trec_eval drop-in; writes bytes exactly as trec_eval does. */
export async function trecEvalCommand(argv: readonly string[]): Promise<number> {
  const outParts: string[] = []
  let outSize = 0
  const flushOut = (): void => {
    if (outParts.length) process.stdout.write(Buffer.from(outParts.join(''), 'latin1'))
    outParts.length = 0
    outSize = 0
  }
  const code = await trecEval(argv, {
    out: (s) => {
      outParts.push(s)
      outSize += s.length
      if (outSize > 1 << 20) flushOut()
    },
    err: (s) => {
      flushOut()
      process.stderr.write(Buffer.from(s, 'latin1'))
    },
  })
  flushOut()
  return code
}
