/**
 * The judge client's limits against hostile local servers on 127.0.0.1 (node:http): an endless
 * body, a gzip bomb, a Retry-After of an hour and one past the timer range, a refused
 * connection; and the config's timer-range checks.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createGzip, gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import {
  callJudge,
  clampWait,
  MAX_TIMER_MS,
  parseJudgeConfig,
  type RetryPolicy,
} from '../../../src/entries/judge.js'
import { wordIssue } from '../../../src/errors/format-issue.js'
import { configJson, recordingSleep, TEST_RETRY } from './helpers.js'
import { type ScriptedServer, startServer } from './server.js'

const MiB = 1 << 20
const retry: RetryPolicy = {
  malformedReasks: 0,
  transportRetries: 3,
  backoffBaseMs: 10,
  backoffCapMs: 40,
  jitter: 'none',
  honourRetryAfter: true,
  requestTimeoutMs: 20000,
  maxRetryAfterMs: 120_000,
  maxReplyBytes: MiB,
}
const BODY = { model: 'm', messages: [{ role: 'user', content: 'u' }] }

const servers: Server[] = []
let scripted: ScriptedServer | null = null
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise<void>((r) => s.close(() => r()))
  }
  await scripted?.close()
  scripted = null
})

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler)
  servers.push(s)
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`
}

describe('judge client limits', () => {
  it('an endless body is cut at max_reply_bytes: missing, not retried, and the connection is dropped', async () => {
    let sent = 0
    let closed = false
    let requests = 0
    const url = await listen((req, res) => {
      requests++
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      res.on('close', () => (closed = true))
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length
        if (!res.destroyed) res.once('drain', pump)
      }
      pump()
    })
    const rec = recordingSleep()
    const r = await callJudge(BODY, { baseUrl: url, apiKey: null, retry, sleep: rec.sleep })
    expect(r).toMatchObject({
      status: 'missing',
      attempts: 1,
      reason: `HTTP 200: reply larger than ${MiB} bytes (max_reply_bytes; not retried)`,
    })
    expect(requests).toBe(1)
    expect(rec.waits).toEqual([])
    await new Promise((res) => setTimeout(res, 200))
    expect(closed).toBe(true)
    // What the server managed to push before the client hung up: far below an unbounded read.
    expect(sent).toBeLessThan(64 * MiB)
  })

  it('a gzip bomb is cut at max_reply_bytes counted after decompression', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MiB)) // ~64 KiB on the wire, 64 MiB decoded
    expect(bomb.length).toBeLessThan(MiB)
    const url = await listen((req, res) => {
      req.resume()
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      })
      res.end(bomb)
    })
    const r = await callJudge(BODY, {
      baseUrl: url,
      apiKey: null,
      retry,
      sleep: recordingSleep().sleep,
    })
    expect(r).toMatchObject({
      status: 'missing',
      attempts: 1,
      reason: `HTTP 200: reply larger than ${MiB} bytes (max_reply_bytes; not retried)`,
    })
  })

  it('an endless gzip stream stops at the cap too', async () => {
    const url = await listen((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      const gz = createGzip()
      gz.pipe(res)
      const zeros = Buffer.alloc(MiB)
      const pump = (): void => {
        while (!res.destroyed && gz.write(zeros));
        if (!res.destroyed) gz.once('drain', pump)
      }
      res.on('close', () => gz.destroy())
      pump()
    })
    const r = await callJudge(BODY, {
      baseUrl: url,
      apiKey: null,
      retry,
      sleep: recordingSleep().sleep,
    })
    expect(r.status).toBe('missing')
    expect(r.reason).toContain('reply larger than')
  })

  it('a reply under the cap is read as usual', async () => {
    scripted = await startServer(() => ({ kind: 'score', score: 4 }))
    const r = await callJudge(BODY, {
      baseUrl: scripted.url,
      apiKey: null,
      retry: { ...retry, maxReplyBytes: 1024 },
      sleep: recordingSleep().sleep,
    })
    expect(r).toMatchObject({ status: 'ok', score: 4 })
  })

  it('Retry-After: 3600 waits max_retry_after_ms, not an hour; values past the timer range are clamped, never 1 ms', async () => {
    scripted = await startServer((q) =>
      q.seen === 0
        ? { kind: 'status', status: 429, headers: { 'retry-after': '3600' } }
        : q.seen === 1
          ? { kind: 'status', status: 503, headers: { 'retry-after-ms': String(2 ** 32) } }
          : { kind: 'score', score: 2 },
    )
    const rec = recordingSleep()
    const r = await callJudge(BODY, {
      baseUrl: scripted.url,
      apiKey: null,
      retry,
      sleep: rec.sleep,
    })
    expect(r).toMatchObject({ status: 'ok', score: 2, attempts: 3 })
    expect(rec.waits).toEqual([120_000, 120_000])
    await scripted.close()
    // With the cap at the timer maximum, a 2^32 ms ask waits 2^31 - 1 ms (setTimeout would fire a 2^32 wait after 1 ms).
    scripted = await startServer((q) =>
      q.seen === 0
        ? { kind: 'status', status: 429, headers: { 'retry-after-ms': String(2 ** 32) } }
        : { kind: 'score', score: 2 },
    )
    const rec2 = recordingSleep()
    await callJudge(BODY, {
      baseUrl: scripted.url,
      apiKey: null,
      retry: { ...retry, maxRetryAfterMs: MAX_TIMER_MS },
      sleep: rec2.sleep,
    })
    expect(rec2.waits).toEqual([MAX_TIMER_MS])
    expect(MAX_TIMER_MS).toBe(2147483647)
    expect(clampWait(2 ** 31)).toBe(2147483647)
    expect(clampWait(2 ** 40)).toBe(2147483647)
    expect(clampWait(-5)).toBe(0)
    expect(clampWait(250)).toBe(250)
  })

  it('a refused connection: a few quick tries (waits of at most 1 s), then missing and marked unreachable', async () => {
    const url = await listen(() => {})
    const port = new URL(url).port
    const s = servers.pop()!
    await new Promise<void>((r) => s.close(() => r()))
    const rec = recordingSleep()
    const r = await callJudge(BODY, {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: null,
      retry: { ...retry, transportRetries: 6, backoffBaseMs: 1000, backoffCapMs: 60000 },
      sleep: rec.sleep,
    })
    expect(r.status).toBe('missing')
    expect(r.unreachable).toBe(true)
    expect(r.attempts).toBe(3)
    expect(r.reason).toMatch(/ECONNREFUSED.*; gave up after 3 tries$/)
    expect(rec.waits).toEqual([1000, 1000])
  })

  it('the config refuses timer values past 2^31 - 1 ms and reply caps out of range; the new fields default without changing the shipped hash', () => {
    const bad = parseJudgeConfig(
      configJson({
        retry: {
          ...TEST_RETRY,
          request_timeout_ms: 2 ** 31,
          backoff_cap_ms: 2 ** 31,
          max_retry_after_ms: 1e12,
          max_reply_bytes: 10,
        },
      }),
    )
    expect(bad.ok).toBe(false)
    if (bad.ok) return
    expect(bad.problems.map((p) => wordIssue('config', p))).toEqual([
      '$.retry.backoff_cap_ms: expected a number in [0, 2147483647], found 2147483648',
      '$.retry.request_timeout_ms: expected a number in [1, 2147483647], found 2147483648',
      '$.retry.max_retry_after_ms: expected a number in [0, 2147483647], found 1000000000000',
      '$.retry.max_reply_bytes: expected an integer in [1024, 1073741824], found 10',
    ])
    const ok = parseJudgeConfig(configJson())
    expect(ok.ok && ok.config.retry).toMatchObject({
      maxRetryAfterMs: 120_000,
      maxReplyBytes: 8 * MiB,
    })
  })
})
