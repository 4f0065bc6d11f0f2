/**
 * Spot validation in the database: recording judged items (what judging on the platform
 * writes), drawing a sample into assignments, a rater's queue and choices, and the exports
 * `trecscore judge agreement` reads:
 *
 * - `human-labels.jsonl`: every rater choice, `{"turn_id", "conversation_id", "domain"?,
 *   "dimension", "score", "annotator"}` (annotators as `rater-1`, `rater-2`, … by join order);
 * - `judgments.jsonl`: the judge's judgments of the sampled items (the judgments JSONL);
 * - `human-a.jsonl` / `human-b.jsonl`: the double-annotated share, first raters as labels and
 *   second raters as judgments (`status` ok, `config_hash` `human-second-rater`), so that
 *   `judge agreement --human human-a.jsonl --judgments human-b.jsonl` is human against human.
 *
 * A (turn, submission) item is exported with the turn id `<submission>/<turn id>` (a turn is
 * judged once per submission) and its own conversation id, so the conversation bootstrap
 * resamples conversations across submissions.
 */
import {
  JUDGE_DIMENSIONS,
  type JudgeItem,
  type Judgment,
  judgmentToJson,
  parseJudgeItem,
} from '../../internal.js'
import { newId } from '../auth/tokens.js'
import type { Db } from '../db/database.js'
import { listRaters } from './accounts.js'
import { type DrawnSample, drawSample } from './sample.js'

/** An item as the items JSONL writes it. */
export function itemToJson(item: JudgeItem): Record<string, unknown> {
  return {
    turn_id: item.turnId,
    conversation_id: item.conversationId,
    ...(item.domain !== null ? { domain: item.domain } : {}),
    ...(item.turnDepth !== null ? { turn_depth: item.turnDepth } : {}),
    history: item.history,
    question: item.question,
    answer: item.answer,
    passages: item.passages.map((p) => (p.id === null ? { text: p.text } : p)),
    ...(item.reference !== null ? { reference: item.reference } : {}),
  }
}

/**
 * Record the judged items of a submission (judging calls this once a submission is judged;
 * tests fill the table with it). Judgments pair with items by (domain, turn id); an item
 * without an answer (unanswered turn) is not recorded: there is nothing to rate.
 */
export async function recordJudgedItems(
  db: Db,
  o: {
    track: string
    phase: string
    submissionId: string
    configHash: string
    items: readonly JudgeItem[]
    judgments: readonly Judgment[]
    now: Date
  },
): Promise<number> {
  const byTurn = new Map<string, Judgment[]>()
  for (const j of o.judgments) {
    const k = JSON.stringify([j.domain, j.turnId])
    byTurn.set(k, [...(byTurn.get(k) ?? []), j])
  }
  const rows = o.items
    .filter((it) => it.answer !== null)
    .map((it) => ({
      id: newId(),
      track: o.track,
      phase: o.phase,
      submission_id: o.submissionId,
      turn_id: it.turnId,
      conversation_id: it.conversationId,
      domain: it.domain,
      turn_depth: it.turnDepth,
      item: JSON.stringify(itemToJson(it)),
      judgments: JSON.stringify(
        (byTurn.get(JSON.stringify([it.domain, it.turnId])) ?? []).map(judgmentToJson),
      ),
      config_hash: o.configHash,
      created_at: o.now.toISOString(),
    }))
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('judged_items')
      .values(rows.slice(i, i + 200))
      .execute()
  return rows.length
}

/** The judged items a sample of this track, phase and judge config draws from. */
export async function poolOf(db: Db, track: string, phase: string, configHash: string) {
  return db
    .selectFrom('judged_items')
    .select(['id', 'submission_id', 'domain', 'turn_id', 'turn_depth'])
    .where('track', '=', track)
    .where('phase', '=', phase)
    .where('config_hash', '=', configHash)
    .execute()
}

/** Draw a sample and store it with its assignments; returns its id and the draw. */
export async function storeSample(
  db: Db,
  o: {
    track: string
    phase: string
    size: number
    seed: number
    doubleShare: number
    configHash: string
    configJson: string
    userId: string
    now: Date
  },
): Promise<{ id: string; drawn: DrawnSample }> {
  const pool = await poolOf(db, o.track, o.phase, o.configHash)
  const raters = await listRaters(db)
  const drawn = drawSample(
    pool.map((r) => ({
      id: r.id,
      submission: r.submission_id,
      domain: r.domain,
      turnId: r.turn_id,
      turnDepth: r.turn_depth,
    })),
    { size: o.size, seed: o.seed, doubleShare: o.doubleShare, raters: raters.map((r) => r.id) },
  )
  const id = newId()
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('rating_samples')
      .values({
        id,
        track: o.track,
        phase: o.phase,
        seed: o.seed,
        size: o.size,
        double_share: o.doubleShare,
        config_hash: o.configHash,
        config_json: o.configJson,
        created_by: o.userId,
        created_at: o.now.toISOString(),
      })
      .execute()
    if (drawn.assignments.length)
      await trx
        .insertInto('rating_assignments')
        .values(
          drawn.assignments.map((a) => ({
            id: newId(),
            sample_id: id,
            item_id: a.itemId,
            rater_id: a.raterId,
            position: a.position,
            slot: a.slot,
            skip_reason: null,
            updated_at: null,
          })),
        )
        .execute()
  })
  return { id, drawn }
}

