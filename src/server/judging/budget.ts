/**
 * Judge cost budgets: per phase (all teams together) and per team (in one phase), in the judge
 * config's currency. A submission is refused before anything is stored, charged or asked when
 * what was spent plus its estimate would exceed a budget, with the estimate shown.
 *
 * Estimate = cost at the judge config's prices of every request the submission needs that is
 * not in the judgment cache (the exact request bodies the run would send, keyed as the cache
 * keys them; the cache the run uses: the file cache on SQLite, the database's on Postgres): prompt tokens ≈ UTF-8 bytes of the request body / 4, completion tokens = the
 * config's `max_tokens` (each reply at its longest; retries not counted). Spent = the `judge cost`
 * of every score recorded for the track and phase (re-judged versions included). Held = the
 * estimates of its judged submissions still queued or being judged (`submissions.judge_estimate`);
 * once scored, a submission counts by its recorded cost instead; a failed one counts nothing (its
 * answered requests stay in the cache, free to the next try).
 */
import {
  buildRequest,
  costOf,
  formatFixed,
  JUDGE_DIMENSIONS,
  lacksFor,
  loadJudgeConfig,
  retecoJudgeItemsRoute,
  sha256Hex,
} from '../../internal.js'
import type { Track } from '../config/load.js'
import type { PhaseConfig } from '../config/schema.js'
import type { ServerContext } from '../context.js'
import type { Db } from '../db/database.js'
import { type JudgeCacheHome, judgeCacheHome, openJudgeStore } from './cache-home.js'
import { ACCOUNTING } from './columns.js'
import { generationPaths } from './upload.js'

/** What judging a submission would cost, before any request. */
export interface CostEstimate {
  /** Requests the run would send (not in the cache). */
  readonly requests: number
  /** Requests answered by the cache (free). */
  readonly cached: number
  readonly promptTokens: number
  readonly completionTokens: number
  readonly cost: number
  readonly currency: string
}

/** Estimate the judge cost of a stored (validated) judged submission (see the module comment). */
export async function estimateJudgeCost(
  track: Track,
  phase: PhaseConfig,
  dir: string,
  cacheHome: JudgeCacheHome | string,
): Promise<CostEstimate> {
  const judging = track.judging!
  const loaded = loadJudgeConfig(judging.configFile)
  const config = loaded.config
  const paths = generationPaths(track, dir)
  const { items } = await retecoJudgeItemsRoute.build({
    preset: track.preset!,
    data: track.dataDir,
    answers: paths.answers,
    retrieval: paths.retrieval,
    split: track.splits![phase.id]!,
  })
  // No cache file yet (nothing judged under this config): every request is uncached; the file
  // is not created here.
  const home: JudgeCacheHome =
    typeof cacheHome === 'string' ? { kind: 'file', dataDir: cacheHome } : cacheHome
  const opened = openJudgeStore(home, loaded.hash, { create: false })
  const cache = opened?.store ?? null
  try {
    const structured =
      config.structuredOutput === 'json_schema' &&
      ((await cache?.getMeta(`structured_rejected:${judging.settings.baseUrl}`)) ?? null) === null
    const seen = new Set<string>()
    let requests = 0
    let cached = 0
    let promptTokens = 0
    for (const item of items) {
      if (item.answer === null) continue
      for (const d of JUDGE_DIMENSIONS) {
        const dim = config.dimensions.find((x) => x.name === d)
        if (!dim || lacksFor(item, dim)) continue
        const payload = JSON.stringify(buildRequest(config, d, item, structured))
        const key = sha256Hex(payload)
        if (seen.has(key)) continue
        seen.add(key)
        if (await cache?.get(key)) {
          cached++
          continue
        }
        requests++
        promptTokens += Math.ceil(Buffer.byteLength(payload, 'utf8') / 4)
      }
    }
    const completionTokens = requests * config.decoding.maxTokens
    return {
      requests,
      cached,
      promptTokens,
      completionTokens,
      cost: costOf(config, { promptTokens, completionTokens }),
      currency: config.prices.currency,
    }
  } finally {
    await opened?.close()
  }
}

