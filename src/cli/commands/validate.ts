import { type Command, InvalidArgumentError, Option } from 'commander'
import { DEFAULT_MAX_LINE_BYTES } from '../../entries/io.js'
import {
  renderRetecoValidationJson,
  renderRetecoValidationText,
  validateRetecoRun,
} from '../../entries/reteco.js'
import {
  describeRunProblemCode,
  RETECO_RUN_PROBLEM_CODES,
  RUN_PROBLEM_CODES,
  RUN_PROBLEM_SEVERITY,
  type RunProblemCode,
  type RunValidationReport,
  renderValidationJson,
  renderValidationText,
} from '../../entries/validate.js'
import { checkRunFormat } from './run-format-check.js'
import { formatOption } from './shared-options.js'
import {
  generationValidateHelp,
  looksLikeAnswers,
  validateGenerationCommand,
} from './validate-generation.js'
import {
  NEUCLIR_VALIDATE_HELP,
  NEUCLIR_VALIDATE_PRESETS,
  routesToNeuclir,
  validateNeuclirRun,
} from './validate-neuclir.js'

/** `--preset` values: the RETECO retrieval sub-tracks. */
const PRESETS = ['reteco-1a', 'reteco-1b', 'reteco-2a', 'reteco-2b', 'reteco-2c'] as const
type Preset = (typeof PRESETS)[number]

interface ValidateFlags {
  preset?: Preset
  data?: string
  split: string
  qrels?: string
  corpus?: string
  maxDepth?: number
  maxLineBytes: number
  maxListed: number
  format: 'table' | 'json'
  strict?: boolean
  allowMissingCorpus?: boolean
  retrieval?: string
  maxAnswerChars?: number
}

function integer(min: number): (text: string) => number {
  return (text) => {
    if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
      throw new InvalidArgumentError(`expected an integer >= ${min}`)
    }
    return Number(text)
  }
}

function helpText(): string {
  const width = Math.max(...RUN_PROBLEM_CODES.map((c) => c.length))
  const reteco = new Set<RunProblemCode>(RETECO_RUN_PROBLEM_CODES)
  const line = (c: RunProblemCode): string =>
    `  ${c.padEnd(width)}  ${RUN_PROBLEM_SEVERITY[c].padEnd(7)}  ${describeRunProblemCode(c)}`
  const problems = RUN_PROBLEM_CODES.filter((c) => !reteco.has(c))
    .map(line)
    .join('\n')
  const retecoProblems = RETECO_RUN_PROBLEM_CODES.map(line).join('\n')
  return `
Checks a TREC run (qid iter docno rank score tag, split on whitespace as trec_eval does) and
reports every problem at once as FILE:LINE:COLUMN (physical line, byte column), with the raw line.
Blank lines and lines starting with # are skipped, as in trec_eval 10.

Problems (code, severity, what):
${problems}

Output: table (default; text is an alias) lists problems by line, then one note per code whose listing was cut
(--max-listed), then "FILE: ok|failed: N errors, M warnings in L lines, Q queries".
--format json prints one object: {schema: "trecscore.validate/1", file, ok, strict, errors,
warnings, queries, lines, runLines, blankLines, commentLines, bytes, tags, counts: {CODE:
{severity, count, listed}}, problems: [{severity, code, line, column, message, text,
lineBytes, ...}]}; "ok" is true exactly when the exit status is 0. Counts are always exact.

RETECO (SemEval-2027 Task 1): --preset reteco-1a|reteco-1b|reteco-2a|reteco-2c --data DIR
[--split dev] checks RUN (one file, or a directory with one file per domain named <domain>.<ext>;
Track 2 needs the directory) against the sub-track's topics and each domain's documents.jsonl.
Everything the organizers' format_checker.py checks, plus the evaluation plan's rules; each file
also shows the checker's own verdict and, where it differs, why. With a preset, duplicate_doc
becomes duplicate_doc_dropped and too_deep (over 1,000) deeper_than_limit (both warnings, as the
plan scores such runs), rank_score_order becomes score_rises (the checker's rule, per line) and
rank_order_differs (once per topic), and these codes are added:
${retecoProblems}
--format json then prints a "trecscore.reteco-validate/1" object: {schema, run, preset, subtrack,
split, layout, ok, strict, errors, warnings, files: [{...the report above, domain, formatChecker:
{valid, crashed, lines, topics, errors, warnings, stdout}, agreesWithFormatChecker, differences:
[{code, count, reason}]}], problems: [...]}.

Exit status:
  0  no errors (warnings allowed)
  1  warnings but no errors, with --strict
  2  errors; also usage errors and unreadable files (missing, a directory, truncated .gz),
     which are reported on stderr
`
}

