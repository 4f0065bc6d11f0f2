/**
 * The client against a scripted OpenAI-compatible server on 127.0.0.1: valid replies, malformed
 * replies, out-of-range scores, 429 with Retry-After, 500s, slow replies (timeouts), a dropped
 * connection, non-retryable errors and a server that rejects response_format.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  backoffMs,
  callJudge,
  type JudgeClientOptions,
  type RetryPolicy,
  rateLimiter,
  retryAfterMs,
} from '../../../src/entries/judge.js'
import { recordingSleep } from './helpers.js'
import { type Action, type ScriptedServer, type ScriptRequest, startServer } from './server.js'

const retry: RetryPolicy = {
  malformedReasks: 2,
  transportRetries: 3,
  backoffBaseMs: 10,
  backoffCapMs: 40,
  jitter: 'none',
  honourRetryAfter: true,
  requestTimeoutMs: 10000,
  maxRetryAfterMs: 120_000,
  maxReplyBytes: 8 << 20,
}
const BODY = {
  model: 'm',
  messages: [
    { role: 'system', content: 's' },
    { role: 'user', content: 'u' },
  ],
  temperature: 0,
}
let server: ScriptedServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function call(
  script: (r: ScriptRequest) => Action,
  body: Record<string, unknown> = BODY,
  extra: Partial<JudgeClientOptions> = {},
) {
  server = await startServer(script)
  const rec = recordingSleep()
  const r = await callJudge(body, {
    baseUrl: server.url,
    apiKey: 'k',
    retry,
    sleep: rec.sleep,
    ...extra,
  })
  return { r, waits: rec.waits, server }
}

describe('judge client', () => {
  it('a valid reply: one request, score, tokens, fingerprint', async () => {
    const { r, server } = await call(() => ({ kind: 'score', score: 4, rationale: 'good' }))
    expect(r).toMatchObject({
      status: 'ok',
      score: 4,
      rationale: 'good',
      attempts: 1,
      usage: { promptTokens: 100, completionTokens: 10 },
      systemFingerprint: 'fp_test',
      model: 'scripted-judge-2026-01-01',
    })
    expect(server.total()).toBe(1)
    expect(server.log[0]!.body).toEqual(BODY)
  })

  it('malformed twice, then valid: re-asked with the identical request', async () => {
    const { r, server } = await call((q) =>
      q.seen < 2
        ? { kind: 'content', content: q.seen === 0 ? 'Score: 4' : '{"score": 4' }
        : { kind: 'score', score: 2 },
    )
    expect(r).toMatchObject({
      status: 'ok',
      score: 2,
      attempts: 3,
      malformedReplies: [
        'not exactly one JSON object (text around it)',
        'not exactly one JSON object (text around it)',
      ],
    })
    expect([...server.counts.values()]).toEqual([3]) // one body, three times
    expect(r.waits).toEqual([])
  })

  it('always malformed or out of range: invalid after 1 + malformed_reasks requests', async () => {
    const a = await call(() => ({ kind: 'score', score: 7 }))
    expect(a.r).toMatchObject({
      status: 'invalid',
      score: null,
      attempts: 3,
      reason: 'score out of range 1..5 (7)',
    })
    await server!.close()
    const b = await call(() => ({ kind: 'content', content: '{"score": 3', finish: 'length' }))
    expect(b.r).toMatchObject({
      status: 'invalid',
      attempts: 3,
      reason: 'truncated (finish_reason "length")',
    })
  })

  it('429 with Retry-After: waits what the header says (longer than the backoff), then succeeds', async () => {
    const { r, waits } = await call((q) =>
      q.seen === 0
        ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } }
        : q.seen === 1
          ? { kind: 'status', status: 429, headers: { 'retry-after-ms': '250' } }
          : { kind: 'score', score: 5 },
    )
    expect(r).toMatchObject({ status: 'ok', score: 5, attempts: 3 })
    expect(r.transportFailures).toHaveLength(2)
    expect(waits).toEqual([1000, 250])
  })

  it('500s: exponential backoff (base·2^k, capped), then missing when exhausted', async () => {
    const { r, waits, server } = await call(() => ({ kind: 'status', status: 500 }))
    expect(r).toMatchObject({ status: 'missing', attempts: 4 })
    expect(r.reason).toMatch(/^HTTP 500/)
    expect(waits).toEqual([10, 20, 40])
    expect(server.total()).toBe(4)
  })

  it('slow replies time out and are retried; a dropped connection is retried', async () => {
    const slow = await call(
      (q) =>
        q.seen === 0
          ? { kind: 'delay', ms: 60000, then: { kind: 'score', score: 1 } }
          : { kind: 'score', score: 3 },
      BODY,
      { retry: { ...retry, requestTimeoutMs: 1500 } },
    )
    expect(slow.r).toMatchObject({
      status: 'ok',
      score: 3,
      attempts: 2,
      transportFailures: ['timeout after 1500 ms'],
    })
    await server!.close()
    const drop = await call((q) =>
      q.seen === 0 ? { kind: 'destroy' } : { kind: 'score', score: 2 },
    )
    expect(drop.r).toMatchObject({ status: 'ok', score: 2, attempts: 2 })
    expect(drop.r.transportFailures[0]).toMatch(/^network error/)
  })

  it('401 is not retried (missing); 400 to a json_schema request is reported as structured_rejected', async () => {
    const a = await call(() => ({ kind: 'status', status: 401, body: '{"error":"bad key"}' }))
    expect(a.r).toMatchObject({
      status: 'missing',
      attempts: 1,
      reason: 'HTTP 401: {"error":"bad key"} (not retried)',
    })
    await server!.close()
    const b = await call(
      () => ({ kind: 'status', status: 400, body: 'response_format not supported' }),
      { ...BODY, response_format: { type: 'json_schema' } },
    )
    expect(b.r).toMatchObject({ status: 'structured_rejected', attempts: 1 })
    await server!.close()
    // A 400 for another reason (context length) is not a rejection of structured output.
    const c = await call(
      () => ({ kind: 'status', status: 400, body: '{"error":"maximum context length exceeded"}' }),
      { ...BODY, response_format: { type: 'json_schema' } },
    )
    expect(c.r).toMatchObject({
      status: 'missing',
      attempts: 1,
      reason: 'HTTP 400: {"error":"maximum context length exceeded"} (not retried)',
    })
  })

  it('Retry-After forms, backoff and the RPM limiter', () => {
    const h = (o: Record<string, string>) => ({ get: (k: string) => o[k] ?? null })
    expect(retryAfterMs(h({ 'retry-after': '2' }))).toBe(2000)
    expect(retryAfterMs(h({ 'retry-after-ms': '15', 'retry-after': '2' }))).toBe(15)
    expect(
      retryAfterMs(
        h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }),
        Date.parse('Thu, 01 Jan 2026 00:00:00 GMT'),
      ),
    ).toBe(10000)
    expect(retryAfterMs(h({}))).toBeNull()
    const full: RetryPolicy = { ...retry, jitter: 'full' }
    expect(backoffMs(full, 3, () => 0.5)).toBe(20) // min(40, 10·8) · 0.5
    expect(backoffMs(retry, 0, () => 0.5)).toBe(10)
  })

  it('the RPM limiter spaces request starts 60000/rpm ms apart', async () => {
    const waits: number[] = []
    let t = 0
    const lim = rateLimiter(
      120,
      async (ms) => void waits.push(ms),
      () => t,
    )
    await lim.take()
    await lim.take()
    await lim.take()
    t = 2000
    await lim.take()
    expect(waits).toEqual([500, 1000])
  })
})
