/**
 * The readers on hostile and malformed input, through the built CLI: every input limit, the
 * strict number syntax outside the drop-in, and the drop-in's trec_eval acceptance with line
 * numbers in its messages. Inputs are generated here (nothing big is committed).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../cli/helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'trecscore-readers-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name)
  writeFileSync(p, content)
  return p
}

function run(
  args: readonly string[],
  env: Record<string, string> = {},
): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'trecscore.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, TRECSCORE_THREADS: '1', ...env },
    maxBuffer: 1 << 26,
  })
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
}

function noTrace(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at |RangeError|TypeError|node:internal/)
}

const qrels = file('qrels.txt', 'q1 0 a 1\nq1 0 b 0\nq2 0 c 2\n')
const goodRun = 'q1 Q0 a 1 2.5 t\nq1 Q0 b 2 1.5 t\nq2 Q0 c 1 1 t\n'

describe('input limits (one mechanism for every reader)', () => {
  it('a gzip bomb as qrels stops at the decompressed-size limit with a one-line error', () => {
    const bomb = file('bomb.qrels.gz', gzipSync(Buffer.alloc(40 << 20, 'q1 0 a 1\n')))
    const r = run(['evaluate', bomb, file('r1.txt', goodRun), '-m', 'AP'], {
      TRECSCORE_MAX_INPUT_BYTES: '8M',
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      `${bomb}: cannot read: more than 8388608 bytes after decompression, the input size limit (raise it with TRECSCORE_MAX_INPUT_BYTES=BYTES)`,
    )
    noTrace(r.stderr)
  })
  it('/dev/zero as qrels, corpus or run stops at the line limit, naming file and line', () => {
    const env = { TRECSCORE_MAX_LINE_BYTES: '1M' }
    const q = run(['evaluate', '/dev/zero', file('r2.txt', goodRun), '-m', 'AP'], env)
    expect([q.code, q.stderr]).toEqual([
      2,
      expect.stringContaining('/dev/zero:1: line longer than 1048576 bytes'),
    ])
    const c = run(
      [
        'evaluate',
        qrels,
        file('r3.txt', goodRun),
        '-m',
        'AP',
        '--corpus',
        '/dev/zero',
        '--unknown-docs',
        'discard',
      ],
      env,
    )
    expect([c.code, c.stderr]).toEqual([
      2,
      expect.stringContaining('/dev/zero:1: line longer than 1048576 bytes'),
    ])
    const t = run(['trec-eval', '/dev/zero', file('r4.txt', goodRun)], env)
    expect(t.code).toBe(2)
    expect(t.stderr).toContain('trec_eval.get_qrels: Malformed line 1\n')
    for (const x of [q, c, t]) noTrace(x.stderr)
  })
  it('a bad limit value is a usage error', () => {
    const r = run(['evaluate', qrels, file('r5.txt', goodRun), '-m', 'AP'], {
      TRECSCORE_MAX_INPUT_BYTES: 'lots',
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('TRECSCORE_MAX_INPUT_BYTES="lots": expected a positive byte count')
    noTrace(r.stderr)
  })
})

describe('malformed input is refused outside the drop-in, every problem listed with file:line', () => {
  it('scores abc, NaN, 1e400; a 7-column line', () => {
    const bad = file(
      'bad.run',
      'q1 Q0 a 1 abc t\nq1 Q0 b 2 NaN t\nq2 Q0 c 1 1e400 t\nq2 Q0 d 2 1 t extra\n',
    )
    const r = run(['evaluate', qrels, bad, '-m', 'AP'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${bad}:1: score is not a number: "abc"`)
    expect(r.stderr).toContain(`${bad}:2: score is not finite: "NaN"`)
    expect(r.stderr).toContain(`${bad}:3: score is not finite: "1e400"`)
    expect(r.stderr).toContain(
      `${bad}:4: expected 6 fields (qid iter docno rank score tag), found 7 field(s)`,
    )
    noTrace(r.stderr)
  })
  it('a CR-only file is named as such, not read as one line', () => {
    const cr = file('cr.run', goodRun.replace(/\n/g, '\r'))
    const r = run(['evaluate', qrels, cr, '-m', 'AP'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${cr}:1: carriage return (CR) not followed by a newline`)
  })
  it('grades abc and 1.5 are not integers; grades over 1,000,000 say so', () => {
    const q = file('bad.qrels', 'q1 0 a abc\nq1 0 b 1.5\nq2 0 c 2000000\n')
    const r = run(['evaluate', q, file('r6.txt', goodRun), '-m', 'AP'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${q}:1: grade is not an integer: "abc"`)
    expect(r.stderr).toContain(`${q}:2: grade is not an integer: "1.5"`)
    expect(r.stderr).toContain(
      `${q}:3: grade "2000000" is larger than 1000000, the largest grade accepted`,
    )
    noTrace(r.stderr)
  })
})

describe('the drop-in keeps trec_eval acceptance, with line numbers', () => {
  it('reads abc as 0 and ignores a 7th column, as trec_eval does (exit 0)', () => {
    const r = run([
      'trec-eval',
      '-m',
      'num_ret',
      qrels,
      file('junk.run', 'q1 Q0 a 1 abc t extra\nq2 Q0 c 1 1 t\n'),
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('num_ret               \tall\t2\n')
  })
  it('a grade over 1,000,000: Malformed line with its number', () => {
    const r = run([
      'trec-eval',
      file('big.qrels', 'q1 0 a 1\nq1 0 b 1000001\n'),
      file('r7.txt', goodRun),
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('trec_eval.get_qrels: Malformed line 2\n')
  })
  it('a duplicate doc: the trec_eval message ends its line, then file:line of both occurrences', () => {
    const dup = file('dup.run', 'q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq1 Q0 a 3 0.5 t\n')
    const r = run(['trec-eval', qrels, dup])
    expect(r.code).toBe(4)
    expect(r.stderr).toBe(
      `trec_eval.form_res_qrels: duplicate docs a\ntrecscore: ${dup}:3: document "a" already retrieved for query "q1" at line 1\ntrec_eval: Can't calculate measure 'num_ret'\n`,
    )
  })
})
