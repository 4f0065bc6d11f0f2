/**
 * The deployment docs use only commands and flags that exist: every `trecscore …` command line
 * in `deploy/` (unit `ExecStart` lines and comments, the Procfile, the nginx example) and in the
 * README's Deployment section (code blocks and inline code) names a real command, `serve`
 * operation and flag, checked against `trecscore <command> --help` (cached per command). The
 * systemd units parse as INI with [Unit], [Service] and [Install], and pass `systemd-analyze
 * verify` where it is installed (a missing /opt/trecscore binary aside).
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cli, ROOT } from './cli/helpers.js'

const DEPLOY = join(ROOT, 'deploy')
const UNITS = join(DEPLOY, 'systemd')

/** One `trecscore` command line found in a document. */
interface Found {
  readonly where: string
  readonly command: string
  /** Bare words right after the command (`serve migrate`, `serve admin create-organizer`). */
  readonly words: readonly string[]
  readonly flags: readonly string[]
  readonly text: string
}

/** Shell words that end a command (a pipe, a list, a redirection, a comment). */
const SEPARATORS = new Set(['|', '||', '&&', ';', '&', '>', '>>', '2>', '2>&1', '#'])
const BARE = /^[a-z][a-z-]*$/

/** Words after which a new command starts (`sudo -u trecscore` is handled apart). */
const STARTS = new Set([...SEPARATORS, '(', '$', 'npx', 'exec', 'nohup', 'sudo', 'time'])

/** Whether word `i` is where a command starts: first, after a separator, sudo or VAR=…. */
function commandStart(words: readonly string[], i: number): boolean {
  if (i === 0 || words[i]!.includes('/')) return true
  const prev = words[i - 1]!
  return STARTS.has(prev) || /^[A-Z_][A-Z0-9_]*=/.test(prev) || words[i - 2] === '-u'
}

/**
 * The `trecscore` commands of one line of shell-like text: a word whose last path part is
 * `trecscore` (`trecscore`, `/opt/trecscore/node_modules/.bin/trecscore`), where a command
 * starts (not `sudo -u trecscore`, not prose naming the project), followed by a bare word
 * (the command).
 */
export function commandsIn(line: string, where: string): Found[] {
  const words = line
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/^["']|["']$/g, ''))
  const out: Found[] = []
  for (let i = 0; i < words.length; i++) {
    if (basename(words[i]!) !== 'trecscore' || !commandStart(words, i)) continue
    const command = words[i + 1]
    if (command === undefined || !BARE.test(command)) continue
    let j = i + 2
    const bare: string[] = []
    while (j < words.length && BARE.test(words[j]!)) bare.push(words[j++]!)
    const flags: string[] = []
    for (; j < words.length; j++) {
      const w = words[j]!
      if (SEPARATORS.has(w) || w.endsWith(';')) break
      if (/^--?[A-Za-z]/.test(w)) flags.push(w.split('=')[0]!)
    }
    out.push({ where, command, words: bare, flags, text: words.slice(i, j).join(' ') })
    i = j - 1
  }
  return out
}

/** Join shell lines continued with a trailing backslash. */
function logicalLines(text: string): string[] {
  return text.replace(/\\\n/g, ' ').split('\n')
}

/** The commands in the inline code spans of a text (a span may wrap within a paragraph). */
function spanCommands(text: string, where: string): Found[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) =>
      [...paragraph.replace(/\s*\n[\s#]*/g, ' ').matchAll(/`([^`]+)`/g)].flatMap((m) =>
        commandsIn(m[1]!, where),
      ),
    )
}

/** The commands of a Markdown text: in its fenced code blocks and in its inline code spans. */
export function markdownCommands(md: string, where: string): Found[] {
  const out: Found[] = []
  const prose: string[] = []
  let fence: string[] | null = null
  for (const line of md.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (fence) {
        for (const l of logicalLines(fence.join('\n'))) out.push(...commandsIn(l, where))
        fence = null
      } else fence = []
      prose.push('')
    } else if (fence) fence.push(line)
    else prose.push(line)
  }
  out.push(...spanCommands(prose.join('\n'), where))
  return out
}

