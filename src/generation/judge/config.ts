/**
 * The frozen judge configuration: one JSON file holding the five dimensions (each with its own
 * prompt template and a fixed 1–5 Likert rubric), the model and its dated version, decoding
 * settings, the output schema, the retry policy, the invalid policy, rate limits and prices.
 *
 * {@link parseJudgeConfig} validates a parsed JSON value and reports every problem at once, each
 * with its JSON path, what was found and what was expected. Pure: no I/O.
 *
 * The config's identity is its content hash, `judge_config_id` = sha256 (hex) of
 * {@link canonicalJson} of the parsed file: object keys sorted by UTF-16 code units, no
 * insignificant whitespace, strings and numbers as `JSON.stringify` writes them. Formatting and
 * key order of the file therefore do not change the hash; any value does.
 */

import type { ConfigProblem } from '../../errors/config-issues.js'

/** The five RETECO dimensions, in report order. */
export const JUDGE_DIMENSIONS = [
  'correctness',
  'completeness',
  'relevance',
  'coherence',
  'faithfulness',
] as const

/** One of {@link JUDGE_DIMENSIONS}. */
export type JudgeDimension = (typeof JUDGE_DIMENSIONS)[number]

/** The placeholders a prompt template may use (`{{name}}`). */
export const TEMPLATE_FIELDS = [
  'history',
  'question',
  'answer',
  'passages',
  'reference',
  'rubric',
  'dimension',
] as const

/** What happens to an *invalid* or judge-*missing* judgment in the aggregates. */
export type InvalidPolicy =
  /** Left out of the means; the denominators (judged turns per dimension) are shown. */
  | 'exclude'
  /** Counted as the minimum score 1 (normalised 0). */
  | 'minimum'

/** One dimension: its focused prompt and its rubric anchors for the scores 1..5. */
export interface DimensionConfig {
  readonly name: JudgeDimension
  /** What the dimension asks, one line (shown in reports). */
  readonly question: string
  /** User-message template with `{{placeholders}}` (see {@link TEMPLATE_FIELDS}). */
  readonly prompt: string
  /** Anchors for scores 1, 2, 3, 4, 5 (index 0 is score 1). */
  readonly rubric: readonly [string, string, string, string, string]
  /** Item fields that must be non-empty for this dimension (e.g. `passages` for faithfulness). */
  readonly requires: readonly ('passages' | 'reference' | 'history')[]
}

/** Transport and format retries. */
export interface RetryPolicy {
  /** A malformed reply is re-asked with the identical request this many more times, then `invalid`. */
  readonly malformedReasks: number
  /** Retries after a network error, timeout, dropped connection, 408/409/429 or 5xx; then `missing`. */
  readonly transportRetries: number
  /** Backoff before retry k (0-based): uniform in [0, min(cap, base·2^k)] ("full jitter"), unless Retry-After says more. */
  readonly backoffBaseMs: number
  readonly backoffCapMs: number
  /** `full`: uniform in [0, d]; `none`: exactly d. */
  readonly jitter: 'full' | 'none'
  /** Wait what `retry-after-ms` / `Retry-After` (seconds or HTTP date) says when it is longer. */
  readonly honourRetryAfter: boolean
  /** Per-request timeout; a timed-out request counts as a transport failure (at most {@link MAX_TIMER_MS}). */
  readonly requestTimeoutMs: number
  /** Longest wait a `Retry-After` / `retry-after-ms` may ask for; longer asks wait this long. @default 120000 */
  readonly maxRetryAfterMs: number
  /** Largest reply body read, in bytes after decompression; a longer reply is `missing`, not retried. @default 8 MiB */
  readonly maxReplyBytes: number
}

