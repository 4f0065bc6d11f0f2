/**
 * The trec_eval drop-in through the real binary: exit codes, messages with file and line, and
 * hostile input (empty, missing, directory, gzip, 10 MB line, NUL bytes, CR LF, mixed encoding).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-te-'))
const file = (name: string, content: string | Buffer): string => {
  const p = join(tmp, name)
  writeFileSync(p, content)
  return p
}
const QRELS = file('qrels', 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n')
const RUN = file('run', 'q1 Q0 d1 1 2.0 tag\nq1 Q0 d2 2 1.0 tag\nq2 Q0 d3 1 1.0 tag\n')
const noTrace = (s: string) => expect(s).not.toMatch(/\n\s+at /)

describe('trecscore trec-eval (binary)', () => {
  it('writes trec_eval output', () => {
    const r = cli(['trec-eval', '-m', 'map', '-m', 'P.1', QRELS, RUN])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      'map                   \tall\t1.0000\nP_1                   \tall\t1.0000\n',
    )
  })
  it('reads the run from stdin and gzipped files', () => {
    expect(
      cli(['trec-eval', '-m', 'num_ret', QRELS, '-'], {
        input: 'q1 Q0 d1 1 2.0 t\nq2 Q0 d3 1 1 t\n',
      }).stdout,
    ).toBe('num_ret               \tall\t2\n')
    const gz = file('run.gz', gzipSync(Buffer.from('q1 Q0 d1 1 2.0 t\nq2 Q0 d3 1 1 t\n')))
    expect(cli(['trec-eval', '-m', 'num_ret', QRELS, gz]).stdout).toBe(
      'num_ret               \tall\t2\n',
    )
  })
  it('unknown measure: exit 1', () => {
    const r = cli(['trec-eval', '-m', 'nope', QRELS, RUN])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe("trec_eval: illegal measure 'nope'\n")
  })
  it('bad usage: exit 1 with usage', () => {
    const r = cli(['trec-eval', '-x', QRELS, RUN])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('Usage:')
  })
  it('empty, missing and directory inputs: exit 2, named', () => {
    for (const [q, r, msg] of [
      [file('empty', ''), RUN, 'Cannot read qrels file'],
      [join(tmp, 'missing'), RUN, 'no such file'],
      [QRELS, tmp, 'is a directory'],
      [QRELS, file('emptyrun', ''), 'Cannot read results file'],
    ] as const) {
      const out = cli(['trec-eval', q, r])
      expect([q, r, out.code]).toEqual([q, r, 2])
      expect(out.stderr).toContain(msg)
      noTrace(out.stderr)
    }
  })
  it('truncated gzip: exit 2', () => {
    const gz = file(
      'trunc.gz',
      gzipSync(Buffer.from('q1 Q0 d1 1 2.0 t\n'.repeat(5000))).subarray(0, 50),
    )
    const r = cli(['trec-eval', QRELS, gz])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('gzip')
    noTrace(r.stderr)
  })
  it('malformed run line: trec_eval message plus file:line and the text', () => {
    const r = cli(['trec-eval', QRELS, file('short', 'q1 Q0 d1 1 2.0 t\n\nq1 Q0 d2 1\n')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('trec_eval.get_results: Malformed line 2\n')
    expect(r.stderr).toContain('short:3: expected 6 fields')
    expect(r.stderr).toContain('"q1 Q0 d2 1"')
  })
  it('NUL bytes and a 10 MB line are errors, not hangs or crashes', () => {
    const nul = cli(['trec-eval', QRELS, file('nul', 'q1 Q0 d1 1 2.0 t\nq1 Q0 d\0 1 2.0 t\n')])
    expect(nul.code).toBe(2)
    expect(nul.stderr).toContain('nul:2: NUL byte')
    const long = cli([
      'trec-eval',
      '-c',
      QRELS,
      file('long', `q1 Q0 ${'x'.repeat(10 * 1024 * 1024)} 1 2.0 t\n`),
    ])
    expect(long.code).toBe(0) // a 10 MB doc id is legal (below the 16 MiB line limit)
    const huge = cli(['trec-eval', QRELS, file('huge', 'x'.repeat(20 * 1024 * 1024))])
    expect(huge.code).toBe(2)
    expect(huge.stderr).toContain('huge:1: line longer than')
  })
  it('Windows line endings and mixed encodings are read as trec_eval reads them', () => {
    const crlf = cli([
      'trec-eval',
      '-m',
      'map',
      file('q-crlf', 'q1 0 d1 1\r\nq2 0 d3 2\r\n'),
      file('r-crlf', 'q1 Q0 d1 1 2.0 t\r\nq2 Q0 d3 1 1 t\r\n'),
    ])
    expect(crlf.stdout).toBe('map                   \tall\t1.0000\n')
    // Latin-1 byte 0xE9 in one id, UTF-8 é in another: two different documents, both kept as bytes.
    const mixed = cli([
      'trec-eval',
      '-q',
      '-m',
      'relstring',
      file('q-mix', Buffer.from('q1 0 caf\xc3\xa9 1\n', 'latin1')),
      file(
        'r-mix',
        Buffer.concat([
          Buffer.from('q1 Q0 caf\xe9 1 2 t\n', 'latin1'),
          Buffer.from('q1 Q0 café 1 1 t\n', 'utf8'),
        ]),
      ),
    ])
    expect(mixed.code).toBe(0)
    expect(mixed.stdout).toBe("relstring             \tq1\t'-1'\n")
  })
  it('missing query without -c: exit 4 with trec_eval message', () => {
    const r = cli(['trec-eval', QRELS, file('r-missing', 'q1 Q0 d1 1 2.0 t\n')])
    expect(r.code).toBe(4)
    expect(r.stderr).toBe("trec_eval: result qid 'q2' not found in qrels\n")
  })
})