/** One assignment of a rater's queue. */
export interface QueueEntry {
  readonly id: string
  readonly sampleId: string
  readonly skipped: boolean
  readonly rated: number
  readonly done: boolean
}

/** A rater's assignments in order (samples oldest first, then position), with progress. */
export async function raterQueue(db: Db, raterId: string): Promise<QueueEntry[]> {
  const rows = await db
    .selectFrom('rating_assignments')
    .innerJoin('rating_samples', 'rating_samples.id', 'rating_assignments.sample_id')
    .leftJoin('ratings', 'ratings.assignment_id', 'rating_assignments.id')
    .select((eb) => [
      'rating_assignments.id',
      'rating_assignments.sample_id',
      'rating_assignments.skip_reason',
      eb.fn.count<number>('ratings.dimension').as('rated'),
    ])
    .where('rating_assignments.rater_id', '=', raterId)
    .groupBy([
      'rating_assignments.id',
      'rating_assignments.sample_id',
      'rating_assignments.skip_reason',
      'rating_samples.created_at',
      'rating_assignments.position',
    ])
    .orderBy('rating_samples.created_at')
    .orderBy('rating_assignments.sample_id')
    .orderBy('rating_assignments.position')
    .execute()
  return rows.map((r) => {
    const rated = Number(r.rated)
    const skipped = r.skip_reason !== null
    return {
      id: r.id,
      sampleId: r.sample_id,
      skipped,
      rated,
      done: skipped || rated >= JUDGE_DIMENSIONS.length,
    }
  })
}

/** One assignment of this rater with its item and choices, or null (unknown or not theirs). */
export async function raterAssignment(db: Db, raterId: string, assignmentId: string) {
  const a = await db
    .selectFrom('rating_assignments')
    .innerJoin('judged_items', 'judged_items.id', 'rating_assignments.item_id')
    .innerJoin('rating_samples', 'rating_samples.id', 'rating_assignments.sample_id')
    .select([
      'rating_assignments.id',
      'rating_assignments.skip_reason',
      'judged_items.item',
      'rating_samples.config_json',
    ])
    .where('rating_assignments.id', '=', assignmentId)
    .where('rating_assignments.rater_id', '=', raterId)
    .executeTakeFirst()
  if (!a) return null
  const parsed = parseJudgeItem(JSON.parse(a.item))
  if (!parsed.ok) throw new Error(`judged item of assignment ${a.id} does not parse`)
  const ratings = await db
    .selectFrom('ratings')
    .select(['dimension', 'score'])
    .where('assignment_id', '=', a.id)
    .execute()
  return {
    id: a.id,
    skipReason: a.skip_reason,
    item: parsed.item,
    configJson: a.config_json,
    scores: Object.fromEntries(ratings.map((r) => [r.dimension, r.score])) as Record<
      string,
      number
    >,
  }
}

/** Save one choice (insert or replace); false when the assignment is not this rater's. */
export async function saveRating(
  db: Db,
  raterId: string,
  assignmentId: string,
  dimension: string,
  score: number,
  now: Date,
): Promise<boolean> {
  const own = await db
    .selectFrom('rating_assignments')
    .select('id')
    .where('id', '=', assignmentId)
    .where('rater_id', '=', raterId)
    .executeTakeFirst()
  if (!own) return false
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('ratings')
      .where('assignment_id', '=', assignmentId)
      .where('dimension', '=', dimension)
      .execute()
    await trx
      .insertInto('ratings')
      .values({ assignment_id: assignmentId, dimension, score, updated_at: now.toISOString() })
      .execute()
    await trx
      .updateTable('rating_assignments')
      .set({ updated_at: now.toISOString(), skip_reason: null })
      .where('id', '=', assignmentId)
      .execute()
  })
  return true
}

