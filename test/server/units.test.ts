/**
 * The server's building blocks without HTTP: config validation, passwords and secrets, the
 * rate limiter, the streaming upload limits and the scoring adapter.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords.js'
import { hashSecret, newSecret } from '../../src/server/auth/tokens.js'
import { ConfigError, loadCompetition, parseCompetition } from '../../src/server/config/load.js'
import { configJsonSchema, uploadLimitsSchema } from '../../src/server/config/schema.js'
import { receiveRun, UploadRejected } from '../../src/server/storage/upload.js'
import { makeCompetition, runSubset } from './helpers.js'

const comp = makeCompetition()
afterAll(() => comp.cleanup())

function configError(value: unknown): string[] {
  try {
    parseCompetition(value, join(comp.dir, 'c.json'))
  } catch (e) {
    if (e instanceof ConfigError) return [...e.problems]
    throw e
  }
  return []
}

describe('competition config', () => {
  it('loads the test config with defaults filled and paths resolved', () => {
    const c = loadCompetition(comp.config)
    expect(c.tracks.map((t) => [t.id, t.kind])).toEqual([
      ['dl', 'preset'],
      ['plain', 'plain'],
    ])
    expect(c.tracks[0]!.dataDir).toBe(join(comp.dir, 'dl'))
    expect(c.limits).toEqual({ perDay: 5, perPhase: 50, concurrent: 2, counts: 'best' })
    expect(c.phases[1]).toMatchObject({
      id: 'test',
      hidden: true,
      start: '2020-01-01T00:00:00.000Z',
    })
    expect(c.tracks[1]!.shownColumns).toEqual(['P@5'])
  })
  it('reports every problem at once, each with its path', () => {
    const base = JSON.parse(readFileSync(comp.config, 'utf8')) as Record<string, unknown>
    const bad = {
      ...base,
      phases: [
        { id: 'dev', start: '2027-02-01T00:00:00Z', end: '2027-01-01T00:00:00Z' },
        { id: 'Dev!', start: 'yesterday', end: '2027-01-01T00:00:00Z' },
      ],
    }
    const problems = configError(bad)
    expect(problems).toContain(
      `${join(comp.dir, 'c.json')}: phases.0.end: start must be before end`,
    )
    expect(problems.some((p) => p.includes('phases.1.id: expected an id'))).toBe(true)
    expect(problems.some((p) => p.includes('phases.1.start'))).toBe(true)
  })
  it('checks presets, measures, primary, qrels per phase and files', () => {
    const base = JSON.parse(readFileSync(comp.config, 'utf8')) as {
      tracks: Record<string, unknown>[]
    }
    const tracks = [
      { ...base.tracks[0], preset: 'dl99', qrels: { dev: 'qrels-dev.txt', test: 'nope.txt' } },
      { ...base.tracks[1], measures: ['nDCG@10', 'NotAMeasure'], primary: 'AP' },
    ]
    const problems = configError({ ...base, tracks })
    expect(problems.some((p) => p.includes("unknown preset 'dl99'"))).toBe(true)
    expect(problems.some((p) => p.includes("unknown measure 'NotAMeasure'"))).toBe(true)
    expect(problems.some((p) => p.includes("'AP' is not one of the track's measures"))).toBe(true)
    expect(
      problems.some((p) => p.includes('qrels.test:') && p.includes('nope.txt does not exist')),
    ).toBe(true)
    expect(
      configError({ ...base, tracks: [{ ...base.tracks[1], qrels: { dev: 'qrels-dev.txt' } }] }),
    ).toEqual([
      `${join(comp.dir, 'c.json')}: tracks.0.qrels: track 'plain' needs qrels.test (one entry per phase)`,
    ])
  })
  it('refuses unknown keys (a typo is not silently ignored)', () => {
    const base = JSON.parse(readFileSync(comp.config, 'utf8')) as Record<string, unknown>
    expect(configError({ ...base, limit: { perDay: 1 } }).join('\n')).toMatch(
      /Unrecognized key.*limit/,
    )
  })
})

describe('README', () => {
  it('documents every key of the config schema', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')
    const section = readme.slice(
      readme.indexOf('### The competition config'),
      readme.indexOf('### JSON API'),
    )
    const keys = new Set<string>()
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk)
      if (typeof node !== 'object' || node === null) return
      const o = node as Record<string, unknown>
      if (o['properties'] && typeof o['properties'] === 'object')
        for (const k of Object.keys(o['properties'])) keys.add(k)
      Object.values(o).forEach(walk)
    }
    walk(configJsonSchema())
    expect(keys.size).toBeGreaterThan(30)
    for (const k of keys)
      expect(
        section.includes('`' + k + '`') || section.includes('`' + k + '[]`'),
        `README config table lacks \`${k}\``,
      ).toBe(true)
  })
})

describe('secrets', () => {
  it('scrypt hashes verify only the right password, with a fresh salt each time', async () => {
    const h1 = await hashPassword('correct horse battery')
    const h2 = await hashPassword('correct horse battery')
    expect(h1).not.toBe(h2)
    expect(h1).toMatch(/^scrypt\$16384\$8\$1\$/)
    expect(await verifyPassword('correct horse battery', h1)).toBe(true)
    expect(await verifyPassword('correct horse batterY', h1)).toBe(false)
    expect(await verifyPassword('x', 'garbage')).toBe(false)
  })
  it('secrets are random and stored as sha256', () => {
    const a = newSecret('tsk')
    expect(a).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/)
    expect(newSecret('tsk')).not.toBe(a)
    expect(hashSecret(a)).toMatch(/^[0-9a-f]{64}$/)
    expect(hashSecret(a)).not.toContain(a.slice(4, 20))
  })
})

describe('streaming upload limits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trecscore-upload-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const limits = uploadLimitsSchema.parse({
    maxBytes: 10_000,
    maxDecompressedBytes: 20_000,
    maxLines: 100,
    maxLineBytes: 80,
  })
  async function* chunks(b: Buffer, size = 7): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size)
  }
  let n = 0
  const manyLines = { ...limits, maxLines: 1_000_000 }
  const receive = (b: Buffer, l = limits) => receiveRun(chunks(b), join(dir, `r${n++}`), l)
  async function rejected(b: Buffer, l = limits): Promise<string> {
    const dest = join(dir, `r${n}`)
    const e = await receive(b, l).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(UploadRejected)
    expect(existsSync(dest), 'a rejected upload leaves no file').toBe(false)
    return (e as Error).message
  }
  it('stores a run and counts bytes, lines and its sha256', async () => {
    const text = 'q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\n'
    const r = await receive(Buffer.from(text))
    expect(r).toMatchObject({ bytes: text.length, bytesSent: text.length, lines: 2, gzip: false })
    expect(r.sha256).toBe(createHash('sha256').update(text).digest('hex'))
    expect(readFileSync(r.file, 'utf8')).toBe(text)
  })
  it('decompresses .gz (detected by its magic bytes) and limits the decompressed size', async () => {
    const text = 'q1 Q0 d1 1 2.5 t\n'.repeat(50)
    const r = await receive(gzipSync(text))
    expect(r.gzip).toBe(true)
    expect(readFileSync(r.file, 'utf8')).toBe(text)
    const bomb = gzipSync(Buffer.alloc(1_000_000, 'x'.repeat(20) + '\n'))
    expect(bomb.length).toBeLessThan(limits.maxBytes)
    expect(await rejected(bomb, manyLines)).toBe(
      'upload limit: the decompressed run is over 20000 bytes',
    )
    expect(await rejected(gzipSync(text).subarray(0, 40))).toMatch(
      /not valid gzip or was cut short/,
    )
  })
  it('stops at the first limit passed: bytes, lines, line length; empty is refused', async () => {
    expect(await rejected(Buffer.alloc(10_001, 'a'.repeat(20) + '\n'), manyLines)).toBe(
      'upload limit: the upload is over 10000 bytes',
    )
    expect(await rejected(Buffer.from('x\n'.repeat(101)))).toBe(
      'upload limit: the run has more than 100 lines',
    )
    expect(await rejected(Buffer.from('x'.repeat(81)))).toBe(
      'upload limit: line 1 is longer than 80 bytes',
    )
    expect(await rejected(Buffer.from('ok\n' + 'x'.repeat(81) + '\n'))).toBe(
      'upload limit: line 2 is longer than 80 bytes',
    )
    expect(await rejected(Buffer.alloc(0))).toBe('the uploaded run is empty')
  })
  it('a valid run file passes whole', async () => {
    const big = receiveRun(
      chunks(Buffer.from(runSubset(comp.runs.bm25, (q) => q === 1)), 4096),
      join(dir, 'ok'),
      uploadLimitsSchema.parse({}),
    )
    expect((await big).lines).toBe(100)
  })
})
