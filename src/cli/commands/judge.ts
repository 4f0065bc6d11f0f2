import { type Command, InvalidArgumentError, Option } from 'commander'
import { TrecscoreError } from '../../entries/errors.js'
import {
  JUDGE_DIMENSIONS,
  JUDGE_REPORT_FORMATS,
  type JudgeDimension,
  type JudgeReportFormat,
  judgeBatchCollectCommand,
  judgeBatchSubmitCommand,
  judgeCalibrateCommand,
  judgeReportCommand,
  judgeRunCommand,
} from '../../entries/judge.js'
import { type RetecoJudgePreset, retecoJudgeItemsRoute } from '../../entries/reteco.js'
import { addJudgeAgreement } from './judge-agreement.js'
import { formatOption } from './shared-options.js'

function positiveInt(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected an integer ≥ 1')
  return n
}

function nonNegative(text: string): number {
  const n = Number(text)
  if (!Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError('expected a number ≥ 0 (0 = unlimited)')
  return n
}

function dimensionList(text: string): JudgeDimension[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const bad = parts.filter((p) => !(JUDGE_DIMENSIONS as readonly string[]).includes(p))
  if (bad.length || parts.length === 0)
    throw new InvalidArgumentError(
      `expected a comma-separated list of ${JUDGE_DIMENSIONS.join(', ')}${bad.length ? `; unknown: ${bad.join(', ')}` : ''}`,
    )
  const twice = parts.filter((p, i) => parts.indexOf(p) !== i)
  if (twice.length)
    throw new InvalidArgumentError(
      `each dimension at most once; given more than once: ${[...new Set(twice)].join(', ')}`,
    )
  return parts as JudgeDimension[]
}

function share(text: string): number {
  const n = Number(text)
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError('expected a share from 0 to 1, such as 0.1 (10%)')
  return n
}

/** The report formats as the option names them: `table` is the library's `text`. */
const reportFormats = JUDGE_REPORT_FORMATS.map((f) => (f === 'text' ? 'table' : f))
type ReportFormat = 'table' | Exclude<JudgeReportFormat, 'text'>

function judgeFormat(f: ReportFormat): JudgeReportFormat {
  return f === 'table' ? 'text' : f
}

const ENDPOINT_HELP =
  'OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1 (default: $TRECSCORE_JUDGE_BASE_URL, else $OPENAI_BASE_URL, else https://api.openai.com/v1); the key comes from $TRECSCORE_JUDGE_API_KEY or $OPENAI_API_KEY'

interface CallFlags {
  config?: string
  cache?: string
  baseUrl?: string
  concurrency?: number
  rpm?: number
  quiet?: boolean
  giveUpAfter?: number
  maxFailed?: number
  force?: boolean
}

function addCallOptions(cmd: Command): Command {
  return cmd
    .option(
      '--config <file>',
      'judge config JSON (prompts, rubrics, model, decoding, retries, invalid policy, prices); its sha256 is printed and stored with every judgment (default: the shipped data/judge/reteco-judge-v1.json)',
    )
    .option(
      '--cache <file>',
      'SQLite judgment cache; a rerun re-uses every finished judgment and resumes after a crash (default: trecscore-judge-cache-<hash12>.sqlite in the working directory); a cache of another config is refused',
    )
    .option('--base-url <url>', ENDPOINT_HELP)
    .option(
      '--concurrency <n>',
      'requests in flight at once (default: the config\'s "concurrency")',
      positiveInt,
    )
    .option(
      '--rpm <n>',
      'requests per minute at most, 0 = unlimited (default: the config\'s "requests_per_minute")',
      nonNegative,
    )
    .option(
      '--quiet',
      'no progress on stderr (a bar with ETA on a terminal, a plain line every 5 s otherwise)',
    )
    .option(
      '--give-up-after <n>',
      'stop asking after this many judgments in a row end missing (endpoint down, wrong URL or key); the rest are recorded missing ("not asked") and counted; 0 = never (default 20)',
      (t) => {
        const n = Number(t)
        if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected an integer ≥ 0')
        return n
      },
    )
    .option(
      '--max-failed <share>',
      'exit 2 when more than this share of the judgments that needed the judge ended missing or invalid (always when all did); the judgments and the report are still written (default 0.1)',
      share,
    )
    .option(
      '--force',
      'replace an existing judgments file (-o/--out); without it an existing file is refused before anything is asked (finished judgments come from the cache, so a rerun costs nothing)',
    )
}

function callOptions(f: CallFlags) {
  return {
    ...(f.config ? { config: f.config } : {}),
    ...(f.cache ? { cache: f.cache } : {}),
    ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}),
    ...(f.concurrency !== undefined ? { concurrency: f.concurrency } : {}),
    ...(f.rpm !== undefined ? { requestsPerMinute: f.rpm } : {}),
    ...(f.giveUpAfter !== undefined ? { giveUpAfter: f.giveUpAfter } : {}),
    ...(f.maxFailed !== undefined ? { maxFailedShare: f.maxFailed } : {}),
    force: f.force ?? false,
    quiet: f.quiet ?? false,
    env: process.env,
    stderr: process.stderr,
  }
}

