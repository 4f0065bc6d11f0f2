import { Command, CommanderError } from 'commander'
import { formatIssue, InputError, isTrecscoreError } from '../entries/errors.js'
import { describeSystemError } from '../entries/io.js'
import { COMMANDS, commandModulesFor } from './commands/index.js'

/** Version printed by `trecscore --version`. */
export const VERSION = '0.1.0'

/** A commander usage error, with the command it happened in (for the `--help` pointer). */
class UsageError extends Error {
  constructor(
    readonly commandPath: string,
    readonly commander: CommanderError,
  ) {
    super(commander.message)
  }
}

function commandPath(cmd: Command): string {
  const names: string[] = []
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name())
  return names.join(' ')
}

function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)]
}

/**
 * Build the command-line program from the given command modules (`commands/index.ts`; all of
 * them by default). A usage error is one line on stderr plus a pointer to the command's `--help`
 * (see {@link main}); never the whole help.
 */
export async function buildProgram(modules = COMMANDS): Promise<Command> {
  const registers = await Promise.all(modules.map((m) => m.load()))
  const program = new Command('trecscore')
    .description(
      'Score retrieval and RAG runs exactly as shared tasks do, with every convention stated.',
    )
    .version(VERSION)
    .showHelpAfterError(false)
    // main() words the error (one line, with the command's name); commander itself stays silent.
    .configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => {} })
  program
    .command('trec-eval')
    .description(
      'drop-in replacement for NIST trec_eval 10.0 (byte-identical output); `trecscore trec-eval -h` for its flags',
    )
    .helpOption(false)
    .allowUnknownOption()
    .argument('[args...]')
  for (const register of registers) register(program)
  for (const cmd of allCommands(program)) {
    const path = commandPath(cmd)
    cmd.exitOverride((e) => {
      throw new UsageError(path, e)
    })
  }
  return program
}

/** The one-line wording of a commander error: `trecscore CMD: what; see \`trecscore CMD --help\``. */
export function usageLine(path: string, message: string): string {
  const what = message
    .replace(/^error:\s*/i, '')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ')
  return `${path}: ${what}; see \`${path} --help\``
}

/** Entry point of the `trecscore` binary; returns the exit code. Never throws for user errors. */
export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'trec-eval')
    return (await import('./commands/trec-eval.js')).trecEvalCommand(argv.slice(1))
  // Only the module of the command that runs is loaded (all of them for the full help).
  const program = await buildProgram(commandModulesFor(argv))
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (e) {
    const err = e instanceof UsageError ? e.commander : e
    if (err instanceof CommanderError) {
      if (
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.code === 'commander.help'
      )
        return 0
      process.stderr.write(
        usageLine(e instanceof UsageError ? e.commandPath : 'trecscore', err.message) + '\n',
      )
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
    // A system error no command wrapped (a file that cannot be opened or written): one line.
    const system = describeSystemError(e)
    if (system) {
      process.stderr.write(`trecscore: ${system.message}\n`)
      return system.exitCode
    }
    throw e
  }
}
