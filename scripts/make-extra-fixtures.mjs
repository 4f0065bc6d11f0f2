#!/usr/bin/env node
// Records extra trec_eval expectations on the inputs of test/fixtures/trec_eval: flag
// combinations the shared fixtures do not cover (-J with -M and -l, -l 0/-1, parameterised
// measures on queries missing from the run, NaN results). Needs reference binaries built
// outside this repository: TREC_EVAL (10.0) and TREC_EVAL_V9 (9.0.8).
// Usage: TREC_EVAL=/path/trec_eval TREC_EVAL_V9=/path/trec_eval9 node scripts/make-extra-fixtures.mjs
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const inputs = join(root, 'test', 'fixtures', 'trec_eval')
const out = join(root, 'test', 'fixtures', 'trec_eval-extra')
const bins = { 'v10.0': process.env.TREC_EVAL, 'v9.0.8': process.env.TREC_EVAL_V9 }
if (!bins['v10.0'] || !bins['v9.0.8']) {
  console.error('set TREC_EVAL and TREC_EVAL_V9 to trec_eval 10.0 and 9.0.8 binaries')
  process.exit(2)
}
const CASES = [
  'basic_tiny',
  'graded_small',
  'single_doc_runs',
  'missing_in_run',
  'unjudged_heavy',
  'negative_judgments',
  'short_runs',
  'high_grades',
]
const COMMANDS = {
  judged_depth_level: ['-q', '-c', '-l', '2', '-J', '-M', '20', '-m', 'all_trec'],
  judged_only: ['-q', '-c', '-J', '-m', 'all_trec'],
  level_0: ['-q', '-c', '-l', '0', '-m', 'all_trec'],
  level_minus_1: ['-q', '-c', '-l', '-1', '-m', 'all_trec'],
  params: [
    '-q',
    '-c',
    '-m',
    'ndcg.0=0,1=1,2=3,3=15',
    '-m',
    'G.1=2,2=5',
    '-m',
    'ndcg_rel.2=4',
    '-m',
    'Rndcg.1=0.5',
    '-m',
    'utility.1,-2,0.5,0.1',
    '-N',
    '10000',
    '-m',
    'set_F.0.3',
    '-m',
    'relstring.15',
    '-m',
    'iprec_at_recall.0.05,0.33,0.5',
    '-m',
    '11pt_avg.0.2,0.4',
    '-m',
    'Rprec_mult.0.3,2.5',
    '-m',
    'success.1,3',
  ],
}
const manifest = { generatedWith: 'scripts/make-extra-fixtures.mjs', commands: COMMANDS, cases: {} }
for (const c of CASES) {
  manifest.cases[c] = {}
  for (const [label, bin] of Object.entries(bins)) {
    mkdirSync(join(out, c, label), { recursive: true })
    for (const [id, args] of Object.entries(COMMANDS)) {
      const r = spawnSync(bin, [...args, 'qrels.txt', 'run.txt'], {
        cwd: join(inputs, c),
        maxBuffer: 1 << 28,
      })
      writeFileSync(join(out, c, label, `${id}.stdout`), r.stdout)
      manifest.cases[c][`${label}/${id}`] = r.status
    }
  }
}
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n')
console.log(`wrote ${out}`)