/** Longest delay a Node timer can wait (2^31 − 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** The parsed, validated judge config. Field names mirror the JSON file (camelCase here). */
export interface JudgeConfig {
  readonly name: string
  readonly description: string
  /** The model name sent to the server: pin a dated snapshot (`gpt-4o-2024-08-06`). */
  readonly model: string
  readonly systemPrompt: string
  readonly decoding: {
    readonly temperature: number
    readonly topP: number
    readonly seed: number | null
    readonly maxTokens: number
    /** Request field for the token limit: `max_tokens` (most compatible servers) or `max_completion_tokens`. */
    readonly maxTokensField: 'max_tokens' | 'max_completion_tokens'
  }
  /** `json_schema`: send `response_format` json_schema (strict); `none`: rely on the prompt and the strict parser. */
  readonly structuredOutput: 'json_schema' | 'none'
  /** The JSON Schema sent as `response_format.json_schema.schema` (and described in reports). */
  readonly outputSchema: Readonly<Record<string, unknown>>
  readonly dimensions: readonly DimensionConfig[]
  readonly retry: RetryPolicy
  readonly invalidPolicy: InvalidPolicy
  readonly concurrency: number
  readonly requestsPerMinute: number
  readonly prices: {
    readonly inputPerMillion: number
    readonly outputPerMillion: number
    readonly currency: string
  }
  /** `max_chars_per_passage` etc.: how long inputs are cut before they go in the prompt (0 = never). */
  readonly limits: { readonly maxPassageChars: number; readonly maxPassages: number }
}

export type { ConfigProblem } from '../../errors/config-issues.js'

/**
 * Canonical JSON: keys sorted by UTF-16 code units at every level, no whitespace; arrays in
 * order; strings and numbers as `JSON.stringify`. `undefined` members are dropped as JSON does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`
  const o = value as Record<string, unknown>
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`
}

class Reader {
  readonly problems: ConfigProblem[] = []

  problem(p: ConfigProblem): void {
    this.problems.push(p)
  }

  obj(v: unknown, path: string): Record<string, unknown> {
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      return v as Record<string, unknown>
    this.problem({ code: 'not_an_object', path, found: v })
    return {}
  }

  known(o: Record<string, unknown>, path: string, keys: readonly string[]): void {
    for (const k of Object.keys(o)) {
      if (!keys.includes(k)) this.problem({ code: 'unknown_field', path: `${path}.${k}`, keys })
    }
  }

  str(
    o: Record<string, unknown>,
    key: string,
    path: string,
    opts: { optional?: string; nonEmpty?: boolean } = {},
  ): string {
    const v = o[key]
    if (v === undefined && opts.optional !== undefined) return opts.optional
    if (typeof v !== 'string' || (opts.nonEmpty !== false && v.trim() === '')) {
      this.problem({ code: 'not_a_string', path: `${path}.${key}`, found: v })
      return ''
    }
    return v
  }

  num(
    o: Record<string, unknown>,
    key: string,
    path: string,
    opts: { min: number; max?: number; integer?: boolean; optional?: number },
  ): number {
    const v = o[key]
    if (v === undefined && opts.optional !== undefined) return opts.optional
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      v >= opts.min &&
      (opts.max === undefined || v <= opts.max) &&
      (!opts.integer || Number.isInteger(v))
    if (!ok) {
      this.problem({
        code: 'not_a_number',
        path: `${path}.${key}`,
        found: v,
        integer: opts.integer === true,
        min: opts.min,
        ...(opts.max === undefined ? {} : { max: opts.max }),
      })
      return opts.min
    }
    return v as number
  }

  oneOf<T extends string>(
    o: Record<string, unknown>,
    key: string,
    path: string,
    values: readonly T[],
    optional?: T,
  ): T {
    const v = o[key]
    if (v === undefined && optional !== undefined) return optional
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T
    this.problem({ code: 'not_one_of', path: `${path}.${key}`, values, found: v })
    return values[0]!
  }

  bool(o: Record<string, unknown>, key: string, path: string, optional: boolean): boolean {
    const v = o[key]
    if (v === undefined) return optional
    if (typeof v === 'boolean') return v
    this.problem({ code: 'not_a_boolean', path: `${path}.${key}`, found: v })
    return optional
  }
}

const TOP_KEYS = [
  'name',
  'description',
  'model',
  'system_prompt',
  'decoding',
  'structured_output',
  'output_schema',
  'dimensions',
  'retry',
  'invalid_policy',
  'concurrency',
  'requests_per_minute',
  'prices',
  'limits',
]

function checkTemplate(r: Reader, template: string, path: string): void {
  for (const m of template.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
    if (!(TEMPLATE_FIELDS as readonly string[]).includes(m[1]!))
      r.problem({ code: 'unknown_placeholder', path, placeholder: m[1]!, fields: TEMPLATE_FIELDS })
  }
  if (!/\{\{\s*answer\s*\}\}/.test(template)) r.problem({ code: 'no_answer_placeholder', path })
}

/**
 * Validate a parsed judge-config JSON value. Returns the config, or every problem found (JSON
 * paths like `$.dimensions[2].rubric`).
 */
