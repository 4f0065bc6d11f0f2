/**
 * Judgments (the shared JSONL format) and their aggregates. Pure: no I/O.
 *
 * Per turn t and dimension d the value is v(t,d) = (s − 1)/4 for a judged score s ∈ 1..5; 0 for
 * an unanswered target turn (the submission had no answer: the plan scores it zero); for an
 * `invalid` or judge-`missing` judgment it follows the frozen invalid policy: `exclude` leaves
 * it out (the denominator shrinks and is shown), `minimum` counts it as score 1 (v = 0).
 *
 * - per-dimension mean M_d = Σ_t v(t,d) / n_d over the turns with a value (macro over turns);
 * - overall = (1/|D|) Σ_d M_d over the dimensions with n_d > 0 (the mean over dimensions);
 * - per-turn mean = mean of v(t,·) over the dimensions with a value;
 * - the same per domain and per turn-depth bucket (T1..T4, T5+, T? for unknown depth).
 * Sums run left to right in the order turns first appear in the judgments.
 */
import type { JudgeFieldProblem } from '../../errors/judge-issues.js'
import { type InvalidPolicy, JUDGE_DIMENSIONS, type JudgeDimension } from './config.js'

/** One judgment line of the shared judgments JSONL (what H6's `judge agreement` reads too). */
export interface Judgment {
  readonly turnId: string
  readonly conversationId: string
  readonly domain: string | null
  readonly turnDepth: number | null
  readonly dimension: JudgeDimension
  /** 1..5 when `ok`, else `null`. */
  readonly score: number | null
  readonly status: 'ok' | 'invalid' | 'missing'
  readonly rationale: string | null
  readonly configHash: string
  /** HTTP requests made for this judgment (0 for an unanswered turn; as first recorded for a cache hit). */
  readonly attempts: number
  /** Why invalid or missing. */
  readonly reason: string | null
  /** True when the submission had no answer for this turn (scored 0, never sent to the judge). */
  readonly unanswered: boolean
}

/** A judgment as one JSON object (snake_case keys, the shared format). */
export function judgmentToJson(j: Judgment): Record<string, unknown> {
  const o: Record<string, unknown> = { turn_id: j.turnId, conversation_id: j.conversationId }
  if (j.domain !== null) o['domain'] = j.domain
  if (j.turnDepth !== null) o['turn_depth'] = j.turnDepth
  o['dimension'] = j.dimension
  o['score'] = j.score
  o['status'] = j.status
  if (j.rationale !== null) o['rationale'] = j.rationale
  o['config_hash'] = j.configHash
  o['attempts'] = j.attempts
  if (j.reason !== null) o['reason'] = j.reason
  if (j.unanswered) o['unanswered'] = true
  return o
}

/**
 * Parse one judgments-JSONL record; the problems come without the place (the caller adds it;
 * worded by `formatJudgeFieldProblem`).
 */
