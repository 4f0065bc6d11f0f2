/**
 * The OpenAI Batch API for large judging jobs (optional; the synchronous `judge run` does not
 * need it). Requests are the same bodies `judge run` sends, so their answers land in the same
 * cache under the same keys:
 *
 * 1. `submit`: every request neither in the cache nor in a batch still waiting becomes one line
 *    `{"custom_id": <cache key>, "method": "POST", "url": "/v1/chat/completions", "body": …}`;
 *    the file is uploaded (`POST {base}/files`, purpose `batch`) and a batch created
 *    (`POST {base}/batches`, window 24h, metadata `judge_config_id`). The batch id and its
 *    requests are recorded in the cache.
 * 2. `collect`: `GET {base}/batches/{id}`; once `completed`, the output file
 *    (`GET {base}/files/{output_file_id}/content`) is read: every reply the strict parser accepts
 *    is committed to the cache as an `ok` judgment (1 attempt). Malformed replies, HTTP errors and
 *    requests without a reply are NOT cached and are counted: the next `judge run` asks them
 *    synchronously under the full retry policy, and reports those attempts.
 * 3. `judge run` as usual: the collected judgments are cache hits.
 */

import { jsonlLines } from '../../io/jsonl.js'
import { type JudgeCache, sha256Hex } from './cache.js'
import { readBodyCapped } from './client.js'
import { JUDGE_DIMENSIONS, type JudgeConfig, type JudgeDimension } from './config.js'
import { JudgeInputError } from './errors.js'
import { MAX_JSONL_BYTES } from './files.js'
import { buildRequest, type JudgeItem, lacksFor } from './items.js'
import { parseCompletion, usageOf } from './parse.js'

/** Where the Batch API is. */
export interface BatchEndpoint {
  readonly baseUrl: string
  readonly apiKey: string | null
  readonly timeoutMs: number
}

async function call(
  ep: BatchEndpoint,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { ...((init.headers as Record<string, string>) ?? {}) }
  if (ep.apiKey) headers['authorization'] = `Bearer ${ep.apiKey}`
  try {
    const res = await fetch(`${ep.baseUrl.replace(/\/+$/, '')}${path}`, {
      ...init,
      headers,
      signal: AbortSignal.timeout(ep.timeoutMs),
    })
    const text = await readBodyCapped(res, MAX_JSONL_BYTES)
    if (text === null)
      throw new JudgeInputError([{ code: 'batch_reply_too_large', path, limit: MAX_JSONL_BYTES }])
    return { status: res.status, text }
  } catch (e) {
    if (e instanceof JudgeInputError) throw e
    throw new JudgeInputError([{ code: 'batch_unreachable', path, reason: (e as Error).message }])
  }
}

function json(r: { status: number; text: string }, what: string): Record<string, unknown> {
  if (r.status < 200 || r.status >= 300)
    throw new JudgeInputError([
      { code: 'batch_http', what, status: r.status, body: r.text.slice(0, 300) },
    ])
  try {
    return JSON.parse(r.text) as Record<string, unknown>
  } catch {
    throw new JudgeInputError([{ code: 'batch_not_json', what, body: r.text.slice(0, 120) }])
  }
}

/** What `submit` did. */
export interface BatchSubmitResult {
  readonly batchId: string | null
  readonly fileId: string | null
  /** Requests in the batch. */
  readonly requests: number
  /** Judgments already in the cache (not sent). */
  readonly cached: number
  /** Judgments needing no request (unanswered turns, nothing to judge against). */
  readonly notAsked: number
  /** Requests already in a submitted batch not yet collected (not sent again). */
  readonly waiting: number
}

/** Build the batch lines of every request not yet cached, upload them and create the batch. */
export async function submitBatch(
  ep: BatchEndpoint,
  config: JudgeConfig,
  configHash: string,
  items: readonly JudgeItem[],
  cache: JudgeCache,
  dimensions: readonly JudgeDimension[] = JUDGE_DIMENSIONS,
): Promise<BatchSubmitResult> {
  const structured =
    config.structuredOutput === 'json_schema' &&
    cache.getMeta(`structured_rejected:${ep.baseUrl}`) === null
  const lines: string[] = []
  const pending: { key: string; dimension: string; turnId: string; payload: string }[] = []
  const seen = new Set<string>()
  let cached = 0
  let notAsked = 0
  let waiting = 0
  for (const item of items) {
    for (const dimension of dimensions) {
      if (
        item.answer === null ||
        lacksFor(item, config.dimensions.find((d) => d.name === dimension)!)
      ) {
        notAsked++
        continue
      }
      const body = buildRequest(config, dimension, item, structured)
      const payload = JSON.stringify(body)
      const key = sha256Hex(payload)
      if (cache.get(key)) {
        cached++
        continue
      }
      const inBatch = cache.getBatchRequest(key)
      if (
        inBatch &&
        JSON.parse(cache.getMeta(`batch:${inBatch.batchId}`) ?? '{}').state === 'submitted'
      ) {
        waiting++
        continue
      }
      if (seen.has(key)) continue
      seen.add(key)
      lines.push(
        JSON.stringify({ custom_id: key, method: 'POST', url: '/v1/chat/completions', body }),
      )
      pending.push({ key, dimension, turnId: item.turnId, payload })
    }
  }
  if (lines.length === 0)
    return { batchId: null, fileId: null, requests: 0, cached, notAsked, waiting }
  const form = new FormData()
  form.append('purpose', 'batch')
  form.append(
    'file',
    new Blob([`${lines.join('\n')}\n`], { type: 'application/jsonl' }),
    `trecscore-judge-${configHash.slice(0, 12)}.jsonl`,
  )
  const file = json(
    await call(ep, '/files', { method: 'POST', body: form }),
    'upload the requests file',
  )
  const fileId = String(file['id'] ?? '')
  if (!fileId) throw new JudgeInputError([{ code: 'batch_no_id', of: 'file upload' }])
  const batch = json(
    await call(ep, '/batches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        input_file_id: fileId,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
        metadata: { judge_config_id: configHash },
      }),
    }),
    'create the batch',
  )
  const batchId = String(batch['id'] ?? '')
  if (!batchId) throw new JudgeInputError([{ code: 'batch_no_id', of: 'batch creation' }])
  cache.transaction(() => {
    for (const p of pending) cache.putBatchRequest(batchId, p.key, p.dimension, p.turnId, p.payload)
    cache.setMeta(
      `batch:${batchId}`,
      JSON.stringify({
        state: 'submitted',
        requests: lines.length,
        fileId,
        submittedAt: new Date().toISOString(),
      }),
    )
  })
  return { batchId, fileId, requests: lines.length, cached, notAsked, waiting }
}

