import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { forEachLine, isBlank } from './read-lines.js'
import { parseRetecoRunFile } from './runs.js'

const dir = mkdtempSync(join(tmpdir(), 'trecscore-reteco-lines-'))
const saved = process.env['TRECSCORE_MAX_LINE_BYTES']

afterEach(() => {
  if (saved === undefined) delete process.env['TRECSCORE_MAX_LINE_BYTES']
  else process.env['TRECSCORE_MAX_LINE_BYTES'] = saved
})

describe('RETECO line reading (the engine LineSplitter)', () => {
  it('physical 1-based lines; CR kept; a last line without newline counts; no line after a final newline', async () => {
    const file = join(dir, 'a.txt')
    writeFileSync(file, 'q1 Q0 d 1 1 r\r\n\n  \t\nlast')
    const seen: [number, string, boolean][] = []
    await forEachLine(file, (buf, s, e, line) =>
      seen.push([line, buf.toString('latin1', s, e), isBlank(buf, s, e)]),
    )
    expect(seen).toEqual([
      [1, 'q1 Q0 d 1 1 r\r', false],
      [2, '', true],
      [3, '  \t', true],
      [4, 'last', false],
    ])
  })

  it('a line over TRECSCORE_MAX_LINE_BYTES: file:line, not unbounded memory', async () => {
    process.env['TRECSCORE_MAX_LINE_BYTES'] = '64'
    const file = join(dir, 'long.trec')
    writeFileSync(file, `q1 Q0 d1 1 2.0 r\nq1 Q0 ${'x'.repeat(100)} 2 1.0 r\n`)
    await expect(parseRetecoRunFile(file)).rejects.toMatchObject({
      issues: [{ code: 'line_too_long', file, line: 2, limit: 64 }],
    })
  })
})
