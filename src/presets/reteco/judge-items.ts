/**
 * The RETECO route (sub-tracks 2b and 2c): judge items built from RECOR data, a submission's
 * answers and, for 2c, its retrieval run.
 *
 * - Target turns: the turns of the split's conversations (`benchmark_<split>.json` of each
 *   `track2_recor/<domain>/`, or the pilot's `benchmark.jsonl`) that are topics of the qrels
 *   (all of them without qrels), keyed by (domain, `<conv>_turn_<t>`). Turn depth = `turn_id`.
 * - History: the earlier turns of the conversation as user question / assistant answer pairs,
 *   the answers being the benchmark's own (as RECOR's `conversation_history` holds them).
 * - Reference: the turn's benchmark `answer`.
 * - Passages: 2b the turn's `gold_doc_ids` (in that order); 2c the participant's top 5 for the
 *   turn, ordered as the RETECO plan orders runs (ids not in the domain's `documents.jsonl`
 *   dropped first, score descending after float32 rounding, ties by doc id descending in byte
 *   order, then line order; repeated ids after the first dropped).
 * - Answers: the submission layout `validate --preset reteco-2b|reteco-2c` checks (a directory
 *   with one `<domain>.jsonl` of `{"turn_id", "answer"}` lines per domain, or one file when the
 *   data has a single domain), validated by it first: any error stops the run. Target turns are
 *   the validator's (the turns in the split's qrels, or every turn without qrels). A target turn
 *   without an answer is kept with `answer: null` (it scores zero and is counted).
 */
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import type { JudgeItemsRoute } from '../../generation/judge/commands.js'
import { ioReason, JudgeInputError } from '../../generation/judge/errors.js'
import { readJsonlFile } from '../../generation/judge/files.js'
import type { HistoryMessage, JudgeItem, JudgePassage } from '../../generation/judge/items.js'
import { decodeId } from '../../io/bytes.js'
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../io/jsonl.js'
import { readAll } from '../../io/source.js'
import { loadRetecoData } from './data.js'
import { readRetecoRun } from './runs.js'
import type { RetecoDomainData } from './types.js'
import { expectedTopics } from './validate.js'
import { validateRetecoAnswers } from './validate-answers.js'
import { renderRetecoAnswersText } from './validate-answers-render.js'

/** `reteco-2b` (gold passages) or `reteco-2c` (the run's top 5). */
export type RetecoJudgePreset = 'reteco-2b' | 'reteco-2c'

/** Options of {@link buildRetecoItems}. */
export interface RetecoItemsOptions {
  readonly preset: RetecoJudgePreset
  readonly data: string
  readonly answers: string
  /** 2c: the submission's retrieval run (TREC file or per-domain directory). */
  readonly retrieval?: string | null
  readonly split?: string
  readonly domains?: readonly string[]
  /** Passages per turn for 2c. @default 5 */
  readonly topK?: number
}

/** What the route found besides the items. */
export interface RetecoItemsSummary {
  readonly targetTurns: number
  readonly answered: number
  /** Target turns with no answer (scored 0). */
  readonly unanswered: number
  /** Answer lines whose turn is not a target turn (ignored), with their lines. */
  readonly unknownAnswers: readonly string[]
  /** 2c: turns with fewer than topK passages after cleaning (turn id → count). */
  readonly shortRetrieval: ReadonlyMap<string, number>
  /** Passage ids not found in the corpus (2b gold ids; 2c ids are dropped before the cut). */
  readonly passagesNotFound: number
  readonly domains: readonly string[]
  /** Warnings of the submission validator (missing turns, empty answers, stray files). */
  readonly validationWarnings: number
}

interface RawTurn {
  turnId: number
  query: string
  answer: string
  gold: string[]
}

