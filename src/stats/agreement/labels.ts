import type { AgreementFinding, AgreementSource } from '../../errors/agreement-issues.js'
import { type AgreementInputProblem, clip, readJsonLines } from './jsonl.js'

/**
 * The two inputs of `judge agreement`, parsed and checked line by line (pure):
 *
 * - human labels: `{"turn_id", "dimension", "score": 1..5, "conversation_id"?, "domain"?, "annotator"?}`;
 *   the conversation id is derived from a `<conv>_turn_<t>` turn id when absent; the domain
 *   (RECOR repeats turn ids such as `2_turn_1` across domains) is null when absent, and such a
 *   label pairs with whichever domain judged the turn, if only one did (see pairing.ts);
 * - judgments (written by `judge run`): `{"turn_id", "conversation_id", "domain"?, "turn_depth"?,
 *   "dimension", "score": 1..5 | null, "status": "ok" | "invalid" | "missing", "rationale"?,
 *   "config_hash", "attempts"}`.
 *
 * Every bad line is a problem with file:line, the text and what was expected; duplicates too.
 * A turn is identified by (domain, turn id), the domain null when absent: a label is a duplicate
 * of another with the same annotator, domain, turn and dimension; a judgment one of another with
 * the same domain, turn and dimension.
 */

export interface HumanLabel {
  readonly line: number
  readonly turnId: string
  readonly conversationId: string
  readonly dimension: string
  readonly score: number
  readonly annotator: string | null
  /** The RECOR domain the turn belongs to, or null when the label does not say. */
  readonly domain: string | null
}

export type JudgmentStatus = 'ok' | 'invalid' | 'missing'

export interface JudgmentRecord {
  readonly line: number
  readonly turnId: string
  readonly conversationId: string
  readonly dimension: string
  readonly score: number | null
  readonly status: JudgmentStatus
  readonly configHash: string
  readonly attempts: number | null
  readonly domain: string | null
  readonly turnDepth: number | null
}

export interface Parsed<T> {
  readonly records: T[]
  readonly problems: AgreementInputProblem[]
  /** Blank lines skipped. */
  readonly blank: number
}

const TURN_ID = /^(.+)_turn_(\d+)$/

