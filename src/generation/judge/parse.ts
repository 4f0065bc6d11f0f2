/**
 * The strict parser of a judge reply. Pure: no I/O.
 *
 * A reply is well formed when the completion's `message.content`, with surrounding whitespace
 * removed, is exactly one JSON object whose `score` is an integer 1..5 (a JSON number with no
 * fraction or exponent), whose `rationale` (when present) is a string, and which has no other
 * field. Everything else is *malformed*, with a reason: no choices, a refusal, `finish_reason`
 * `length` or `content_filter`, empty content, text around the object, invalid JSON, a missing,
 * fractional, string or out-of-range score, extra fields. Malformed replies are re-asked with the
 * identical request (see the client); nothing is repaired or guessed.
 */

/** Token usage of one response (`usage`), zeros when the server sent none. */
export interface Usage {
  readonly promptTokens: number
  readonly completionTokens: number
}

/** What one completion response says. */
export type ParsedReply =
  | {
      readonly kind: 'ok'
      readonly score: 1 | 2 | 3 | 4 | 5
      readonly rationale: string | null
      readonly content: string
    }
  | { readonly kind: 'malformed'; readonly reason: string; readonly content: string | null }

/** `usage` of a response body (missing or odd values count as 0). */
export function usageOf(body: unknown): Usage {
  const u = (body as Record<string, unknown> | null)?.['usage'] as
    | Record<string, unknown>
    | undefined
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0)
  return { promptTokens: n(u?.['prompt_tokens']), completionTokens: n(u?.['completion_tokens']) }
}

/** A non-number score as a reason shows it: scalars as JSON (clipped), arrays and objects by kind (never walked: a reply may nest them 100,000 deep). */
function shownScore(s: unknown): string {
  if (s !== null && typeof s === 'object') return Array.isArray(s) ? 'an array' : 'an object'
  const t = JSON.stringify(s) ?? String(s)
  return t.length > 60 ? `${t.slice(0, 57)}...` : t
}

/** Parse the content string alone (the strict rule above). */
export function parseJudgeContent(content: string): ParsedReply {
  const text = content.trim()
  if (text === '') return { kind: 'malformed', reason: 'empty content', content }
  if (!text.startsWith('{') || !text.endsWith('}'))
    return { kind: 'malformed', reason: 'not exactly one JSON object (text around it)', content }
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return { kind: 'malformed', reason: 'invalid JSON', content }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return { kind: 'malformed', reason: 'not a JSON object', content }
  const o = v as Record<string, unknown>
  const extra = Object.keys(o).filter((k) => k !== 'score' && k !== 'rationale')
  if (extra.length)
    return {
      kind: 'malformed',
      reason: `unexpected field(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}`,
      content,
    }
  if (!('score' in o)) return { kind: 'malformed', reason: 'no "score"', content }
  const s = o['score']
  if (typeof s !== 'number')
    return { kind: 'malformed', reason: `score is not a number (${shownScore(s)})`, content }
  // The literal must be a plain integer: 4.0 or 4e0 are not integers in the schema's sense.
  const literal = /"score"\s*:\s*(-?[0-9.eE+-]+)/.exec(text)?.[1]
  if (!Number.isInteger(s) || (literal !== undefined && !/^-?[0-9]+$/.test(literal)))
    return { kind: 'malformed', reason: `score is not an integer (${literal ?? s})`, content }
  if (s < 1 || s > 5)
    return { kind: 'malformed', reason: `score out of range 1..5 (${s})`, content }
  const r = o['rationale']
  if (r !== undefined && r !== null && typeof r !== 'string')
    return { kind: 'malformed', reason: 'rationale is not a string', content }
  return {
    kind: 'ok',
    score: s as 1 | 2 | 3 | 4 | 5,
    rationale: typeof r === 'string' ? r : null,
    content,
  }
}

/** Interpret a Chat Completions response body (already JSON-parsed). */
export function parseCompletion(body: unknown): ParsedReply {
  const choices = (body as Record<string, unknown> | null)?.['choices']
  if (!Array.isArray(choices) || choices.length === 0)
    return { kind: 'malformed', reason: 'no choices in the response', content: null }
  const c = choices[0] as Record<string, unknown> | null
  const msg = c?.['message'] as Record<string, unknown> | undefined
  const content = typeof msg?.['content'] === 'string' ? (msg['content'] as string) : null
  const refusal = msg?.['refusal']
  if (typeof refusal === 'string' && refusal !== '')
    return { kind: 'malformed', reason: `refusal: ${refusal.slice(0, 120)}`, content }
  const finish = c?.['finish_reason']
  if (finish === 'length')
    return { kind: 'malformed', reason: 'truncated (finish_reason "length")', content }
  if (finish === 'content_filter')
    return { kind: 'malformed', reason: 'content filter (finish_reason "content_filter")', content }
  if (content === null) return { kind: 'malformed', reason: 'no message content', content: null }
  return parseJudgeContent(content)
}