async function readBenchmarkTexts(
  d: RetecoDomainData,
  layout: string,
  split: string,
): Promise<Map<string, RawTurn[]>> {
  const out = new Map<string, RawTurn[]>()
  const add = (rec: Record<string, unknown>): void => {
    const task = typeof rec['task'] === 'string' ? (rec['task'] as string).toLowerCase() : ''
    if (layout === 'pilot' && (task || 'pilot') !== d.domain) return
    const id = typeof rec['id'] === 'string' ? (rec['id'] as string) : String(rec['id'])
    const turns = Array.isArray(rec['turns'])
      ? (rec['turns'] as unknown[]).filter(
          (t): t is Record<string, unknown> => t !== null && typeof t === 'object',
        )
      : []
    out.set(
      id,
      turns.map((t) => ({
        turnId: Number(t['turn_id']),
        query: typeof t['query'] === 'string' ? (t['query'] as string) : '',
        answer: typeof t['answer'] === 'string' ? (t['answer'] as string) : '',
        gold: (Array.isArray(t['gold_doc_ids'])
          ? t['gold_doc_ids']
          : Array.isArray(t['supporting_doc_ids'])
            ? t['supporting_doc_ids']
            : []
        ).filter((x: unknown): x is string => typeof x === 'string'),
      })),
    )
  }
  if (layout === 'pilot') {
    const problems = await readJsonlFile(
      join(d.dir, 'benchmark.jsonl'),
      (v) => void add(v as Record<string, unknown>),
    )
    if (problems.length) throw new JudgeInputError(problems)
  } else {
    const file = join(d.dir, `benchmark_${split}.json`)
    let arr: unknown
    try {
      const st = await fsp.stat(file)
      if (!st.isFile())
        throw new JudgeInputError([{ code: 'recor_not_a_file', file, domain: d.domain, split }])
      arr = JSON.parse((await readAll(file)).toString('utf8')) as unknown
    } catch (e) {
      if (e instanceof JudgeInputError) throw e
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT')
        throw new JudgeInputError([{ code: 'recor_missing', file, domain: d.domain, split }])
      throw new JudgeInputError([{ code: 'recor_unreadable', file, reason: ioReason(e) }])
    }
    if (!Array.isArray(arr) || jsonDeeperThan(arr, MAX_JSON_DEPTH))
      throw new JudgeInputError([
        {
          code: 'recor_not_an_array',
          file,
          tooDeep: Array.isArray(arr),
          limit: MAX_JSON_DEPTH,
        },
      ])
    for (const rec of arr)
      if (rec !== null && typeof rec === 'object') add(rec as Record<string, unknown>)
  }
  return out
}

/** Texts of the wanted documents of a corpus file (streamed; others skipped). */
async function readDocuments(
  file: string | null,
  wanted: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  if (!file || wanted.size === 0) return out
  const problems = await readJsonlFile(file, (v) => {
    const o = v as Record<string, unknown>
    const id = o?.['doc_id'] ?? o?.['id']
    if (typeof id === 'string' && wanted.has(id) && typeof o['content'] === 'string')
      out.set(id, o['content'] as string)
  })
  if (problems.length) throw new JudgeInputError(problems)
  return out
}

function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