/** The conversation id of a `<conv>_turn_<t>` turn id, or null. */
export function conversationOfTurn(turnId: string): string | null {
  const m = TURN_ID.exec(turnId)
  return m ? m[1]! : null
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const isScore = (v: unknown, categories: ReadonlySet<number>): v is number =>
  typeof v === 'number' && categories.has(v)
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== ''

/** Field problems of one source: a missing or non-string field, or a value (missing when undefined). */
function fieldProblems(of: AgreementSource, scale: string) {
  const field = (code: 'missing_field' | 'not_a_string', name: string): AgreementFinding =>
    // one branch per code, so each object is checked against its own member of the union
    code === 'missing_field' ? { code, of, field: name, scale } : { code, of, field: name, scale }
  const valueProblem = (name: string, value: unknown): AgreementFinding =>
    value === undefined
      ? field('missing_field', name)
      : { code: 'bad_value', of, field: name, found: JSON.stringify(value), scale }
  return { field, valueProblem }
}

const HUMAN_FIELDS = new Set([
  'turn_id',
  'dimension',
  'score',
  'conversation_id',
  'domain',
  'annotator',
])

/** Parses human labels; duplicates (same annotator, domain, turn and dimension) are problems. */
export function parseHumanLabels(
  bytes: Uint8Array,
  file: string,
  categories: readonly number[] = [1, 2, 3, 4, 5],
): Parsed<HumanLabel> {
  const { lines, problems, blank } = readJsonLines(bytes, file)
  const cats = new Set(categories)
  const scale = categories.join(', ')
  const of = 'labels'
  const { field, valueProblem } = fieldProblems(of, scale)
  const records: HumanLabel[] = []
  const seen = new Map<string, number>()
  for (const { line, text, value } of lines) {
    const bad = (what: AgreementFinding): void => {
      problems.push({ file, line, text: clip(text), ...what })
    }
    if (!isObject(value)) {
      bad({ code: 'not_an_object', of })
      continue
    }
    const before = problems.length
    const extra = Object.keys(value).filter((k) => !HUMAN_FIELDS.has(k))
    if (extra.length) bad({ code: 'unknown_fields', fields: extra })
    const { turn_id: turnId, dimension, score, conversation_id: conv, domain, annotator } = value
    if (!nonEmpty(turnId))
      bad(field(turnId === undefined ? 'missing_field' : 'not_a_string', 'turn_id'))
    if (!nonEmpty(dimension))
      bad(field(dimension === undefined ? 'missing_field' : 'not_a_string', 'dimension'))
    if (!isScore(score, cats)) bad(valueProblem('score', score))
    if (conv !== undefined && !nonEmpty(conv)) bad(field('not_a_string', 'conversation_id'))
    if (annotator !== undefined && annotator !== null && !nonEmpty(annotator))
      bad(field('not_a_string', 'annotator'))
    if (domain !== undefined && domain !== null && !nonEmpty(domain))
      bad(valueProblem('domain', domain))
    let conversationId: string | null = nonEmpty(conv) ? conv : null
    if (conversationId === null && nonEmpty(turnId) && conv === undefined) {
      conversationId = conversationOfTurn(turnId)
      if (conversationId === null) bad({ code: 'no_conversation', of, turnId })
    }
    if (problems.length > before || conversationId === null) continue
    const record: HumanLabel = {
      line,
      turnId: turnId as string,
      conversationId,
      dimension: dimension as string,
      score: score as number,
      annotator: nonEmpty(annotator) ? annotator : null,
      domain: nonEmpty(domain) ? domain : null,
    }
    const key = JSON.stringify([record.annotator, record.domain, record.turnId, record.dimension])
    const first = seen.get(key)
    if (first !== undefined) {
      bad({
        code: 'duplicate_label',
        turnId: record.turnId,
        domain: record.domain,
        dimension: record.dimension,
        annotator: record.annotator,
        firstLine: first,
      })
      continue
    }
    seen.set(key, line)
    records.push(record)
  }
  return { records, problems, blank }
}

const JUDGMENT_FIELDS = new Set([
  'turn_id',
  'conversation_id',
  'domain',
  'turn_depth',
  'dimension',
  'score',
  'status',
  'rationale',
  'config_hash',
  'attempts',
  'reason',
  'unanswered',
])
const STATUSES = new Set(['ok', 'invalid', 'missing'])

/** Parses judgments; duplicates (same domain, turn and dimension) are problems. Extra fields are allowed (later versions may add some). */
export function parseJudgments(
  bytes: Uint8Array,
  file: string,
  categories: readonly number[] = [1, 2, 3, 4, 5],
): Parsed<JudgmentRecord> & { readonly extraFields: readonly string[] } {
  const { lines, problems, blank } = readJsonLines(bytes, file)
  const cats = new Set(categories)
  const scale = categories.join(', ')
  const of = 'judgments'
  const { field, valueProblem } = fieldProblems(of, scale)
  const records: JudgmentRecord[] = []
  const seen = new Map<string, number>()
  const extraFields = new Set<string>()
  for (const { line, text, value } of lines) {
    const bad = (what: AgreementFinding): void => {
      problems.push({ file, line, text: clip(text), ...what })
    }
    if (!isObject(value)) {
      bad({ code: 'not_an_object', of })
      continue
    }
    for (const k of Object.keys(value)) if (!JUDGMENT_FIELDS.has(k)) extraFields.add(k)
    const before = problems.length
    const {
      turn_id: turnId,
      conversation_id: conv,
      dimension,
      score,
      status,
      config_hash: hash,
      attempts,
      domain,
      turn_depth: depth,
      rationale,
    } = value
    if (!nonEmpty(turnId))
      bad(field(turnId === undefined ? 'missing_field' : 'not_a_string', 'turn_id'))
    if (conv !== undefined && !nonEmpty(conv)) bad(field('not_a_string', 'conversation_id'))
    if (!nonEmpty(dimension))
      bad(field(dimension === undefined ? 'missing_field' : 'not_a_string', 'dimension'))
    if (typeof status !== 'string' || !STATUSES.has(status)) bad(valueProblem('status', status))
    else if (status === 'ok' && !isScore(score, cats))
      bad(
        score === undefined
          ? field('missing_field', 'score')
          : { code: 'score_with_status', found: JSON.stringify(score), status, scale },
      )
    else if (status !== 'ok' && score !== null && score !== undefined)
      bad({ code: 'score_with_status', found: JSON.stringify(score), status, scale })
    if (!nonEmpty(hash))
      bad(field(hash === undefined ? 'missing_field' : 'not_a_string', 'config_hash'))
    if (
      attempts !== undefined &&
      !(typeof attempts === 'number' && Number.isInteger(attempts) && attempts >= 0)
    )
      bad(valueProblem('attempts', attempts))
    if (domain !== undefined && domain !== null && typeof domain !== 'string')
      bad(valueProblem('domain', domain))
    if (
      depth !== undefined &&
      depth !== null &&
      !(typeof depth === 'number' && Number.isInteger(depth) && depth >= 1)
    )
      bad(valueProblem('turn_depth', depth))
    if (rationale !== undefined && rationale !== null && typeof rationale !== 'string')
      bad(valueProblem('rationale', rationale))
    let conversationId: string | null = nonEmpty(conv) ? conv : null
    if (conversationId === null && conv === undefined && nonEmpty(turnId)) {
      conversationId = conversationOfTurn(turnId)
      if (conversationId === null) bad({ code: 'no_conversation', of, turnId })
    }
    if (problems.length > before || conversationId === null) continue
    const record: JudgmentRecord = {
      line,
      turnId: turnId as string,
      conversationId,
      dimension: dimension as string,
      score: status === 'ok' ? (score as number) : null,
      status: status as JudgmentStatus,
      configHash: hash as string,
      attempts: typeof attempts === 'number' ? attempts : null,
      domain: typeof domain === 'string' ? domain : null,
      turnDepth: typeof depth === 'number' ? depth : null,
    }
    const key = JSON.stringify([record.domain, record.turnId, record.dimension])
    const first = seen.get(key)
    if (first !== undefined) {
      bad({
        code: 'duplicate_judgment',
        turnId: record.turnId,
        domain: record.domain,
        dimension: record.dimension,
        firstLine: first,
      })
      continue
    }
    seen.set(key, line)
    records.push(record)
  }
  return { records, problems, blank, extraFields: [...extraFields].sort() }
}
