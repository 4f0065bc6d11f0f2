/**
 * Runs over the shipped example items against the scripted server: per-dimension counts,
 * invalid vs missing, cache hits (a second run sends nothing finished again), the refusal to mix
 * configs, and the fallback when the server rejects response_format.
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  aggregateJudgments,
  JudgeCache,
  JudgeInputError,
  type JudgmentStore,
  judgmentStoreOf,
  loadJudgeConfig,
  readJudgeItems,
  readJudgments,
  runJudge,
  writeJudgments,
} from '../../../src/entries/judge.js'
import { ROOT, recordingSleep, tempDir, writeTestConfig } from './helpers.js'
import {
  type Action,
  answerOf,
  dimOf,
  type ScriptedServer,
  type ScriptRequest,
  startServer,
} from './server.js'

const ITEMS = join(ROOT, 'examples', 'judge', 'items.jsonl')
let server: ScriptedServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

// c2_turn_2's faithfulness reply is always malformed; c1_turn_3's coherence always gets 500;
// c1_turn_1's correctness gets one 429 first. Everything else scores 4, or 2 for answers with "pH".
function script(q: ScriptRequest): Action {
  const dim = dimOf(q.user)
  const ans = answerOf(q.user)
  if (dim === 'faithfulness' && ans.startsWith('Chains should'))
    return { kind: 'content', content: 'I would say 3.' }
  if (dim === 'coherence' && ans.startsWith('Eggshells')) return { kind: 'status', status: 503 }
  if (dim === 'correctness' && ans.startsWith('Tomato plants want') && q.seen === 0)
    return { kind: 'status', status: 429, headers: { 'retry-after': '0' } }
  return { kind: 'score', score: ans.includes('pH') ? 2 : 4 }
}

async function run(
  dir: string,
  cacheFile: string,
  configFile: string,
  s: (q: ScriptRequest) => Action = script,
) {
  server ??= await startServer(s)
  const loaded = loadJudgeConfig(configFile)
  const cache = JudgeCache.open(cacheFile, loaded.hash)
  try {
    const items = await readJudgeItems(ITEMS)
    return {
      ...(await runJudge({
        config: loaded.config,
        configHash: loaded.hash,
        items,
        cache,
        client: { baseUrl: server.url, apiKey: null, sleep: recordingSleep().sleep },
      })),
      loaded,
      dir,
    }
  } finally {
    cache.close()
  }
}

describe('judge runner', () => {
  it('counts per dimension, records invalid vs missing, and a rerun re-asks only the missing judgment', async () => {
    const dir = tempDir()
    const cfg = writeTestConfig(dir)
    const cacheFile = join(dir, 'cache.sqlite')
    const first = await run(dir, cacheFile, cfg)
    expect(first.judgments).toHaveLength(25)
    const st = Object.fromEntries(first.stats.dimensions.map((d) => [d.dimension, d]))
    expect(st['correctness']).toMatchObject({
      requested: 5,
      cacheHits: 0,
      calls: 6,
      okFirstAttempt: 4,
      okAfterRetry: 1,
      transportFailures: 1,
      malformedReplies: 0,
    })
    expect(st['faithfulness']).toMatchObject({
      requested: 5,
      calls: 4 + 3,
      okFirstAttempt: 4,
      malformedReplies: 3,
      invalid: { 'not exactly one JSON object (text around it)': 1 },
    })
    expect(st['coherence']).toMatchObject({
      requested: 5,
      calls: 4 + 4,
      okFirstAttempt: 4,
      transportFailures: 4,
    })
    expect(Object.keys(st['coherence']!.missing)[0]).toMatch(/^HTTP 503/)
    const bad = first.judgments
      .filter((j) => j.status !== 'ok')
      .map((j) => [j.turnId, j.dimension, j.status, j.attempts, j.score])
    expect(bad).toEqual([
      ['c1_turn_3', 'coherence', 'missing', 4, null],
      ['c2_turn_2', 'faithfulness', 'invalid', 3, null],
    ])
    expect(first.judgments.every((j) => j.configHash === first.loaded.hash)).toBe(true)
    // 31 requests, of which 26 got a completion (usage 100 + 10 each): not the four 503s and the 429.
    expect(first.stats.tokens).toEqual({ promptTokens: 100 * 26, completionTokens: 10 * 26 })
    const calls = server!.total()
    expect(calls).toBe(6 + 5 + 5 + 8 + 7)

    // Aggregates: c1_turn_3 correctness/… 2 (has "pH"), the rest 4; coherence missing and faithfulness invalid excluded.
    const agg = aggregateJudgments(first.judgments, 'exclude')
    expect(agg.all.dimensions[0]!.mean).toBeCloseTo((4 * 0.75 + 0.25) / 5, 15)
    expect(agg.all.dimensions[3]).toMatchObject({ n: 4, missing: 1, excluded: 1 })
    expect(agg.all.dimensions[4]).toMatchObject({ n: 4, invalid: 1, excluded: 1 })

    // Second run: 24 cache hits; only the missing judgment is asked again (4 more requests).
    const second = await run(dir, cacheFile, cfg)
    expect(second.stats.dimensions.reduce((s, d) => s + d.cacheHits, 0)).toBe(24)
    expect(server!.total() - calls).toBe(4)
    expect(second.judgments.map((j) => [j.status, j.score])).toEqual(
      first.judgments.map((j) => [j.status, j.score]),
    )
    expect(second.stats.tokens).toEqual({ promptTokens: 0, completionTokens: 0 })
    expect(second.stats.recordedTokens).toEqual(first.stats.recordedTokens)
  })

  it('a second run over a complete cache makes zero requests', async () => {
    const dir = tempDir()
    const cfg = writeTestConfig(dir)
    const cacheFile = join(dir, 'cache.sqlite')
    const ok = () => ({ kind: 'score', score: 3 }) as const
    await run(dir, cacheFile, cfg, ok)
    expect(server!.total()).toBe(25)
    const again = await run(dir, cacheFile, cfg, ok)
    expect(server!.total()).toBe(25)
    expect(again.stats.dimensions.map((d) => d.cacheHits)).toEqual([5, 5, 5, 5, 5])
    expect(again.stats.dimensions.map((d) => d.calls)).toEqual([0, 0, 0, 0, 0])
  })

  it('refuses to mix configs: cache, judgments file, report inputs', async () => {
    const dir = tempDir()
    const a = loadJudgeConfig(writeTestConfig(dir))
    const cacheFile = join(dir, 'cache.sqlite')
    JudgeCache.open(cacheFile, a.hash).close()
    const other = 'f'.repeat(64)
    expect(() => JudgeCache.open(cacheFile, other)).toThrow(JudgeInputError)
    try {
      JudgeCache.open(cacheFile, other)
    } catch (e) {
      expect((e as JudgeInputError).issues).toEqual([
        { code: 'cache_other_config', file: cacheFile, found: a.hash, expected: other },
      ])
    }
    expect(() => JudgeCache.open(cacheFile, other)).toThrow(
      `${cacheFile}: this judgment cache was made under judge config ${a.hash}, not ${other}`,
    )
    const out = join(dir, 'j.jsonl')
    const j = {
      turnId: 't_turn_1',
      conversationId: 't',
      domain: null,
      turnDepth: 1,
      dimension: 'relevance' as const,
      score: 3,
      status: 'ok' as const,
      rationale: null,
      configHash: a.hash,
      attempts: 1,
      reason: null,
      unanswered: false,
    }
    await writeJudgments(out, [j], a.hash, false)
    await expect(writeJudgments(out, [{ ...j, configHash: other }], other, true)).rejects.toThrow(
      /holds judgments made under judge config/,
    )
    await expect(writeJudgments(out, [j], a.hash, false)).rejects.toThrow(
      `${out}: already exists; refusing to overwrite it (pass --force`,
    )
    await writeJudgments(out, [j], a.hash, true)
    const { appendFileSync } = await import('node:fs')
    appendFileSync(
      out,
      `${JSON.stringify({ turn_id: 'u_turn_1', dimension: 'relevance', score: 2, status: 'ok', config_hash: other, attempts: 1 })}\n`,
    )
    await expect(readJudgments(out)).rejects.toThrow(
      /judgments of 2 different judge configs are mixed/,
    )
  })

  it('falls back to the strict parser when the server rejects response_format, remembers it, and says so', async () => {
    const dir = tempDir()
    const cfg = writeTestConfig(dir)
    const cacheFile = join(dir, 'cache.sqlite')
    const s = (q: ScriptRequest): Action =>
      q.body['response_format']
        ? { kind: 'status', status: 400, body: '{"error":"response_format is not supported"}' }
        : { kind: 'score', score: 5 }
    const first = await run(dir, cacheFile, cfg, s)
    expect(first.stats.structuredOutput).toBe('rejected')
    expect(first.judgments.every((j) => j.status === 'ok' && j.score === 5)).toBe(true)
    const rejected = server!.log.filter((q) => q.body['response_format']).length
    expect(rejected).toBeGreaterThanOrEqual(1)
    expect(rejected).toBeLessThanOrEqual(2) // at most one per worker before the switch
    const calls = server!.total()
    const second = await run(dir, cacheFile, cfg, s)
    expect(server!.total()).toBe(calls)
    expect(second.stats.structuredOutput).toBe('rejected')
  })

  it('an item without passages: faithfulness is missing (nothing to judge against), never asked; other dimensions judged', async () => {
    const dir = tempDir()
    const loaded = loadJudgeConfig(writeTestConfig(dir))
    server = await startServer(() => ({ kind: 'score', score: 5 }))
    const cache = JudgeCache.open(join(dir, 'c.sqlite'), loaded.hash)
    const item = {
      turnId: 'z_turn_1',
      conversationId: 'z',
      domain: null,
      turnDepth: 1,
      history: [],
      question: 'q',
      answer: 'a',
      passages: [],
      reference: null,
    }
    const r = await runJudge({
      config: loaded.config,
      configHash: loaded.hash,
      items: [item],
      cache,
      client: { baseUrl: server.url, apiKey: null },
    })
    cache.close()
    expect(r.judgments.map((j) => [j.dimension, j.status, j.attempts])).toEqual([
      ['correctness', 'ok', 1],
      ['completeness', 'ok', 1],
      ['relevance', 'ok', 1],
      ['coherence', 'ok', 1],
      ['faithfulness', 'missing', 0],
    ])
    expect(r.stats.dimensions[4]!.missing).toEqual({
      'no passages to judge faithfulness against': 1,
    })
    expect(server.total()).toBe(4)
  })

  it('identical requests of one run are asked once, even through a store that yields on every call', async () => {
    const dir = tempDir()
    const loaded = loadJudgeConfig(writeTestConfig(dir))
    server = await startServer(() => ({ kind: 'delay', ms: 20, then: { kind: 'score', score: 3 } }))
    const cache = JudgeCache.open(join(dir, 'c.sqlite'), loaded.hash)
    // Every call of the store takes a few ms (as a database's would), a put 200 ms: other jobs
    // of the run poll (every 5 ms) while a judgment is being committed.
    const file = judgmentStoreOf(cache)
    const slow =
      <A extends unknown[], R>(f: (...a: A) => Promise<R>, ms = 3) =>
      async (...a: A): Promise<R> => {
        await new Promise((r) => setTimeout(r, ms))
        return f(...a)
      }
    const store: JudgmentStore = {
      owner: file.owner,
      get: slow(file.get),
      claim: slow(file.claim),
      release: slow(file.release),
      put: slow(file.put, 200),
      renewClaims: slow(file.renewClaims),
      releaseClaims: slow(file.releaseClaims),
      getMeta: slow(file.getMeta),
      setMeta: slow(file.setMeta),
    }
    const item = {
      turnId: 'z_turn_1',
      conversationId: 'z',
      domain: null,
      turnDepth: 1,
      history: [],
      question: 'q',
      answer: 'a',
      passages: [],
      reference: null,
    }
    const r = await runJudge({
      config: loaded.config,
      configHash: loaded.hash,
      items: [item, item, item, item],
      cache: store,
      concurrency: 8,
      claimPollMs: 5,
      client: { baseUrl: server.url, apiKey: null },
    })
    cache.close()
    // 4 items x 4 dimensions with something to judge, 4 distinct requests.
    expect(server.total()).toBe(4)
    expect(r.judgments.filter((j) => j.status === 'ok')).toHaveLength(16)
    expect(r.stats.dimensions.reduce((n, d) => n + d.calls, 0)).toBe(4)
    expect(r.stats.dimensions.reduce((n, d) => n + d.cacheHits, 0)).toBe(12)
  })

  it('never has more requests in flight than --concurrency', async () => {
    const dir = tempDir()
    let most = 0
    // In flight when a request arrives = requests received − replies written (this one included).
    const answeredTotal = () => [...server!.answered.values()].reduce((a, b) => a + b, 0)
    server = await startServer((q) => {
      most = Math.max(most, q.n - answeredTotal())
      return { kind: 'delay', ms: 30, then: { kind: 'score', score: 3 } }
    })
    const loaded = loadJudgeConfig(writeTestConfig(dir))
    const cache = JudgeCache.open(join(dir, 'c.sqlite'), loaded.hash)
    const r = await runJudge({
      config: loaded.config,
      configHash: loaded.hash,
      items: await readJudgeItems(ITEMS),
      cache,
      concurrency: 3,
      client: { baseUrl: server.url, apiKey: null },
    })
    cache.close()
    expect(r.judgments.every((j) => j.status === 'ok')).toBe(true)
    expect(server.total()).toBe(25)
    expect(most).toBeLessThanOrEqual(3)
    expect(most).toBeGreaterThan(1)
  })

  it('gives up after N judgments in a row are missing: the rest are recorded missing ("not asked") and counted', async () => {
    const dir = tempDir()
    server = await startServer(() => ({ kind: 'status', status: 401, body: 'bad key' }))
    const loaded = loadJudgeConfig(writeTestConfig(dir))
    const cache = JudgeCache.open(join(dir, 'c.sqlite'), loaded.hash)
    const r = await runJudge({
      config: loaded.config,
      configHash: loaded.hash,
      items: await readJudgeItems(ITEMS),
      cache,
      concurrency: 1,
      giveUpAfter: 3,
      client: { baseUrl: server.url, apiKey: null },
    })
    cache.close()
    expect(server.total()).toBe(3)
    expect(r.judgments.every((j) => j.status === 'missing')).toBe(true)
    expect(r.judgments.filter((j) => j.attempts === 0)).toHaveLength(22)
    expect(r.judgments[3]!.reason).toBe(
      'not asked: 3 judgments in a row failed (last: HTTP 401: bad key (not retried))',
    )
    const missing = r.stats.dimensions.reduce(
      (s, d) => s + Object.values(d.missing).reduce((a, b) => a + b, 0),
      0,
    )
    expect(missing).toBe(25)
  })
})
