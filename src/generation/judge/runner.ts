/**
 * A judging run: every item × dimension becomes one request; finished judgments come from the
 * cache or from the server (then committed to the cache at once). Requests go out through a
 * concurrency limit and a requests-per-minute limiter. Results are in item order, then dimension
 * order, whatever the concurrency.
 *
 * Structured output: with `structured_output: "json_schema"` the request carries
 * `response_format`; when the server rejects that (HTTP 400/422), the run falls back to plain
 * requests checked by the strict parser, remembers the fallback for this base URL in the cache,
 * and says so in the report.
 *
 * Several runs may share one cache at once (two processes, or a run and a `batch collect`):
 * each request is claimed in the cache before it is asked (see `cache.ts`), so it is asked by
 * one run only. A run that finds a request claimed by another defers it, goes on with the rest,
 * and at the end waits for the other's judgment (a cache hit), or asks itself when the other
 * ended without one or died. Identical requests within one run are asked once, too.
 *
 * The cache is a {@link JudgmentStore}: the SQLite file of cache.ts (a {@link JudgeCache} is
 * wrapped) or the server's Postgres tables; every call to it is awaited.
 */
import { formatDecimal } from '../../report/printf.js'
import type { Judgment } from './aggregate.js'
import { type JudgeCache, sha256Hex } from './cache.js'
import { callJudge, type JudgeClientOptions, rateLimiter } from './client.js'
import { JUDGE_DIMENSIONS, type JudgeConfig, type JudgeDimension } from './config.js'
import { buildRequest, type JudgeItem, lacksFor } from './items.js'
import { type JudgmentStore, judgmentStoreOf } from './store.js'

/** Per-dimension bookkeeping of one run. */
export interface DimensionRunStats {
  dimension: JudgeDimension
  /** Judgments needed (items with an answer). */
  requested: number
  /** Served from the cache (no request). */
  cacheHits: number
  /** HTTP requests sent in this run. */
  calls: number
  /** Valid on the first attempt / after a retry (this run's calls only). */
  okFirstAttempt: number
  okAfterRetry: number
  /** Transport failures seen (each retried or final). */
  transportFailures: number
  /** Malformed replies seen (each re-asked or final). */
  malformedReplies: number
  /** Final invalid / missing judgments (this run's and cached), by reason. */
  invalid: Record<string, number>
  missing: Record<string, number>
  /** Unanswered target turns (scored 0, no request). */
  unanswered: number
  /** Judgments that needed the judge (answered, with what the dimension requires). */
  judgeNeeded: number
  /** Of those, how many ended `missing` or `invalid` (cached invalid ones included). */
  judgeFailed: number
}

/** What a run did and cost. */
export interface JudgeRunStats {
  readonly dimensions: DimensionRunStats[]
  /** Tokens of this run's requests. */
  readonly tokens: { promptTokens: number; completionTokens: number }
  /** Tokens recorded for all judgments of the run, cached ones included (what they cost when made). */
  readonly recordedTokens: { promptTokens: number; completionTokens: number }
  readonly cost: number
  readonly recordedCost: number
  readonly currency: string
  /** `json_schema`, `none`, or `rejected` (the server refused response_format; the strict parser was used). */
  structuredOutput: 'json_schema' | 'none' | 'rejected'
  readonly models: string[]
  readonly systemFingerprints: string[]
}

/** Progress of a run, for a progress bar. */
export interface JudgeProgress {
  readonly done: number
  readonly total: number
  readonly calls: number
  readonly cacheHits: number
  readonly startedAt: number
}