/**
 * The judge cost committed in a track and phase (all teams, or one): what its scores recorded
 * (spent) and the estimates held by its judged submissions still queued or being judged (held).
 * Read inside the transaction that takes the next submission, so two uploads at once see each
 * other.
 */
export async function judgeCommitted(
  db: Db,
  track: string,
  phase: string,
  teamId: string | null,
): Promise<{ spent: number; held: number }> {
  let q = db
    .selectFrom('scores')
    .innerJoin('submissions', 'submissions.id', 'scores.submission_id')
    .select('scores.columns')
    .where('submissions.track', '=', track)
    .where('submissions.phase', '=', phase)
  if (teamId !== null) q = q.where('submissions.team_id', '=', teamId)
  let spent = 0
  for (const r of await q.execute()) {
    const c = (JSON.parse(r.columns) as Record<string, number | null>)[ACCOUNTING.cost]
    if (typeof c === 'number' && Number.isFinite(c)) spent += c
  }
  let h = db
    .selectFrom('submissions')
    .select('judge_estimate')
    .where('track', '=', track)
    .where('phase', '=', phase)
    .where('state', 'in', ['queued', 'scoring'])
    .where('judge_estimate', 'is not', null)
  if (teamId !== null) h = h.where('team_id', '=', teamId)
  let held = 0
  for (const r of await h.execute()) held += r.judge_estimate ?? 0
  return { spent, held }
}

function money(x: number, currency: string): string {
  return `${formatFixed(x, 4)} ${currency}`
}

/** A judged submission's cost estimate, made when a budget is set (before it is stored). */
export interface BudgetHold {
  readonly estimate: CostEstimate
  /** The estimate in words, shown with a refusal. */
  readonly report: string
}

/**
 * The estimate a budgeted judged track holds for a submission, or null when the track has no
 * budget (the answers and the data are read only then).
 */
export async function budgetHold(
  ctx: ServerContext,
  track: Track,
  phase: PhaseConfig,
  dir: string,
): Promise<BudgetHold | null> {
  const budget = track.judging?.settings.budget
  if (!budget || (budget.perPhase === undefined && budget.perTeam === undefined)) return null
  const e = await estimateJudgeCost(track, phase, dir, judgeCacheHome(ctx.dataDir, ctx.db))
  const report = `judge cost estimate: ${money(e.cost, e.currency)} for ${e.requests} request(s) not in the judgment cache (${e.cached} cached, free): about ${e.promptTokens} tokens in, at most ${e.completionTokens} out (each reply at the config's max_tokens)\n`
  return { estimate: e, report }
}

/**
 * Why taking a submission with `hold` would break a budget, or null. Committed = spent + held
 * ({@link judgeCommitted}); run it in the transaction that inserts the submission (with its
 * `judge_estimate`), as submissions.ts does, so concurrent uploads cannot both take the last of
 * a budget.
 */
export async function budgetRefusal(
  db: Db,
  track: Track,
  phase: PhaseConfig,
  teamId: string,
  hold: BudgetHold,
): Promise<{ message: string; report: string } | null> {
  const budget = track.judging?.settings.budget
  if (!budget) return null
  const e = hold.estimate
  const checks: [number | undefined, string | null, string][] = [
    [budget.perTeam, teamId, `your team's judge budget for track ${track.id} in phase ${phase.id}`],
    [budget.perPhase, null, `the judge budget of track ${track.id} in phase ${phase.id}`],
  ]
  for (const [limit, team, what] of checks) {
    if (limit === undefined) continue
    const { spent, held } = await judgeCommitted(db, track.id, phase.id, team)
    if (spent + held + e.cost > limit) {
      const pending =
        held > 0 ? ` and ${money(held, e.currency)} held by submissions not yet judged` : ''
      return {
        message: `judging this submission would cost an estimated ${money(e.cost, e.currency)}; with ${money(spent, e.currency)} spent${pending} it would exceed ${what} (${money(limit, e.currency)}); nothing was stored, charged or sent to the judge`,
        report: hold.report,
      }
    }
  }
  return null
}
