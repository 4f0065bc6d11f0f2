/**
 * RETECO topic ids: Track 2 turn topics `<conv_id>_turn_<turn_id>` (and the pilot's
 * `<conv_id>#turn<n>`), their depth buckets, and Track 1 step ids `<query_id>_step<n>`.
 */

/** Turn-depth buckets of Track 2, in display order; `T?` holds ids that cannot be parsed. */
export const TURN_BUCKETS = ['T1', 'T2', 'T3', 'T4', 'T5+', 'T?'] as const

/** A Track 2 turn-depth bucket. */
export type TurnBucket = (typeof TURN_BUCKETS)[number]

/** Conversation id and turn number of a turn topic. */
export interface TurnTopic {
  readonly conversationId: string
  /** `null` when the part after the last `_turn_` is not a plain non-negative integer. */
  readonly turnId: number | null
}

/**
 * Split a turn topic id at its **last** `_turn_` (as RETECO `scorer.turn_bucket` does):
 * `ex_4102_turn_3` → (`ex_4102`, 3). Without `_turn_` the whole id is the conversation and the
 * turn is unknown.
 */
export function parseTurnTopic(topicId: string): TurnTopic {
  const at = topicId.lastIndexOf('_turn_')
  if (at < 0) return { conversationId: topicId, turnId: null }
  const tail = topicId.slice(at + 6)
  return {
    conversationId: topicId.slice(0, at),
    turnId: /^[0-9]+$/.test(tail) ? Number(tail) : null,
  }
}

/** Depth bucket of a turn number: T1..T4, T5+ for ≥ 5, `T?` when unknown (or below 1). */
export function turnBucket(turnId: number | null): TurnBucket {
  if (turnId === null || turnId < 1) return 'T?'
  return turnId >= 5 ? 'T5+' : (`T${turnId}` as TurnBucket)
}

/** The release form `<conv>_turn_<n>` of a pilot topic `<conv>#turn<n>`; other ids unchanged. */
export function normalizeTurnTopic(topicId: string): string {
  const m = /^(.*)#turn([0-9]+)$/.exec(topicId)
  return m ? `${m[1]}_turn_${m[2]}` : topicId
}

/** The query id of a step topic `<query_id>_step<n>`, or `null` when the id has no such suffix. */
export function stepQueryOf(stepId: string): string | null {
  const m = /^(.*)_step[0-9]+$/.exec(stepId)
  return m ? m[1]! : null
}