export function parseJudgmentRecord(
  rec: unknown,
): { ok: true; judgment: Judgment } | { ok: false; problems: JudgeFieldProblem[] } {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec))
    return { ok: false, problems: [{ code: 'not_an_object' }] }
  const o = rec as Record<string, unknown>
  const problems: JudgeFieldProblem[] = []
  const bad = (field: string, expected: string, v: unknown): void => {
    problems.push({ code: 'bad_value', field, expected, found: JSON.stringify(v) ?? 'nothing' })
  }
  const s = (k: string): string => {
    if (typeof o[k] === 'string' && o[k] !== '') return o[k] as string
    bad(k, 'a non-empty string', o[k])
    return ''
  }
  const turnId = s('turn_id')
  const conversationId =
    typeof o['conversation_id'] === 'string'
      ? (o['conversation_id'] as string)
      : turnId.includes('_turn_')
        ? turnId.slice(0, turnId.lastIndexOf('_turn_'))
        : turnId
  const dimension = o['dimension']
  if (!(JUDGE_DIMENSIONS as readonly unknown[]).includes(dimension))
    bad('dimension', `one of ${JUDGE_DIMENSIONS.join(', ')}`, dimension)
  const status = o['status']
  if (status !== 'ok' && status !== 'invalid' && status !== 'missing')
    bad('status', '"ok", "invalid" or "missing"', status)
  const score = o['score'] ?? null
  if (
    status === 'ok' &&
    !(typeof score === 'number' && Number.isInteger(score) && score >= 1 && score <= 5)
  )
    bad('score', 'an integer 1..5 for status "ok"', score)
  if (status !== 'ok' && score !== null)
    bad('score', `null for status ${JSON.stringify(status)}`, score)
  const configHash = s('config_hash')
  const depth = o['turn_depth']
  if (
    depth !== undefined &&
    depth !== null &&
    !(typeof depth === 'number' && Number.isInteger(depth) && depth >= 1)
  )
    bad('turn_depth', 'an integer ≥ 1', depth)
  const attempts = o['attempts']
  if (!(typeof attempts === 'number' && Number.isInteger(attempts) && attempts >= 0))
    bad('attempts', 'an integer ≥ 0', attempts)
  if (problems.length) return { ok: false, problems }
  const tail =
    turnId.lastIndexOf('_turn_') >= 0 ? turnId.slice(turnId.lastIndexOf('_turn_') + 6) : ''
  return {
    ok: true,
    judgment: {
      turnId,
      conversationId,
      domain: typeof o['domain'] === 'string' ? (o['domain'] as string) : null,
      turnDepth:
        typeof depth === 'number'
          ? depth
          : /^[0-9]+$/.test(tail) && Number(tail) >= 1
            ? Number(tail)
            : null,
      dimension: dimension as JudgeDimension,
      score: score as number | null,
      status: status as Judgment['status'],
      rationale: typeof o['rationale'] === 'string' ? (o['rationale'] as string) : null,
      configHash,
      attempts: attempts as number,
      reason: typeof o['reason'] === 'string' ? (o['reason'] as string) : null,
      unanswered: o['unanswered'] === true,
    },
  }
}

/** Counts and mean of one dimension over a set of turns. */
export interface DimensionSummary {
  readonly dimension: JudgeDimension
  /** Mean normalised score over the turns with a value; `null` when none has one. */
  readonly mean: number | null
  /** Turns with a value (the denominator). */
  readonly n: number
  readonly ok: number
  readonly invalid: number
  /** Judge failures (transport, non-retryable HTTP, nothing to judge against). */
  readonly missing: number
  /** Unanswered target turns (scored 0, inside `n`). */
  readonly unanswered: number
  /** Invalid + missing left out under `exclude` (0 under `minimum`). */
  readonly excluded: number
  /** Turns with no judgment at all for this dimension (left out). */
  readonly absent: number
}

/** Means of a group of turns (all, one domain, one depth bucket). */
export interface GroupSummary {
  readonly key: string
  readonly turns: number
  readonly dimensions: readonly DimensionSummary[]
  /** Mean of the per-dimension means that exist; `null` when none. */
  readonly overall: number | null
}

/** One turn's normalised scores. */
export interface TurnRow {
  readonly turnId: string
  readonly conversationId: string
  readonly domain: string | null
  readonly turnDepth: number | null
  readonly unanswered: boolean
  /** Normalised value per dimension (`null`: excluded or absent). */
  readonly values: Readonly<Record<JudgeDimension, number | null>>
  /** Raw 1..5 scores (`null` when not ok). */
  readonly scores: Readonly<Record<JudgeDimension, number | null>>
  readonly statuses: Readonly<Record<JudgeDimension, Judgment['status'] | null>>
  readonly mean: number | null
}

/** Everything a judge report shows about scores. */
export interface JudgeAggregates {
  readonly policy: InvalidPolicy
  readonly configHash: string
  readonly all: GroupSummary
  readonly byDomain: readonly GroupSummary[]
  readonly byDepth: readonly GroupSummary[]
  readonly turns: readonly TurnRow[]
  readonly unansweredTurns: number
}

/** Depth bucket of a turn depth: T1..T4, T5+, T? (unknown). */
export function depthBucket(depth: number | null): string {
  if (depth === null || depth < 1) return 'T?'
  return depth >= 5 ? 'T5+' : `T${depth}`
}

const DEPTH_ORDER = ['T1', 'T2', 'T3', 'T4', 'T5+', 'T?']

function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null
  let s = 0
  for (const x of xs) s += x
  return s / xs.length
}

