import { type Command, Option } from 'commander'
import { InputError } from '../../entries/errors.js'
import {
  DEFAULT_FUSE_DEPTH,
  DEFAULT_RRF_K,
  describeFuse,
  FUSION_METHODS,
  type FuseOptions,
  type FusionMethod,
  fuse,
  NORMALIZATIONS,
  type Normalization,
  optimizeWeights,
  readRunsToFuse,
  writeFusedRun,
} from '../../entries/fuse.js'
import { readQrels, resolveRunLabels } from '../../entries/io.js'
import {
  addRunLabelOptions,
  outOption,
  type RunLabelFlags,
  runLabelOptions,
} from './shared-options.js'

interface FuseFlags extends RunLabelFlags {
  method: FusionMethod
  norm?: Normalization
  k?: string
  weights?: string
  depth: string
  tag: string
  keepTies?: boolean
  out?: string
  optimize?: string
  trainQrels?: string
  step: string
}

/** `trecscore fuse RUN... --method … --norm … [--k 60] [--weights 0.5,0.5] [--out FILE]` */
export function registerFuse(program: Command): void {
  const cmd = program
    .command('fuse')
    .description(
      'fuse runs into one six-column TREC run (RRF, CombSUM/MNZ/MAX/MIN/MED/ANZ, weighted sum, Borda); ties broken by doc id unless --keep-ties',
    )
    .argument(
      '<runs...>',
      'TREC run files to fuse (qid iter docno rank score tag), or LABEL=PATH (labels name the runs on stderr); .gz ok',
    )
    .addOption(
      new Option('--method <method>', 'fusion method').choices(FUSION_METHODS).default('rrf'),
    )
    .addOption(
      new Option(
        '--norm <norm>',
        'per-run, per-query score normalisation (default: minmax for score methods, none for rrf and borda, which read ranks only)',
      ).choices(NORMALIZATIONS),
    )
    .option('--k <k>', `RRF constant: score = sum of 1/(k + rank) (default ${DEFAULT_RRF_K})`)
    .option(
      '--weights <list>',
      'wsum weights, comma-separated, one per run in the order given (default 1 each)',
    )
    .option('--depth <n>', 'documents written per query', String(DEFAULT_FUSE_DEPTH))
    .option('--tag <tag>', 'run tag of the fused run', 'fused')
    .option(
      '--keep-ties',
      'write equal fused scores as they are (default: lower tied scores by the fewest ulps, doc id descending first, the order trec_eval gives ties)',
    )
    .addOption(outOption('write the fused run to this file instead of stdout'))
    .option(
      '--optimize <measure>',
      'wsum only: grid-search the weights that maximise this measure on --train-qrels (tuning on test qrels is leakage)',
    )
    .option('--train-qrels <file>', 'training qrels for --optimize')
    .option('--step <x>', 'grid step of --optimize (weights on the simplex)', '0.1')
  addRunLabelOptions(cmd).action(async (runArgs: string[], flags: FuseFlags) => {
    const problems: { option: string; found: string; expected: string }[] = []
    if (flags.optimize !== undefined) {
      if (flags.method !== 'wsum')
        problems.push({
          option: '--optimize',
          found: flags.optimize,
          expected: '--method wsum (it searches wsum weights)',
        })
      if (flags.trainQrels === undefined)
        problems.push({
          option: '--optimize',
          found: flags.optimize,
          expected: '--train-qrels FILE as well',
        })
      if (flags.weights !== undefined)
        problems.push({
          option: '--weights',
          found: flags.weights,
          expected: 'no --weights with --optimize (it chooses them)',
        })
    } else if (flags.trainQrels !== undefined)
      problems.push({
        option: '--train-qrels',
        found: flags.trainQrels,
        expected: 'only with --optimize MEASURE',
      })
    if (problems.length) throw new InputError(problems.map((p) => ({ code: 'bad_argument', ...p })))
    const options: FuseOptions = {
      method: flags.method,
      depth: Number(flags.depth),
      tag: flags.tag,
      keepTies: !!flags.keepTies,
      ...(flags.norm !== undefined ? { norm: flags.norm } : {}),
      ...(flags.k !== undefined ? { k: Number(flags.k) } : {}),
      ...(flags.weights !== undefined
        ? { weights: flags.weights.split(',').map((w) => (w.trim() === '' ? NaN : Number(w))) }
        : {}),
    }
    const named = await resolveRunLabels(runArgs, runLabelOptions(flags))
    const labels = named.map((r) => r.name)
    const runs = await readRunsToFuse(named.map((r) => r.path))
    let weights = options.weights
    if (flags.optimize !== undefined && flags.trainQrels !== undefined) {
      const qrels = await readQrels(flags.trainQrels)
      const { method: _m, ...rest } = options
      const best = optimizeWeights(runs, qrels, rest, {
        measure: flags.optimize,
        step: Number(flags.step),
      })
      weights = best.weights
      process.stderr.write(
        `trecscore: fuse: --optimize ${best.measure} on ${flags.trainQrels}: chose weights ${best.weights.join(',')} (${labels.join(', ')}), training mean ${best.value ?? 'undefined'} over ${best.tried.length} weight vectors\n`,
      )
      process.stderr.write(
        `trecscore: warning: the weights were tuned on ${flags.trainQrels}; evaluating the fused run on the same qrels (or queries) is leakage. Report it on held-out queries.\n`,
      )
    }
    const fused = fuse(runs, weights ? { ...options, weights } : options)
    await writeFusedRun(fused, flags.out)
    process.stderr.write(describeFuse(fused).replace(/^/gm, 'trecscore: fuse: ') + '\n')
    const w = fused.settings.weights
    process.stderr.write(
      `trecscore: fuse: runs: ${labels.map((l, i) => (w ? `${l} (weight ${w[i]})` : l)).join(', ')}\n`,
    )
  })
}
