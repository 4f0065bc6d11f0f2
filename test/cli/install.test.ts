/**
 * A minimal install, simulated: a private build of trecscore whose node_modules holds commander
 * only (its one dependency), as `npm install trecscore` leaves it without the optional peer
 * packages. The light commands work; BERTScore and the judge cache say in one line what to
 * install (exit 2). Also the launcher's own failures: no dist/ and an output that cannot be
 * written are one line and exit 2, never a trace.
 * (The real `npm pack` + install is scripts/check-minimal-install.mjs, run by .ci/run.)
 */
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-install-'))
const build = join(tmp, 'build')
const bare = join(tmp, 'bare')

beforeAll(() => {
  mkdirSync(join(build, 'bin'), { recursive: true })
  mkdirSync(join(build, 'node_modules'))
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
  symlinkSync(join(ROOT, 'data'), join(build, 'data'), 'dir')
  symlinkSync(
    join(ROOT, 'node_modules', 'commander'),
    join(build, 'node_modules', 'commander'),
    'dir',
  )
  // A clone that was never built: the launcher and package.json, no dist/.
  mkdirSync(join(bare, 'bin'), { recursive: true })
  copyFileSync(join(ROOT, 'bin', 'trecscore.js'), join(bare, 'bin', 'trecscore.js'))
  copyFileSync(join(ROOT, 'package.json'), join(bare, 'package.json'))
}, 300_000)

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

interface Result {
  code: number
  stdout: string
  stderr: string
}

function trecscore(
  home: string,
  args: readonly string[],
  stdout: 'pipe' | number = 'pipe',
): Result {
  const r = spawnSync(process.execPath, [join(home, 'bin', 'trecscore.js'), ...args], {
    cwd: tmp,
    encoding: 'utf8',
    stdio: ['ignore', stdout, 'pipe'],
  })
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr }
}

const demo = (f: string): string => join(ROOT, 'demo', f)

describe('minimal install (no onnxruntime-node, @huggingface/tokenizers, better-sqlite3)', () => {
  it('really lacks them', () => {
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import('onnxruntime-node').then(() => console.log('found'), (e) => console.log(e.code))",
      ],
      { cwd: join(build, 'dist'), encoding: 'utf8' },
    )
    expect(probe.stdout.trim()).toBe('ERR_MODULE_NOT_FOUND')
  })

  it('evaluate scores the demo runs (the quick start)', () => {
    const r = trecscore(build, [
      'evaluate',
      demo('qrels.txt'),
      demo('runs/bm25.run'),
      '-m',
      'AP',
      '-m',
      'P@5',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/bm25\.run\s+0\.2131\s+0\.4933\n/)
  })

  it('the trec_eval drop-in runs', () => {
    const r = trecscore(build, ['trec-eval', '-m', 'map', demo('qrels.txt'), demo('runs/bm25.run')])
    expect(r).toMatchObject({ code: 0, stderr: '' })
    expect(r.stdout).toMatch(/^map\s+\tall\t0\.2131\n$/)
  })

  it('textsim --metric bertscore says in one line what to install, exit 2', () => {
    const pairs = join(tmp, 'pairs.jsonl')
    writeFileSync(pairs, '{"id":"a","prediction":"a cat","references":["the cat"]}\n')
    const r = trecscore(build, [
      'textsim',
      '--metric',
      'bertscore',
      '--model',
      join(tmp, 'no-model'),
      pairs,
    ])
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'trecscore: BERTScore needs onnxruntime-node and @huggingface/tokenizers: npm install onnxruntime-node@1.30.0 @huggingface/tokenizers@0.2.0\n',
    })
  })

  it('judge run says in one line that the cache needs better-sqlite3, exit 2, before any request', () => {
    const r = trecscore(build, [
      'judge',
      'run',
      join(ROOT, 'examples', 'judge', 'items.jsonl'),
      '--cache',
      join(tmp, 'c.sqlite'),
      '-o',
      join(tmp, 'j.jsonl'),
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--rpm',
      '0',
    ])
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'trecscore: the judge cache needs better-sqlite3: npm install better-sqlite3@12.11.1\n',
    })
    expect(existsSync(join(tmp, 'c.sqlite'))).toBe(false)
  })

  it('the library throws a MissingPackageError for BERTScore', () => {
    const code = `import('${join(build, 'dist', 'entries', 'textsim.js')}').then((m) => m.loadBertScorer({ modelDir: 'x' })).catch((e) => console.log(e.constructor.name, e.exitCode, e.packages.join(' ')))`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' })
    expect(r.stdout).toBe(
      'MissingPackageError 2 onnxruntime-node@1.30.0 @huggingface/tokenizers@0.2.0\n',
    )
  })
})

describe('the launcher (bin/trecscore.js)', () => {
  it('without dist/ says "not built" in one line and exits 2, on both routes', () => {
    const expected = {
      code: 2,
      stdout: '',
      stderr: 'trecscore is not built: run `npm run build`\n',
    }
    expect(trecscore(bare, ['--help'])).toEqual(expected)
    expect(trecscore(bare, ['trec-eval', '-h'])).toEqual(expected)
  })

  it.skipIf(!existsSync('/dev/full'))(
    'an output that cannot be written (ENOSPC) is one line and exit 2',
    () => {
      const full = openSync('/dev/full', 'w')
      try {
        const r = trecscore(build, ['--help'], full)
        expect(r.code).toBe(2)
        expect(r.stderr).toBe(
          'trecscore: cannot write the output: ENOSPC: no space left on device, write\n',
        )
      } finally {
        closeSync(full)
      }
    },
  )
})
