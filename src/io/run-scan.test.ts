import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { docIdsOf } from '../model/run-query.js'
import type { RunQuery } from '../model/types.js'
import { hashId } from '../rank/id-hash.js'
import { RUN_SCAN_KERNEL } from './run-scan.js'
import { type RunParseOptions, TrecRunParser } from './trec-run.js'

const ROOT = join(import.meta.dirname, '..', '..')

function read(chunks: readonly Buffer[], o: RunParseOptions, onGroup?: (g: RunQuery) => void) {
  const groups: {
    q: string
    ids: readonly string[]
    hashes: readonly number[]
    scores: readonly number[]
    lines: readonly number[]
  }[] = []
  const parser = new TrecRunParser((g) => {
    onGroup?.(g)
    groups.push({
      q: g.queryId,
      ids: docIdsOf(g),
      hashes: g.docHashes ?? [],
      scores: g.scores,
      lines: g.lines,
    })
  }, o)
  for (const c of chunks) parser.feed(c)
  parser.end()
  const { issues, contentLines, blankLines, commentLines, lastTag } = parser
  return { groups, issues, contentLines, blankLines, commentLines, lastTag }
}

/** `queries` queries of `docs` lines each, with a blank and a comment line now and then. */
function bigRun(queries: number, docs: number): Buffer {
  const lines: string[] = []
  for (let q = 0; q < queries; q++) {
    for (let d = 0; d < docs; d++) {
      lines.push(
        `q${q * 7919}\tQ0 doc-${q}-${(d * 104729) % 100003} ${d + 1} ${(1000 - d / 7).toFixed(6)} run${q % 3}`,
      )
      if ((q * docs + d) % 997 === 0) lines.push('')
      if ((q * docs + d) % 1999 === 0) lines.push('# a comment')
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'latin1')
}

describe('the run-line kernel', () => {
  it('is the compiled wasm/run-scan.ts (src/io/run-scan.wasm.ts is up to date)', async () => {
    const { compileKernel, embedModule, KERNELS } = (await import(
      join(ROOT, 'scripts', 'build-wasm.mjs')
    )) as {
      compileKernel(source: string): Promise<Buffer>
      embedModule(source: string, bytes: Buffer): string
      KERNELS: { source: string; out: string }[]
    }
    for (const k of KERNELS) {
      const text = embedModule(k.source, await compileKernel(k.source))
      expect(readFileSync(join(ROOT, k.out), 'utf8')).toBe(text)
    }
  }, 60_000)

  it('is available on Node 20, and its hashes are hashId', () => {
    expect(RUN_SCAN_KERNEL).not.toBeNull()
    const r = read([Buffer.from('1 Q0 abcdefgh 1 2.5 t\n1 Q0 xyz 2 1 t\n')], { kernel: true })
    expect(r.groups).toEqual([
      {
        q: '1',
        ids: ['abcdefgh', 'xyz'],
        hashes: [hashId('abcdefgh'), hashId('xyz')],
        scores: [2.5, 1],
        lines: [1, 2],
      },
    ])
  })

  it('reads runs larger than its window, cut anywhere, as the JavaScript loop does', () => {
    const run = bigRun(40, 500) // about 0.86 MB: several 256 KiB windows per chunk
    expect(run.length).toBeGreaterThan(800_000)
    const expected = read([run], { kernel: false })
    expect(expected.groups).toHaveLength(40)
    expect(expected.blankLines + expected.commentLines).toBeGreaterThan(20)
    for (const size of [run.length, 300_000, 65_536, 4097]) {
      const chunks: Buffer[] = []
      for (let i = 0; i < run.length; i += size) chunks.push(run.subarray(i, i + size))
      for (const kernel of [true, 'auto'] as const) {
        expect(read(chunks, { kernel })).toEqual(expected)
        expect(read(chunks, { kernel, compactIds: true })).toEqual(
          read(chunks, { kernel: false, compactIds: true }),
        )
        expect(read(chunks, { kernel, syntax: 'c', float32: true })).toEqual(
          read(chunks, { kernel: false, syntax: 'c', float32: true }),
        )
      }
    }
  })

  it('reads the scores and separators of its 64-byte path as the JavaScript loop does', () => {
    // Scores of 1 to 17 bytes with the dot anywhere (16 bytes is the longest the bit-mask path
    // reads), tabs and runs of blanks, CR, lines just under and over 64 bytes, extra fields.
    const scores = ['5', '5.', '.5', '0.', '00.000', '123456789012.345', '1234567890123456']
    scores.push(
      '123456789012345',
      '.123456789012345',
      '1234567.89012345',
      '1.2.3',
      '12345678901234567',
    )
    const lines: string[] = []
    for (const [k, s] of scores.entries()) {
      lines.push(`q${k} Q0 d${k} 1 ${s} t`)
      lines.push(`q${k}\tQ0\t\td${k}x 2  ${s}\ttag  `)
      lines.push(`q${k} Q0 d${k}y 3 ${s} t\r`)
      lines.push(`q${k} Q0 ${'z'.repeat(40 - s.length)} 4 ${s} t`)
      lines.push(`q${k} Q0 ${'z'.repeat(41 - s.length)} 5 ${s} t`)
      lines.push(`q${k} Q0 w${k} 6 ${s} t extra`)
    }
    const run = Buffer.from(`${lines.join('\n')}\n`, 'latin1')
    for (const syntax of ['strict', 'c'] as const) {
      const expected = read([run], { kernel: false, syntax })
      expect(expected.groups.length).toBeGreaterThan(5)
      expect(read([run], { kernel: true, syntax })).toEqual(expected)
    }
  })

  it('hands a line longer than its window, and a query id too long to hand over, to the other readers', () => {
    const long = 'x'.repeat(300_000)
    const run = Buffer.from(
      [
        `${long} Q0 a 1 1 t`,
        `${long} Q0 b 2 0.5 t`,
        '1 Q0 c 1 3 t',
        `1 Q0 d 2 2 ${long}`,
        '1 Q0 e 3 1 t',
        '',
      ].join('\n'),
    )
    for (const syntax of ['strict', 'c'] as const) {
      const expected = read([run], { kernel: false, syntax })
      expect(expected.groups.map((g) => g.ids)).toEqual([
        ['a', 'b'],
        ['c', 'd', 'e'],
      ])
      expect(read([run], { kernel: true, syntax })).toEqual(expected)
    }
  })

  it('is not shared with a parser started from inside a parser callback', () => {
    const inner = bigRun(2, 200)
    const outer = bigRun(3, 300)
    const innerAlone = read([inner], { kernel: true })
    const seen: unknown[] = []
    const got = read([outer], { kernel: true }, () => seen.push(read([inner], { kernel: true })))
    expect(got).toEqual(read([outer], { kernel: false }))
    expect(seen).toEqual([innerAlone, innerAlone, innerAlone])
  })
})
