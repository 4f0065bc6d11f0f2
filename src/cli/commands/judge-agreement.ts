import { type Command, InvalidArgumentError } from 'commander'
import { readAll } from '../../entries/io.js'
import { type AgreementFormat, judgeAgreement, renderAgreement } from '../../entries/stats.js'
import { collectList, formatOption } from './shared-options.js'

interface AgreementFlags {
  human: string
  judgments: string
  dimension?: string[]
  bootstrap: number
  seed: number
  confidence: number
  format: AgreementFormat
}

function integer(min: number, max: number): (text: string) => number {
  return (text) => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`)
    return Number(text)
  }
}

function level(text: string): number {
  const v = Number(text)
  if (!/^0?\.\d+$/.test(text) || !(v > 0 && v < 1))
    throw new InvalidArgumentError('expected a number between 0 and 1, such as 0.95')
  return v
}

const HELP = `
Compares the judge's 1-5 scores with human labels, per dimension, on the turns present in both.

HUMAN.jsonl, one label per line:
  {"turn_id": "<conv>_turn_<t>", "dimension": "correctness", "score": 1..5,
   "conversation_id"?: "...", "domain"?: "...", "annotator"?: "..."}
  (conversation_id defaults to the <conv> part of the turn id; several annotators may label a
  turn, each label then pairs with the judge's score)
JUDGMENTS.jsonl, as written by trecscore judge run:
  {"turn_id", "conversation_id", "dimension", "score": 1..5 | null, "status": "ok"|"invalid"|"missing",
   "config_hash", "attempts", "domain"?, "turn_depth"?, "rationale"?}

A turn is its (domain, turn_id): RECOR repeats turn ids such as 2_turn_1 across domains. A label
with a "domain" pairs with that domain's judgment; one without pairs with the judgment of the
turn when only one domain judged it, and is an error when several did (add "domain" to it).
Conversations are told apart by domain too, for the bootstrap and the counts.

Only judgments with status "ok" pair. Labelled turns whose judgment is invalid, missing or absent,
and judged turns nobody labelled, are counted per dimension and printed. Judgments made under more
than one judge config (config_hash) are refused. Every bad line is reported as FILE:LINE with the
text and what was expected (exit 2).

Statistics: quadratic-weighted Cohen's kappa over 1..5 (as scikit-learn 1.2.1), Krippendorff's
alpha ordinal and interval (exact), Spearman's rho and Kendall's tau-b (as SciPy 1.10.1), exact and
within-1 agreement, mean bias (judge - human). Each has a seeded percentile bootstrap CI that
resamples whole conversations; resamples on which a statistic is undefined are counted and shown.
Undefined values print as nan/undefined, never as 0.

Exit status: 0 ok; 2 bad input or usage.
`

/** Adds `trecscore judge agreement` to the `judge` command. */
export function addJudgeAgreement(judge: Command): void {
  judge
    .command('agreement')
    .description(
      'agreement between judge scores and human labels (kappa, alpha, rho, tau-b) with bootstrap CIs',
    )
    .requiredOption('--human <file>', 'human labels, JSONL (see below)')
    .requiredOption('--judgments <file>', 'judgments written by judge run, JSONL')
    .option(
      '--dimension <names>',
      'only these dimensions, comma-separated or repeated (default: every dimension in the files)',
      (v: string, prev: string[] | undefined) => collectList(v, prev),
    )
    .option(
      '--bootstrap <n>',
      'bootstrap resamples; 0 for no confidence intervals',
      integer(0, 1_000_000),
      1000,
    )
    .option(
      '--seed <n>',
      'seed of the bootstrap random stream (mulberry32)',
      integer(0, 4294967295),
      42,
    )
    .option('--confidence <level>', 'confidence level of the intervals', level, 0.95)
    .addOption(formatOption(['table', 'json', 'markdown']))
    .addHelpText('after', HELP)
    .action(async (flags: AgreementFlags) => {
      const [human, judgments] = await Promise.all([readAll(flags.human), readAll(flags.judgments)])
      const result = judgeAgreement(
        {
          human: { file: flags.human, bytes: human },
          judgments: { file: flags.judgments, bytes: judgments },
        },
        {
          bootstrap: flags.bootstrap,
          seed: flags.seed,
          confidence: flags.confidence,
          ...(flags.dimension ? { dimensions: flags.dimension } : {}),
        },
      )
      process.stdout.write(renderAgreement(result, flags.format))
    })
}
