/**
 * HTTP client for any OpenAI-compatible Chat Completions endpoint (OpenAI, vLLM, llama.cpp
 * `llama-server`, Ollama), on Node's built-in `fetch`: `POST {baseUrl}/chat/completions`.
 *
 * One call = one judgment, with every attempt counted:
 * - **Transport failures** (network error, dropped connection, timeout, HTTP 408, 409, 429, 5xx)
 *   are retried up to `retry.transportRetries` times. Before retry k (0-based) it waits
 *   `d = min(cap, base·2^k)`, uniformly jittered in [0, d] with `jitter: "full"`; when the
 *   response says `retry-after-ms` or `Retry-After` (seconds or an HTTP date) and that is longer,
 *   it waits that instead, but never longer than `retry.maxRetryAfterMs` (a Retry-After of an
 *   hour waits the cap), and no wait exceeds the timer range ({@link MAX_TIMER_MS}). Exhausted →
 *   `missing`, with the last error.
 * - **Unreachable endpoint** (connection refused, host not found): only {@link UNREACHABLE_RETRIES}
 *   quick retries (waits of at most 1 s), then `missing` with `unreachable: true`, so a run
 *   against a server that is down gives up in seconds, not minutes.
 * - **Reply size:** at most `retry.maxReplyBytes` bytes of body are read, counted after
 *   decompression (so a gzip bomb stops there too); a longer reply is `missing`, not retried.
 * - **Malformed replies** (see `parse.ts`) are re-asked with the identical request up to
 *   `retry.malformedReasks` times; then `invalid`, with the last reason.
 * - **Other HTTP errors** (400, 401, 403, 404, …) are not retried: `missing` with the status and
 *   the start of the body. A 400/422 to a request carrying `response_format` whose body names
 *   it (`response_format`, `json_schema`, `structured`, `grammar`) is reported as
 *   `structured_rejected`, so the caller can fall back to the strict parser.
 */
import { MAX_TIMER_MS, type RetryPolicy } from './config.js'
import type { RequestBody } from './items.js'
import { parseCompletion, type Usage, usageOf } from './parse.js'

/** Where and how to call. */
export interface JudgeClientOptions {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:8080/v1`. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer …` when given. */
  readonly apiKey: string | null
  readonly retry: RetryPolicy
  /** Waits (tests pass a recorder). @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>
  /** Uniform [0, 1) for jitter. @default Math.random */
  readonly random?: () => number
  /** Awaited before every HTTP request (the requests-per-minute limiter). */
  readonly beforeRequest?: () => Promise<void>
}

/** The outcome of one judgment call. */
export interface JudgeCallResult {
  readonly status: 'ok' | 'invalid' | 'missing' | 'structured_rejected'
  readonly score: number | null
  readonly rationale: string | null
  /** Why invalid or missing (`null` when ok). */
  readonly reason: string | null
  /** HTTP requests made (every try, transport and malformed). */
  readonly attempts: number
  /** Transport failures seen (each retried or final), with their reasons. */
  readonly transportFailures: readonly string[]
  /** Malformed replies seen, with their reasons. */
  readonly malformedReplies: readonly string[]
  /** Sum of `usage` over every response that had one. */
  readonly usage: Usage
  /** Raw content of the last reply (for the audit trail). */
  readonly content: string | null
  readonly systemFingerprint: string | null
  /** `model` as the server resolved it. */
  readonly model: string | null
  /** Waits actually requested between attempts, ms. */
  readonly waits: readonly number[]
  /** True when the last failure was a refused connection or an unknown host (the endpoint is down or wrong). */
  readonly unreachable: boolean
}

/** Retries after a refused connection or unknown host before the judgment is `missing`. */
export const UNREACHABLE_RETRIES = 2

/** Network error codes that mean nothing listens there (or the host does not exist). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND'])

/** The error code of a failed `fetch` (its `cause`, or the first of an AggregateError's errors). */
function errorCode(e: unknown): string | null {
  const cause = (e as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | null)?.cause
  const code = cause?.code ?? cause?.errors?.[0]?.code
  return typeof code === 'string' ? code : null
}

/** A body read within a byte limit: its text, or `null` when it was longer (reading stopped there). */
export async function readBodyCapped(res: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length'))
  if (
    res.headers.get('content-encoding') === null &&
    Number.isFinite(declared) &&
    declared > maxBytes
  ) {
    await res.body?.cancel().catch(() => {})
    return null
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** A wait clamped to what a Node timer can do (longer ones would fire after 1 ms). */
export function clampWait(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_TIMER_MS)
}

const TRANSPORT_STATUS = new Set([408, 409, 429])

/** A 400/422 body that blames structured output (not, say, the context length). */
const STRUCTURED_WORDS = /response_format|json_schema|json schema|structured|grammar/i

/** Milliseconds a response asks to wait (`retry-after-ms`, then `Retry-After`), or `null`. */
export function retryAfterMs(
  headers: { get(name: string): string | null },
  now: number = Date.now(),
): number | null {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && /^\s*[0-9]+(\.[0-9]+)?\s*$/.test(ms)) return Number(ms)
  const ra = headers.get('retry-after')
  if (ra === null) return null
  if (/^\s*[0-9]+(\.[0-9]+)?\s*$/.test(ra)) return Number(ra) * 1000
  const t = Date.parse(ra)
  return Number.isNaN(t) ? null : Math.max(0, t - now)
}