/** `trecscore validate RUN [--qrels Q] [--corpus IDS] [--max-depth N] [--format text|json] [--strict]` */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check a TREC run file and report every problem with file:line:column')
    .argument(
      '<run>',
      'TREC run file; - for stdin; .gz is decompressed; with --preset, a file or a directory of per-domain files',
    )
    .addOption(
      new Option(
        '--preset <name>',
        'check a RETECO submission (needs --data) or a TREC 2023 NeuCLIR run',
      ).choices([...PRESETS, ...NEUCLIR_VALIDATE_PRESETS]),
    )
    .option(
      '--data <dir>',
      'RETECO data folder (release layout or the pilot sample), with --preset',
    )
    .option('--split <split>', 'split whose topics the run must cover, with --preset', 'dev')
    .option('--qrels <file>', 'warn about topics that are not in these qrels (unknown_topic)')
    .option(
      '--corpus <file>',
      'warn about documents not in this list: one doc id per line, first field (unknown_doc)',
    )
    .option(
      '--max-depth <n>',
      'error when a topic has more than n documents (too_deep)',
      integer(1),
    )
    .option(
      '--max-line-bytes <n>',
      'longest line checked; longer lines are skipped and reported',
      integer(1),
      DEFAULT_MAX_LINE_BYTES,
    )
    .option('--max-listed <n>', 'problems listed per code (all are counted)', integer(0), 20)
    .addOption(formatOption(['table', 'json']))
    .option('--strict', 'exit 1 when there are warnings but no errors')
    .option(
      '--allow-missing-corpus',
      'RETECO: check domains without documents.jsonl anyway (their doc ids go unchecked); else exit 2',
    )
    .addHelpText('after', helpText())
    .option(
      '--candidates <file>',
      "NeuCLIR reranking: candidate lists (TREC run); documents outside a topic's list, or a topic with fewer or more documents, are errors",
    )
    .option(
      '--doc-lang <file>',
      'neuclir23-mlir: doc-to-language map ("docid lang" lines, or language qrels) for the one-language check',
    )
    .addHelpText('after', NEUCLIR_VALIDATE_HELP)
    .option(
      '--retrieval <run>',
      'reteco-2c answers: the retrieval run of the same submission (required)',
    )
    .option(
      '--max-answer-chars <n>',
      'reteco-2b/2c: longest answer in Unicode code points (default 4000)',
      integer(1),
    )
    .addHelpText('after', generationValidateHelp())
    .action(async (run: string, flags: ValidateFlags) => {
      process.exitCode = await validateCommand(run, flags)
    })
}

async function validateCommand(run: string, flags: ValidateFlags): Promise<number> {
  if (routesToNeuclir(flags)) return validateNeuclirRun(run, flags)
  if (
    flags.preset === 'reteco-2b' ||
    (flags.preset === 'reteco-2c' && (flags.retrieval !== undefined || looksLikeAnswers(run)))
  )
    return validateGenerationCommand(run, flags)
  if (flags.preset !== undefined || flags.data !== undefined) return retecoCommand(run, flags)
  const file = run === '-' ? '<stdin>' : run
  const { report, failed, bytes } = await checkRunFormat(run, file, flags)
  if (flags.format === 'json') process.stdout.write(renderValidationJson(report))
  else if (!failed || bytes > 0) process.stdout.write(renderValidationText(report))
  return exitCode(report)
}

function exitCode(report: RunValidationReport): number {
  if (report.errors > 0) return 2
  return report.ok ? 0 : 1
}

function usage(message: string): number {
  process.stderr.write(`trecscore validate: ${message}\n`)
  return 2
}

async function retecoCommand(run: string, flags: ValidateFlags): Promise<number> {
  if (flags.preset === undefined)
    return usage('--data needs --preset reteco-1a|reteco-1b|reteco-2a|reteco-2c')
  if (flags.data === undefined)
    return usage(`--preset ${flags.preset} needs --data DIR (the RETECO data folder)`)
  const other = (['qrels', 'corpus', 'maxDepth'] as const).filter((k) => flags[k] !== undefined)
  if (other.length)
    return usage(
      `--preset takes topics and corpus ids from --data; drop ${other.map((k) => (k === 'maxDepth' ? '--max-depth' : `--${k}`)).join(' and ')}`,
    )
  if (run === '-') return usage('--preset reads a run file or directory, not standard input')
  const v = await validateRetecoRun(run, {
    subtrack: flags.preset.slice('reteco-'.length) as '1a' | '1b' | '2a' | '2c',
    data: flags.data,
    split: flags.split,
    maxListed: flags.maxListed,
    maxLineBytes: flags.maxLineBytes,
    strict: flags.strict ?? false,
    ...(flags.allowMissingCorpus ? { allowMissingCorpus: true } : {}),
  })
  process.stdout.write(
    flags.format === 'json' ? renderRetecoValidationJson(v) : renderRetecoValidationText(v),
  )
  if (v.errors > 0) return 2
  return v.ok ? 0 : 1
}
