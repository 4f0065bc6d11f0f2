#!/usr/bin/env node
// The minimal install, checked end to end (run by .ci/run after `npm ci`; runs locally too):
//
// A. packed: `npm pack` this checkout, install the tarball into an empty project with
//    `--omit=optional` (as a user's `npm install trecscore` does: the optional peer packages
//    onnxruntime-node, @huggingface/tokenizers, better-sqlite3 and pg are left out), then run
//    `npx trecscore --help`, the demo, evaluate, trec-eval, compare, report, validate, fuse,
//    textsim, every benchmark preset and the library (ESM import of the root and of every
//    subpath in package.json `exports`). Outputs must equal this checkout's full
//    install byte for byte; BERTScore, the judge cache and `serve` on SQLite and on Postgres must
//    print their one-line install message and exit 2.
// B. a fresh clone without the heavy packages: this checkout's files copied, node_modules linked
//    without those four packages, then `npm run demo` (which builds) must print what the full
//    install prints.
//
// Usage: node scripts/check-minimal-install.mjs [--keep] [--no-build]
//   --keep      leave the temporary folder
//   --no-build  pack the dist/ already built (`npm ci` builds it through prepare) instead of
//               letting `npm pack` build it again
// Needs this checkout's devDependencies (`npm ci`) and the npm registry or cache for commander.
// Exit code 0 when every check passes, 1 otherwise.
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const keep = process.argv.includes('--keep')
const noBuild = process.argv.includes('--no-build')
const HEAVY = ['onnxruntime-node', '@huggingface/tokenizers', 'better-sqlite3', 'pg']
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-minimal-'))
const failures = []
const started = Date.now()

function sh(cmd, args, cwd, extra = {}) {
  const t = Date.now()
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28, ...extra })
  return {
    code: r.status ?? -1,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    ms: Date.now() - t,
    error: r.error,
  }
}

function check(name, ok, detail = '') {
  if (ok) console.log(`ok    ${name}`)
  else {
    console.log(`FAIL  ${name}${detail ? `: ${detail}` : ''}`)
    failures.push(name)
  }
}

function brief(r) {
  return `exit ${r.code}; stderr: ${JSON.stringify(r.stderr.slice(0, 400))}; stdout: ${JSON.stringify(r.stdout.slice(0, 200))}`
}

function du(path) {
  const s = lstatSync(path)
  if (!s.isDirectory()) return s.size
  return readdirSync(path).reduce((n, f) => n + du(join(path, f)), 0)
}

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm']
const runNpm = (args, cwd, extra) => sh(npm[0], [...npm.slice(1), ...args], cwd, extra)
const fix = (...p) => join(root, 'test', 'fixtures', ...p)
const demo = (f) => join(root, 'demo', f)