/** The backoff before transport retry `k` (0-based), before any Retry-After. */
export function backoffMs(retry: RetryPolicy, k: number, random: () => number): number {
  const d = Math.min(retry.backoffCapMs, retry.backoffBaseMs * 2 ** k)
  return retry.jitter === 'full' ? random() * d : d
}

function describeError(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError')
    return `timeout after ${timeoutMs} ms`
  const cause = err?.cause?.code ?? err?.cause?.message
  return `network error: ${err?.message ?? String(e)}${cause ? ` (${cause})` : ''}`
}

/** Make one judgment call with the retry policy. Never throws for server or network trouble. */
export async function callJudge(
  body: RequestBody,
  options: JudgeClientOptions,
): Promise<JudgeCallResult> {
  const { retry } = options
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, clampWait(ms))))
  const random = options.random ?? Math.random
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`
  const payload = JSON.stringify(body)
  const transportFailures: string[] = []
  const malformed: string[] = []
  const waits: number[] = []
  let attempts = 0
  let prompt = 0
  let completion = 0
  let content: string | null = null
  let fingerprint: string | null = null
  let model: string | null = null
  let unreachable = false
  let unreachableTries = 0
  const result = (
    status: JudgeCallResult['status'],
    score: number | null,
    rationale: string | null,
    reason: string | null,
  ): JudgeCallResult => ({
    status,
    score,
    rationale,
    reason,
    attempts,
    transportFailures,
    malformedReplies: malformed,
    usage: { promptTokens: prompt, completionTokens: completion },
    content,
    systemFingerprint: fingerprint,
    model,
    waits,
    unreachable,
  })
  for (;;) {
    if (options.beforeRequest) await options.beforeRequest()
    attempts++
    let failure: string | null = null
    let asked: number | null = null
    let status = 0
    let text = ''
    unreachable = false
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body: payload,
        signal: AbortSignal.timeout(retry.requestTimeoutMs),
      })
      status = res.status
      const body = await readBodyCapped(res, retry.maxReplyBytes)
      if (body === null)
        return result(
          'missing',
          null,
          null,
          `HTTP ${status}: reply larger than ${retry.maxReplyBytes} bytes (max_reply_bytes; not retried)`,
        )
      text = body
      if (TRANSPORT_STATUS.has(status) || status >= 500) {
        failure = `HTTP ${status}${text ? `: ${text.slice(0, 120)}` : ''}`
        asked = retry.honourRetryAfter ? retryAfterMs(res.headers) : null
      }
    } catch (e) {
      failure = describeError(e, retry.requestTimeoutMs)
      const code = errorCode(e)
      unreachable = code !== null && UNREACHABLE_CODES.has(code)
    }
    if (failure !== null) {
      transportFailures.push(failure)
      if (unreachable && ++unreachableTries > UNREACHABLE_RETRIES)
        return result('missing', null, null, `${failure}; gave up after ${unreachableTries} tries`)
      if (transportFailures.length > retry.transportRetries)
        return result('missing', null, null, failure)
      const k = transportFailures.length - 1
      const backoff = backoffMs(retry, k, random)
      const wait = clampWait(
        unreachable
          ? Math.min(backoff, 1000)
          : Math.max(backoff, Math.min(asked ?? 0, retry.maxRetryAfterMs)),
      )
      waits.push(wait)
      await sleep(wait)
      continue
    }
    if (status < 200 || status >= 300) {
      const reason = `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`
      if (
        (status === 400 || status === 422) &&
        body['response_format'] !== undefined &&
        STRUCTURED_WORDS.test(text)
      )
        return result('structured_rejected', null, null, reason)
      return result('missing', null, null, `${reason} (not retried)`)
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    let reply
    if (json === undefined || json === null || typeof json !== 'object')
      reply = {
        kind: 'malformed' as const,
        reason: 'response body is not JSON',
        content: text.slice(0, 500),
      }
    else {
      const u = usageOf(json)
      prompt += u.promptTokens
      completion += u.completionTokens
      const o = json as Record<string, unknown>
      if (typeof o['system_fingerprint'] === 'string') fingerprint = o['system_fingerprint']
      if (typeof o['model'] === 'string') model = o['model']
      reply = parseCompletion(json)
    }
    content = reply.content
    if (reply.kind === 'ok') return result('ok', reply.score, reply.rationale, null)
    malformed.push(reply.reason)
    if (malformed.length > retry.malformedReasks) return result('invalid', null, null, reply.reason)
  }
}

/**
 * A requests-per-minute limiter: request starts are spaced at least 60000/rpm ms apart
 * (0 = unlimited). `take()` resolves when the caller may send.
 */
export function rateLimiter(
  rpm: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  now: () => number = Date.now,
): { take(): Promise<void> } {
  if (!(rpm > 0)) return { take: async () => {} }
  const gap = 60000 / rpm
  let next = 0
  return {
    async take() {
      const t = now()
      const at = Math.max(t, next)
      next = at + gap
      if (at > t) await sleep(at - t)
    },
  }
}
