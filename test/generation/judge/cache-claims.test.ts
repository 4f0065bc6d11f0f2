/**
 * Several processes on one judge cache: creating the same fresh cache at once (no UNIQUE race),
 * claims (taken, released, stale ones of dead or expired owners taken over), and two real
 * `judge run` processes against one counting server asking every request exactly once.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { JudgeCache, loadJudgeConfig } from '../../../src/entries/judge.js'
import { cli, ROOT, TEST_RETRY, tempDir, writeTestConfig } from './helpers.js'

const ITEMS = join(ROOT, 'examples', 'judge', 'items.jsonl')
const HASH = 'a'.repeat(64)
const BUILT = join(ROOT, 'dist', 'generation', 'judge', 'cache.js')
const SLOW = 300_000

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
})

/** A pid that no longer exists (a child that has exited). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''])
  expect(r.status).toBe(0)
  return r.pid!
}

describe('judge cache shared by several processes', () => {
  it.skipIf(!existsSync(BUILT))(
    'six processes creating the same fresh caches at the same moment all open them (40 rounds; needs dist/)',
    async () => {
      const dir = tempDir()
      const start = Date.now() + 3000
      const rounds = 40
      const outs = await Promise.all(
        Array.from(
          { length: 6 },
          () =>
            new Promise<string>((resolve) => {
              const c = spawn(process.execPath, [
                join(import.meta.dirname, 'open-cache.mjs'),
                BUILT,
                dir,
                HASH,
                String(start),
                '60',
                String(rounds),
              ])
              let out = ''
              c.stdout.on('data', (d: Buffer) => (out += d.toString()))
              c.stderr.on('data', (d: Buffer) => (out += d.toString()))
              c.on('close', () => resolve(out))
            }),
        ),
      )
      const lines = outs.flatMap((o) => o.trim().split('\n'))
      expect(lines.filter((l) => l !== 'ok')).toEqual([])
      expect(lines).toHaveLength(6 * rounds)
    },
    SLOW,
  )

  it('claims: taken by a live owner, done once cached, free after release; stale claims (dead pid, expired) are taken over', () => {
    const dir = tempDir()
    const file = join(dir, 'c.sqlite')
    const a = JudgeCache.open(file, HASH)
    const b = JudgeCache.open(file, HASH)
    try {
      expect(a.claim('k1', 60_000)).toBe('mine')
      expect(a.claim('k1', 60_000)).toBe('mine') // already ours
      expect(b.claim('k1', 60_000)).toBe('taken')
      a.put({
        key: 'k1',
        dimension: 'relevance',
        turnId: 't',
        status: 'ok',
        score: 3,
        rationale: null,
        reason: null,
        attempts: 1,
        promptTokens: 1,
        completionTokens: 1,
        content: '{"score":3}',
        systemFingerprint: null,
        model: null,
        request: '{}',
        createdAt: '2026-01-01T00:00:00Z',
      })
      expect(b.claim('k1', 60_000)).toBe('done')
      expect(a.claim('k2', 60_000)).toBe('mine')
      a.release('k2')
      expect(b.claim('k2', 60_000)).toBe('mine')
      // Expired: a's claim on k3 lasts 1 s; 5 s later b takes it over.
      const now = Date.now()
      expect(a.claim('k3', 1000, now)).toBe('mine')
      expect(b.claim('k3', 1000, now + 500)).toBe('taken')
      expect(b.claim('k3', 1000, now + 5000)).toBe('mine')
      // Renewed: a's claim on k4 is extended past b's look.
      expect(a.claim('k4', 1000, now)).toBe('mine')
      a.renewClaims(60_000, now + 900)
      expect(b.claim('k4', 1000, now + 5000)).toBe('taken')
      // A claim of a process that died on this host (never expiring) is stale; one of a live process on another host is not.
      const raw = new Database(file)
      raw
        .prepare('INSERT INTO claims (key, owner, host, pid, expires_at) VALUES (?, ?, ?, ?, ?)')
        .run('k5', 'dead', hostname(), deadPid(), Number.MAX_SAFE_INTEGER)
      raw
        .prepare('INSERT INTO claims (key, owner, host, pid, expires_at) VALUES (?, ?, ?, ?, ?)')
        .run('k6', 'elsewhere', `${hostname()}-other`, deadPid(), Number.MAX_SAFE_INTEGER)
      raw
        .prepare('INSERT INTO claims (key, owner, host, pid, expires_at) VALUES (?, ?, ?, ?, ?)')
        .run('k7', 'parent', hostname(), process.ppid, Number.MAX_SAFE_INTEGER)
      raw.close()
      expect(b.claim('k5', 60_000)).toBe('mine')
      expect(b.claim('k6', 60_000)).toBe('taken')
      expect(b.claim('k7', 60_000)).toBe('taken')
      // Closing gives up every claim of the closed cache.
      a.close()
      expect(b.claim('k4', 60_000)).toBe('mine')
    } finally {
      b.close()
    }
  })

  it(
    'two judge run processes on one fresh cache: every request asked exactly once, both complete',
    async () => {
      // Replies are held until both processes have asked something (told apart by their API keys),
      // so the runs overlap however slowly each starts.
      const counts = new Map<string, number>()
      const seenKeys = new Set<string>()
      const held: (() => void)[] = []
      const reply = (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            model: 'scripted',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: '{"score": 4}' },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 2 },
          }),
        )
      }
      const server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => {
          const hash = createHash('sha256').update(Buffer.concat(chunks)).digest('hex')
          counts.set(hash, (counts.get(hash) ?? 0) + 1)
          seenKeys.add(String(req.headers['authorization']))
          const go = () => setTimeout(() => reply(res), 50)
          if (seenKeys.size >= 2) {
            for (const h of held.splice(0)) h()
            go()
          } else held.push(go)
        })
      })
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      closers.push(
        () =>
          new Promise<void>((r) => {
            server.closeAllConnections()
            server.close(() => r())
          }),
      )
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
      const dir = tempDir()
      const cfg = writeTestConfig(dir, { retry: { ...TEST_RETRY, request_timeout_ms: 120_000 } })
      const cache = join(dir, 'shared.sqlite')
      const args = (out: string) => [
        'judge',
        'run',
        ITEMS,
        '--config',
        cfg,
        '--cache',
        cache,
        '--out',
        join(dir, out),
        '--base-url',
        url,
        '--concurrency',
        '2',
        '--quiet',
      ]
      const [a, b] = await Promise.all([
        cli(args('a.jsonl'), { TRECSCORE_JUDGE_API_KEY: 'process-a' }),
        cli(args('b.jsonl'), { TRECSCORE_JUDGE_API_KEY: 'process-b' }),
      ])
      expect([a.code, a.stderr, b.code, b.stderr]).toEqual([0, '', 0, ''])
      expect(seenKeys).toEqual(new Set(['Bearer process-a', 'Bearer process-b']))
      expect(counts.size).toBe(25)
      expect([...counts.values()].filter((n) => n !== 1)).toEqual([])
      const hash = loadJudgeConfig(cfg).hash
      for (const out of ['a.jsonl', 'b.jsonl']) {
        const lines = readFileSync(join(dir, out), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>)
        expect(lines).toHaveLength(25)
        expect(
          lines.every((l) => l['status'] === 'ok' && l['score'] === 4 && l['config_hash'] === hash),
        ).toBe(true)
      }
      // The cache holds 25 judgments and no claim is left behind.
      const raw = new Database(cache, { readonly: true })
      expect(raw.prepare('SELECT COUNT(*) AS n FROM judgments').get()).toEqual({ n: 25 })
      expect(raw.prepare('SELECT COUNT(*) AS n FROM claims').get()).toEqual({ n: 0 })
      raw.close()
    },
    SLOW,
  )
})
