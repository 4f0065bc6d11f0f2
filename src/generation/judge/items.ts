/**
 * Judge items (one generated answer to one conversation turn, with what the judge may see) and
 * the exact Chat Completions request built for an item and a dimension. Pure: no I/O.
 *
 * Items JSONL, one object per line:
 * `{"turn_id", "conversation_id"?, "domain"?, "turn_depth"?, "history": [{"role","content"}],
 *   "question", "answer", "passages": [..], "reference"?}`; passages are strings or
 * `{"id"?, "text"}` objects. A missing `conversation_id` / `turn_depth` is taken from a
 * `<conv>_turn_<t>` turn id when it has that form.
 */
import type { JudgeFieldProblem } from '../../errors/judge-issues.js'
import type { DimensionConfig, JudgeConfig, JudgeDimension } from './config.js'

/** One message of the conversation before the judged turn. */
export interface HistoryMessage {
  readonly role: 'user' | 'assistant' | 'system'
  readonly content: string
}

/** A passage the answer may rely on (gold passages for 2b, the run's top 5 for 2c). */
export interface JudgePassage {
  readonly id: string | null
  readonly text: string
}

/** One answer to be judged. */
export interface JudgeItem {
  readonly turnId: string
  readonly conversationId: string
  readonly domain: string | null
  readonly turnDepth: number | null
  readonly history: readonly HistoryMessage[]
  readonly question: string
  /** `null` when the submission has no answer for this turn (scores zero, no request is made). */
  readonly answer: string | null
  readonly passages: readonly JudgePassage[]
  readonly reference: string | null
}

/** Conversation id and depth from a `<conv>_turn_<t>` turn id (split at the last `_turn_`). */
export function splitTurnId(turnId: string): { conversationId: string; depth: number | null } {
  const at = turnId.lastIndexOf('_turn_')
  if (at < 0) return { conversationId: turnId, depth: null }
  const tail = turnId.slice(at + 6)
  return {
    conversationId: turnId.slice(0, at),
    depth: /^[0-9]+$/.test(tail) && Number(tail) >= 1 ? Number(tail) : null,
  }
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 60 ? `${s.slice(0, 57)}...` : s
}

/**
 * Parse one items-JSONL record (already JSON-parsed). Returns the item or the problems (without
 * the place, which the caller adds; worded by `formatJudgeFieldProblem`).
 */
export function parseJudgeItem(
  rec: unknown,
): { ok: true; item: JudgeItem } | { ok: false; problems: JudgeFieldProblem[] } {
  const problems: JudgeFieldProblem[] = []
  const bad = (field: string, expected: string, v: unknown, index?: number): void => {
    problems.push({
      code: 'bad_value',
      field,
      ...(index === undefined ? {} : { index }),
      expected,
      found: v === undefined ? 'nothing' : show(v),
    })
  }
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec))
    return { ok: false, problems: [{ code: 'not_an_object', found: show(rec) }] }
  const o = rec as Record<string, unknown>
  const known = [
    'turn_id',
    'conversation_id',
    'domain',
    'turn_depth',
    'history',
    'question',
    'answer',
    'passages',
    'reference',
  ]
  for (const k of Object.keys(o))
    if (!known.includes(k)) problems.push({ code: 'unknown_field', field: k, known })
  const reqStr = (k: string): string => {
    const v = o[k]
    if (typeof v === 'string' && v !== '') return v
    bad(k, 'a non-empty string', v)
    return ''
  }
  const optStr = (k: string): string | null => {
    const v = o[k]
    if (v === undefined || v === null) return null
    if (typeof v === 'string') return v
    bad(k, 'a string', v)
    return null
  }
  const turnId = reqStr('turn_id')
  const question = reqStr('question')
  let answer: string | null = null
  if (o['answer'] === null) answer = null
  else if (typeof o['answer'] === 'string') answer = o['answer']
  else bad('answer', 'a string (or null for an unanswered turn)', o['answer'])
  const split = splitTurnId(turnId)
  const conversationId = optStr('conversation_id') ?? split.conversationId
  const domain = optStr('domain')
  let turnDepth = split.depth
  if (o['turn_depth'] !== undefined && o['turn_depth'] !== null) {
    const v = o['turn_depth']
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1) turnDepth = v
    else bad('turn_depth', 'an integer ≥ 1', v)
  }
  const history: HistoryMessage[] = []
  const h = o['history'] ?? []
  if (!Array.isArray(h)) bad('history', 'an array of {"role","content"}', h)
  else {
    h.forEach((m, i) => {
      const mm = m as Record<string, unknown> | null
      const role = mm?.['role']
      const content = mm?.['content']
      if (
        (role === 'user' || role === 'assistant' || role === 'system') &&
        typeof content === 'string'
      )
        history.push({ role, content })
      else bad('history', '{"role": "user"|"assistant"|"system", "content": string}', m, i)
    })
  }
  const passages: JudgePassage[] = []
  const p = o['passages'] ?? []
  if (!Array.isArray(p)) bad('passages', 'an array', p)
  else {
    p.forEach((x, i) => {
      if (typeof x === 'string') passages.push({ id: null, text: x })
      else if (
        x &&
        typeof x === 'object' &&
        typeof (x as Record<string, unknown>)['text'] === 'string'
      ) {
        const id = (x as Record<string, unknown>)['id']
        passages.push({
          id: typeof id === 'string' ? id : null,
          text: (x as Record<string, unknown>)['text'] as string,
        })
      } else bad('passages', 'a string or {"id"?, "text"}', x, i)
    })
  }
  const reference = optStr('reference')
  if (problems.length) return { ok: false, problems }
  return {
    ok: true,
    item: {
      turnId,
      conversationId,
      domain,
      turnDepth,
      history,
      question,
      answer,
      passages,
      reference,
    },
  }
}