/** The README's Deployment section: from its heading to the next heading of level 1 to 3. */
function deploymentSection(): string {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')
  const start = lines.indexOf('### Deployment')
  if (start < 0) throw new Error('README.md has no "### Deployment" section')
  let end = start + 1
  let inFence = false
  for (; end < lines.length; end++) {
    if (/^\s*```/.test(lines[end]!)) inFence = !inFence
    if (!inFence && /^#{1,3} /.test(lines[end]!)) break
  }
  return lines.slice(start, end).join('\n')
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? filesUnder(p) : [p]
  })
}

/** Every command line of deploy/ and of the README's Deployment section. */
function documentedCommands(): Found[] {
  const out: Found[] = markdownCommands(deploymentSection(), 'README.md#deployment')
  for (const file of filesUnder(DEPLOY)) {
    const where = relative(ROOT, file)
    const text = readFileSync(file, 'utf8')
    if (file.endsWith('.md')) {
      out.push(...markdownCommands(text, where))
      continue
    }
    // Units' ExecStart lines, the Procfile's `name: command` lines, code spans in comments.
    for (const l of logicalLines(text)) {
      const exec = /^\s*ExecStart=[-@+!:]*(.*)$/.exec(l)
      const proc = file.endsWith('Procfile') ? /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(l) : null
      if (exec) out.push(...commandsIn(exec[1]!, where))
      else if (proc) out.push(...commandsIn(proc[2]!, where))
    }
    out.push(...spanCommands(text, where))
  }
  return out
}

const helps = new Map<string, string | null>()

/** `trecscore COMMAND --help`, once per command; null when the command does not exist. */
function helpOf(command: string): string | null {
  if (!helps.has(command)) {
    const r = cli([command, '--help'])
    helps.set(command, r.code === 0 && r.stdout.includes(`trecscore ${command}`) ? r.stdout : null)
  }
  return helps.get(command)!
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** What is wrong with one documented command line: one message per problem. */
export function problemsOf(f: Found): string[] {
  const help = helpOf(f.command)
  const at = `${f.where}: \`${f.text}\``
  if (help === null) return [`${at}: no command 'trecscore ${f.command}'`]
  const out: string[] = []
  if (f.command === 'serve' && f.words.length > 0) {
    // The operations are listed under "Arguments:" and in the help's usage lines.
    const op = f.words[0] === 'admin' ? f.words.slice(0, 2).join(' ') : f.words[0]!
    if (!new RegExp(`trecscore serve ${escapeRe(op)}\\b`).test(help))
      out.push(`${at}: no operation 'serve ${op}'`)
  }
  for (const flag of f.flags)
    if (!new RegExp(`(^|[\\s,])${escapeRe(flag)}(?=[\\s,=<\\[]|$)`, 'm').test(help))
      out.push(`${at}: 'trecscore ${f.command}' has no flag ${flag}`)
  return out
}

/** A systemd unit as INI: sections of key=value lines (continuations and comments allowed). */
export function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>()
  let current: Map<string, string[]> | null = null
  logicalLines(text).forEach((line, n) => {
    const l = line.trim()
    if (l === '' || l.startsWith('#') || l.startsWith(';')) return
    const section = /^\[([A-Za-z]+)\]$/.exec(l)
    if (section) {
      if (sections.has(section[1]!)) throw new Error(`line ${n + 1}: [${section[1]}] twice`)
      current = new Map()
      sections.set(section[1]!, current)
      return
    }
    const kv = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(l)
    if (!kv) throw new Error(`line ${n + 1}: not a key=value line: ${l}`)
    if (!current) throw new Error(`line ${n + 1}: ${kv[1]} outside a section`)
    const m: Map<string, string[]> = current
    m.set(kv[1]!, [...(m.get(kv[1]!) ?? []), kv[2]!])
  })
  return sections
}

const unitFiles = readdirSync(UNITS).filter((f) => f.endsWith('.service'))

describe('deployment docs: commands and flags', () => {
  const found = documentedCommands()

  it('finds the command lines of every file that has some', () => {
    const where = new Set(found.map((f) => f.where))
    for (const w of [
      'README.md#deployment',
      'deploy/Procfile',
      'deploy/README.md',
      ...unitFiles.map((f) => `deploy/systemd/${f}`),
    ])
      expect(where, w).toContain(w)
    const commands = new Set(found.map((f) => `${f.command} ${f.words.join(' ')}`.trim()))
    for (const c of ['serve', 'serve migrate', 'serve backup', 'serve restore', 'worker'])
      expect(commands).toContain(c)
    expect(commands).toContain('serve admin create-organizer')
  })

  it('uses only commands, serve operations and flags that exist', () => {
    expect(found.flatMap(problemsOf)).toEqual([])
    // The web unit and the Procfile's web lines really pass the flags the README promises.
    const web = found.filter((f) => f.where.endsWith('trecscore-web@.service'))
    expect(web[0]!.flags).toEqual(
      expect.arrayContaining(['--config', '--data', '--db', '--host', '--port', '--workers']),
    )
  })

  it('refuses a flag, a command or an operation that does not exist', () => {
    const check = (line: string): string[] =>
      commandsIn(line, 'probe').flatMap((f) => problemsOf(f))
    expect(check('trecscore serve --config c.json --bogus-flag 1')).toEqual([
      "probe: `trecscore serve --config c.json --bogus-flag 1`: 'trecscore serve' has no flag --bogus-flag",
    ])
    expect(check('trecscore worker --db postgres://x/y --workers 2')).toEqual([
      "probe: `trecscore worker --db postgres://x/y --workers 2`: 'trecscore worker' has no flag --workers",
    ])
    expect(check('trecscore servee --data x')).toEqual([
      "probe: `trecscore servee --data x`: no command 'trecscore servee'",
    ])
    expect(check('trecscore serve migrat --data x')).toEqual([
      "probe: `trecscore serve migrat --data x`: no operation 'serve migrat'",
    ])
    expect(
      check('trecscore serve backup --data x -o f && trecscore serve restore --force f'),
    ).toEqual([])
    // Not commands: a user name, a unit name, a log line.
    expect(commandsIn('sudo -u trecscore /usr/bin/true', 'probe')).toEqual([])
    expect(commandsIn('systemctl start trecscore-worker@1', 'probe')).toEqual([])
    expect(commandsIn('trecscore worker: demo: taking scoring jobs', 'probe')).toEqual([])
  })
})

describe('deployment docs: systemd units', () => {
  it.each(unitFiles)('%s parses as a unit with [Unit], [Service] and [Install]', (file) => {
    const unit = parseUnit(readFileSync(join(UNITS, file), 'utf8'))
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install'])
    const service = unit.get('Service')!
    expect(service.get('ExecStart')).toHaveLength(1)
    expect(service.get('ExecStart')![0]).toMatch(
      /^\/opt\/trecscore\/node_modules\/\.bin\/trecscore /,
    )
    expect(service.get('EnvironmentFile')).toEqual(['/etc/trecscore/trecscore.env'])
    expect(unit.get('Install')!.get('WantedBy')).toEqual(['multi-user.target'])
    if (file !== 'trecscore-migrate.service')
      expect(unit.get('Unit')!.get('Requires')).toEqual(['trecscore-migrate.service'])
    else expect(service.get('Type')).toEqual(['oneshot'])
  })

  it('uses only BOARD_* names the environment file example defines', () => {
    const env = readFileSync(join(UNITS, 'trecscore.env.example'), 'utf8')
    const defined = new Set([...env.matchAll(/^#?([A-Z_]+)=/gm)].map((m) => m[1]!))
    for (const file of unitFiles) {
      const text = readFileSync(join(UNITS, file), 'utf8')
      for (const m of text.matchAll(/\$\{([A-Z_]+)\}/g)) expect(defined, file).toContain(m[1])
    }
  })

  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' })
  const dirs: string[] = []
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })
  it.skipIf(analyze.status !== 0)('pass systemd-analyze verify', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trecscore-units-'))
    dirs.push(dir)
    const names = unitFiles.map((f) => {
      // A template is verified through an instance of it.
      const name = f.replace('@.service', f.includes('web') ? '@8080.service' : '@1.service')
      copyFileSync(join(UNITS, f), join(dir, f))
      copyFileSync(join(UNITS, f), join(dir, name))
      return join(dir, name)
    })
    const r = spawnSync('systemd-analyze', ['verify', '--man=no', ...names], {
      encoding: 'utf8',
      timeout: 30_000,
    })
    const complaints = `${r.stdout}\n${r.stderr}`
      .split('\n')
      .filter((l) => l.trim() !== '')
      // trecscore is not installed in /opt/trecscore on the test machine.
      .filter((l) => !/trecscore is not executable: No such file or directory/.test(l))
    expect(complaints).toEqual([])
  })
})