/** `trecscore judge run | calibrate | report` and `judge agreement`. */
export function registerJudge(program: Command): void {
  const judge = program
    .command('judge')
    .description(
      'five-dimension LLM judge for generated answers (RETECO 2b/2c): run, calibrate, disclosure report, agreement with humans',
    )

  addCallOptions(
    judge
      .command('run')
      .description(
        'judge answers on correctness, completeness, relevance, coherence and faithfulness; writes judgments JSONL and prints the report',
      )
      .argument(
        '<input>',
        'items JSONL ({"turn_id", "history", "question", "answer", "passages", ...}), or with --preset the submission\'s answers: a directory with one <domain>.jsonl of {"turn_id", "answer"} lines per domain (one file if the data has one domain), validated first as `validate --preset` does',
      )
      .addOption(
        new Option(
          '--preset <name>',
          "build items from RECOR data: reteco-2b (gold passages) or reteco-2c (the run's top-5 passages; needs --retrieval)",
        ).choices(retecoJudgeItemsRoute.presets),
      )
      .option(
        '--data <dir>',
        'RETECO data directory (release layout with track2_recor/, or the pilot sample) for --preset',
      )
      .option(
        '--retrieval <run>',
        "reteco-2c: the submission's retrieval run (one TREC file, or a directory with one file per domain)",
      )
      .option('--split <split>', 'split of the RETECO data (--preset)', 'dev')
      .option('--domains <list>', 'only these RETECO domains, comma-separated (--preset)')
      .option(
        '-o, --out <file>',
        'judgments JSONL to write (the shared format); an existing file is refused unless --force, and one holding judgments of another config always',
        'judgments.jsonl',
      )
      .option(
        '--dimensions <list>',
        `only these dimensions, comma-separated (default: all of ${JUDGE_DIMENSIONS.join(', ')})`,
        dimensionList,
      )
      .addOption(formatOption(reportFormats, 'report format on stdout'))
      .option('--per-turn', 'add the per-turn rows to the report')
      .option('--report-json <file>', 'also write the JSON report to this file')
      .option(
        '--no-lexical',
        'leave out the lexical diagnostics (ROUGE-L F and METEOR against the reference answers, computed when the items have references)',
      )
      .option(
        '--bertscore-model <dir>',
        'also BERTScore F1 against the reference answers with this local ONNX model folder (model.onnx and tokenizer.json, as `textsim --metric bertscore --model`); unanswered turns 0',
      )
      .option(
        '--bertscore-layer <n>',
        'with --bertscore-model: the hidden layer (default: the last)',
        (v: string) => {
          const n = Number(v)
          if (!Number.isInteger(n) || n < 0)
            throw new InvalidArgumentError('expected a layer number (0, 1, …)')
          return n
        },
      ),
  ).action(
    async (
      input: string,
      f: CallFlags & {
        preset?: RetecoJudgePreset
        data?: string
        retrieval?: string
        split: string
        domains?: string
        out: string
        dimensions?: JudgeDimension[]
        format: ReportFormat
        perTurn?: boolean
        reportJson?: string
        lexical: boolean
        bertscoreModel?: string
        bertscoreLayer?: number
      },
    ) => {
      if (f.bertscoreLayer !== undefined && f.bertscoreModel === undefined)
        throw new TrecscoreError('judge run: --bertscore-layer needs --bertscore-model', 2)
      const r = await judgeRunCommand({
        ...callOptions(f),
        ...(f.preset ? { preset: f.preset, answers: input } : { items: input }),
        routes: [retecoJudgeItemsRoute],
        ...(f.data ? { data: f.data } : {}),
        ...(f.retrieval ? { retrieval: f.retrieval } : {}),
        split: f.split,
        ...(f.domains
          ? {
              domains: f.domains
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : {}),
        out: f.out,
        ...(f.dimensions ? { dimensions: f.dimensions } : {}),
        format: judgeFormat(f.format),
        perTurn: f.perTurn ?? false,
        ...(f.reportJson ? { reportJson: f.reportJson } : {}),
        lexical: f.lexical,
        ...(f.bertscoreModel
          ? {
              bertscore: {
                modelDir: f.bertscoreModel,
                ...(f.bertscoreLayer !== undefined ? { layer: f.bertscoreLayer } : {}),
              },
            }
          : {}),
      })
      process.stdout.write(r.report)
      if (r.failure) throw new TrecscoreError(`judge run: ${r.failure}`, 2)
    },
  )

  addCallOptions(
    judge
      .command('calibrate')
      .description(
        'judge golden pairs (answers differing in one respect) and report, per dimension, how often the better one scores higher, with the failures',
      )
      .requiredOption(
        '--golden <file>',
        'golden pairs JSONL ({"id", "dimension", "respect", "question", "history"?, "passages"?, "reference"?, "better", "worse"}); a starter set ships as data/judge/golden-v1.jsonl',
      )
      .addOption(formatOption(reportFormats, 'report format on stdout'))
      .option(
        '-o, --out <file>',
        'also write the calibration judgments JSONL here (an existing file is refused unless --force)',
      ),
  ).action(async (f: CallFlags & { golden: string; format: ReportFormat; out?: string }) => {
    const r = await judgeCalibrateCommand({
      ...callOptions(f),
      golden: f.golden,
      format: judgeFormat(f.format),
      ...(f.out ? { out: f.out } : {}),
    })
    process.stdout.write(r.report)
    if (r.failure) throw new TrecscoreError(`judge calibrate: ${r.failure}`, 2)
  })

  judge
    .command('report')
    .description(
      'disclosure report of a judgments file (markdown and JSON): the sample, agreement with human labels, the prompts verbatim, judge model and version, retry procedure, invalid and missing counts',
    )
    .argument('<judgments>', 'judgments JSONL written by `judge run`')
    .option(
      '--config <file>',
      'the judge config the judgments were made with (its hash must match theirs; default: the shipped data/judge/reteco-judge-v1.json)',
    )
    .option(
      '--human <file>',
      'human labels JSONL ({"turn_id", "dimension", "score", "conversation_id"?, "annotator"?}): adds the agreement section',
    )
    .option(
      '--bootstrap <n>',
      'bootstrap resamples of the agreement CIs (default 1000)',
      positiveInt,
    )
    .option('--seed <n>', 'seed of the agreement bootstrap (default 42)', (t) => {
      const n = Number(t)
      if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected an integer ≥ 0')
      return n
    })
    .option(
      '--markdown <file>',
      'write the markdown report to this file (stdout then gets a one-line summary, unless --format json)',
    )
    .option(
      '--json <file>',
      'write the JSON report to this file (with --format json, stdout then gets a one-line summary)',
    )
    .option(
      '--diagnostics <file>',
      'a `judge run --report-json` file of the same judgments: its lexical diagnostics (ROUGE-L, METEOR) go into the report',
    )
    .addOption(formatOption(['markdown', 'json'], 'what goes to stdout', 'markdown'))
    .action(
      async (
        judgments: string,
        f: {
          config?: string
          human?: string
          bootstrap?: number
          seed?: number
          markdown?: string
          json?: string
          format: 'markdown' | 'json'
          diagnostics?: string
        },
      ) => {
        const r = await judgeReportCommand({
          judgments,
          ...(f.config ? { config: f.config } : {}),
          ...(f.human ? { human: f.human } : {}),
          ...(f.bootstrap !== undefined ? { bootstrap: f.bootstrap } : {}),
          ...(f.seed !== undefined ? { seed: f.seed } : {}),
          ...(f.markdown ? { markdownOut: f.markdown } : {}),
          ...(f.json ? { jsonOut: f.json } : {}),
          ...(f.diagnostics ? { diagnostics: f.diagnostics } : {}),
          format: f.format,
        })
        process.stdout.write(r.stdout)
      },
    )

  const batch = judge
    .command('batch')
    .description(
      'optional OpenAI Batch API for large jobs: submit the uncached requests, collect the replies into the cache, then `judge run`',
    )
  batch
    .command('submit')
    .description(
      'upload every request not yet in the cache as one Batch API job (POST /files, POST /batches)',
    )
    .argument(
      '<input>',
      "items JSONL, or with --preset the submission's answers directory (as for `judge run`)",
    )
    .addOption(
      new Option('--preset <name>', 'build items from RECOR data (as for `judge run`)').choices(
        retecoJudgeItemsRoute.presets,
      ),
    )
    .option('--data <dir>', 'RETECO data directory for --preset')
    .option('--retrieval <run>', "reteco-2c: the submission's retrieval run")
    .option('--split <split>', 'split of the RETECO data (--preset)', 'dev')
    .option('--domains <list>', 'only these RETECO domains, comma-separated (--preset)')
    .option(
      '--dimensions <list>',
      `only these dimensions, comma-separated (default: all of ${JUDGE_DIMENSIONS.join(', ')})`,
      dimensionList,
    )
    .option(
      '--config <file>',
      'judge config JSON (default: the shipped data/judge/reteco-judge-v1.json)',
    )
    .option(
      '--cache <file>',
      'SQLite judgment cache that records the batch (default: trecscore-judge-cache-<hash12>.sqlite)',
    )
    .option('--base-url <url>', ENDPOINT_HELP)
    .action(
      async (
        input: string,
        f: {
          preset?: RetecoJudgePreset
          data?: string
          retrieval?: string
          split: string
          domains?: string
          dimensions?: JudgeDimension[]
          config?: string
          cache?: string
          baseUrl?: string
        },
      ) => {
        const r = await judgeBatchSubmitCommand({
          ...(f.preset ? { preset: f.preset, answers: input } : { items: input }),
          routes: [retecoJudgeItemsRoute],
          ...(f.data ? { data: f.data } : {}),
          ...(f.retrieval ? { retrieval: f.retrieval } : {}),
          split: f.split,
          ...(f.domains
            ? {
                domains: f.domains
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              }
            : {}),
          ...(f.dimensions ? { dimensions: f.dimensions } : {}),
          ...(f.config ? { config: f.config } : {}),
          ...(f.cache ? { cache: f.cache } : {}),
          ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}),
          env: process.env,
        })
        process.stdout.write(r.report)
      },
    )
  batch
    .command('collect')
    .description(
      'poll the batches submitted from this cache; cache the valid replies of completed ones (malformed and failed requests are left for `judge run`)',
    )
    .option(
      '--config <file>',
      'judge config JSON (default: the shipped data/judge/reteco-judge-v1.json)',
    )
    .option(
      '--cache <file>',
      'SQLite judgment cache the batches were submitted from (default: trecscore-judge-cache-<hash12>.sqlite)',
    )
    .option('--base-url <url>', ENDPOINT_HELP)
    .action(async (f: { config?: string; cache?: string; baseUrl?: string }) => {
      const r = await judgeBatchCollectCommand({
        ...(f.config ? { config: f.config } : {}),
        ...(f.cache ? { cache: f.cache } : {}),
        ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}),
        env: process.env,
      })
      process.stdout.write(r.report)
    })

  addJudgeAgreement(judge)
}