/** Skip an assignment with a reason; false when it is not this rater's. */
export async function skipAssignment(
  db: Db,
  raterId: string,
  assignmentId: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('rating_assignments')
    .set({ skip_reason: reason, updated_at: now.toISOString() })
    .where('id', '=', assignmentId)
    .where('rater_id', '=', raterId)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Everything of a sample the organizer pages and exports need. */
export async function sampleData(db: Db, sampleId: string) {
  const sample = await db
    .selectFrom('rating_samples')
    .selectAll()
    .where('id', '=', sampleId)
    .executeTakeFirst()
  if (!sample) return null
  const assignments = await db
    .selectFrom('rating_assignments')
    .innerJoin('judged_items', 'judged_items.id', 'rating_assignments.item_id')
    .innerJoin('users', 'users.id', 'rating_assignments.rater_id')
    .select([
      'rating_assignments.id',
      'rating_assignments.item_id',
      'rating_assignments.rater_id',
      'rating_assignments.slot',
      'rating_assignments.skip_reason',
      'users.name as rater_name',
      'judged_items.submission_id',
      'judged_items.turn_id',
      'judged_items.conversation_id',
      'judged_items.domain',
      'judged_items.turn_depth',
      'judged_items.judgments',
    ])
    .where('rating_assignments.sample_id', '=', sampleId)
    .execute()
  const ratings = await db
    .selectFrom('ratings')
    .innerJoin('rating_assignments', 'rating_assignments.id', 'ratings.assignment_id')
    .select(['ratings.assignment_id', 'ratings.dimension', 'ratings.score'])
    .where('rating_assignments.sample_id', '=', sampleId)
    .execute()
  const raters = await listRaters(db)
  const alias = new Map(raters.map((r, i) => [r.id, `rater-${i + 1}`]))
  const byAssignment = new Map<string, Map<string, number>>()
  for (const r of ratings) {
    let m = byAssignment.get(r.assignment_id)
    if (!m) byAssignment.set(r.assignment_id, (m = new Map()))
    m.set(r.dimension, r.score)
  }
  const dimOrder = new Map<string, number>(JUDGE_DIMENSIONS.map((d, i) => [d, i]))
  const exportedTurn = (a: { submission_id: string; turn_id: string }): string =>
    `${a.submission_id}/${a.turn_id}`
  const sorted = [...assignments].sort(
    (a, b) =>
      cmp(a.submission_id, b.submission_id) ||
      cmp(a.domain ?? '', b.domain ?? '') ||
      cmp(a.turn_id, b.turn_id) ||
      a.slot - b.slot,
  )
  return {
    sample,
    raters: raters.map((r) => ({ ...r, alias: alias.get(r.id)! })),
    assignments: sorted.map((a) => ({
      ...a,
      alias: alias.get(a.rater_id) ?? a.rater_name,
      scores: [...(byAssignment.get(a.id) ?? new Map<string, number>())].sort(
        (x, y) => (dimOrder.get(x[0]) ?? 99) - (dimOrder.get(y[0]) ?? 99) || cmp(x[0], y[0]),
      ),
      exportedTurn: exportedTurn(a),
    })),
  }
}

export type SampleData = NonNullable<Awaited<ReturnType<typeof sampleData>>>

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const jsonl = (rows: readonly unknown[]): string =>
  rows.map((r) => `${JSON.stringify(r)}\n`).join('')

function label(
  a: SampleData['assignments'][number],
  dimension: string,
  score: number,
): Record<string, unknown> {
  return {
    turn_id: a.exportedTurn,
    conversation_id: a.conversation_id,
    ...(a.domain !== null ? { domain: a.domain } : {}),
    dimension,
    score,
    annotator: a.alias,
  }
}

/** The exports of a sample (see the module comment). */
export function sampleExports(d: SampleData): {
  humanLabels: string
  judgments: string
  humanA: string
  humanB: string
} {
  const labels: unknown[] = []
  const a1: unknown[] = []
  const b2: unknown[] = []
  const doubled = new Set(d.assignments.filter((a) => a.slot === 2).map((a) => a.item_id))
  for (const a of d.assignments) {
    if (a.skip_reason !== null) continue
    for (const [dim, score] of a.scores) {
      labels.push(label(a, dim, score))
      if (!doubled.has(a.item_id)) continue
      if (a.slot === 1) a1.push(label(a, dim, score))
      else
        b2.push({
          turn_id: a.exportedTurn,
          conversation_id: a.conversation_id,
          ...(a.domain !== null ? { domain: a.domain } : {}),
          dimension: dim,
          score,
          status: 'ok',
          config_hash: 'human-second-rater',
          attempts: 0,
        })
    }
  }
  const judgments: unknown[] = []
  const seen = new Set<string>()
  for (const a of d.assignments) {
    if (seen.has(a.item_id)) continue
    seen.add(a.item_id)
    for (const j of JSON.parse(a.judgments) as Record<string, unknown>[])
      judgments.push({ ...j, turn_id: a.exportedTurn, conversation_id: a.conversation_id })
  }
  return {
    humanLabels: jsonl(labels),
    judgments: jsonl(judgments),
    humanA: jsonl(a1),
    humanB: jsonl(b2),
  }
}