/** Build judge items for every target turn. */
export async function buildRetecoItems(
  options: RetecoItemsOptions,
): Promise<{ items: JudgeItem[]; summary: RetecoItemsSummary }> {
  const split = options.split ?? 'dev'
  if (options.preset === 'reteco-2c' && !options.retrieval)
    throw new JudgeInputError([{ code: 'reteco_2c_needs_retrieval' }])
  if (options.preset === 'reteco-2b' && options.retrieval)
    throw new JudgeInputError([{ code: 'reteco_2b_retrieval' }])
  const data = await loadRetecoData(options.data, {
    split,
    tracks: ['track2_recor'],
    ...(options.domains ? { domains: options.domains } : {}),
  })
  if (data.track2.size === 0)
    throw new JudgeInputError([{ code: 'no_recor_conversations', dir: options.data }])
  const topK = options.topK ?? 5

  // Answers: validated first by the submission validator (every problem at once; errors stop
  // here, warnings such as missing turns or empty answers do not), then read per domain.
  const validation = await validateRetecoAnswers(options.answers, {
    subtrack: options.preset === 'reteco-2c' ? '2c' : '2b',
    data: options.data,
    split,
    ...(options.retrieval ? { retrieval: options.retrieval } : {}),
  })
  if (validation.errors > 0) {
    throw new JudgeInputError([
      {
        code: 'answers_not_judged',
        file: options.answers,
        report: renderRetecoAnswersText(validation).trimEnd(),
        errors: validation.errors,
        preset: options.preset,
      },
    ])
  }
  const answers = new Map<string, string>()
  const unknownAnswers: string[] = []
  const targetsOf = new Map<string, Set<string>>()
  for (const [dom, dd] of data.track2)
    targetsOf.set(dom, new Set(expectedTopics(dd, '2a').map(decodeId)))
  for (const dv of validation.domains) {
    if (!dv.file || !targetsOf.has(dv.domain)) continue
    const targets = targetsOf.get(dv.domain)!
    const problems = await readJsonlFile(dv.file, (v, line) => {
      const o = v as Record<string, unknown>
      const tid = o?.['turn_id']
      const ans = o?.['answer']
      if (typeof tid !== 'string' || typeof ans !== 'string') return
      if (!targets.has(tid)) unknownAnswers.push(`${dv.file}:${line}: ${tid}`)
      else if (!answers.has(`${dv.domain}\u0000${tid}`))
        answers.set(`${dv.domain}\u0000${tid}`, ans)
    })
    if (problems.length) throw new JudgeInputError(problems)
  }
  const warnings = validation.warnings

  // 2c: the run.
  const run =
    options.preset === 'reteco-2c'
      ? await readRetecoRun(options.retrieval!, { domains: data.track2, subtrack: '2c' })
      : null
  if (run) {
    const bad = [...run.domains.values()].flatMap((f) =>
      f.parseErrors.map((problem) => ({ code: 'retrieval_run', problem }) as const),
    )
    if (bad.length) throw new JudgeInputError(bad)
  }

  const items: JudgeItem[] = []
  const shortRetrieval = new Map<string, number>()
  let notFound = 0
  for (const [dom, d] of data.track2) {
    const texts = await readBenchmarkTexts(d, data.layout, split)
    const runFile = run?.domains.get(dom) ?? null
    // Passage ids wanted per turn (2c: every run candidate of a target turn; cut after cleaning).
    const candidates = new Map<string, { id: string; score: number; line: number }[]>()
    const wanted = new Set<string>()
    for (const c of d.conversations) {
      for (const t of c.turns) {
        if (run) {
          const rt = runFile?.topics.get(t.topicId)
          const list = rt
            ? rt.docIds.map((id, i) => ({
                id: decodeId(id),
                score: Math.fround(rt.scores[i]!),
                line: rt.lines[i]!,
              }))
            : []
          candidates.set(t.topicId, list)
          for (const x of list) wanted.add(x.id)
        } else for (const g of t.goldDocIds) wanted.add(decodeId(g))
      }
    }
    const docs = await readDocuments(d.corpusFile, wanted)
    for (const c of d.conversations) {
      const convId = decodeId(c.id)
      const raw = texts.get(convId) ?? []
      const history: HistoryMessage[] = []
      for (const t of [...c.turns].sort((a, b) => a.turnId - b.turnId)) {
        const tid = decodeId(t.topicId)
        const rt = raw.find((x) => x.turnId === t.turnId)
        const target = targetsOf.get(dom)!.has(tid)
        let passages: JudgePassage[]
        if (run) {
          const list = (candidates.get(t.topicId) ?? []).filter((x) => docs.has(x.id))
          list.sort((a, b) => b.score - a.score || byteCompare(b.id, a.id) || a.line - b.line)
          const seen = new Set<string>()
          passages = []
          for (const x of list) {
            if (seen.has(x.id)) continue
            seen.add(x.id)
            passages.push({ id: x.id, text: docs.get(x.id)! })
            if (passages.length === topK) break
          }
          if (passages.length < topK) shortRetrieval.set(tid, passages.length)
        } else {
          passages = []
          for (const g of t.goldDocIds.map(decodeId)) {
            const text = docs.get(g)
            if (text === undefined) notFound++
            else passages.push({ id: g, text })
          }
        }
        const a = answers.get(`${dom}\u0000${tid}`)
        if (target)
          items.push({
            turnId: tid,
            conversationId: convId,
            domain: dom,
            turnDepth: t.turnId,
            history: [...history],
            question: rt?.query ?? '',
            answer: a ?? null,
            passages,
            reference: rt?.answer || null,
          })
        history.push(
          { role: 'user', content: rt?.query ?? '' },
          { role: 'assistant', content: rt?.answer ?? '' },
        )
      }
    }
  }
  const answered = items.filter((i) => i.answer !== null).length
  return {
    items,
    summary: {
      targetTurns: items.length,
      answered,
      unanswered: items.length - answered,
      unknownAnswers,
      shortRetrieval,
      passagesNotFound: notFound,
      domains: [...data.track2.keys()],
      validationWarnings: warnings,
    },
  }
}

/** `judge run|batch submit --preset reteco-2b|reteco-2c`: {@link buildRetecoItems}, with the notes the report prints. */
export const retecoJudgeItemsRoute: JudgeItemsRoute = {
  presets: ['reteco-2b', 'reteco-2c'] satisfies readonly RetecoJudgePreset[],
  async build(o) {
    const preset = o.preset as RetecoJudgePreset
    const r = await buildRetecoItems({
      preset,
      data: o.data,
      answers: o.answers,
      retrieval: o.retrieval,
      ...(o.split ? { split: o.split } : {}),
      ...(o.domains ? { domains: o.domains } : {}),
    })
    const s = r.summary
    const notes: string[] = []
    notes.push(
      `target turns: ${s.targetTurns}, answered ${s.answered}, unanswered ${s.unanswered} (scored 0 on every dimension)`,
    )
    notes.push(
      `answers validated as \`trecscore validate --preset ${preset}\` does: no errors, ${s.validationWarnings} warning(s) (missing turns, empty answers, stray files)`,
    )
    if (s.unknownAnswers.length)
      notes.push(
        `answers for turns that are not target turns, ignored: ${s.unknownAnswers.length} (${s.unknownAnswers.slice(0, 5).join('; ')}${s.unknownAnswers.length > 5 ? '; …' : ''})`,
      )
    if (s.shortRetrieval.size)
      notes.push(
        `turns with fewer than 5 retrieved passages in the corpus: ${s.shortRetrieval.size}`,
      )
    if (s.passagesNotFound)
      notes.push(
        `gold passages not found in the corpus (not shown to the judge): ${s.passagesNotFound}`,
      )
    return {
      items: r.items,
      source: `${preset} on ${o.data} (domains ${s.domains.join(', ')}), answers ${o.answers}${o.retrieval ? `, retrieval ${o.retrieval}` : ''}`,
      notes,
    }
  },
}
