import { InvalidArgumentError, Option, type Command } from 'commander'
import {
  DEFAULT_MAX_LINE_BYTES,
  readIdList,
  readQrels,
  readChunks,
  SourceError,
  describeRunProblemCode,
  renderValidationJson,
  renderValidationText,
  RUN_PROBLEM_CODES,
  RUN_PROBLEM_SEVERITY,
  RunValidator,
  type RunValidationReport,
} from '../../index.js'

interface ValidateFlags {
  qrels?: string
  corpus?: string
  maxDepth?: number
  maxLineBytes: number
  maxListed: number
  format: 'text' | 'json'
  strict?: boolean
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
  const problems = RUN_PROBLEM_CODES.map(
    (c) => `  ${c.padEnd(width)}  ${RUN_PROBLEM_SEVERITY[c].padEnd(7)}  ${describeRunProblemCode(c)}`,
  ).join('\n')
  return `
Checks a TREC run (qid iter docno rank score tag, split on whitespace as trec_eval does) and
reports every problem at once as FILE:LINE:COLUMN (physical line, byte column), with the raw line.
Blank lines and lines starting with # are skipped, as in trec_eval 10.

Problems (code, severity, what):
${problems}

Output: text (default) lists problems by line, then one note per code whose listing was cut
(--max-listed), then "FILE: ok|failed: N errors, M warnings in L lines, Q queries".
--format json prints one object: {schema: "trecscore.validate/1", file, ok, strict, errors,
warnings, queries, lines, runLines, blankLines, commentLines, bytes, tags, counts: {CODE:
{severity, count, listed}}, problems: [{severity, code, line, column, message, text,
lineBytes, ...}]}; "ok" is true exactly when the exit status is 0. Counts are always exact.

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
    .argument('<run>', 'TREC run file; - for stdin; .gz is decompressed')
    .option('--qrels <file>', 'warn about topics that are not in these qrels (unknown_topic)')
    .option('--corpus <file>', 'warn about documents not in this list: one doc id per line, first field (unknown_doc)')
    .option('--max-depth <n>', 'error when a topic has more than n documents (too_deep)', integer(1))
    .option('--max-line-bytes <n>', 'longest line checked; longer lines are skipped and reported', integer(1), DEFAULT_MAX_LINE_BYTES)
    .option('--max-listed <n>', 'problems listed per code (all are counted)', integer(0), 20)
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--strict', 'exit 1 when there are warnings but no errors')
    .addHelpText('after', helpText())
    .action(async (run: string, flags: ValidateFlags) => {
      process.exitCode = await validateCommand(run, flags)
    })
}

async function validateCommand(run: string, flags: ValidateFlags): Promise<number> {
  const topics = flags.qrels === undefined ? undefined : new Set((await readQrels(flags.qrels)).queries.keys())
  const docs = flags.corpus === undefined ? undefined : await readIdList(flags.corpus)
  const file = run === '-' ? '<stdin>' : run
  const validator = new RunValidator({
    file,
    maxLineBytes: flags.maxLineBytes,
    maxListed: flags.maxListed,
    strict: flags.strict ?? false,
    ...(flags.maxDepth === undefined ? {} : { maxDepth: flags.maxDepth }),
    ...(topics ? { topics } : {}),
    ...(docs ? { docs } : {}),
  })
  let bytes = 0
  let failure: SourceError | null = null
  try {
    for await (const chunk of readChunks(run)) {
      bytes += chunk.length
      validator.feed(chunk)
    }
  } catch (e) {
    if (!(e instanceof SourceError)) throw e
    failure = e
    validator.fail(e.reason)
  }
  const report = validator.end()
  if (failure) process.stderr.write(`trecscore: ${file}: cannot read: ${failure.reason}\n`)
  if (flags.format === 'json') process.stdout.write(renderValidationJson(report))
  else if (!failure || bytes > 0) process.stdout.write(renderValidationText(report))
  return exitCode(report)
}

function exitCode(report: RunValidationReport): number {
  if (report.errors > 0) return 2
  return report.ok ? 0 : 1
}