/** Options of {@link runJudge}. */
export interface RunJudgeOptions {
  readonly config: JudgeConfig
  readonly configHash: string
  readonly items: readonly JudgeItem[]
  /** The judgment cache: a SQLite cache file, or any {@link JudgmentStore}. */
  readonly cache: JudgeCache | JudgmentStore
  readonly client: Omit<JudgeClientOptions, 'retry' | 'beforeRequest'>
  /** Overrides of the config's limits (operational; not part of the hash). */
  readonly concurrency?: number
  readonly requestsPerMinute?: number
  /** Only these dimensions. @default all five */
  readonly dimensions?: readonly JudgeDimension[]
  readonly onProgress?: (p: JudgeProgress) => void
  /**
   * Stop asking after this many judgments in a row ended `missing` (endpoint down, wrong URL or
   * key): the rest are recorded `missing` with reason "not asked: …" and counted. 0 = never.
   * @default 20
   */
  readonly giveUpAfter?: number
  /** How long a claim on a request lasts without renewal; renewed every third of it while running. @default 60000 */
  readonly claimLeaseMs?: number
  /** How often a deferred request claimed by another run is checked again. @default 200 */
  readonly claimPollMs?: number
}

/** Cost of tokens at the config's prices (per million). */
export function costOf(
  config: JudgeConfig,
  t: { promptTokens: number; completionTokens: number },
): number {
  return (
    (t.promptTokens * config.prices.inputPerMillion +
      t.completionTokens * config.prices.outputPerMillion) /
    1e6
  )
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1
}

