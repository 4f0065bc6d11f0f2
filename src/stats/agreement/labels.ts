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
/** ` in domain "x"` for messages, or nothing when there is no domain. */
export const inDomain = (domain: string | null): string =>
  domain === null ? '' : ` in domain ${JSON.stringify(domain)}`

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
  const records: HumanLabel[] = []
  const seen = new Map<string, number>()
  for (const { line, text, value } of lines) {
    const bad = (message: string, expected: string): void => {
      problems.push({ file, line, text: clip(text), message, expected })
    }
    if (!isObject(value)) {
      bad(
        'not a JSON object',
        '{"turn_id", "dimension", "score", "conversation_id"?, "domain"?, "annotator"?}',
      )
      continue
    }
    const before = problems.length
    const extra = Object.keys(value).filter((k) => !HUMAN_FIELDS.has(k))
    if (extra.length)
      bad(
        `unknown field(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}`,
        'only turn_id, dimension, score, conversation_id, domain, annotator',
      )
    const { turn_id: turnId, dimension, score, conversation_id: conv, domain, annotator } = value
    if (!nonEmpty(turnId))
      bad(
        turnId === undefined ? 'missing "turn_id"' : '"turn_id" is not a non-empty string',
        '"turn_id": "<conversation>_turn_<n>"',
      )
    if (!nonEmpty(dimension))
      bad(
        dimension === undefined ? 'missing "dimension"' : '"dimension" is not a non-empty string',
        '"dimension": a dimension name such as "correctness"',
      )
    if (!isScore(score, cats))
      bad(
        score === undefined ? 'missing "score"' : `"score" is ${JSON.stringify(score)}`,
        `"score": an integer in ${scale}`,
      )
    if (conv !== undefined && !nonEmpty(conv))
      bad(
        '"conversation_id" is not a non-empty string',
        '"conversation_id": a string, or no such field',
      )
    if (annotator !== undefined && annotator !== null && !nonEmpty(annotator))
      bad('"annotator" is not a non-empty string', '"annotator": a string, or no such field')
    if (domain !== undefined && domain !== null && !nonEmpty(domain))
      bad(
        `"domain" is ${JSON.stringify(domain)}`,
        '"domain": a non-empty string such as "finance", or no such field',
      )
    let conversationId: string | null = nonEmpty(conv) ? conv : null
    if (conversationId === null && nonEmpty(turnId) && conv === undefined) {
      conversationId = conversationOfTurn(turnId)
      if (conversationId === null)
        bad(
          `no "conversation_id" and turn id ${JSON.stringify(turnId)} is not <conversation>_turn_<n>`,
          'a "conversation_id" field or a turn id of the form <conversation>_turn_<n>',
        )
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
      bad(
        `duplicate label for turn ${JSON.stringify(record.turnId)}${inDomain(record.domain)}, dimension ${JSON.stringify(record.dimension)}${record.annotator ? `, annotator ${JSON.stringify(record.annotator)}` : ''} (first at line ${first})`,
        'one label per annotator, domain, turn and dimension',
      )
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
  const records: JudgmentRecord[] = []
  const seen = new Map<string, number>()
  const extraFields = new Set<string>()
  for (const { line, text, value } of lines) {
    const bad = (message: string, expected: string): void => {
      problems.push({ file, line, text: clip(text), message, expected })
    }
    if (!isObject(value)) {
      bad(
        'not a JSON object',
        '{"turn_id", "conversation_id", "dimension", "score", "status", "config_hash", "attempts", …}',
      )
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
      bad(
        turnId === undefined ? 'missing "turn_id"' : '"turn_id" is not a non-empty string',
        '"turn_id": "<conversation>_turn_<n>"',
      )
    if (conv !== undefined && !nonEmpty(conv))
      bad('"conversation_id" is not a non-empty string', '"conversation_id": a string')
    if (!nonEmpty(dimension))
      bad(
        dimension === undefined ? 'missing "dimension"' : '"dimension" is not a non-empty string',
        '"dimension": a dimension name',
      )
    if (typeof status !== 'string' || !STATUSES.has(status))
      bad(
        status === undefined ? 'missing "status"' : `"status" is ${JSON.stringify(status)}`,
        '"status": "ok", "invalid" or "missing"',
      )
    else if (status === 'ok' && !isScore(score, cats))
      bad(
        score === undefined
          ? 'missing "score"'
          : `"score" is ${JSON.stringify(score)} with status "ok"`,
        `"score": an integer in ${scale} when the status is "ok"`,
      )
    else if (status !== 'ok' && score !== null && score !== undefined)
      bad(
        `"score" is ${JSON.stringify(score)} with status ${JSON.stringify(status)}`,
        `"score": null when the status is "${status}"`,
      )
    if (!nonEmpty(hash))
      bad(
        hash === undefined ? 'missing "config_hash"' : '"config_hash" is not a non-empty string',
        '"config_hash": the content hash of the judge config',
      )
    if (
      attempts !== undefined &&
      !(typeof attempts === 'number' && Number.isInteger(attempts) && attempts >= 0)
    )
      bad(`"attempts" is ${JSON.stringify(attempts)}`, '"attempts": an integer >= 0')
    if (domain !== undefined && domain !== null && typeof domain !== 'string')
      bad(`"domain" is ${JSON.stringify(domain)}`, '"domain": a string or null')
    if (
      depth !== undefined &&
      depth !== null &&
      !(typeof depth === 'number' && Number.isInteger(depth) && depth >= 1)
    )
      bad(`"turn_depth" is ${JSON.stringify(depth)}`, '"turn_depth": an integer >= 1 or null')
    if (rationale !== undefined && rationale !== null && typeof rationale !== 'string')
      bad(`"rationale" is ${JSON.stringify(rationale)}`, '"rationale": a string or null')
    let conversationId: string | null = nonEmpty(conv) ? conv : null
    if (conversationId === null && conv === undefined && nonEmpty(turnId)) {
      conversationId = conversationOfTurn(turnId)
      if (conversationId === null)
        bad(
          `no "conversation_id" and turn id ${JSON.stringify(turnId)} is not <conversation>_turn_<n>`,
          'a "conversation_id" field',
        )
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
      bad(
        `duplicate judgment for turn ${JSON.stringify(record.turnId)}${inDomain(record.domain)}, dimension ${JSON.stringify(record.dimension)} (first at line ${first})`,
        'one judgment per domain, turn and dimension',
      )
      continue
    }
    seen.set(key, line)
    records.push(record)
  }
  return { records, problems, blank, extraFields: [...extraFields].sort() }
}
