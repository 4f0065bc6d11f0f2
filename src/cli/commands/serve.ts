import { type Command, InvalidArgumentError } from 'commander'

function port(text: string): number {
  const n = Number(text)
  if (!/^\d+$/.test(text) || n > 65535)
    throw new InvalidArgumentError('expected a port number (0-65535; 0 picks a free one)')
  return n
}

/** A count of 0 or more. */
export function count(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 1000)
    throw new InvalidArgumentError('expected a whole number from 0 to 1000')
  return Number(text)
}

/** The server's entry, loaded only when `serve` runs (other commands never load Hono, Kysely, zod or SQLite). */
export async function server(): Promise<typeof import('../../server/index.js')> {
  return import('../../server/index.js')
}

interface ServeFlags {
  config?: string
  data: string
  db?: string
  port: number
  host: string
  secureCookies?: boolean
  trustProxy?: boolean
  workers?: number
  runs: 'directory' | 'database'
  logFormat: 'json' | 'text'
  out?: string
  force?: boolean
  printSchema?: boolean
  name?: string
  publicKey?: string
  track?: string
  phase?: string
  note?: string
}

/** `--runs`: where new uploads are stored (`serve`, `worker`). */
export function runStore(text: string): 'directory' | 'database' {
  if (text !== 'directory' && text !== 'database')
    throw new InvalidArgumentError('expected directory or database')
  return text
}

/** The help of `serve --runs`. */
const RUNS_HELP =
  'where new uploads are stored: directory (--data/runs/, a folder every machine shares) or database (chunked rows in the --db database: web processes and workers share no folder); each submission is read from the store that holds it, whichever this is'

function logFormat(text: string): 'json' | 'text' {
  if (text !== 'json' && text !== 'text') throw new InvalidArgumentError('expected json or text')
  return text
}

const ADMIN_HELP = `
Operations (with the server's --data folder and --db):
  trecscore serve migrate --data DIR [--db URL]
      apply the schema migrations the database lacks and print each (idempotent; the server
      also migrates on start)
  trecscore serve backup --data DIR [--db URL] --out FILE
      write every table row and every stored file (with its sha256) to one portable file
      (gzip'd JSON lines), the runs of both stores: a SQLite backup restores into Postgres and back
  trecscore serve restore --data DIR [--db URL] [--runs STORE] [--force] FILE
      restore a backup into an empty database and data folder (--force: replace what is
      there); every file's sha256 is checked before anything is committed; the runs go to
      the --runs store (directory or database), whichever held them when the backup was made
  GET /healthz: 200 {"ok":true,"db":…,"version":…} or 503; GET /metrics: Prometheus text,
      loopback only unless TRECSCORE_METRICS_TOKEN is set (then Authorization: Bearer TOKEN)
Administration (on the server machine, with the server's --data folder and --db):
  trecscore serve admin create-organizer --data DIR [--db URL] --name NAME
      create an organizer account and print its generated password once
  trecscore serve admin add-qrels --config F --data DIR [--db URL] --track T --phase P --name ORG [--note TEXT] FILE...
      add a qrels version (one file; RETECO: one <domain>.txt per domain) and queue the re-scoring
      of the phase's scored submissions, as the organizer page does; for web processes that hold
      no qrels, run it where the workers' --data folder and the qrels are
  trecscore serve admin verify-release DIR [--public-key FILE]
      check a signed release snapshot (DIR = --data/releases/PHASE/N): the Ed25519 signature
      of MANIFEST.sha256 (with FILE, or the key in the folder) and every file's sha256;
      exit 0 valid, 2 with every problem listed
`

