#!/usr/bin/env node
// The hostile-input suite (`npm run test:hostile`; run by .ci/run). Builds hostile inputs in a
// temporary folder (nothing big is stored in the repository), runs every command on them, and
// checks for each run: no stack trace, an exit code the README documents for that command and
// input, peak memory under a bound and no hang (a time limit). Prints one line per case and a
// summary; exits 1 if any case failed.
//
//   node scripts/hostile.mjs [--quick] [--only SUBSTRING] [--keep]
//
// --quick leaves out the big inputs (the 200 MB line, the million queries, the gzip bomb).
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createGzip, gzipSync } from 'node:zlib'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'bin', 'trecscore.js')
const PROBE = join(ROOT, 'scripts', 'hostile', 'rss-probe.mjs')
const args = process.argv.slice(2)
const QUICK = args.includes('--quick')
const KEEP = args.includes('--keep')
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined

if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('hostile: dist/ is missing: run `npm run build` first')
  process.exit(2)
}

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-hostile-'))
const P = (name) => join(tmp, name)
const QRELS = join(ROOT, 'demo', 'qrels.txt')
const RUN = join(ROOT, 'demo', 'runs', 'bm25.run')
const RUN2 = join(ROOT, 'demo', 'runs', 'dense.run')

/** Limits every case runs under. */
const TIME_LIMIT_S = 120
const RSS_LIMIT_MB = 2048
const KILL_RSS_MB = 3072

// ---------------------------------------------------------------- inputs
const validRun = readFileSync(RUN, 'latin1')
const validQrels = readFileSync(QRELS, 'latin1')
const runLine = (score) => `q01 Q0 doc1 1 ${score} t\n`

function lcg(seed) {
  let s = seed >>> 0
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32
}

/** name -> { file, kind: 'junk' | 'empty' | 'valid', note } */
const inputs = new Map()
function input(name, kind, content) {
  const file = P(name)
  writeFileSync(file, content)
  inputs.set(name, { file, kind })
}

input('empty', 'empty', '')
input('whitespace', 'empty', '  \n\t\n   \n')
input('comments', 'empty', '# a comment\n# another\n')
{
  const r = lcg(7)
  const b = Buffer.alloc(65536)
  for (let i = 0; i < b.length; i++) b[i] = Math.floor(r() * 256)
  input('binary', 'junk', b)
}
input('nul-bytes', 'junk', 'q01 Q0 doc\0one 1 1.0 t\nq01 Q0 doc2 2 0.5 t\n')
input(
  'utf16',
  'junk',
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(validRun.slice(0, 2000), 'utf16le')]),
)
input('cr-only-run', 'junk', validRun.replace(/\n/g, '\r'))
input('cr-only-qrels', 'junk', validQrels.replace(/\n/g, '\r'))
input('cols5', 'junk', 'q01 Q0 doc1 1 1.0\nq01 Q0 doc2 2 0.5\n')
input('cols7', 'junk', 'q01 Q0 doc1 1 1.0 t extra\nq01 Q0 doc2 2 0.5 t extra\n')
for (const [name, s] of [
  ['abc', 'abc'],
  ['nan', 'nan'],
  ['inf', 'inf'],
  ['1e400', '1e400'],
  ['hex', '0x10'],
  ['underscore', '1_0'],
  ['comma', '0,75'],
  ['arabic', '\u0663\u0664'],
]) {
  input(`score-${name}`, 'junk', Buffer.from(runLine(s) + 'q01 Q0 doc2 2 0.5 t\n', 'utf8'))
}
input('grade-abc', 'junk', 'q01 0 doc1 abc\n')
input('grade-1.5', 'junk', 'q01 0 doc1 1.5\n')
input('grade-huge', 'junk', 'q01 0 doc1 99999999999\n')
input('id-1mb', 'valid', `q01 Q0 ${'d'.repeat(1 << 20)} 1 1.0 t\n`)
input('qid-1mb', 'valid', `${'q'.repeat(1 << 20)} 0 doc1 1\n`)
input('truncated.gz', 'junk', gzipSync(Buffer.from(validRun)).subarray(0, 200))
mkdirSync(P('a-directory'))
inputs.set('directory', { file: P('a-directory'), kind: 'junk' })
inputs.set('missing', { file: P('does-not-exist'), kind: 'junk' })
inputs.set('dev-zero', { file: '/dev/zero', kind: 'junk' })

