import { type Command, InvalidArgumentError } from 'commander'
import { runStore, server } from './serve.js'

function logFormat(text: string): 'json' | 'text' {
  if (text !== 'json' && text !== 'text') throw new InvalidArgumentError('expected json or text')
  return text
}

function positive(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 256)
    throw new InvalidArgumentError('expected a whole number from 1 to 256')
  return Number(text)
}

/**
 * `trecscore worker --config FILE --data DIR --db postgres://… [--concurrency N]`: a scoring
 * worker of a Postgres-backed `trecscore serve` (loaded on demand, like `serve`).
 */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(
      'score submissions of a `trecscore serve` leaderboard on Postgres: take jobs from its queue until stopped (SIGINT/SIGTERM put running jobs back)',
    )
    .requiredOption('--config <file>', 'the competition config the web processes use (JSON)')
    .requiredOption('--db <url>', 'the database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE')
    .option(
      '--data <dir>',
      'folder with the qrels versions and, with --runs directory, the submitted runs (shared with the web processes)',
      './board',
    )
    .option(
      '--runs <store>',
      "where the baselines this worker submits at start are stored: directory (--data/runs/) or database (chunked rows in the --db database); give it the web processes' value. The runs it scores are read from the store that holds each",
      runStore,
      'directory',
    )
    .option('--concurrency <n>', 'jobs scored at once (one child process each)', positive, 1)
    .option(
      '--log-format <format>',
      'job log lines on stderr: json (one object per line: ts, level, msg, worker, job, kind, requestId) or text',
      logFormat,
      'json',
    )
    .action(
      async (flags: {
        config: string
        db: string
        data: string
        concurrency: number
        runs: 'directory' | 'database'
        logFormat: 'json' | 'text'
      }) => {
        await (await server()).workerCommand(flags)
      },
    )
}