/** Judge every item on every (selected) dimension. */
export async function runJudge(
  options: RunJudgeOptions,
): Promise<{ judgments: Judgment[]; stats: JudgeRunStats }> {
  const { config, configHash, items } = options
  const cache = judgmentStoreOf(options.cache)
  // A dimension named twice is judged once (the CLI refuses the repetition outright).
  const dims = [...new Set(options.dimensions ?? JUDGE_DIMENSIONS)]
  const stats: JudgeRunStats = {
    dimensions: dims.map((dimension) => ({
      dimension,
      requested: 0,
      cacheHits: 0,
      calls: 0,
      okFirstAttempt: 0,
      okAfterRetry: 0,
      transportFailures: 0,
      malformedReplies: 0,
      invalid: {},
      missing: {},
      unanswered: 0,
      judgeNeeded: 0,
      judgeFailed: 0,
    })),
    tokens: { promptTokens: 0, completionTokens: 0 },
    recordedTokens: { promptTokens: 0, completionTokens: 0 },
    cost: 0,
    recordedCost: 0,
    currency: config.prices.currency,
    structuredOutput: config.structuredOutput,
    models: [],
    systemFingerprints: [],
  }
  const fallbackKey = `structured_rejected:${options.client.baseUrl}`
  let structured =
    config.structuredOutput === 'json_schema' && (await cache.getMeta(fallbackKey)) === null
  if (config.structuredOutput === 'json_schema' && !structured) stats.structuredOutput = 'rejected'
  const limiter = rateLimiter(
    options.requestsPerMinute ?? config.requestsPerMinute,
    options.client.sleep,
  )
  const clientOptions: JudgeClientOptions = {
    ...options.client,
    retry: config.retry,
    beforeRequest: () => limiter.take(),
  }
  const jobs: { item: JudgeItem; dimension: JudgeDimension; at: number }[] = []
  const out: Judgment[] = []
  const base = (item: JudgeItem, dimension: JudgeDimension) => ({
    turnId: item.turnId,
    conversationId: item.conversationId,
    domain: item.domain,
    turnDepth: item.turnDepth,
    dimension,
    configHash,
  })
  for (const item of items) {
    for (const dimension of dims) {
      const st = stats.dimensions.find((d) => d.dimension === dimension)!
      if (item.answer === null) {
        st.unanswered++
        out.push({
          ...base(item, dimension),
          score: null,
          status: 'missing',
          rationale: null,
          attempts: 0,
          reason: 'no answer submitted for this target turn (scored 0)',
          unanswered: true,
        })
        continue
      }
      st.requested++
      const lack = lacksFor(item, config.dimensions.find((d) => d.name === dimension)!)
      if (lack) {
        bump(st.missing, lack)
        out.push({
          ...base(item, dimension),
          score: null,
          status: 'missing',
          rationale: null,
          attempts: 0,
          reason: lack,
          unanswered: false,
        })
        continue
      }
      st.judgeNeeded++
      jobs.push({ item, dimension, at: out.length })
      out.push(null as unknown as Judgment)
    }
  }
  const startedAt = Date.now()
  let done = 0
  let calls = 0
  let hits = 0
  const total = jobs.length
  const models = new Set<string>()
  const fingerprints = new Set<string>()
  const report = () => options.onProgress?.({ done, total, calls, cacheHits: hits, startedAt })
  report()
  const giveUpAfter = options.giveUpAfter ?? 20
  let inARow = 0
  let gaveUp: string | null = null
  const lease = options.claimLeaseMs ?? 60_000
  const pollMs = options.claimPollMs ?? 200
  /** Keys asked right now by this run (an identical request of another job waits for it). */
  const inFlight = new Set<string>()
  /**
   * One job: `taken` when another run (or job) holds its request and `wait` is false (the caller
   * defers it); with `wait`, polls until the judgment is cached or the claim can be had.
   */
  const doJob = async (job: (typeof jobs)[number], wait: boolean): Promise<'done' | 'taken'> => {
    const st = stats.dimensions.find((d) => d.dimension === job.dimension)!
    for (;;) {
      const useStructured = structured
      const body = buildRequest(config, job.dimension, job.item, useStructured)
      const payload = JSON.stringify(body)
      const key = sha256Hex(payload)
      const cached = await cache.get(key)
      if (cached) {
        st.cacheHits++
        hits++
        stats.recordedTokens.promptTokens += cached.promptTokens
        stats.recordedTokens.completionTokens += cached.completionTokens
        if (cached.status === 'invalid') {
          bump(st.invalid, cached.reason ?? 'invalid')
          st.judgeFailed++
        }
        if (cached.model) models.add(cached.model)
        if (cached.systemFingerprint) fingerprints.add(cached.systemFingerprint)
        out[job.at] = {
          ...base(job.item, job.dimension),
          score: cached.score,
          status: cached.status,
          rationale: cached.rationale,
          attempts: cached.attempts,
          reason: cached.reason,
          unanswered: false,
        }
        return 'done'
      }
      if (gaveUp !== null) {
        bump(st.missing, gaveUp)
        st.judgeFailed++
        out[job.at] = {
          ...base(job.item, job.dimension),
          score: null,
          status: 'missing',
          rationale: null,
          attempts: 0,
          reason: gaveUp,
          unanswered: false,
        }
        return 'done'
      }
      // The key is reserved in this run before the claim is awaited, so that an identical
      // request of another job of this run (the claim would be ours, `mine`) waits for it.
      let claim: 'done' | 'mine' | 'taken' = 'taken'
      if (!inFlight.has(key)) {
        inFlight.add(key)
        try {
          claim = await cache.claim(key, lease)
        } finally {
          if (claim !== 'mine') inFlight.delete(key)
        }
      }
      if (claim === 'done') continue // finished by another run meanwhile: a cache hit now
      if (claim === 'taken') {
        if (!wait) return 'taken'
        await new Promise((r) => setTimeout(r, pollMs))
        continue
      }
      // The key stays reserved until its judgment is committed (or its claim released): an
      // identical request of this run must never find it both uncached and not in flight.
      try {
        const r = await callJudge(body, clientOptions)
        if (r.status !== 'ok' && r.status !== 'invalid') await cache.release(key)
        calls += r.attempts
        st.calls += r.attempts
        st.transportFailures += r.transportFailures.length
        st.malformedReplies += r.malformedReplies.length
        stats.tokens.promptTokens += r.usage.promptTokens
        stats.tokens.completionTokens += r.usage.completionTokens
        if (r.model) models.add(r.model)
        if (r.systemFingerprint) fingerprints.add(r.systemFingerprint)
        if (r.status === 'structured_rejected') {
          if (structured) {
            structured = false
            stats.structuredOutput = 'rejected'
            await cache.setMeta(fallbackKey, r.reason ?? 'rejected')
          }
          continue
        }
        if (r.status === 'missing') {
          inARow++
          if (gaveUp === null && r.unreachable)
            gaveUp = `not asked: the endpoint is unreachable (last: ${r.reason ?? 'missing'})`
          if (giveUpAfter > 0 && inARow >= giveUpAfter && gaveUp === null)
            gaveUp = `not asked: ${inARow} judgments in a row failed (last: ${r.reason ?? 'missing'})`
          bump(st.missing, r.reason ?? 'missing')
          st.judgeFailed++
          out[job.at] = {
            ...base(job.item, job.dimension),
            score: null,
            status: 'missing',
            rationale: null,
            attempts: r.attempts,
            reason: r.reason,
            unanswered: false,
          }
          return 'done'
        }
        inARow = 0
        if (r.status === 'ok') {
          if (r.attempts === 1) st.okFirstAttempt++
          else st.okAfterRetry++
        } else {
          bump(st.invalid, r.reason ?? 'invalid')
          st.judgeFailed++
        }
        stats.recordedTokens.promptTokens += r.usage.promptTokens
        stats.recordedTokens.completionTokens += r.usage.completionTokens
        await cache.put({
          key,
          dimension: job.dimension,
          turnId: job.item.turnId,
          status: r.status,
          score: r.score,
          rationale: r.rationale,
          reason: r.reason,
          attempts: r.attempts,
          promptTokens: r.usage.promptTokens,
          completionTokens: r.usage.completionTokens,
          content: r.content,
          systemFingerprint: r.systemFingerprint,
          model: r.model,
          request: payload,
          createdAt: new Date().toISOString(),
        })
        out[job.at] = {
          ...base(job.item, job.dimension),
          score: r.score,
          status: r.status,
          rationale: r.rationale,
          attempts: r.attempts,
          reason: r.reason,
          unanswered: false,
        }
        return 'done'
      } finally {
        inFlight.delete(key)
      }
    }
  }
  let next = 0
  const deferred: (typeof jobs)[number][] = []
  const workers = Math.max(1, Math.min(options.concurrency ?? config.concurrency, total || 1))
  // A failed renewal (a database briefly unreachable) is retried at the next beat.
  const beat = setInterval(() => {
    cache.renewClaims(lease).catch(() => undefined)
  }, lease / 3)
  beat.unref()
  try {
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < total) {
          const job = jobs[next++]!
          if ((await doJob(job, false)) === 'taken') {
            deferred.push(job)
            continue
          }
          done++
          report()
        }
        // Then the requests other runs were asking: wait for their judgments (or ask, if they failed).
        for (let job = deferred.shift(); job; job = deferred.shift()) {
          await doJob(job, true)
          done++
          report()
        }
      }),
    )
  } finally {
    clearInterval(beat)
    await cache.releaseClaims()
  }
  const s = stats as { -readonly [K in keyof JudgeRunStats]: JudgeRunStats[K] }
  s.cost = costOf(config, stats.tokens)
  s.recordedCost = costOf(config, stats.recordedTokens)
  s.models = [...models].sort()
  s.systemFingerprints = [...fingerprints].sort()
  return { judgments: out, stats }
}

/**
 * Why a run (or the runs of one command) failed, or `null`: every judgment that needed the judge
 * ended missing or invalid, or more than `maxShare` (0..1) of them did. Unanswered turns and
 * judgments with nothing to judge against never needed the judge and are not counted; a run
 * that needed no judgment at all does not fail.
 */
export function judgeShortfall(runs: readonly JudgeRunStats[], maxShare: number): string | null {
  let needed = 0
  let failed = 0
  for (const s of runs) {
    for (const d of s.dimensions) {
      needed += d.judgeNeeded
      failed += d.judgeFailed
    }
  }
  if (needed === 0 || failed === 0) return null
  const pct = (x: number) => `${formatDecimal(100 * x, 1).replace(/\.0$/, '')}%`
  if (failed === needed)
    return `every judgment (${failed} of ${needed}) ended missing or invalid; see the reasons in the report`
  if (failed / needed > maxShare)
    return `${failed} of ${needed} judgments (${pct(failed / needed)}) ended missing or invalid, more than the ${pct(maxShare)} allowed (--max-failed); see the reasons in the report`
  return null
}