/** What an item lacks for a dimension (its `requires`), or `null` when it can be judged. */
export function lacksFor(item: JudgeItem, dim: DimensionConfig): string | null {
  for (const r of dim.requires) {
    if (r === 'passages' && item.passages.length === 0)
      return 'no passages to judge faithfulness against'
    if (r === 'reference' && !item.reference) return 'no reference answer'
    if (r === 'history' && item.history.length === 0) return 'no conversation history'
  }
  return null
}

function clip(text: string, max: number): string {
  return max > 0 && text.length > max ? `${text.slice(0, max)} [...]` : text
}

/** The rubric as the prompt shows it: one `N: anchor` line per score. */
export function renderRubric(dim: DimensionConfig): string {
  return dim.rubric.map((a, i) => `${i + 1}: ${a}`).join('\n')
}

/** The values substituted into a template for an item (text shown when a field is empty). */
export function templateValues(
  config: JudgeConfig,
  dim: DimensionConfig,
  item: JudgeItem,
): Record<string, string> {
  const maxP = config.limits.maxPassages
  const shown = maxP > 0 ? item.passages.slice(0, maxP) : item.passages
  return {
    history: item.history.length
      ? item.history
          .map(
            (m) =>
              `${m.role === 'user' ? 'User' : m.role === 'assistant' ? 'Assistant' : 'System'}: ${m.content}`,
          )
          .join('\n')
      : '(no earlier turns)',
    question: item.question,
    answer: item.answer ?? '',
    passages: shown.length
      ? shown
          .map(
            (p, i) =>
              `[${i + 1}]${p.id ? ` (${p.id})` : ''} ${clip(p.text, config.limits.maxPassageChars)}`,
          )
          .join('\n\n')
      : '(no passages)',
    reference: item.reference ?? '(no reference answer)',
    rubric: renderRubric(dim),
    dimension: dim.name,
  }
}

/** Fill `{{placeholders}}`; every placeholder was checked when the config was parsed. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, k: string) => values[k] ?? '')
}

/** A Chat Completions request body (exactly what is sent and hashed). */
export type RequestBody = Readonly<Record<string, unknown>>

/**
 * The request for one item and one dimension. With `structured`, `response_format` is the
 * config's json_schema; without, the server is asked for plain text and the strict parser
 * decides. Decoding values are sent explicitly (servers otherwise apply their own defaults).
 */
export function buildRequest(
  config: JudgeConfig,
  dimension: JudgeDimension,
  item: JudgeItem,
  structured: boolean,
): RequestBody {
  const dim = config.dimensions.find((d) => d.name === dimension)!
  const body: Record<string, unknown> = {
    model: config.model,
    messages: [
      { role: 'system', content: config.systemPrompt },
      { role: 'user', content: fillTemplate(dim.prompt, templateValues(config, dim, item)) },
    ],
    temperature: config.decoding.temperature,
    top_p: config.decoding.topP,
    n: 1,
    [config.decoding.maxTokensField]: config.decoding.maxTokens,
  }
  if (config.decoding.seed !== null) body['seed'] = config.decoding.seed
  if (structured && config.structuredOutput === 'json_schema') {
    body['response_format'] = {
      type: 'json_schema',
      json_schema: { name: 'judgment', schema: config.outputSchema, strict: true },
    }
  }
  return body
}