try {
  if (!existsSync(join(root, 'node_modules', 'typescript')))
    throw new Error('run `npm ci` first (the pack builds dist/ with the devDependencies)')

  // ---- A. the packed install ---------------------------------------------------------------
  if (noBuild && !existsSync(join(root, 'dist', 'cli', 'main.js')))
    throw new Error('--no-build: dist/ is not built (run `npm run build`)')
  const pack = runNpm(
    ['pack', '--silent', ...(noBuild ? ['--ignore-scripts'] : []), '--pack-destination', tmp],
    root,
  )
  const tarball = pack.stdout.trim().split('\n').pop() ?? ''
  if (pack.code !== 0 || !existsSync(join(tmp, tarball)))
    throw new Error(`npm pack failed: ${brief(pack)}`)
  console.log(
    `npm pack${noBuild ? '' : ' (builds dist/)'}: ${secs(pack.ms)}, ${tarball} ${(statSync(join(tmp, tarball)).size / 1024).toFixed(0)} KiB`,
  )

  const app = join(tmp, 'app')
  mkdirSync(app)
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'trecscore-minimal-check', private: true, type: 'module' }, null, 2),
  )
  const inst = runNpm(
    [
      'install',
      '--omit=optional',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      join(tmp, tarball),
    ],
    app,
  )
  if (inst.code !== 0) throw new Error(`npm install of the tarball failed: ${brief(inst)}`)
  const installed = readdirSync(join(app, 'node_modules')).filter((f) => !f.startsWith('.'))
  console.log(
    `npm install --omit=optional: ${secs(inst.ms)}, node_modules ${(du(join(app, 'node_modules')) / 2 ** 20).toFixed(1)} MiB (${installed.join(', ')})`,
  )
  for (const h of HEAVY)
    check(`minimal install leaves out ${h}`, !existsSync(join(app, 'node_modules', h)))

  const full = (args) => sh(process.execPath, [join(root, 'bin', 'trecscore.js'), ...args], app)
  const minimal = (args) => sh('npx', ['--no', '--', 'trecscore', ...args], app)
  const same = (name, args) => {
    const a = minimal(args)
    const b = full(args)
    check(
      `${name} (exit ${b.code}, same output as the full install)`,
      a.code === 0 &&
        a.code === b.code &&
        a.stdout === b.stdout &&
        a.stderr === b.stderr &&
        a.stdout.length > 0,
      `minimal ${brief(a)} / full ${brief(b)}`,
    )
  }

  const help = minimal(['--help'])
  check(
    'npx trecscore --help',
    help.code === 0 && help.stdout.startsWith('Usage: trecscore'),
    brief(help),
  )
  const demoScript = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.demo
  const demoArgs = demoScript
    .replace(/^.*node bin\/trecscore\.js /, '')
    .split(' ')
    .map((a) => (a.startsWith('demo/') ? join(root, a) : a))
  same('the demo (npm run demo)', demoArgs)
  same('evaluate -q -f json', [
    'evaluate',
    demo('qrels.txt'),
    demo('runs/bm25.run'),
    '-m',
    'nDCG@10',
    '-q',
    '-f',
    'json',
  ])
  same('trec-eval', ['trec-eval', demo('qrels.txt'), demo('runs/dense.run')])
  same('trec-eval -q -m all_trec', [
    'trec-eval',
    '-q',
    '-m',
    'all_trec',
    demo('qrels.txt'),
    demo('runs/hybrid.run'),
  ])
  same('compare', [
    'compare',
    demo('qrels.txt'),
    demo('runs/bm25.run'),
    demo('runs/dense.run'),
    demo('runs/hybrid.run'),
    '-m',
    'AP',
  ])
  same('validate', ['validate', demo('runs/bm25.run')])
  same('fuse', ['fuse', demo('runs/bm25.run'), demo('runs/dense.run'), '--method', 'rrf'])
  const html = join(app, 'report.html')
  const rep = minimal([
    'report',
    demo('qrels.txt'),
    demo('runs/bm25.run'),
    demo('runs/dense.run'),
    '-m',
    'nDCG@10',
    '--out',
    html,
  ])
  check(
    'report --out report.html',
    rep.code === 0 && existsSync(html) && statSync(html).size > 10_000,
    brief(rep),
  )
  same('score --preset dl21-passage', [
    'score',
    '--preset',
    'dl21-passage',
    '--qrels',
    fix('presets', 'dl21', 'qrels.pass.txt'),
    fix('presets', 'dl21', 'runs', 'p_bm25.txt'),
  ])
  same('score --preset dl21-doc', [
    'score',
    '--preset',
    'dl21-doc',
    '--qrels',
    fix('presets', 'dl21', 'qrels.docs.txt'),
    fix('presets', 'dl21', 'runs', 'd_bm25.txt'),
  ])
  same('score --preset dl21-passage-pash', [
    'score',
    '--preset',
    'dl21-passage-pash',
    '--qrels',
    fix('presets', 'dl21', 'qrels.pass.txt'),
    fix('presets', 'dl21', 'runs', 'p_good.txt'),
  ])
  same('score --preset skillret', [
    'score',
    '--preset',
    'skillret',
    '--data',
    fix('presets', 'skillret', 'data'),
    fix('presets', 'skillret', 'runs', 'good.json'),
  ])
  same('score --preset skillret-fusion', [
    'score',
    '--preset',
    'skillret-fusion',
    '--data',
    fix('presets', 'skillret', 'data'),
    fix('presets', 'skillret', 'runs', 'good.trec'),
  ])
  for (const lang of ['zho', 'fas', 'rus']) {
    same(`score --preset neuclir23-${lang}`, [
      'score',
      '--preset',
      `neuclir23-${lang}`,
      '--qrels',
      fix('presets', 'neuclir23', `qrels.final.gains.${lang}`),
      fix('presets', 'neuclir23', 'runs', `${lang}-good.txt`),
    ])
  }
  same('score --preset neuclir23-mlir', [
    'score',
    '--preset',
    'neuclir23-mlir',
    '--qrels',
    fix('presets', 'neuclir23', 'qrels.final.gains'),
    fix('presets', 'neuclir23', 'runs', 'mlir-good.txt'),
  ])
  for (const [preset, run] of [
    ['reteco-1a', '1a_weak'],
    ['reteco-1b', '1b_perfect'],
    ['reteco-2a', '2a_random'],
  ]) {
    same(`score --preset ${preset}`, [
      'score',
      '--preset',
      preset,
      '--data',
      fix('reteco', 'data'),
      fix('reteco', 'runs', run),
    ])
  }
  same('presets', ['presets'])
  same('measures', ['measures'])

  const pairs = join(app, 'pairs.jsonl')
  writeFileSync(pairs, '{"id":"a","prediction":"a cat sat","references":["the cat sat"]}\n')
  same('textsim (ROUGE-L, METEOR)', ['textsim', pairs])
  const bert = minimal(['textsim', '--metric', 'bertscore', '--model', join(app, 'model'), pairs])
  check(
    'textsim --metric bertscore: one line naming what to install, exit 2',
    bert.code === 2 &&
      bert.stdout === '' &&
      bert.stderr ===
        'trecscore: BERTScore needs onnxruntime-node and @huggingface/tokenizers: npm install onnxruntime-node@1.30.0 @huggingface/tokenizers@0.2.0\n',
    brief(bert),
  )
  const judge = minimal([
    'judge',
    'run',
    join(root, 'examples', 'judge', 'items.jsonl'),
    '--cache',
    join(app, 'cache.sqlite'),
    '-o',
    join(app, 'judgments.jsonl'),
    '--base-url',
    'http://127.0.0.1:9/v1',
    '--rpm',
    '0',
  ])
  check(
    'judge run: one line saying the cache needs better-sqlite3, exit 2',
    judge.code === 2 &&
      judge.stdout === '' &&
      judge.stderr ===
        'trecscore: the judge cache needs better-sqlite3: npm install better-sqlite3@12.11.1\n',
    brief(judge),
  )

  const org = (db) =>
    minimal([
      'serve',
      'admin',
      'create-organizer',
      '--data',
      join(app, 'board'),
      ...(db ? ['--db', db] : []),
      '--name',
      'alice',
    ])
  const noSqlite = org(null)
  check(
    'serve (SQLite): one line saying it needs better-sqlite3, exit 2',
    noSqlite.code === 2 &&
      noSqlite.stdout === '' &&
      noSqlite.stderr ===
        'trecscore: trecscore serve needs better-sqlite3: npm install better-sqlite3@12.11.1\n',
    brief(noSqlite),
  )
  const noPg = org('postgres://board@127.0.0.1:9/board')
  check(
    'serve --db postgres://…: one line saying it needs pg, exit 2',
    noPg.code === 2 &&
      noPg.stdout === '' &&
      noPg.stderr ===
        'trecscore: trecscore serve --db postgres://… needs pg: npm install pg@8.23.1\n',
    brief(noPg),
  )

  writeFileSync(
    join(app, 'library.mjs'),
    `import { readQrels, readRun, evaluate } from 'trecscore'
const qrels = await readQrels(${JSON.stringify(demo('qrels.txt'))})
const run = await readRun(${JSON.stringify(demo('runs/hybrid.run'))})
const result = evaluate(qrels, run, ['nDCG@10', 'AP', 'RR@10'], { relevanceLevel: 1 })
console.log(JSON.stringify(result.aggregates.map((a) => [a.measure, a.value])))
`,
  )
  const lib = sh(process.execPath, ['library.mjs'], app)
  let libOk = false
  try {
    const values = JSON.parse(lib.stdout)
    libOk =
      lib.code === 0 &&
      values.length === 3 &&
      values[0][0] === 'nDCG@10' &&
      Math.abs(values[0][1] - 0.7805) < 5e-5
  } catch {}
  check(
    "the library: ESM import from 'trecscore', the README example (nDCG@10 0.7805)",
    libOk,
    brief(lib),
  )

  // Every subpath of package.json `exports` loads from the install (without the optional
  // packages), and the README's textsim example runs through its subpath.
  const subpaths = Object.keys(
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports,
  ).map((k) => (k === '.' ? 'trecscore' : `trecscore/${k.slice(2)}`))
  writeFileSync(
    join(app, 'subpaths.mjs'),
    `const out = {}
for (const s of ${JSON.stringify(subpaths)}) out[s] = Object.keys(await import(s)).length
const { porterStem } = await import('trecscore/textsim')
out.porterStem = porterStem('generously')
console.log(JSON.stringify(out))
`,
  )
  const sub = sh(process.execPath, ['subpaths.mjs'], app)
  let subOk = false
  try {
    const loaded = JSON.parse(sub.stdout)
    subOk =
      sub.code === 0 &&
      subpaths.every((s) => loaded[s] > 0) &&
      loaded.porterStem === 'gener' &&
      sub.stderr === ''
  } catch {}
  check(
    `the library: every subpath of exports loads (${subpaths.length}: trecscore, trecscore/io, …)`,
    subOk,
    brief(sub),
  )

  // ---- B. a fresh clone without the heavy packages -----------------------------------------
  const clone = join(tmp, 'clone')
  const listed = sh('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root)
  if (listed.code !== 0) throw new Error(`git ls-files failed: ${brief(listed)}`)
  for (const f of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(root, f))) continue // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(clone, f)), { recursive: true })
    cpSync(join(root, f), join(clone, f))
  }
  const linkModules = (from, to, prefix) => {
    mkdirSync(to, { recursive: true })
    for (const f of readdirSync(from)) {
      const name = prefix + f
      if (HEAVY.includes(name)) continue
      if (f.startsWith('@') && !prefix) linkModules(join(from, f), join(to, f), `${f}/`)
      else symlinkSync(join(from, f), join(to, f))
    }
  }
  linkModules(join(root, 'node_modules'), join(clone, 'node_modules'), '')
  const probe = sh(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import('onnxruntime-node').then(() => console.log('found'), (e) => console.log(e.code))",
    ],
    join(clone, 'src'),
  )
  check(
    'the clone lacks onnxruntime-node',
    probe.stdout.trim() === 'ERR_MODULE_NOT_FOUND',
    brief(probe),
  )
  const cloneDemo = runNpm(['run', '--silent', 'demo'], clone)
  const expected = sh(
    process.execPath,
    [
      join(root, 'bin', 'trecscore.js'),
      ...demoScript.replace(/^.*node bin\/trecscore\.js /, '').split(' '),
    ],
    root,
  )
  console.log(`clone: npm run demo (tsc build included): ${secs(cloneDemo.ms)}`)
  check(
    'clone: npm run demo builds and prints what the full install prints',
    cloneDemo.code === 0 && expected.code === 0 && cloneDemo.stdout.endsWith(expected.stdout),
    `${brief(cloneDemo)} / expected ${brief(expected)}`,
  )
  const cloneBert = sh(
    process.execPath,
    [
      join(clone, 'bin', 'trecscore.js'),
      'textsim',
      '--metric',
      'bertscore',
      '--model',
      join(app, 'model'),
      pairs,
    ],
    clone,
  )
  check(
    'clone: BERTScore says what to install, exit 2',
    cloneBert.code === 2 &&
      cloneBert.stderr.startsWith(
        'trecscore: BERTScore needs onnxruntime-node and @huggingface/tokenizers: npm install',
      ),
    brief(cloneBert),
  )
} catch (e) {
  console.log(`FAIL  ${e.message}`)
  failures.push(e.message)
} finally {
  if (keep) console.log(`kept ${tmp}`)
  else rmSync(tmp, { recursive: true, force: true })
}
console.log(
  `minimal install: ${failures.length === 0 ? 'all checks passed' : `${failures.length} check(s) failed`} in ${secs(Date.now() - started)}`,
)
process.exit(failures.length === 0 ? 0 : 1)
