/**
 * `trecscore validate` end to end: the built binary is spawned and its stdout, stderr and exit
 * status checked. The project is compiled (tsconfig.build.json) into a private temporary folder
 * first, so the test sees the current sources and never races other tests over `dist/`.
 */
import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-validate-'))
const build = join(tmp, 'build')
const data = join(tmp, 'data')

beforeAll(() => {
  mkdirSync(join(build, 'bin'), { recursive: true })
  mkdirSync(data)
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

interface Result {
  code: number
  stdout: string
  stderr: string
}

/** Run `trecscore ARGS` (the copy of bin/trecscore.js over the fresh build) in the data folder. */
function trecscore(args: readonly string[], input: string | Buffer = ''): Result {
  const r = spawnSync(process.execPath, [join(build, 'bin', 'trecscore.js'), ...args], {
    cwd: data,
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
}

/** Write a file into the data folder; returns its name (relative to the data folder). */
function file(name: string, content: string | Buffer): string {
  writeFileSync(join(data, name), content)
  return name
}

const GOOD = '301 Q0 d1 1 12.5 bm25\n301 Q0 d2 2 11 bm25\n302 Q0 d1 1 3.25 bm25\n'
const noStack = (r: Result): void => expect(r.stderr).not.toMatch(/\n\s+at |Error:/)

describe('trecscore validate', () => {
  it('accepts a good run: exit 0, a one-line summary, nothing on stderr', () => {
    const r = trecscore(['validate', file('good.run', GOOD)])
    expect(r).toEqual({
      code: 0,
      stdout: 'good.run: ok: 0 errors, 0 warnings in 3 lines, 2 queries\n',
      stderr: '',
    })
    expect(trecscore(['validate', '--strict', 'good.run']).code).toBe(0)
  })

  it('lists every error with file:line:column, the raw line and a caret, then exits 2', () => {
    const run = file('bad.run', '301 Q0 d1 1 12.5 bm25\n301 Q0 d1 2 nan bm25\n301 Q0 d3 x 1\n')
    const r = trecscore(['validate', run])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe(
      [
        'bad.run:2:8: error: document "d1" repeated for topic "301" (first at line 1); expected each document once per topic',
        '    301 Q0 d1 2 nan bm25',
        '           ^',
        'bad.run:2:13: error: score "nan" is not finite; expected a finite decimal number (trec_eval sorts NaN and infinite scores unpredictably)',
        '    301 Q0 d1 2 nan bm25',
        '                ^',
        'bad.run:3:14: error: expected at least 6 fields (qid iter docno rank score tag), found 5',
        '    301 Q0 d3 x 1',
        '                 ^',
        'bad.run: failed: 3 errors, 0 warnings in 3 lines, 1 query',
        '',
      ].join('\n'),
    )
  })

  it('exits 0 on warnings, 1 with --strict', () => {
    const run = file('warn.run', '301 Q0 d1 1 1 a\n301 Q0 d2 2 2 b\n')
    const plain = trecscore(['validate', run])
    expect(plain.code).toBe(0)
    expect(plain.stdout).toContain(
      'warn.run:2:13: warning: rank 2 has score 2 but rank 1 (line 1) has score 1',
    )
    expect(plain.stdout).toContain('warn.run:2:15: warning: run tag "b" differs from "a" (line 1)')
    expect(plain.stdout.trimEnd().split('\n').at(-1)).toBe(
      'warn.run: ok: 0 errors, 2 warnings in 2 lines, 1 query',
    )
    const strict = trecscore(['validate', '--strict', run])
    expect(strict.code).toBe(1)
    expect(strict.stdout.trimEnd().split('\n').at(-1)).toBe(
      'warn.run: failed (--strict): 0 errors, 2 warnings in 2 lines, 1 query',
    )
    expect(
      JSON.parse(trecscore(['validate', '--strict', '--format', 'json', run]).stdout),
    ).toMatchObject({ ok: false, strict: true, errors: 0, warnings: 2 })
  })

  it('reports a missing file on stderr with exit 2 and no stack trace', () => {
    const r = trecscore(['validate', 'missing.run'])
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'trecscore: missing.run: cannot read: no such file\n',
    })
    const json = trecscore(['validate', '--format', 'json', 'missing.run'])
    expect(json.code).toBe(2)
    expect(json.stderr).toBe('trecscore: missing.run: cannot read: no such file\n')
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      errors: 1,
      lines: 0,
      problems: [{ code: 'cannot_read', line: null, reason: 'no such file' }],
    })
  })

  it('reports a directory on stderr with exit 2', () => {
    mkdirSync(join(data, 'a-dir'), { recursive: true })
    const r = trecscore(['validate', 'a-dir'])
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'trecscore: a-dir: cannot read: is a directory, expected a file\n',
    })
  })

  it('reads .gz runs, and reports a truncated one after checking what could be read', () => {
    const lines = Array.from(
      { length: 20_000 },
      (_, i) => `${1 + (i >> 8)} Q0 doc${i} ${(i & 255) + 1} ${1000 - (i & 255)} run\n`,
    ).join('')
    const gz = gzipSync(lines)
    expect(trecscore(['validate', file('ok.run.gz', gz)])).toMatchObject({
      code: 0,
      stdout: 'ok.run.gz: ok: 0 errors, 0 warnings in 20000 lines, 79 queries\n',
    })
    const r = trecscore(['validate', file('cut.run.gz', gz.subarray(0, gz.length >> 1))])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'trecscore: cut.run.gz: cannot read: truncated gzip data (unexpected end of file)\n',
    )
    expect(r.stdout).toMatch(
      /^cut\.run\.gz: error: cannot read: truncated gzip data \(unexpected end of file\) \(after line \d+; the rest was not checked\)\n/,
    )
    expect(r.stdout).toMatch(
      /\ncut\.run\.gz: failed: 1 error, 0 warnings in \d+ lines, \d+ queries\n$/,
    )
    noStack(r)
  })

  it('fails an empty file', () => {
    const r = trecscore(['validate', file('empty.run', '')])
    expect(r).toEqual({
      code: 2,
      stdout:
        'empty.run: error: the file is empty; expected lines of "qid iter docno rank score tag"\nempty.run: failed: 1 error, 0 warnings in 0 lines, 0 queries\n',
      stderr: '',
    })
  })

  it('checks a 10 MB line quickly and prints only its start; --max-line-bytes skips it', () => {
    const run = file(
      'long.run',
      `1 Q0 ${'d'.repeat(10_000_000)} 1 1 t\n1 Q0 ${'e'.repeat(10_000_000)}\n1 Q0 f 3 0 t\n`,
    )
    const r = trecscore(['validate', run])
    expect(r.code).toBe(2)
    expect(r.stdout.length).toBeLessThan(2000)
    expect(r.stdout).toContain(
      'long.run:2:10000006: error: expected at least 6 fields (qid iter docno rank score tag), found 3\n',
    )
    expect(r.stdout).toContain('… (10000005 bytes)\n')
    const capped = trecscore(['validate', '--max-line-bytes', '1000000', run])
    expect(capped.code).toBe(2)
    expect(capped.stdout).toContain(
      'long.run:1:1000001: error: line longer than 1000000 bytes (10000011 bytes;',
    )
    expect(capped.stdout).toContain('long.run:2:1000001: error: line longer than 1000000 bytes')
    expect(capped.stdout.trimEnd().split('\n').at(-1)).toBe(
      'long.run: failed: 2 errors, 0 warnings in 3 lines, 1 query',
    )
  })

  it('reports NUL bytes as binary junk, with the NUL shown as \\0', () => {
    const r = trecscore([
      'validate',
      file('nul.run', Buffer.from('1 Q0 a 1 1 t\n1 Q0 b\0 2 0 t\n\0\0\0\n')),
    ])
    expect(r.code).toBe(2)
    expect(r.stdout).toContain(
      'nul.run:2:7: error: NUL byte (binary data?); expected text, the line was not checked further\n    1 Q0 b\\0 2 0 t\n          ^\n',
    )
    expect(r.stdout).toContain('nul.run:3:1: error: NUL byte')
    expect(r.stdout).toContain('nul.run: failed: 2 errors, 0 warnings in 3 lines, 1 query\n')
  })

  it('warns once about Windows line endings (exit 0, or 1 with --strict)', () => {
    const run = file('crlf.run', GOOD.replace(/\n/g, '\r\n'))
    const r = trecscore(['validate', run])
    expect(r).toEqual({
      code: 0,
      stdout:
        'crlf.run:1:22: warning: Windows line endings (CR LF) on 3 lines; trec_eval reads the CR as a space, but other tools keep it in the run tag\n' +
        '    301 Q0 d1 1 12.5 bm25\n' +
        '                         ^\n' +
        'crlf.run: ok: 0 errors, 1 warning in 3 lines, 2 queries\n',
      stderr: '',
    })
    expect(trecscore(['validate', '--strict', run]).code).toBe(1)
  })

  it('warns about Latin-1 bytes in a UTF-8 file, at the byte', () => {
    const bytes = Buffer.concat([
      Buffer.from('1 Q0 café 1 2 t\n', 'utf8'),
      Buffer.from('1 Q0 caf\xe9 2 1 t\n', 'latin1'),
    ])
    const r = trecscore(['validate', file('mixed.run', bytes)])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      'mixed.run:2:9: warning: byte 0xE9 is not valid UTF-8 (Latin-1 or mixed encodings?)',
    )
    expect(r.stdout).toContain('    1 Q0 caf\\xE9 2 1 t\n            ^\n')
    expect(trecscore(['validate', '--strict', 'mixed.run']).code).toBe(1)
  })

  it('checks topics against --qrels, documents against --corpus, depth against --max-depth', () => {
    const qrels = file('q.txt', '301 0 d1 1\n302 0 d1 0\n')
    const corpus = file('ids.txt', 'd1\nd2\td2 has text\n')
    const run = file('three.run', GOOD + '303 Q0 d9 1 1 bm25\n301 Q0 d3 3 10 bm25\n')
    const r = trecscore([
      'validate',
      '--qrels',
      qrels,
      '--corpus',
      corpus,
      '--max-depth',
      '2',
      '--format',
      'json',
      run,
    ])
    expect(r.code).toBe(2)
    const j = JSON.parse(r.stdout)
    expect(
      j.problems.map((p: { code: string; line: number; column: number }) => [
        p.code,
        p.line,
        p.column,
      ]),
    ).toEqual([
      ['unknown_topic', 4, 1],
      ['unknown_doc', 4, 8],
      ['too_deep', 5, 1],
      ['unknown_doc', 5, 8],
    ])
    expect(j.counts).toEqual({
      too_deep: { severity: 'error', count: 1, listed: 1 },
      unknown_topic: { severity: 'warning', count: 1, listed: 1 },
      unknown_doc: { severity: 'warning', count: 2, listed: 2 },
    })
    expect(trecscore(['validate', '--qrels', 'nope.txt', run])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'trecscore: nope.txt: cannot read: no such file\n',
    })
    expect(trecscore(['validate', '--corpus', 'nope.txt', run])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'trecscore: nope.txt: cannot read: no such file\n',
    })
    const badQrels = trecscore(['validate', '--qrels', file('bad-q.txt', '301 0 d1\n'), run])
    expect(badQrels).toMatchObject({ code: 2, stdout: '' })
    expect(badQrels.stderr).toBe(
      'trecscore: bad-q.txt:1: expected 4 fields (qid iter docno rel), found 3 field(s): "301 0 d1"\n',
    )
  })

  it('has a stable JSON layout', () => {
    const j = JSON.parse(trecscore(['validate', '--format', 'json', 'bad.run']).stdout)
    expect(Object.keys(j)).toEqual([
      'schema',
      'file',
      'ok',
      'strict',
      'errors',
      'warnings',
      'queries',
      'lines',
      'runLines',
      'blankLines',
      'commentLines',
      'bytes',
      'tags',
      'counts',
      'problems',
    ])
    expect(j).toMatchObject({
      schema: 'trecscore.validate/1',
      file: 'bad.run',
      ok: false,
      errors: 3,
      warnings: 0,
      queries: 1,
      lines: 3,
      tags: ['bm25'],
    })
    expect(j.problems[0]).toEqual({
      severity: 'error',
      code: 'duplicate_doc',
      line: 2,
      column: 8,
      message:
        'document "d1" repeated for topic "301" (first at line 1); expected each document once per topic',
      text: '301 Q0 d1 2 nan bm25',
      lineBytes: 20,
      queryId: '301',
      docId: 'd1',
      firstLine: 1,
    })
  })

  it('caps the listing per code but counts every problem', () => {
    const run = file(
      'many.run',
      Array.from({ length: 5000 }, (_, i) => `1 Q0 d${i} ${i + 1}\n`).join(''),
    )
    const r = trecscore(['validate', run])
    expect(r.code).toBe(2)
    expect(r.stdout.match(/: error: expected at least 6 fields/g)).toHaveLength(20)
    expect(r.stdout).toContain(
      'many.run: note: listed 20 of 5000 field_count errors\nmany.run: failed: 5000 errors, 0 warnings in 5000 lines, 0 queries\n',
    )
    expect(
      trecscore(['validate', '--max-listed', '3', run]).stdout.match(/: error: /g),
    ).toHaveLength(3)
  })

  it('reads standard input for -', () => {
    expect(trecscore(['validate', '-'], GOOD)).toEqual({
      code: 0,
      stdout: '<stdin>: ok: 0 errors, 0 warnings in 3 lines, 2 queries\n',
      stderr: '',
    })
  })

  it('rejects bad usage with exit 2 and no stack trace', () => {
    for (const args of [
      ['validate'],
      ['validate', '--format', 'xml', 'good.run'],
      ['validate', '--max-depth', '0', 'good.run'],
      ['validate', '--max-line-bytes', 'lots', 'good.run'],
    ]) {
      const r = trecscore(args)
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2])
      expect(r.stderr).toMatch(/^trecscore validate: .*; see `trecscore validate --help`\n$/)
      noStack(r)
    }
  })

  it('documents every flag, every problem code and every exit status in --help', () => {
    const r = trecscore(['validate', '--help'])
    expect(r.code).toBe(0)
    for (const flag of [
      '--qrels',
      '--corpus',
      '--max-depth',
      '--max-line-bytes',
      '--max-listed',
      '--format',
      '--strict',
    ])
      expect(r.stdout).toContain(flag)
    for (const code of [
      'field_count',
      'duplicate_doc',
      'too_deep',
      'invalid_utf8',
      'crlf',
      'bom',
      'unknown_topic',
      'unknown_doc',
      'rank_score_order',
    ])
      expect(r.stdout).toContain(code)
    expect(r.stdout).toMatch(
      /Exit status:\n {2}0 {2}no errors[^\n]*\n {2}1 {2}warnings but no errors, with --strict\n {2}2 {2}errors/,
    )
  })
})
