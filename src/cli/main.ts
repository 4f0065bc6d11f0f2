import { trecEvalCommand } from './commands/trec-eval.js'

/** Entry point of the `trecscore` binary; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'trec-eval':
      return trecEvalCommand(rest)
    default:
      process.stderr.write(`trecscore: unknown command '${command ?? ''}'\n`)
      return 2
  }
}
