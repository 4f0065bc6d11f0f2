#!/usr/bin/env node
// Slow conformance check of the one fixture whose inputs are not stored (large_2000x1000:
// 2,000 queries x 1,000 docs, 118 MB). Regenerates the inputs with the shared generator
// (../shared/tools/gen_fixtures.py, Python 3) into a temporary folder outside the repository,
// runs `trecscore trec-eval` for every command of the case under trec_eval 10.0 and 9.0.8 rules,
// and compares the exit code, the sha256 of the full stdout and the stored summary lines.
// Usage: npm run test:large   (builds first). Exits 1 on any mismatch, 0 when all match or
// when ../shared is absent (it says so).
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const caseDir = join(root, 'test', 'fixtures', 'trec_eval', 'large_2000x1000')
const generator = join(root, '..', 'shared', 'tools', 'gen_fixtures.py')
if (!existsSync(generator)) {
  console.log(`SKIPPED: ${generator} not found (the shared folder is absent); nothing checked.`)
  process.exit(0)
}
const spec = JSON.parse(readFileSync(join(caseDir, 'case.json'), 'utf8'))
const out = mkdtempSync(join(tmpdir(), 'trecscore-large-'))
try {
  console.log(`regenerating inputs into ${out} …`)
  const gen = spawnSync(
    'python3',
    [
      generator,
      'inputs',
      '--set',
      'public',
      '--seed',
      '1',
      '--only',
      'large_2000x1000',
      '--include-large',
      '--out',
      out,
    ],
    { stdio: 'inherit' },
  )
  if (gen.status !== 0) throw new Error('the generator failed')
  const dir = join(out, 'large_2000x1000')
  for (const which of ['qrels', 'run']) {
    const want = spec.inputs[which]
    const got = createHash('sha256')
      .update(readFileSync(join(dir, want.file)))
      .digest('hex')
    if (got !== want.sha256) throw new Error(`${want.file}: sha256 ${got}, expected ${want.sha256}`)
  }
  let failures = 0
  for (const [label, extra] of [
    ['v10.0', []],
    ['v9.0.8', ['--compat', '9.0.8']],
  ]) {
    const results = spec.results[label]
    for (const cmd of spec.commands) {
      const expected = results.commands[cmd.id]
      const t0 = Date.now()
      const r = spawnSync(
        process.execPath,
        [
          join(root, 'bin', 'trecscore.js'),
          'trec-eval',
          ...cmd.args,
          ...extra,
          'qrels.txt',
          'run.txt',
        ],
        { cwd: dir, maxBuffer: 1 << 30 },
      )
      const ms = Date.now() - t0
      const sha = createHash('sha256').update(r.stdout).digest('hex')
      const summary = r.stdout
        .toString('latin1')
        .split('\n')
        .filter((l) => l.includes('\tall\t'))
        .join('\n')
      const wantSummary = readFileSync(join(caseDir, expected.stdout), 'latin1')
        .split('\n')
        .filter((l) => l.includes('\tall\t'))
        .join('\n')
      const ok =
        r.status === expected.exit_code && sha === expected.stdout_sha256 && summary === wantSummary
      if (!ok) failures++
      console.log(
        `${ok ? 'MATCH ' : 'DIFFER'} ${label} ${cmd.id}: exit ${r.status} (want ${expected.exit_code}), stdout sha256 ${sha === expected.stdout_sha256 ? 'equal' : 'different'}, ${ms} ms`,
      )
    }
  }
  console.log(failures ? `${failures} command(s) differ` : 'all commands match')
  process.exitCode = failures ? 1 : 0
} finally {
  rmSync(out, { recursive: true, force: true })
}
