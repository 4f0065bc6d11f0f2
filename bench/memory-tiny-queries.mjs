#!/usr/bin/env node
// Peak memory on many tiny queries: generates N one-document queries (qrels and run, in a
// temporary folder outside the repository), runs `trecscore evaluate`, `trecscore trec-eval` and
// `trecscore compare` (two runs) on them one thread at a time under GNU time, and prints peak RSS per query (after the
// process's start-up size). Not a test: it never fails on a number, it only reports.
//
//   node bench/memory-tiny-queries.mjs [--queries N] [--keep]
//
// Needs GNU time at /usr/bin/time (apt-get install time) and a built dist/ (npm run build).
import { spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
if (args.includes('--help')) {
  console.log('usage: node bench/memory-tiny-queries.mjs [--queries N (default 1000000)] [--keep]')
  process.exit(0)
}
const at = args.indexOf('--queries')
const n = at >= 0 ? Number(args[at + 1]) : 1_000_000
if (!Number.isSafeInteger(n) || n < 1) {
  console.error('--queries: expected a positive integer')
  process.exit(2)
}
if (!existsSync('/usr/bin/time')) {
  console.log('GNU time is not at /usr/bin/time (apt-get install time); nothing measured')
  process.exit(0)
}
const bin = join(root, 'bin', 'trecscore.js')
const dir = mkdtempSync(join(tmpdir(), 'trecscore-mem-'))

async function write(file, line) {
  const out = createWriteStream(file)
  const block = 10_000
  for (let i = 0; i < n; i += block) {
    let text = ''
    for (let k = i; k < Math.min(n, i + block); k++) text += line(k)
    if (!out.write(text)) await new Promise((r) => out.once('drain', r))
  }
  await new Promise((r) => out.end(r))
}

await write(join(dir, 'qrels.txt'), (k) => `q${k} 0 d${k} ${k % 3 === 0 ? 0 : 1}\n`)
await write(join(dir, 'run.txt'), (k) => `q${k} Q0 d${k} 1 ${(1 - k / n).toFixed(6)} tiny\n`)
// A second run for compare: every third query retrieves another document.
await write(
  join(dir, 'run2.txt'),
  (k) => `q${k} Q0 ${k % 3 === 1 ? 'x' : 'd'}${k} 1 ${(1 - k / n).toFixed(6)} tiny2\n`,
)

function peakKb(argv) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...argv], {
    env: { ...process.env, TRECSCORE_THREADS: '1' },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  })
  const lines = r.stderr.trim().split('\n')
  const kb = Number(lines[lines.length - 1])
  if (r.status !== 0)
    console.error(`exit ${r.status}: ${lines.slice(0, -1).join(' | ').slice(0, 300)}`)
  return kb
}

const base = peakKb(['-e', '0'])
const cases = [
  [
    'evaluate -m nDCG@10 -m AP',
    [bin, 'evaluate', join(dir, 'qrels.txt'), join(dir, 'run.txt'), '-m', 'nDCG@10', '-m', 'AP'],
  ],
  [
    'trec-eval -m map -m ndcg',
    [bin, 'trec-eval', '-m', 'map', '-m', 'ndcg', join(dir, 'qrels.txt'), join(dir, 'run.txt')],
  ],
  [
    'trec-eval (official measures)',
    [bin, 'trec-eval', join(dir, 'qrels.txt'), join(dir, 'run.txt')],
  ],
  [
    'compare 2 runs -m nDCG@10 -m AP',
    [
      bin,
      'compare',
      join(dir, 'qrels.txt'),
      join(dir, 'run.txt'),
      join(dir, 'run2.txt'),
      '-m',
      'nDCG@10',
      '-m',
      'AP',
      '--bootstrap',
      '1000',
      '-f',
      'json',
    ],
  ],
]
console.log(`${n} queries x 1 document; node start-up ${(base / 1024).toFixed(0)} MB`)
for (const [label, argv] of cases) {
  const kb = peakKb(argv)
  console.log(
    `${label.padEnd(32)} peak RSS ${(kb / 1024).toFixed(0).padStart(6)} MB  ${(((kb - base) * 1024) / n).toFixed(0).padStart(5)} bytes/query`,
  )
}
if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true })
else console.log(`data kept in ${dir}`)