export function parseJudgeConfig(
  value: unknown,
): { ok: true; config: JudgeConfig } | { ok: false; problems: readonly ConfigProblem[] } {
  const r = new Reader()
  const o = r.obj(value, '$')
  r.known(o, '$', TOP_KEYS)
  const name = r.str(o, 'name', '$')
  const description = r.str(o, 'description', '$', { optional: '' })
  const model = r.str(o, 'model', '$')
  const systemPrompt = r.str(o, 'system_prompt', '$')

  const d = r.obj(o['decoding'], '$.decoding')
  r.known(d, '$.decoding', ['temperature', 'top_p', 'seed', 'max_tokens', 'max_tokens_field'])
  const seedRaw = d['seed']
  let seed: number | null = null
  if (seedRaw !== null && seedRaw !== undefined)
    seed = r.num(d, 'seed', '$.decoding', { min: 0, integer: true })
  const decoding = {
    temperature: r.num(d, 'temperature', '$.decoding', { min: 0, max: 2 }),
    topP: r.num(d, 'top_p', '$.decoding', { min: 0, max: 1, optional: 1 }),
    seed,
    maxTokens: r.num(d, 'max_tokens', '$.decoding', { min: 1, integer: true }),
    maxTokensField: r.oneOf(
      d,
      'max_tokens_field',
      '$.decoding',
      ['max_tokens', 'max_completion_tokens'] as const,
      'max_tokens',
    ),
  }
  const structuredOutput = r.oneOf(o, 'structured_output', '$', ['json_schema', 'none'] as const)
  const outputSchema = r.obj(o['output_schema'], '$.output_schema')
  const props = outputSchema['properties'] as Record<string, unknown> | undefined
  if (!props || typeof props !== 'object' || !('score' in props))
    r.problem({ code: 'no_score_property', path: '$.output_schema.properties' })

  const dims: DimensionConfig[] = []
  const rawDims = o['dimensions']
  if (!Array.isArray(rawDims))
    r.problem({ code: 'not_dimensions', path: '$.dimensions', found: rawDims })
  else {
    const seen = new Set<string>()
    rawDims.forEach((x, i) => {
      const p = `$.dimensions[${i}]`
      const dd = r.obj(x, p)
      r.known(dd, p, ['name', 'question', 'prompt', 'rubric', 'requires'])
      const dn = r.oneOf(dd, 'name', p, JUDGE_DIMENSIONS)
      if (seen.has(dn)) r.problem({ code: 'duplicate_dimension', path: `${p}.name`, dimension: dn })
      seen.add(dn)
      const prompt = r.str(dd, 'prompt', p)
      if (prompt) checkTemplate(r, prompt, `${p}.prompt`)
      const rubric = dd['rubric']
      let anchors: [string, string, string, string, string] = ['', '', '', '', '']
      if (
        Array.isArray(rubric) &&
        rubric.length === 5 &&
        rubric.every((a) => typeof a === 'string' && a.trim() !== '')
      )
        anchors = rubric as [string, string, string, string, string]
      else r.problem({ code: 'bad_rubric', path: `${p}.rubric`, found: rubric })
      const req = dd['requires'] ?? []
      const requires: ('passages' | 'reference' | 'history')[] = []
      if (!Array.isArray(req))
        r.problem({ code: 'not_an_array', path: `${p}.requires`, found: req })
      else {
        for (const q of req) {
          if (q === 'passages' || q === 'reference' || q === 'history') requires.push(q)
          else r.problem({ code: 'bad_requirement', path: `${p}.requires`, found: q })
        }
      }
      dims.push({ name: dn, question: r.str(dd, 'question', p), prompt, rubric: anchors, requires })
    })
    for (const want of JUDGE_DIMENSIONS)
      if (!seen.has(want))
        r.problem({ code: 'missing_dimension', path: '$.dimensions', dimension: want })
  }

  const rt = r.obj(o['retry'], '$.retry')
  r.known(rt, '$.retry', [
    'malformed_reasks',
    'transport_retries',
    'backoff_base_ms',
    'backoff_cap_ms',
    'jitter',
    'honour_retry_after',
    'request_timeout_ms',
    'max_retry_after_ms',
    'max_reply_bytes',
  ])
  const retry: RetryPolicy = {
    malformedReasks: r.num(rt, 'malformed_reasks', '$.retry', { min: 0, max: 20, integer: true }),
    transportRetries: r.num(rt, 'transport_retries', '$.retry', { min: 0, max: 50, integer: true }),
    backoffBaseMs: r.num(rt, 'backoff_base_ms', '$.retry', { min: 0, max: MAX_TIMER_MS }),
    backoffCapMs: r.num(rt, 'backoff_cap_ms', '$.retry', { min: 0, max: MAX_TIMER_MS }),
    jitter: r.oneOf(rt, 'jitter', '$.retry', ['full', 'none'] as const, 'full'),
    honourRetryAfter: r.bool(rt, 'honour_retry_after', '$.retry', true),
    requestTimeoutMs: r.num(rt, 'request_timeout_ms', '$.retry', { min: 1, max: MAX_TIMER_MS }),
    maxRetryAfterMs: r.num(rt, 'max_retry_after_ms', '$.retry', {
      min: 0,
      max: MAX_TIMER_MS,
      optional: 120_000,
    }),
    maxReplyBytes: r.num(rt, 'max_reply_bytes', '$.retry', {
      min: 1024,
      max: 1 << 30,
      integer: true,
      optional: 8 << 20,
    }),
  }
  // (Only when both values were read: a rejected one stands in as its minimum.)
  if (
    rt['backoff_cap_ms'] === retry.backoffCapMs &&
    rt['backoff_base_ms'] === retry.backoffBaseMs &&
    retry.backoffCapMs < retry.backoffBaseMs
  )
    r.problem({
      code: 'cap_below_base',
      path: '$.retry.backoff_cap_ms',
      base: retry.backoffBaseMs,
      cap: retry.backoffCapMs,
    })

  const invalidPolicy = r.oneOf(o, 'invalid_policy', '$', ['exclude', 'minimum'] as const)
  const concurrency = r.num(o, 'concurrency', '$', { min: 1, max: 256, integer: true })
  const requestsPerMinute = r.num(o, 'requests_per_minute', '$', { min: 0 })
  const pr = r.obj(o['prices'], '$.prices')
  r.known(pr, '$.prices', ['input_per_million', 'output_per_million', 'currency'])
  const prices = {
    inputPerMillion: r.num(pr, 'input_per_million', '$.prices', { min: 0 }),
    outputPerMillion: r.num(pr, 'output_per_million', '$.prices', { min: 0 }),
    currency: r.str(pr, 'currency', '$.prices', { optional: 'USD' }),
  }
  const lm = o['limits'] === undefined ? {} : r.obj(o['limits'], '$.limits')
  r.known(lm, '$.limits', ['max_passage_chars', 'max_passages'])
  const limits = {
    maxPassageChars: r.num(lm, 'max_passage_chars', '$.limits', {
      min: 0,
      integer: true,
      optional: 0,
    }),
    maxPassages: r.num(lm, 'max_passages', '$.limits', { min: 0, integer: true, optional: 0 }),
  }
  if (r.problems.length) return { ok: false, problems: r.problems }
  const ordered = JUDGE_DIMENSIONS.map((n) => dims.find((x) => x.name === n)!)
  return {
    ok: true,
    config: {
      name,
      description,
      model,
      systemPrompt,
      decoding,
      structuredOutput,
      outputSchema,
      dimensions: ordered,
      retry,
      invalidPolicy,
      concurrency,
      requestsPerMinute,
      prices,
      limits,
    },
  }
}

/** The dimension config of `name` (every valid config has all five). */
export function dimensionConfig(config: JudgeConfig, name: JudgeDimension): DimensionConfig {
  return config.dimensions.find((d) => d.name === name)!
}
