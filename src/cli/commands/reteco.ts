import { type Command, InvalidArgumentError, Option } from 'commander'
import { makeRetecoSample, writeRetecoSample } from '../../entries/reteco.js'
import { outOption } from './shared-options.js'

interface SampleFlags {
  data: string
  subtrack: '1a' | '1b' | '2a' | '2c'
  out: string
  split: string
  seed: number
  depth: number
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return (text) => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`)
    return Number(text)
  }
}

/** `trecscore reteco sample --data DIR --subtrack 1a|1b|2a|2c --out FILE|DIR [--seed N] [--depth N]` */
export function registerReteco(program: Command): void {
  const reteco = program.command('reteco').description('RETECO (SemEval-2027 Task 1) helpers')
  reteco
    .command('sample')
    .description(
      'write a valid sample run (random documents of the corpus for every topic) to check a pipeline against',
    )
    .requiredOption('--data <dir>', 'RETECO data folder (release layout or the pilot sample)')
    .addOption(
      new Option('--subtrack <subtrack>', 'sub-track')
        .choices(['1a', '1b', '2a', '2c'])
        .makeOptionMandatory(),
    )
    .addOption(
      outOption(
        'Track 1: the run file to write; Track 2: a directory, one <domain>.trec per domain',
      ).makeOptionMandatory(),
    )
    .option('--split <split>', 'split whose topics the run covers', 'dev')
    .option('--seed <n>', 'random seed; the same seed gives the same run', integer(0), 1)
    .option(
      '--depth <n>',
      'documents per topic (fewer when the corpus is smaller)',
      integer(1, 1000),
      100,
    )
    .addHelpText(
      'after',
      `
The run has every topic of the sub-track and split, documents drawn at random from the domain's
documents.jsonl, ranks 1..n and strictly decreasing scores, and one run tag. It validates clean
with "trecscore validate --preset reteco-<subtrack> --data DIR" and scores (near zero) with
"trecscore score". Exit status 0, or 2 for usage and data errors (reported on stderr).`,
    )
    .action(async (flags: SampleFlags) => {
      const sample = await makeRetecoSample({
        subtrack: flags.subtrack,
        data: flags.data,
        split: flags.split,
        seed: flags.seed,
        depth: flags.depth,
      })
      const paths = await writeRetecoSample(sample, flags.out)
      process.stderr.write(
        `trecscore: wrote a ${sample.subtrack} sample run (${sample.topics} topics, seed ${sample.seed}) to ${paths.join(', ')}\n`,
      )
    })
}