async function bigInputs() {
  // A 200 MB line.
  {
    const file = P('line-200mb')
    const w = createWriteStream(file)
    w.write('q01 Q0 ')
    const block = Buffer.alloc(1 << 20, 0x64)
    for (let i = 0; i < 200; i++) if (!w.write(block)) await once(w, 'drain')
    w.end(' 1 1.0 t\n')
    await once(w, 'finish')
    inputs.set('line-200mb', { file, kind: 'junk' })
  }
  // A gzip bomb: 4 GiB of zeros in about 4 MB.
  {
    const file = P('bomb.gz')
    const gz = createGzip({ level: 9 })
    const w = createWriteStream(file)
    gz.pipe(w)
    const zeros = Buffer.alloc(1 << 24)
    for (let i = 0; i < 256; i++) if (!gz.write(zeros)) await once(gz, 'drain')
    gz.end()
    await once(w, 'finish')
    inputs.set('gzip-bomb', { file, kind: 'junk' })
  }
  // A million one-document queries, valid.
  {
    const n = 1_000_000
    const run = []
    const qrels = []
    for (let i = 0; i < n; i++) {
      run.push(`q${i} Q0 d${i} 1 1.0 t\n`)
      qrels.push(`q${i} 0 d${i} ${i % 2}\n`)
    }
    writeFileSync(P('million.run'), run.join(''))
    writeFileSync(P('million.qrels'), qrels.join(''))
    inputs.set('million-run', { file: P('million.run'), kind: 'valid' })
    inputs.set('million-qrels', { file: P('million.qrels'), kind: 'valid' })
  }
}

// ---------------------------------------------------------------- cases
/**
 * A case: argv, the exit codes allowed, and what to feed standard input / where stdout goes.
 * `refuse` = the input is an error for `validate`, so scoring commands must exit 2.
 */
const cases = []
function add(name, argv, codes, opts = {}) {
  if (only !== undefined && !name.includes(only)) return
  cases.push({ name, argv, codes, ...opts })
}

const SCORING = (q, r) => [
  ['evaluate', ['evaluate', q, r, '-m', 'nDCG@10', '-m', 'AP']],
  ['compare', ['compare', q, r, RUN2, '-m', 'AP']],
  ['report', ['report', q, r, '-o', P('report.html')]],
  ['score-dl21', ['score', '--preset', 'dl21-passage', '--qrels', q, r]],
  ['score-neuclir', ['score', '--preset', 'neuclir23-zho', '--qrels', q, r]],
]

function scoringCases(tag, { file, kind }) {
  // Empty-ish input may score (0, with a note) or be refused (2); junk must be refused.
  const codes = kind === 'junk' ? [2] : [0, 2]
  for (const [cmd, argv] of SCORING(QRELS, file)) add(`${cmd} run=${tag}`, argv, codes)
  for (const [cmd, argv] of SCORING(file, RUN)) {
    // Run-only junk (bad scores, 5/7 columns) is junk in a qrels position as well: a qrels line
    // has 4 fields.
    add(`${cmd} qrels=${tag}`, argv, kind === 'valid' ? [0, 2] : codes)
  }
  add(`fuse run=${tag}`, ['fuse', file, RUN2, '-o', P('fused.run')], codes)
  add(`validate run=${tag}`, ['validate', file], kind === 'junk' ? [2] : [0, 1, 2])
  add(
    `validate qrels=${tag}`,
    ['validate', RUN, '--qrels', file],
    kind === 'junk' ? [2] : [0, 1, 2],
  )
  // The drop-in reproduces trec_eval, which accepts some junk (atof): only no trace and a
  // trec_eval exit code.
  add(`trec-eval run=${tag}`, ['trec-eval', QRELS, file], [0, 1, 2, 4, 7])
  add(`trec-eval qrels=${tag}`, ['trec-eval', file, RUN], [0, 1, 2, 4, 7])
  add(
    `textsim pairs=${tag}`,
    ['textsim', '--metric', 'rougeL', file],
    kind === 'junk' ? [2] : [0, 2],
  )
  add(
    `judge-report judgments=${tag}`,
    ['judge', 'report', file, '--markdown', P('judge.md')],
    [0, 2],
  )
  add(
    `judge-agreement human=${tag}`,
    ['judge', 'agreement', '--human', file, '--judgments', file],
    [0, 2],
  )
}

