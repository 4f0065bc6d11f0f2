import { Command, CommanderError } from 'commander'
import { trecEvalCommand } from './commands/trec-eval.js'
import { COMMANDS } from './commands/index.js'
import { isTrecscoreError, InputError, formatIssue } from '../index.js'

/** Version printed by `trecscore --version`. */
export const VERSION = '0.1.0'

/** Build the command-line program (commands come from `commands/index.ts`). */
export function buildProgram(): Command {
  const program = new Command('trecscore')
    .description('Score retrieval and RAG runs exactly as shared tasks do, with every convention stated.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
  program
    .command('trec-eval')
    .description('drop-in replacement for NIST trec_eval 10.0 (byte-identical output); `trecscore trec-eval -h` for its flags')
    .helpOption(false)
    .allowUnknownOption()
    .argument('[args...]')
  for (const register of COMMANDS) register(program)
  return program
}

/** Entry point of the `trecscore` binary; returns the exit code. Never throws for user errors. */
export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'trec-eval') return trecEvalCommand(argv.slice(1))
  const program = buildProgram()
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0
      return 2
    }
    if (e instanceof InputError) {
      for (const issue of e.issues) process.stderr.write(`trecscore: ${formatIssue(issue)}\n`)
      return e.exitCode
    }
    if (isTrecscoreError(e)) {
      process.stderr.write(`trecscore: ${e.message}\n`)
      return e.exitCode
    }
    throw e
  }
}
