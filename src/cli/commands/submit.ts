import { type Command, InvalidArgumentError } from 'commander'
import { TrecscoreError } from '../../entries/errors.js'
import { DEFAULT_MAX_LINE_BYTES, folderFiles, readAll, SourceError } from '../../entries/io.js'
import { formatFixed } from '../../entries/report.js'
import { renderValidationText } from '../../entries/validate.js'
import { checkRunFormat } from './run-format-check.js'

interface SubmitFlags {
  server: string
  token?: string
  track: string
  phase: string
  meta?: string
  wait?: boolean
  timeout: number
}

function seconds(text: string): number {
  const n = Number(text)
  if (!Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('expected a number of seconds > 0')
  return n
}

function url(server: string, path: string): string {
  return new URL(path, server.endsWith('/') ? server : `${server}/`).toString()
}

async function call(
  server: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  let r: Response
  try {
    r = await fetch(url(server, path), init)
  } catch (e) {
    throw new TrecscoreError(`cannot reach ${server}: ${(e as Error).message}`, 1)
  }
  const text = await r.text()
  try {
    return { status: r.status, body: JSON.parse(text) as Record<string, unknown> }
  } catch {
    throw new TrecscoreError(
      `${server}: ${path}: HTTP ${r.status}, not JSON: ${text.slice(0, 200)}`,
      1,
    )
  }
}

async function read(file: string): Promise<Buffer> {
  try {
    return Buffer.from(await readAll(file))
  } catch (e) {
    if (e instanceof SourceError) throw new TrecscoreError(`${file}: cannot read: ${e.reason}`, 2)
    throw e
  }
}

/**
 * `trecscore submit --server URL --token T --track ID --phase ID RUN [--meta FILE] [--wait]`:
 * validate the run locally (the format checks of `validate`), upload it, and with `--wait`
 * poll until it is scored or failed. Exit 0 accepted (and scored), 2 invalid or refused, 1 failed
 * scoring or an unreachable server.
 */
async function submit(run: string, flags: SubmitFlags): Promise<number> {
  const token = flags.token ?? process.env['TRECSCORE_TOKEN']
  if (!token)
    throw new TrecscoreError(
      'submit needs --token TOKEN (or TRECSCORE_TOKEN): a team API token from the team page',
      2,
    )
  // A folder is a per-domain run (RETECO Track 2): each file is checked, and all are sent
  // together as multipart file parts.
  const folder = await folderFiles(run)
  if (folder !== null && folder.length === 0)
    throw new TrecscoreError(`${run}: the folder holds no run file`, 2)
  const files = folder ? folder.map((f) => `${run.replace(/[\\/]+$/, '')}/${f}`) : [run]
  let errors = 0
  for (const f of files) {
    const { report } = await checkRunFormat(f, f, {
      maxLineBytes: DEFAULT_MAX_LINE_BYTES,
      maxListed: 20,
    })
    if (report.errors > 0) process.stdout.write(renderValidationText(report))
    errors += report.errors
  }
  if (errors > 0) {
    process.stderr.write('trecscore: the run has errors; nothing was uploaded\n')
    return 2
  }
  let meta = '{}'
  if (flags.meta !== undefined) {
    meta = (await read(flags.meta)).toString('utf8')
    try {
      meta = JSON.stringify(JSON.parse(meta))
    } catch (e) {
      throw new TrecscoreError(`${flags.meta}: not JSON: ${(e as Error).message}`, 2)
    }
  }
  let body: Buffer | FormData
  if (folder) {
    body = new FormData()
    for (const [i, f] of files.entries())
      body.append('run', new Blob([new Uint8Array(await read(f))]), folder[i]!)
  } else body = await read(run)
  const q = new URLSearchParams({
    track: flags.track,
    phase: flags.phase,
    name:
      run
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() || 'run.txt',
  })
  const up = await call(flags.server, `api/v1/submissions?${q}`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${token}`, 'x-trecscore-metadata': meta },
  })
  if (up.status !== 202) {
    if (typeof up.body['report'] === 'string') process.stdout.write(up.body['report'])
    process.stderr.write(
      `trecscore: ${flags.server} refused the run (HTTP ${up.status}): ${String(up.body['error'] ?? '')}\n`,
    )
    return up.status === 401 || up.status >= 500 ? 1 : 2
  }
  const id = String(up.body['id'])
  process.stdout.write(`submitted ${id} (queued)\n`)
  if (!flags.wait) return 0
  const end = Date.now() + flags.timeout * 1000
  for (;;) {
    const s = await call(flags.server, `api/v1/submissions/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const state = String(s.body['state'])
    if (state === 'scored') {
      const versions = s.body['versions'] as
        | { columns: Record<string, number | null> }[]
        | undefined
      const cols = versions?.[0]?.columns
      process.stdout.write(
        `${id} scored${
          cols
            ? '\n' +
              Object.entries(cols)
                .map(([k, v]) => `  ${k}\t${v}`)
                .join('\n')
            : ' (scores hidden until the phase is released)'
        }\n`,
      )
      return 0
    }
    if (state === 'failed') {
      process.stderr.write(`trecscore: ${id} failed: ${String(s.body['reason'])}\n`)
      return 1
    }
    if (Date.now() > end) {
      process.stderr.write(`trecscore: ${id} still ${state} after ${flags.timeout} s\n`)
      return 1
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** `trecscore board --server URL --track ID [--phase ID] [--json]`: print a board. */
async function board(flags: {
  server: string
  track: string
  phase: string
  json?: boolean
}): Promise<number> {
  const b = await call(
    flags.server,
    `api/v1/boards/${encodeURIComponent(flags.track)}/${encodeURIComponent(flags.phase)}`,
  )
  if (b.status !== 200) {
    process.stderr.write(
      `trecscore: ${flags.server}: no board for track ${flags.track}, phase ${flags.phase} (HTTP ${b.status})\n`,
    )
    return 2
  }
  if (flags.json) {
    process.stdout.write(JSON.stringify(b.body, null, 2) + '\n')
    return 0
  }
  if (!b.body['released']) {
    process.stdout.write(
      `${flags.track} / ${flags.phase}: hidden until the organizers release it\n`,
    )
    return 0
  }
  const columns = b.body['columns'] as string[]
  const entries = b.body['entries'] as {
    rank: number
    team: string
    baseline: boolean
    run: string | null
    columns: Record<string, number | null>
  }[]
  const rows = [
    ['rank', 'team', 'run', ...columns],
    ...entries.map((e) => [
      String(e.rank),
      e.team + (e.baseline ? ' (baseline)' : ''),
      e.run ?? '-',
      ...columns.map((c) =>
        typeof e.columns[c] === 'number' ? formatFixed(e.columns[c]!, 4) : '-',
      ),
    ]),
  ]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  process.stdout.write(
    rows
      .map((r) =>
        r
          .map((x, i) => x.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n',
  )
  process.stdout.write(`${String(b.body['tiePolicy'])}\n`)
  return 0
}

/** `submit` and `board`: the participant's side of `trecscore serve`. */
export function registerSubmit(program: Command): void {
  program
    .command('submit')
    .description(
      'validate a run locally, then upload it to a `trecscore serve` leaderboard (--wait: until scored)',
    )
    .argument(
      '<run>',
      'TREC run file; a folder for a per-domain run (RETECO Track 2: one file per domain)',
    )
    .requiredOption('--server <url>', 'the server, e.g. http://127.0.0.1:8080')
    .option('--token <token>', 'team API token (default: $TRECSCORE_TOKEN)')
    .requiredOption('--track <id>', 'track id')
    .option('--phase <id>', 'phase id', 'dev')
    .option('--meta <file>', 'run metadata, a JSON object (the fields the competition asks for)')
    .option('--wait', 'wait until the run is scored or failed, and print its scores')
    .option('--timeout <seconds>', 'with --wait: give up after this long', seconds, 600)
    .action(async (run: string, flags: SubmitFlags) => {
      process.exitCode = await submit(run, flags)
    })
  program
    .command('board')
    .description('print a board of a `trecscore serve` leaderboard')
    .requiredOption('--server <url>', 'the server, e.g. http://127.0.0.1:8080')
    .requiredOption('--track <id>', 'track id')
    .option('--phase <id>', 'phase id', 'dev')
    .option('--json', 'print the board as JSON (as GET /api/v1/boards/TRACK/PHASE)')
    .action(async (flags: { server: string; track: string; phase: string; json?: boolean }) => {
      process.exitCode = await board(flags)
    })
}