function summarise(key: string, rows: readonly TurnRow[], policy: InvalidPolicy): GroupSummary {
  const dims = JUDGE_DIMENSIONS.map((d): DimensionSummary => {
    const vals: number[] = []
    let ok = 0
    let invalid = 0
    let missing = 0
    let unanswered = 0
    let absent = 0
    for (const r of rows) {
      const st = r.statuses[d]
      if (r.unanswered) unanswered++
      else if (st === 'ok') ok++
      else if (st === 'invalid') invalid++
      else if (st === 'missing') missing++
      else absent++
      const v = r.values[d]
      if (v !== null) vals.push(v)
    }
    return {
      dimension: d,
      mean: mean(vals),
      n: vals.length,
      ok,
      invalid,
      missing,
      unanswered,
      excluded: policy === 'exclude' ? invalid + missing : 0,
      absent,
    }
  })
  return {
    key,
    turns: rows.length,
    dimensions: dims,
    overall: mean(dims.filter((x) => x.mean !== null).map((x) => x.mean!)),
  }
}

/**
 * Aggregate judgments. Throws a `RangeError` naming both hashes when judgments of different
 * configs are mixed (callers turn it into a user error), and one for a turn judged twice on the
 * same dimension.
 */
export function aggregateJudgments(
  judgments: readonly Judgment[],
  policy: InvalidPolicy,
): JudgeAggregates {
  const hashes = [...new Set(judgments.map((j) => j.configHash))]
  if (hashes.length > 1)
    throw new RangeError(
      `judgments made under different judge configs are mixed (${hashes.join(', ')}); refusing to aggregate them together`,
    )
  type Mut = {
    turnId: string
    conversationId: string
    domain: string | null
    turnDepth: number | null
    unanswered: boolean
    values: Record<string, number | null>
    scores: Record<string, number | null>
    statuses: Record<string, Judgment['status'] | null>
  }
  const turns = new Map<string, Mut>()
  const empty = (): Record<string, null> =>
    Object.fromEntries(JUDGE_DIMENSIONS.map((d) => [d, null]))
  for (const j of judgments) {
    const key = `${j.domain ?? ''}\u0000${j.turnId}`
    let t = turns.get(key)
    if (!t) {
      t = {
        turnId: j.turnId,
        conversationId: j.conversationId,
        domain: j.domain,
        turnDepth: j.turnDepth,
        unanswered: false,
        values: empty(),
        scores: empty(),
        statuses: empty(),
      }
      turns.set(key, t)
    }
    if (t.statuses[j.dimension] !== null)
      throw new RangeError(
        `turn ${JSON.stringify(j.turnId)}${j.domain ? ` (domain ${j.domain})` : ''} has two ${j.dimension} judgments`,
      )
    t.statuses[j.dimension] = j.status
    if (j.unanswered) {
      t.unanswered = true
      t.values[j.dimension] = 0
    } else if (j.status === 'ok' && j.score !== null) {
      t.scores[j.dimension] = j.score
      t.values[j.dimension] = (j.score - 1) / 4
    } else t.values[j.dimension] = policy === 'minimum' ? 0 : null
  }
  const rows: TurnRow[] = [...turns.values()].map((t) => {
    const present = JUDGE_DIMENSIONS.map((d) => t.values[d]).filter(
      (v): v is number => v !== null && v !== undefined,
    )
    return {
      turnId: t.turnId,
      conversationId: t.conversationId,
      domain: t.domain,
      turnDepth: t.turnDepth,
      unanswered: t.unanswered,
      values: t.values as Record<JudgeDimension, number | null>,
      scores: t.scores as Record<JudgeDimension, number | null>,
      statuses: t.statuses as Record<JudgeDimension, Judgment['status'] | null>,
      mean: mean(present),
    }
  })
  const group = (
    keyOf: (r: TurnRow) => string,
    order: (a: string, b: string) => number,
  ): GroupSummary[] => {
    const m = new Map<string, TurnRow[]>()
    for (const r of rows) {
      const k = keyOf(r)
      const list = m.get(k) ?? []
      list.push(r)
      m.set(k, list)
    }
    return [...m.keys()].sort(order).map((k) => summarise(k, m.get(k)!, policy))
  }
  return {
    policy,
    configHash: hashes[0] ?? '',
    all: summarise('all', rows, policy),
    byDomain: rows.some((r) => r.domain !== null)
      ? group(
          (r) => r.domain ?? '(none)',
          (a, b) => (a < b ? -1 : a > b ? 1 : 0),
        )
      : [],
    byDepth: group(
      (r) => depthBucket(r.turnDepth),
      (a, b) => DEPTH_ORDER.indexOf(a) - DEPTH_ORDER.indexOf(b),
    ),
    turns: rows,
    unansweredTurns: rows.filter((r) => r.unanswered).length,
  }
}
