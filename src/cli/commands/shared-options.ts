/**
 * The option vocabulary shared by the commands: one builder per option shape, so the same flag
 * means the same thing everywhere (README "Options across commands"; test/cli/options.test.ts
 * walks the program and checks every command against that table).
 */
import { type Command, InvalidArgumentError, Option } from 'commander'
import { RUN_LABEL_SOURCES, type RunLabelOptions } from '../../entries/io.js'

/** `-m, --measure NAME`: one value per flag (repeat it); a value may hold a comma or space list. */
export function measureOption(description: string): Option {
  return new Option(
    '-m, --measure <names>',
    `${description}; repeat -m, or give a list in one value ('nDCG@10,AP')`,
  ).argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v])
}

/** Comma-separated values, collected over repeated flags (`--test t --test wilcoxon` = `--test t,wilcoxon`). */
export function collectList<T extends string>(v: string, prev: T[] = []): T[] {
  return [
    ...prev,
    ...(v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean) as T[]),
  ]
}

/** Machine-readable formats: full precision, exact ids, `--explain` on stderr. */
export const MACHINE_FORMATS: readonly string[] = ['csv', 'tsv', 'json', 'jsonl']

/** Whether `format` is machine-readable (see {@link MACHINE_FORMATS}). */
export function isMachineFormat(format: string): boolean {
  return MACHINE_FORMATS.includes(format)
}

/** Old value names accepted as hidden aliases (`text` was the name of `table` in some commands). */
const FORMAT_ALIASES: Readonly<Record<string, string>> = { text: 'table' }

/**
 * `-f, --format FORMAT` with the command's choices. `table` is the human-readable default
 * everywhere; `text` is accepted as a hidden alias of it.
 */
export function formatOption(
  choices: readonly string[],
  description = 'output format',
  defaultValue = 'table',
): Option {
  return new Option('-f, --format <format>', `${description}: ${choices.join(', ')}`)
    .default(defaultValue)
    .argParser((v: string) => {
      const name =
        FORMAT_ALIASES[v] !== undefined && choices.includes(FORMAT_ALIASES[v])
          ? FORMAT_ALIASES[v]
          : v
      if (!choices.includes(name))
        throw new InvalidArgumentError(`expected one of ${choices.join(', ')}`)
      return name
    })
}

/** `-o, --out FILE`: the file a command writes. */
export function outOption(description: string, defaultValue?: string): Option {
  const o = new Option('-o, --out <file>', description)
  return defaultValue === undefined ? o : o.default(defaultValue)
}

/** `--digits N`: decimals of human-readable output, 0 to 17. */
export function digitsOption(
  description = 'decimals in table, markdown and latex output (default 4; machine formats print full precision unless given)',
): Option {
  return new Option('--digits <n>', description).argParser((text: string) => {
    if (!/^\d+$/.test(text) || Number(text) > 17)
      throw new InvalidArgumentError('expected an integer from 0 to 17')
    return Number(text)
  })
}

/** `--explain`: the conventions in force and what was dropped; on stderr when stdout is machine-readable. */
export function explainOption(
  description = 'print the conventions in force and, per run, what was dropped, deduplicated or zero-filled (on stderr for csv, tsv, json and jsonl)',
): Option {
  return new Option('--explain', description)
}

/** Where `--explain` text goes: stdout before a human-readable table, stderr next to machine output. */
export function explainStream(format: string): NodeJS.WriteStream {
  return isMachineFormat(format) ? process.stderr : process.stdout
}

/**
 * `--name LABEL` (repeatable, in run order) and `--names-from tag|file|path`. `fallback` is what
 * an unlabelled run prints as: the shortest unambiguous name, or (`score --preset`, whose tables
 * reproduce the official tools') the path as typed; pass the same to {@link runLabelOptions}.
 */
export function addRunLabelOptions(
  cmd: Command,
  fallback: 'shortest' | 'path' = 'shortest',
): Command {
  return cmd
    .addOption(
      new Option(
        '--name <label>',
        'label of a run in output, one per run in the order given (repeat); or give runs as LABEL=PATH',
      ).argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
    )
    .addOption(
      new Option(
        '--names-from <source>',
        `run labels from the run tag, the file name or the path as typed (default: ${fallback === 'path' ? 'the path as typed' : 'the shortest unambiguous name'})`,
      ).choices([...RUN_LABEL_SOURCES]),
    )
}

/** The values of {@link addRunLabelOptions}. */
export interface RunLabelFlags {
  name?: string[]
  namesFrom?: (typeof RUN_LABEL_SOURCES)[number]
}

/** The options of {@link addRunLabelOptions} for `resolveRunLabels` (`fallback` as given there). */
export function runLabelOptions(
  flags: RunLabelFlags,
  fallback: 'shortest' | 'path' = 'shortest',
): RunLabelOptions {
  return {
    ...(flags.name ? { names: flags.name } : {}),
    ...(flags.namesFrom ? { from: flags.namesFrom } : {}),
    fallback,
  }
}