function valueCases() {
  add('evaluate -m empty', ['evaluate', QRELS, RUN, '-m', ''], [2])
  for (const m of [
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'RBP(p=2)',
    'RBP(p=-1)',
    'set_F.1.0,0.5,2.4',
  ]) {
    add(`evaluate -m ${m}`, ['evaluate', QRELS, RUN, '-m', m], [0, 2])
    add(`compare -m ${m}`, ['compare', QRELS, RUN, RUN2, '-m', m], [0, 2])
    add(`trec-eval -m ${m}`, ['trec-eval', '-m', m, QRELS, RUN], [0, 1, 2])
  }
  add('evaluate --digits 101', ['evaluate', QRELS, RUN, '-m', 'AP', '--digits', '101'], [2])
  add('evaluate --digits -1', ['evaluate', QRELS, RUN, '-m', 'AP', '--digits', '-1'], [2])
  add('evaluate same run twice', ['evaluate', QRELS, RUN, RUN, '-m', 'AP'], [0, 2])
  add('evaluate stdout full disk', ['evaluate', QRELS, RUN, '-m', 'AP'], [2], {
    stdout: '/dev/full',
  })
  add('trec-eval stdout full disk', ['trec-eval', QRELS, RUN], [1, 2], { stdout: '/dev/full' })
  add('report out full disk', ['report', QRELS, RUN, '-o', '/dev/full'], [2])
  add('report out directory', ['report', QRELS, RUN, '-o', tmp], [2])
  add('report out missing folder', ['report', QRELS, RUN, '-o', P('no/such/r.html')], [2])
  add('fuse out full disk', ['fuse', RUN, RUN2, '-o', '/dev/full'], [2])
  add(
    'textsim out full disk',
    [
      'textsim',
      '--metric',
      'rougeL',
      join(ROOT, 'test', 'fixtures', 'generation', 'rouge_n.jsonl'),
      '-o',
      '/dev/full',
    ],
    [2],
  )
  add('evaluate run from stdin junk', ['evaluate', QRELS, '-', '-m', 'AP'], [2], {
    stdin: inputs.get('binary').file,
  })
  add(
    'fuse --tag 100k',
    ['fuse', RUN, RUN2, '--tag', 't'.repeat(100_000), '-o', P('fused-tag.run')],
    [0],
  )
}

// ---------------------------------------------------------------- running
const TRACE = [
  /^\s+at .+[:(]\d+:\d+\)?$/m,
  /node:internal/,
  /triggerUncaughtException/,
  /^(\w*Error|Error)( \[\w+\])?: /m,
  /FATAL ERROR/,
  /Segmentation fault/,
]

function run(c) {
  return new Promise((resolve) => {
    const probe = P(`rss-${cases.indexOf(c)}`)
    rmSync(probe, { force: true })
    const started = process.hrtime.bigint()
    // A redirected stdout (e.g. /dev/full) is the child's own descriptor, as a shell gives it.
    const outFd = c.stdout ? openSync(c.stdout, 'w') : undefined
    const stdio = ['pipe', outFd ?? 'pipe', 'pipe']
    const child = spawn(process.execPath, ['--import', PROBE, BIN, ...c.argv], {
      cwd: ROOT,
      stdio,
      env: {
        ...process.env,
        ...c.env,
        TRECSCORE_RSS_PROBE: probe,
        NODE_OPTIONS: '--max-old-space-size=2048',
      },
    })
    let stderr = ''
    let stdout = ''
    let out = 0
    if (outFd !== undefined) closeSync(outFd)
    else
      child.stdout.on('data', (d) => {
        out += d.length
        if (stdout.length < 1 << 16) stdout += d.toString('utf8')
      })
    child.stderr.on('data', (d) => {
      if (stderr.length < 1 << 16) stderr += d.toString('utf8')
    })
    if (c.stdin) {
      const r = spawn('cat', [c.stdin], { stdio: ['ignore', 'pipe', 'ignore'] })
      r.stdout.pipe(child.stdin).on('error', () => {})
    } else child.stdin.end()
    let killed = ''
    let peak = 0
    const watch = setInterval(() => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
        if (m) {
          peak = Math.max(peak, Number(m[1]))
          if (Number(m[1]) > KILL_RSS_MB * 1024) {
            killed = `killed: RSS over ${KILL_RSS_MB} MB`
            child.kill('SIGKILL')
          }
        }
      } catch {
        // process gone
      }
    }, 100)
    const timer = setTimeout(() => {
      killed = `killed: over ${TIME_LIMIT_S} s`
      child.kill('SIGKILL')
    }, TIME_LIMIT_S * 1000)
    child.on('close', (code, signal) => {
      clearInterval(watch)
      clearTimeout(timer)
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      let rssKb = peak
      try {
        rssKb = Math.max(rssKb, Number(readFileSync(probe, 'utf8')))
      } catch {
        // killed before exit
      }
      resolve({
        code: code ?? -1,
        signal,
        stderr,
        stdout,
        seconds,
        rssMb: rssKb / 1024,
        killed,
        stdoutBytes: out,
      })
    })
  })
}

