/**
 * The optional Batch API path against a local server that emulates /files, /batches and
 * /chat/completions: submit, poll until completed, collect (valid replies cached; a malformed
 * reply and a failed request left out and counted), then `judge run` asks only those two.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  JudgeCache,
  judgeBatchCollectCommand,
  judgeBatchSubmitCommand,
  loadJudgeConfig,
  readJudgeItems,
  runJudge,
} from '../../../src/entries/judge.js'
import { ROOT, tempDir, writeTestConfig } from './helpers.js'

const ITEMS = join(ROOT, 'examples', 'judge', 'items.jsonl')
let server: Server | null = null
afterEach(async () => {
  if (server) {
    server.closeAllConnections()
    await new Promise((r) => server!.close(r))
  }
  server = null
})

function completion(content: string) {
  return {
    id: 'c',
    object: 'chat.completion',
    model: 'batch-judge',
    system_fingerprint: 'fp_b',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 50, completion_tokens: 5 },
  }
}

async function batchServer() {
  const state = {
    inputLines: [] as Record<string, any>[],
    polls: 0,
    chatCalls: 0,
    uploads: 0,
    batches: 0,
    purpose: '',
  }
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const raw = Buffer.concat(chunks)
      const send = (o: unknown, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(typeof o === 'string' ? o : JSON.stringify(o))
      }
      if (req.method === 'POST' && req.url === '/v1/files') {
        const form = await new Response(raw, {
          headers: { 'content-type': String(req.headers['content-type']) },
        }).formData()
        state.purpose = String(form.get('purpose'))
        const text = await (form.get('file') as Blob).text()
        state.inputLines = text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, any>)
        state.uploads++
        return send({ id: 'file-in', object: 'file', purpose: 'batch' })
      }
      if (req.method === 'POST' && req.url === '/v1/batches') {
        state.batches++
        const b = JSON.parse(raw.toString()) as Record<string, unknown>
        return send({
          id: 'batch_1',
          status: 'validating',
          input_file_id: b['input_file_id'],
          metadata: b['metadata'],
        })
      }
      if (req.method === 'GET' && req.url === '/v1/batches/batch_1') {
        state.polls++
        return send(
          state.polls < 2
            ? { id: 'batch_1', status: 'in_progress' }
            : { id: 'batch_1', status: 'completed', output_file_id: 'file-out' },
        )
      }
      if (req.method === 'GET' && req.url === '/v1/files/file-out/content') {
        // Line 0 malformed, line 1 a 500, the rest score 4; answered out of order, as the API may.
        const out = state.inputLines.map((l, i) =>
          JSON.stringify({
            id: `r${i}`,
            custom_id: l['custom_id'],
            response:
              i === 1
                ? { status_code: 500, body: { error: 'x' } }
                : {
                    status_code: 200,
                    body: completion(i === 0 ? 'Score: 4' : '{"rationale": "b", "score": 4}'),
                  },
            error: null,
          }),
        )
        // Plus a line that is not JSON and one naming no request: counted, not used.
        out.push(
          'not json',
          JSON.stringify({
            id: 'rx',
            custom_id: 'no-such-request',
            response: { status_code: 200, body: completion('{"rationale": "x", "score": 1}') },
          }),
        )
        return send(out.reverse().join('\n') + '\n')
      }
      if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        state.chatCalls++
        return send(completion('{"rationale": "sync", "score": 2}'))
      }
      send({ error: 'not found' }, 404)
    })
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, state }
}

describe('judge batch (OpenAI Batch API)', () => {
  it('submit → collect (pending, then completed) → run asks only the malformed and failed requests', async () => {
    const { url, state } = await batchServer()
    const dir = tempDir()
    const config = writeTestConfig(dir)
    const cache = join(dir, 'c.sqlite')
    const common = { config, cache, baseUrl: url, env: {} }
    const sub = await judgeBatchSubmitCommand({ ...common, items: ITEMS })
    expect(sub.result).toMatchObject({
      batchId: 'batch_1',
      fileId: 'file-in',
      requests: 25,
      cached: 0,
      notAsked: 0,
      waiting: 0,
    })
    expect(state.purpose).toBe('batch')
    expect(state.inputLines).toHaveLength(25)
    expect(state.inputLines[0]).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'gpt-4o-2024-08-06', temperature: 0 },
    })
    // Nothing is sent twice while the batch waits.
    const again = await judgeBatchSubmitCommand({ ...common, items: ITEMS })
    expect(again.result).toMatchObject({ batchId: null, requests: 0, waiting: 25 })
    expect(state.uploads).toBe(1)

    const first = await judgeBatchCollectCommand(common)
    expect(first.results).toEqual([
      {
        batchId: 'batch_1',
        status: 'in_progress',
        requests: 25,
        collected: 0,
        malformed: {},
        failed: 0,
        unreadableLines: 0,
        unknownRequests: 0,
        errorReplies: 0,
      },
    ])
    const second = await judgeBatchCollectCommand(common)
    expect(second.results).toEqual([
      {
        batchId: 'batch_1',
        status: 'completed',
        requests: 25,
        collected: 23,
        malformed: { 'not exactly one JSON object (text around it)': 1 },
        failed: 1,
        unreadableLines: 1,
        unknownRequests: 1,
        errorReplies: 1,
      },
    ])
    expect(second.report).toContain('23 judgment(s) cached')
    expect((await judgeBatchCollectCommand(common)).results).toEqual([])

    const loaded = loadJudgeConfig(config)
    const c = JudgeCache.open(cache, loaded.hash)
    const r = await runJudge({
      config: loaded.config,
      configHash: loaded.hash,
      items: await readJudgeItems(ITEMS),
      cache: c,
      client: { baseUrl: url, apiKey: null },
    })
    c.close()
    expect(state.chatCalls).toBe(2)
    expect(r.stats.dimensions.reduce((s, d) => s + d.cacheHits, 0)).toBe(23)
    const byKey = (i: number) => state.inputLines[i]!['custom_id'] as string
    expect(byKey(0)).not.toBe(byKey(1))
    expect(r.judgments.filter((j) => j.score === 2)).toHaveLength(2)
    expect(r.judgments.filter((j) => j.score === 4)).toHaveLength(23)
  })
})