/** What `collect` found for one batch. */
export interface BatchCollectResult {
  readonly batchId: string
  /** The batch's `status` (`validating`, `in_progress`, `completed`, `failed`, `expired`, …). */
  readonly status: string
  readonly requests: number
  /** Replies committed to the cache as `ok`. */
  readonly collected: number
  /** Replies the strict parser rejected, by reason (not cached: `judge run` re-asks them). */
  readonly malformed: Readonly<Record<string, number>>
  /** Requests that got an HTTP error or no reply (not cached). */
  readonly failed: number
  /** Output lines that were not JSON, or named no request of this cache (counted, not used). */
  readonly unreadableLines: number
  readonly unknownRequests: number
  /** Replies with an HTTP status other than 200 (counted among `failed`). */
  readonly errorReplies: number
}

/** Poll every submitted batch of the cache; collect the completed ones. */
export async function collectBatches(
  ep: BatchEndpoint,
  cache: JudgeCache,
): Promise<BatchCollectResult[]> {
  const out: BatchCollectResult[] = []
  for (const [metaKey, value] of cache.metaWithPrefix('batch:')) {
    const info = JSON.parse(value) as { state: string; requests: number }
    if (info.state !== 'submitted') continue
    const batchId = metaKey.slice('batch:'.length)
    const b = json(
      await call(ep, `/batches/${encodeURIComponent(batchId)}`),
      `read batch ${batchId}`,
    )
    const status = String(b['status'] ?? 'unknown')
    if (status !== 'completed') {
      if (status === 'failed' || status === 'expired' || status === 'cancelled')
        cache.setMeta(metaKey, JSON.stringify({ ...info, state: status }))
      out.push({
        batchId,
        status,
        requests: info.requests,
        collected: 0,
        malformed: {},
        failed:
          status === 'failed' || status === 'expired' || status === 'cancelled' ? info.requests : 0,
        unreadableLines: 0,
        unknownRequests: 0,
        errorReplies: 0,
      })
      continue
    }
    const outputId = b['output_file_id']
    const text =
      typeof outputId === 'string' && outputId
        ? (await call(ep, `/files/${encodeURIComponent(outputId)}/content`)).text
        : ''
    let collected = 0
    let unreadableLines = 0
    let unknownRequests = 0
    let errorReplies = 0
    const malformed: Record<string, number> = {}
    cache.transaction(() => {
      for (const l of jsonlLines(new TextEncoder().encode(text))) {
        if (l.kind === 'blank') continue
        if (l.kind !== 'value') {
          unreadableLines++
          continue
        }
        const rec = l.value as Record<string, unknown>
        if (typeof rec !== 'object' || rec === null) {
          unreadableLines++
          continue
        }
        const key = String(rec['custom_id'] ?? '')
        const req = cache.getBatchRequest(key)
        if (!req) {
          unknownRequests++
          continue
        }
        const response = rec['response'] as { status_code?: number; body?: unknown } | null
        if (!response || response.status_code !== 200) {
          errorReplies++
          continue
        }
        const body = response.body as Record<string, unknown>
        const parsed = parseCompletion(body)
        if (parsed.kind !== 'ok') {
          malformed[parsed.reason] = (malformed[parsed.reason] ?? 0) + 1
          continue
        }
        const u = usageOf(body)
        cache.put({
          key,
          dimension: req.dimension,
          turnId: req.turnId,
          status: 'ok',
          score: parsed.score,
          rationale: parsed.rationale,
          reason: null,
          attempts: 1,
          promptTokens: u.promptTokens,
          completionTokens: u.completionTokens,
          content: parsed.content,
          systemFingerprint:
            typeof body['system_fingerprint'] === 'string'
              ? (body['system_fingerprint'] as string)
              : null,
          model: typeof body['model'] === 'string' ? (body['model'] as string) : null,
          request: req.request,
          createdAt: new Date().toISOString(),
        })
        collected++
      }
      cache.setMeta(
        metaKey,
        JSON.stringify({
          ...info,
          state: 'collected',
          collected,
          collectedAt: new Date().toISOString(),
        }),
      )
    })
    const nMalformed = Object.values(malformed).reduce((a, b) => a + b, 0)
    out.push({
      batchId,
      status,
      requests: info.requests,
      collected,
      malformed,
      failed: info.requests - collected - nMalformed,
      unreadableLines,
      unknownRequests,
      errorReplies,
    })
  }
  return out
}