function verdict(c, r) {
  const problems = []
  if (r.killed) problems.push(r.killed)
  else if (r.signal) problems.push(`died of ${r.signal}`)
  if (TRACE.some((re) => re.test(r.stderr))) problems.push('stack trace or raw error on stderr')
  if (!r.killed && !c.codes.includes(r.code))
    problems.push(`exit ${r.code}, expected ${c.codes.join(' or ')}`)
  const limit = c.rssLimitMb ?? RSS_LIMIT_MB
  if (r.rssMb > limit) problems.push(`peak RSS ${r.rssMb.toFixed(0)} MB over ${limit} MB`)
  if (r.code === 2 && r.stderr.trim() === '' && r.stdout.trim() === '')
    problems.push('exit 2 without a message')
  return problems
}

async function main() {
  if (!QUICK) {
    process.stderr.write(
      'hostile: building the big inputs (200 MB line, 4 GiB gzip bomb, a million queries)...\n',
    )
    await bigInputs()
  }
  // A FIFO fed by a valid run: reading a pipe must work.
  try {
    execFileSync('mkfifo', [P('fifo')])
    inputs.set('fifo', { file: P('fifo'), kind: 'fifo' })
  } catch {
    // no mkfifo: skipped (said below)
  }
  for (const [tag, inp] of inputs) {
    if (inp.kind === 'fifo') continue
    if (tag.startsWith('million')) continue
    scoringCases(tag, inp)
  }
  if (inputs.has('million-run')) {
    const q = inputs.get('million-qrels').file
    const r = inputs.get('million-run').file
    // Under 500 bytes a query beyond start-up (README "Performance"), on one thread: each
    // further thread reads the qrels again.
    const tiny = { env: { TRECSCORE_THREADS: '1' }, rssLimitMb: 600 }
    add('evaluate million queries', ['evaluate', q, r, '-m', 'AP', '-m', 'nDCG@10'], [0], tiny)
    add('trec-eval million queries', ['trec-eval', '-m', 'map', q, r], [0], tiny)
    add('trec-eval million queries, official measures', ['trec-eval', q, r], [0], tiny)
    // The default 10,000 bootstrap resamples over a million queries is 10^10 draws (minutes); the
    // README says to lower it for very large query sets, as done here.
    add('compare million queries', ['compare', q, r, r, '-m', 'AP', '--bootstrap', '1000'], [0])
    add('validate million queries', ['validate', r, '--qrels', q], [0, 1])
  }
  if (inputs.has('fifo'))
    add('evaluate run=fifo', ['evaluate', QRELS, P('fifo'), '-m', 'AP'], [0], { fifoFrom: RUN })
  valueCases()

  let failed = 0
  const rows = []
  const one = async (c) => {
    if (c.fifoFrom) {
      const feeder = spawn('sh', ['-c', `cat "${c.fifoFrom}" > "${P('fifo')}"`], {
        stdio: 'ignore',
      })
      feeder.on('error', () => {})
    }
    const r = await run(c)
    const problems = verdict(c, r)
    if (problems.length) failed++
    const first = (r.stderr + r.stdout).split('\n').find((l) => l.trim() !== '') ?? ''
    rows.push({ c, r, problems })
    const status = problems.length ? 'FAIL' : 'ok  '
    console.log(
      `${status} ${c.name.padEnd(44)} exit ${String(r.code).padStart(2)}  ${r.seconds.toFixed(1).padStart(5)} s  ${r.rssMb.toFixed(0).padStart(5)} MB  ${problems.join('; ') || first.slice(0, 90)}`,
    )
    if (problems.length && process.env.HOSTILE_VERBOSE)
      console.log((r.stderr + r.stdout).slice(0, 2000).replace(/^/gm, '      | '))
  }
  // Small cases two at a time (each is mostly start-up); big ones alone, so peaks stay apart.
  const small = cases.filter((c) => !/million|200mb|bomb|dev-zero/.test(c.name))
  const big = cases.filter((c) => !small.includes(c))
  let next = 0
  const worker = async () => {
    while (next < small.length) await one(small[next++])
  }
  await Promise.all([worker(), worker()])
  for (const c of big) await one(c)
  for (const x of rows.filter((y) => y.c.name.includes('million')))
    console.log(
      `hostile: ${x.c.name}: ${((x.r.rssMb * 1024 * 1024) / 1e6).toFixed(0)} bytes/query peak RSS, ${x.r.seconds.toFixed(1)} s`,
    )
  if (!inputs.has('fifo')) console.log('hostile: skipped the FIFO case (no mkfifo)')
  console.log(
    `hostile: ${cases.length - failed} passed, ${failed} failed${QUICK ? ' (quick: big inputs left out)' : ''}`,
  )
  if (!KEEP) rmSync(tmp, { recursive: true, force: true })
  else console.log(`hostile: inputs kept in ${tmp}`)
  process.exit(failed ? 1 : 0)
}

main().catch((e) => {
  console.error(`hostile: ${e.stack ?? e}`)
  process.exit(2)
})
