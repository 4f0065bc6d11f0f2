#!/usr/bin/env node
// Scale benchmark of `trecscore compare`: N queries × 1 document, two runs, one measure, for
// growing N; prints wall and user+system CPU seconds, peak RSS and the CPU time per query, so a
// super-linear step shows as a growing per-query figure. Not a test: nothing here gates a commit.
//
//   node bench/compare-scale.mjs [--sizes 10000,100000,1000000] [--bootstrap 10000] [--test t]
//
// The data is generated into <os tmpdir>/trecscore-compare-scale (reused when present). Needs a
// built CLI (`npm run build`) and GNU time at /usr/bin/time for the peak RSS (optional).

import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    bootstrap: { type: 'string', default: '10000' },
    test: { type: 'string', default: 't' },
    help: { type: 'boolean', default: false },
  },
})
if (opts.help) {
  console.log(
    'Usage: node bench/compare-scale.mjs [--sizes N,N,...] [--bootstrap B] [--test t|permutation|bootstrap|wilcoxon]',
  )
  process.exit(0)
}
const sizes = opts.sizes.split(',').map(Number)
if (sizes.some((n) => !Number.isSafeInteger(n) || n < 2)) {
  console.error('--sizes: expected integers >= 2')
  process.exit(2)
}
const dir = join(tmpdir(), 'trecscore-compare-scale')
mkdirSync(dir, { recursive: true })

/** qrels: one relevant doc per query; run A finds it, run B finds it for 2 queries in 3. */
function generate(n) {
  const files = { qrels: join(dir, `qrels-${n}`), a: join(dir, `a-${n}`), b: join(dir, `b-${n}`) }
  if (Object.values(files).every(existsSync)) return files
  const q = []
  const a = []
  const b = []
  for (let i = 0; i < n; i++) {
    q.push(`q${i} 0 d${i} 1`)
    a.push(`q${i} Q0 d${i} 1 1.0 A`)
    b.push(`q${i} Q0 ${i % 3 ? 'd' : 'x'}${i} 1 1.0 B`)
  }
  writeFileSync(files.qrels, q.join('\n') + '\n')
  writeFileSync(files.a, a.join('\n') + '\n')
  writeFileSync(files.b, b.join('\n') + '\n')
  return files
}

const haveTime = existsSync('/usr/bin/time')
console.log(
  `compare, N queries x 1 doc, 2 runs, -m RR, --test ${opts.test}, --bootstrap ${opts.bootstrap} (node ${process.version})`,
)
console.log(
  'N'.padStart(9),
  'wall s'.padStart(8),
  'cpu s'.padStart(8),
  'cpu µs/query'.padStart(13),
  'peak RSS MB'.padStart(12),
)
for (const n of sizes) {
  const f = generate(n)
  const args = [
    join(root, 'bin', 'trecscore.js'),
    'compare',
    f.qrels,
    f.a,
    f.b,
    '-m',
    'RR',
    '--test',
    opts.test,
    '--bootstrap',
    opts.bootstrap,
    '-f',
    'json',
  ]
  const cmd = haveTime ? '/usr/bin/time' : process.execPath
  const argv = haveTime ? ['-f', '%e %U %S %M', process.execPath, ...args] : args
  const t0 = process.hrtime.bigint()
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 30 })
  const wall = Number(process.hrtime.bigint() - t0) / 1e9
  if (r.status !== 0) {
    console.error(`N=${n}: exit ${r.status}: ${r.stderr.slice(-500)}`)
    process.exit(1)
  }
  let cpu = NaN
  let rss = NaN
  if (haveTime) {
    const [, user, sys, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number)
    cpu = user + sys
    rss = kb / 1000
  }
  console.log(
    String(n).padStart(9),
    wall.toFixed(1).padStart(8),
    cpu.toFixed(1).padStart(8),
    ((cpu / n) * 1e6).toFixed(1).padStart(13),
    rss.toFixed(0).padStart(12),
  )
}