/**
 * `trecscore serve --config competition.json --data DIR [--port 8080] [--host 127.0.0.1]`,
 * `trecscore serve --print-schema`, and `trecscore serve admin create-organizer --data DIR --name NAME`.
 * (The admin verbs are arguments of `serve`, not subcommands, so that `--data` means the same
 * folder in both forms.)
 */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'run a shared-task leaderboard: teams submit runs, a worker scores them, boards per track and phase (see the README)',
    )
    .argument(
      '[admin...]',
      'migrate | backup | restore FILE | admin create-organizer | admin add-qrels FILE... | admin verify-release DIR: see below',
    )
    .option(
      '--config <file>',
      'competition config (JSON; `trecscore serve --print-schema` prints its schema)',
    )
    .option('--data <dir>', 'folder for the database and the submitted runs', './board')
    .option(
      '--db <url>',
      'the database: sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (default: sqlite:DIR/board.sqlite in --data)',
    )
    .option('--port <n>', 'port to listen on', port, 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--secure-cookies', 'mark cookies Secure (when served behind HTTPS)')
    .option(
      '--trust-proxy',
      "behind a reverse proxy that only it can reach the server through: the client's address is the last X-Forwarded-For entry and the scheme X-Forwarded-Proto's (per-IP rate limits, the CSRF Origin check, /metrics' loopback rule)",
    )
    .option(
      '--workers <n>',
      'with --db postgres://…: scoring jobs this process takes from the queue at once (default 0: a web process only; run `trecscore worker` processes)',
      count,
    )
    .option(
      '--runs <store>',
      `${RUNS_HELP}; with \`restore\`: the store the backup's runs go to`,
      runStore,
      'directory',
    )
    .option(
      '--log-format <format>',
      'log lines on stderr: json (one object per line: ts, level, msg, requestId, method, path, status, ms) or text',
      logFormat,
      'json',
    )
    .option('-o, --out <file>', 'with `backup`: the backup file to write')
    .option('--force', 'with `restore`: replace a database and data folder that are not empty')
    .option('--print-schema', 'print the JSON Schema of the competition config and exit')
    .option(
      '--name <name>',
      "with `admin create-organizer`: the organizer's sign-in name; with `admin add-qrels`: the organizer recorded as adding the version",
    )
    .option('--track <id>', 'with `admin add-qrels`: the track of the qrels version')
    .option('--phase <id>', 'with `admin add-qrels`: the phase of the qrels version')
    .option('--note <text>', 'with `admin add-qrels`: a note shown with the version', '')
    .option(
      '--public-key <file>',
      'with `admin verify-release`: the PEM public key to check the signature with (default: the one in the snapshot)',
    )
    .addHelpText('after', ADMIN_HELP)
    .action(async (admin: string[], flags: ServeFlags, cmd: Command) => {
      if (admin[0] === 'admin' && admin[1] === 'verify-release') {
        if (admin.length !== 3)
          cmd.error(
            'error: admin verify-release needs one snapshot folder: admin verify-release DIR',
            { exitCode: 2, code: 'trecscore.serveAdminVerify' },
          )
        process.exitCode = await (await server()).verifyReleaseCommand({
          dir: admin[2]!,
          ...(flags.publicKey !== undefined ? { publicKey: flags.publicKey } : {}),
        })
        return
      }
      if (admin[0] === 'admin' && admin[1] === 'add-qrels') {
        const files = admin.slice(2)
        const missing = [
          ...(flags.config === undefined ? ['--config'] : []),
          ...(flags.track === undefined ? ['--track'] : []),
          ...(flags.phase === undefined ? ['--phase'] : []),
          ...(flags.name === undefined ? ['--name'] : []),
          ...(files.length === 0 ? ['a qrels FILE'] : []),
        ]
        if (missing.length)
          cmd.error(`error: admin add-qrels needs ${missing.join(', ')}`, {
            exitCode: 2,
            code: 'trecscore.serveAdminAddQrels',
          })
        await (await server()).addQrelsCommand({
          config: flags.config!,
          data: flags.data,
          ...(flags.db !== undefined ? { db: flags.db } : {}),
          track: flags.track!,
          phase: flags.phase!,
          name: flags.name!,
          note: flags.note ?? '',
          files,
        })
        return
      }
      if (admin[0] === 'backup') {
        if (admin.length !== 1 || flags.out === undefined)
          cmd.error('error: serve backup needs --out FILE (and no other argument)', {
            exitCode: 2,
            code: 'trecscore.serveBackup',
          })
        await (await server()).backupCommand({
          data: flags.data,
          out: flags.out,
          ...(flags.db !== undefined ? { db: flags.db } : {}),
        })
        return
      }
      if (admin[0] === 'restore') {
        if (admin.length !== 2)
          cmd.error('error: serve restore needs one backup file: serve restore FILE', {
            exitCode: 2,
            code: 'trecscore.serveRestore',
          })
        await (await server()).restoreCommand({
          data: flags.data,
          file: admin[1]!,
          force: !!flags.force,
          runs: flags.runs,
          ...(flags.db !== undefined ? { db: flags.db } : {}),
        })
        return
      }
      if (admin.length === 1 && admin[0] === 'migrate') {
        await (await server()).migrateCommand({
          data: flags.data,
          ...(flags.db !== undefined ? { db: flags.db } : {}),
        })
        return
      }
      if (flags.publicKey !== undefined)
        cmd.error('error: --public-key applies to `serve admin verify-release` only', {
          exitCode: 2,
          code: 'trecscore.servePublicKey',
        })
      if (admin.length) {
        if (admin.join(' ') !== 'admin create-organizer')
          cmd.error(
            `error: unknown serve command '${admin.join(' ')}'; expected: migrate, backup, restore FILE, admin create-organizer, admin add-qrels FILE... or admin verify-release DIR`,
            { exitCode: 2, code: 'trecscore.serveAdmin' },
          )
        if (flags.name === undefined)
          cmd.error('error: admin create-organizer needs --name <name>', {
            exitCode: 2,
            code: 'trecscore.serveAdminName',
          })
        await (await server()).createOrganizerCommand({
          data: flags.data,
          name: flags.name,
          ...(flags.db !== undefined ? { db: flags.db } : {}),
        })
        return
      }
      if (flags.name !== undefined)
        cmd.error('error: --name applies to `serve admin create-organizer` only', {
          exitCode: 2,
          code: 'trecscore.serveName',
        })
      const s = await server()
      if (flags.printSchema) {
        process.stdout.write(JSON.stringify(s.configJsonSchema(), null, 2) + '\n')
        return
      }
      if (flags.config === undefined)
        cmd.error("error: required option '--config <file>' not specified", {
          exitCode: 2,
          code: 'trecscore.missingConfig',
        })
      await s.serveCommand({
        config: flags.config,
        data: flags.data,
        ...(flags.db !== undefined ? { db: flags.db } : {}),
        port: flags.port,
        host: flags.host,
        secureCookies: !!flags.secureCookies,
        trustProxy: !!flags.trustProxy,
        ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
        runs: flags.runs,
        logFormat: flags.logFormat,
      })
    })
}
