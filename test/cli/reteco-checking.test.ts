/**
 * `trecscore validate --preset reteco-*` and `trecscore reteco sample` end to end: the binary is
 * built into a private temporary folder (as in validate.test.ts) and spawned on the RETECO
 * conformance fixtures; stdout, stderr and exit status are checked.
 */
import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const FIX = join(ROOT, 'test', 'fixtures', 'reteco')
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-reteco-'))
const build = join(tmp, 'build')

beforeAll(() => {
  mkdirSync(join(build, 'bin'), { recursive: true })
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
  const r = spawnSync(
    process.execPath,
    [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(build, 'dist')],
    { encoding: 'utf8' },
  )
  if (!existsSync(join(build, 'dist', 'cli', 'main.js')))
    throw new Error(`build failed: ${r.stdout}${r.stderr}`)
  copyFileSync(join(ROOT, 'bin', 'trecscore.js'), join(build, 'bin', 'trecscore.js'))
  copyFileSync(join(ROOT, 'package.json'), join(build, 'package.json'))
  symlinkSync(join(ROOT, 'node_modules'), join(build, 'node_modules'), 'dir')
}, 120_000)

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function trecscore(args: readonly string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(build, 'bin', 'trecscore.js'), ...args], {
    cwd: FIX,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
}

const validate = (preset: string, run: string, ...more: string[]): ReturnType<typeof trecscore> =>
  trecscore(['validate', '--preset', preset, '--data', 'data', join('runs', run), ...more])

describe('validate --preset reteco-*', () => {
  it('a clean run: exit 0, the checker agrees on every file', () => {
    const r = validate('reteco-1a', '1a_perfect')
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain(
      'runs/1a_perfect/law.trec: format_checker.py: VALID (0 errors, 0 warnings), the same verdict\n',
    )
    expect(
      r.stdout.endsWith('runs/1a_perfect: ok: 0 errors, 0 warnings in 3 files (reteco-1a, dev)\n'),
    ).toBe(true)
  })
  it('an empty domain file: exit 2, and a note on why format_checker.py says VALID', () => {
    const r = validate('reteco-1a', '1a_domain_empty')
    expect(r.code).toBe(2)
    expect(r.stdout).toContain('runs/1a_domain_empty/law.trec: error: the file is empty')
    expect(r.stdout).toContain(
      'runs/1a_domain_empty/law.trec: format_checker.py: VALID (0 errors, 0 warnings), a different verdict\n',
    )
    expect(r.stdout).toContain(
      'runs/1a_domain_empty/law.trec: note: empty_file (1): format_checker.py accepts an empty file',
    )
  })
  it('malformed lines: file:line:column, the raw line and exit 2', () => {
    const r = validate('reteco-1a', 'bad_7cols')
    expect(r.code).toBe(2)
    expect(r.stdout).toMatch(
      /runs\/bad_7cols\/bitcoin\.trec:1:\d+: error: expected exactly 6 fields \(qid Q0 docno rank score tag\), found 7/,
    )
    expect(r.stdout).toContain(
      'format_checker.py: INVALID (3 errors, 0 warnings), the same verdict',
    )
    expect(r.stdout).toContain('warning: no run file for domain history')
  })
  it('warnings only: exit 0, or 1 with --strict', () => {
    expect(validate('reteco-1a', '1a_dups_unknown').code).toBe(0)
    const strict = validate('reteco-1a', '1a_dups_unknown', '--strict')
    expect(strict.code).toBe(1)
    expect(strict.stdout).toMatch(
      /runs\/1a_dups_unknown: failed \(--strict\): 0 errors, \d+ warnings in 3 files/,
    )
  })
  it('--format json: one object with the checker verdict and stdout of every file', () => {
    const r = validate('reteco-2a', '2a_missing_turns_unknown', '--format', 'json')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as {
      schema: string
      ok: boolean
      layout: string
      files: {
        domain: string
        agreesWithFormatChecker: boolean
        formatChecker: { stdout: string }
        counts: Record<string, { count: number }>
      }[]
    }
    expect([j.schema, j.ok, j.layout]).toEqual(['trecscore.reteco-validate/1', true, 'per-domain'])
    const recorded = JSON.parse(
      readFileSync(
        join(FIX, 'expected', '2a_missing_turns_unknown', 'format_checker.json'),
        'utf8',
      ),
    ) as Record<string, { with_qrels_corpus: { stdout: string } }>
    for (const f of j.files) {
      expect(f.agreesWithFormatChecker).toBe(true)
      expect(f.formatChecker.stdout).toBe(recorded[f.domain]!.with_qrels_corpus.stdout)
    }
    expect(j.files.reduce((n, f) => n + (f.counts['missing_topic']?.count ?? 0), 0)).toBe(22)
  })
  it('usage and input errors: exit 2, one line on stderr, no stack trace', () => {
    const cases: [string[], RegExp][] = [
      [
        ['validate', '--preset', 'reteco-1a', 'runs/1a_perfect'],
        /--preset reteco-1a needs --data DIR/,
      ],
      [['validate', '--data', 'data', 'runs/1a_perfect'], /--data needs --preset/],
      [
        ['validate', '--preset', 'reteco-1a', '--data', 'data', '--qrels', 'x', 'runs/1a_perfect'],
        /drop --qrels/,
      ],
      [
        ['validate', '--preset', 'reteco-2a', '--data', 'data', 'runs/2a_perfect/biology.trec'],
        /Track 2 runs must be a directory with one file per domain/,
      ],
      [
        ['validate', '--preset', 'reteco-1a', '--data', 'data', 'runs/nope'],
        /runs\/nope: cannot read: no such file or directory/,
      ],
      [
        ['validate', '--preset', 'reteco-1a', '--data', 'runs', 'runs/1a_perfect'],
        /not a RETECO data directory/,
      ],
      [
        ['validate', '--preset', 'reteco-9z', '--data', 'data', 'runs/1a_perfect'],
        /Allowed choices are reteco-1a, reteco-1b, reteco-2a, reteco-2b, reteco-2c, neuclir23-zho, neuclir23-fas, neuclir23-rus, neuclir23-mlir/,
      ],
    ]
    for (const [args, message] of cases) {
      const r = trecscore(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr, args.join(' ')).toMatch(message)
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /)
    }
  })
  it('--help lists the RETECO problem codes', () => {
    const r = trecscore(['validate', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/not_a_topic\s+warning\s+a topic not in the sub-track/)
  })
})

describe('reteco sample', () => {
  it('Track 2: a directory of per-domain files that validates clean; the same seed gives the same bytes', () => {
    const out = join(tmp, 'sample2a')
    const r = trecscore([
      'reteco',
      'sample',
      '--data',
      'data',
      '--subtrack',
      '2a',
      '--out',
      out,
      '--seed',
      '5',
      '--depth',
      '30',
    ])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/wrote a 2a sample run \(54 topics, seed 5\)/)
    const v = trecscore(['validate', '--preset', 'reteco-2a', '--data', 'data', out])
    expect(v.code).toBe(0)
    expect(v.stdout).toMatch(/: ok: 0 errors, 0 warnings in 3 files \(reteco-2a, dev\)\n$/)
    const first = readFileSync(join(out, 'drones.trec'))
    expect(
      trecscore([
        'reteco',
        'sample',
        '--data',
        'data',
        '--subtrack',
        '2a',
        '--out',
        out,
        '--seed',
        '5',
        '--depth',
        '30',
      ]).code,
    ).toBe(0)
    expect(readFileSync(join(out, 'drones.trec')).equals(first)).toBe(true)
  })
  it('Track 1: one file; validates clean and scores with trecscore score', () => {
    const out = join(tmp, 'sample1b.trec')
    expect(
      trecscore(['reteco', 'sample', '--data', 'data', '--subtrack', '1b', '--out', out]).code,
    ).toBe(0)
    expect(
      trecscore(['validate', '--preset', 'reteco-1b', '--data', 'data', '--strict', out]).code,
    ).toBe(0)
    const scored = trecscore(['score', '--preset', 'reteco-1b', '--data', 'data', out])
    expect(scored.code, scored.stderr).toBe(0)
    expect(scored.stdout).toMatch(/nDCG@10/)
  })
  it('bad options: exit 2 with a message', () => {
    const missing = trecscore(['reteco', 'sample', '--subtrack', '1a', '--out', join(tmp, 'x')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/--data <dir>/)
    const deep = trecscore([
      'reteco',
      'sample',
      '--data',
      'data',
      '--subtrack',
      '1a',
      '--out',
      join(tmp, 'x'),
      '--depth',
      '1001',
    ])
    expect(deep.code).toBe(2)
    expect(deep.stderr).toMatch(/expected an integer from 1 to 1000/)
    const dir = trecscore(['reteco', 'sample', '--data', 'data', '--subtrack', '1a', '--out', tmp])
    expect(dir.code).toBe(2)
    expect(dir.stderr).toMatch(/is a directory; a 1a sample is one file/)
  })
})
