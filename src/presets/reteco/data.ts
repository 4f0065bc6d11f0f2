/**
 * Loaders for RETECO data directories, in the release layout (`track1_tempo/<domain>/…`,
 * `track2_recor/<domain>/…`, `split_manifest.json`) and in the organizers' flat pilot layout
 * (`docs/sample_data`: `tempo/`, `recor/`). See `types.ts` for what each file becomes.
 *
 * Release files per Track 1 domain: `documents.jsonl` `{id, content}`, `examples_<split>.jsonl`
 * `{id, query, gold_ids, gold_answers}`, `steps_<split>.jsonl` `{id, query, steps: [{step_id,
 * step, step_instruction, gold_ids}]}`, `guidance_<split>.jsonl` `{id, query_guidance,
 * gold_passage_annotations}`, `qrels_<split>.txt` and `qrels_steps_<split>.txt` (`qid 0 docid 1`).
 * Per Track 2 domain: `documents.jsonl` `{doc_id, content}`, `benchmark_<split>.json` (one JSON
 * array of conversations), `qrels_<split>.txt` (topics `<conv_id>_turn_<turn_id>`).
 *
 * Only ids and labels are kept. Corpora are never loaded here: {@link readCorpusIds} streams a
 * `documents.jsonl` and keeps ids only (the real corpus has 1.65M documents).
 */
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import { formatIssue } from '../../errors/format-issue.js'
import { InputError } from '../../errors/trecscore-error.js'
import { decodeId, encodeId } from '../../io/bytes.js'
import { jsonlStream } from '../../io/jsonl.js'
import { inputLimits, readAll, readChunks } from '../../io/source.js'
import { parseQrels } from '../../io/trec-qrels.js'
import type { Qrels, QueryJudgments } from '../../model/types.js'
import { RetecoInputError } from './errors.js'
import { forEachLine, isBlank } from './read-lines.js'
import { normalizeTurnTopic } from './topics.js'
import type {
  ManifestDomain,
  RetecoData,
  RetecoDomainData,
  RetecoLayout,
  RetecoTrack,
  SplitManifest,
  Track1Guidance,
  Track1Query,
  Track1Step,
  Track1StepRecord,
  Track2Conversation,
  Track2Turn,
} from './types.js'

/** Options of {@link loadRetecoData}. */
export interface LoadRetecoOptions {
  /** Split to read (`train`, `dev`, `test`, …). Ignored by the pilot layout. @default 'dev' */
  readonly split?: string
  /** Tracks to read. @default both */
  readonly tracks?: readonly RetecoTrack[]
  /** Only these domains (names as the folders); an unknown name is an error. @default all */
  readonly domains?: readonly string[]
}

async function exists(path: string): Promise<boolean> {
  try {
    await fsp.stat(path)
    return true
  } catch {
    return false
  }
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await fsp.stat(path)).isDirectory()
  } catch {
    return false
  }
}

/**
 * Which layout a data directory has: `release` when it holds `track1_tempo/` or `track2_recor/`,
 * `pilot` when it (or its `tempo/` / `recor/` subfolder) holds `examples.jsonl` or
 * `benchmark.jsonl`; `null` otherwise.
 */
export async function detectRetecoLayout(root: string): Promise<RetecoLayout | null> {
  if ((await isDir(join(root, 'track1_tempo'))) || (await isDir(join(root, 'track2_recor'))))
    return 'release'
  for (const f of [
    'examples.jsonl',
    'benchmark.jsonl',
    'tempo/examples.jsonl',
    'recor/benchmark.jsonl',
  ]) {
    if (await exists(join(root, f))) return 'pilot'
  }
  return null
}

const KEY_ID = Buffer.from('"id"')
const KEY_DOC_ID = Buffer.from('"doc_id"')

function skipSpace(buf: Buffer, i: number, end: number): number {
  while (i < end && (buf[i] === 0x20 || buf[i] === 0x09 || buf[i] === 0x0d)) i++
  return i
}

/**
 * The id of a record that starts `{"id": "…"` or `{"doc_id": "…"` (no escapes in the id), read
 * from the bytes without decoding or parsing the (possibly long) text after it; `null` otherwise.
 */
function leadingId(buf: Buffer, start: number, end: number): string | null {
  let i = skipSpace(buf, start, end)
  if (buf[i] !== 0x7b) return null
  i = skipSpace(buf, i + 1, end)
  const key = buf[i + 1] === 0x69 ? KEY_ID : KEY_DOC_ID
  if (end - i < key.length || buf.compare(key, 0, key.length, i, i + key.length) !== 0) return null
  i = skipSpace(buf, i + key.length, end)
  if (buf[i] !== 0x3a) return null
  i = skipSpace(buf, i + 1, end)
  if (buf[i] !== 0x22) return null
  const s = ++i
  while (i < end && buf[i] !== 0x22) {
    if (buf[i] === 0x5c) return null
    i++
  }
  return i < end ? buf.toString('latin1', s, i) : null
}

/**
 * Stream a `documents.jsonl` and return its document ids (key `id`, or `doc_id` for Track 2) as
 * binary strings. Text is never kept: a record whose id comes first is not even parsed; others
 * are parsed one line at a time. With `only`, just the ids in that set are kept (membership
 * tests for a run's documents over a huge corpus). Blank lines are skipped; a line that is not
 * a JSON object with a string id is an error (`file:line`).
 */
export async function readCorpusIds(
  file: string,
  options: { readonly only?: ReadonlySet<string> } = {},
): Promise<Set<string>> {
  const ids = new Set<string>()
  const problems: string[] = []
  const only = options.only
  await forEachLine(file, (buf, start, end, line) => {
    if (isBlank(buf, start, end)) return
    let id = leadingId(buf, start, end)
    if (id === null) {
      try {
        const rec = JSON.parse(buf.toString('utf8', start, end)) as Record<string, unknown>
        const v = rec?.['id'] ?? rec?.['doc_id']
        if (typeof v === 'string') id = encodeId(v)
      } catch {
        id = null
      }
    }
    if (id === null) {
      if (problems.length < 50)
        problems.push(
          `${file}:${line}: expected a JSON object with a string "id" or "doc_id", found ${JSON.stringify(buf.toString('utf8', start, Math.min(end, start + 80)))}`,
        )
      return
    }
    if (!only || only.has(id)) ids.add(id)
  })
  if (problems.length) throw new RetecoInputError(problems)
  return ids
}

/**
 * Parse every non-blank line of a JSONL file as a JSON object, through the one JSONL reader
 * (`io/jsonl.ts`: physical line numbers, CRLF, a BOM dropped, strict UTF-8, the line limit);
 * errors name file:line.
 */
/** Problem lines of one JSONL file kept in full (as many as an error lists); the rest are counted. */
const MAX_LISTED = 50

export async function readJsonl(
  file: string,
  onRecord: (rec: Record<string, unknown>, line: number) => void,
): Promise<void> {
  const problems: string[] = []
  // Listed up to MAX_LISTED, every one counted (a file of junk lines stays bounded in memory).
  let unlisted = 0
  const problem = (text: string): void => {
    if (problems.length < MAX_LISTED) problems.push(text)
    else unlisted++
  }
  const limits = inputLimits()
  const lines = jsonlStream(readChunks(file, limits), { maxLineBytes: limits.maxLineBytes })
  for await (const l of lines) {
    const at = `${file}:${l.line}`
    if (l.kind === 'blank') continue
    if (l.kind === 'too_long')
      throw new InputError([
        { code: 'line_too_long', file, line: l.line, limit: limits.maxLineBytes },
      ])
    if (l.kind === 'invalid_utf8') {
      problem(`${at}: not valid UTF-8 (${JSON.stringify(l.text.slice(0, 80))})`)
      continue
    }
    if (l.kind === 'invalid_json') {
      problem(`${at}: not valid JSON (${l.error})`)
      continue
    }
    const rec = l.value
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) {
      problem(`${at}: expected a JSON object`)
      continue
    }
    try {
      onRecord(rec as Record<string, unknown>, l.line)
    } catch (e) {
      problem(`${at}: ${(e as Error).message}`)
    }
  }
  if (problems.length) throw new RetecoInputError(problems, unlisted)
}

function str(rec: Record<string, unknown>, key: string): string {
  const v = rec[key]
  if (typeof v === 'string') return encodeId(v)
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  throw new Error(
    `expected a string "${key}", found ${JSON.stringify(v)?.slice(0, 80) ?? 'nothing'}`,
  )
}

function idList(rec: Record<string, unknown>, key: string): string[] {
  const v = rec[key]
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) throw new Error(`expected "${key}" to be an array of ids`)
  return v.map((x) => {
    if (typeof x !== 'string')
      throw new Error(`expected "${key}" to hold strings, found ${JSON.stringify(x)}`)
    return encodeId(x)
  })
}

async function readQrelsFile(file: string): Promise<Qrels> {
  const r = parseQrels(await readAll(file), { file })
  if (!r.ok) throw new RetecoInputError(r.issues.map(formatIssue))
  return r.value
}

const EMPTY_QRELS: Qrels = { queries: new Map(), commentLines: 0, judgmentLines: 0 }

/** The part of `qrels` whose topics satisfy `keep`, topic ids optionally renamed. */
function subQrels(
  qrels: Qrels,
  keep: (topicId: string) => boolean,
  rename: (topicId: string) => string = (t) => t,
): Qrels {
  const queries = new Map<string, QueryJudgments>()
  let lines = 0
  for (const [id, q] of qrels.queries) {
    if (!keep(id)) continue
    const to = rename(id)
    queries.set(to, to === id ? q : { ...q, queryId: to })
    lines += q.grades.size + q.duplicateDocs.length
  }
  return { queries, commentLines: 0, judgmentLines: lines }
}

async function readExamples(file: string): Promise<Track1Query[]> {
  const out: Track1Query[] = []
  if (!(await exists(file))) return out
  await readJsonl(file, (rec, line) =>
    out.push({ id: str(rec, 'id'), goldIds: idList(rec, 'gold_ids'), line }),
  )
  return out
}

async function readSteps(file: string): Promise<Map<string, Track1StepRecord>> {
  const out = new Map<string, Track1StepRecord>()
  if (!(await exists(file))) return out
  await readJsonl(file, (rec, line) => {
    const queryId = str(rec, 'id')
    const raw = rec['steps']
    if (raw === undefined) {
      out.set(queryId, { queryId, steps: [], flat: true, line })
      return
    }
    if (!Array.isArray(raw)) throw new Error('expected "steps" to be an array')
    const steps: Track1Step[] = raw.map((s: unknown, i) => {
      if (s === null || typeof s !== 'object') throw new Error(`steps[${i}] is not an object`)
      const o = s as Record<string, unknown>
      const n = o['step']
      return {
        stepId: str(o, 'step_id'),
        step: typeof n === 'number' ? n : null,
        goldIds: idList(o, 'gold_ids'),
      }
    })
    out.set(queryId, { queryId, steps, flat: false, line })
  })
  return out
}

async function readGuidance(file: string): Promise<Map<string, Track1Guidance>> {
  const out = new Map<string, Track1Guidance>()
  if (!(await exists(file))) return out
  await readJsonl(file, (rec, line) => {
    const g = (rec['query_guidance'] ?? {}) as Record<string, unknown>
    const cls = g['temporal_reasoning_class_primary']
    const temporal = g['is_temporal_query']
    const ann = rec['gold_passage_annotations']
    out.set(str(rec, 'id'), {
      queryId: str(rec, 'id'),
      isTemporalQuery: typeof temporal === 'boolean' ? temporal : null,
      reasoningClass: typeof cls === 'string' ? cls : null,
      goldPassageAnnotations: Array.isArray(ann) ? ann.length : 0,
      line,
    })
  })
  return out
}

function conversationOf(rec: Record<string, unknown>, where: string): Track2Conversation {
  const id = str(rec, 'id')
  const task = typeof rec['task'] === 'string' ? (rec['task'] as string).toLowerCase() : ''
  const rawTurns = rec['turns']
  if (!Array.isArray(rawTurns))
    throw new Error(
      `${where}conversation ${JSON.stringify(decodeId(id))}: expected "turns" to be an array`,
    )
  const turns: Track2Turn[] = rawTurns.map((t: unknown, i) => {
    if (t === null || typeof t !== 'object')
      throw new Error(
        `${where}conversation ${JSON.stringify(decodeId(id))}: turns[${i}] is not an object`,
      )
    const o = t as Record<string, unknown>
    const turnId = o['turn_id']
    if (typeof turnId !== 'number' || !Number.isInteger(turnId))
      throw new Error(
        `${where}conversation ${JSON.stringify(decodeId(id))}: turns[${i}].turn_id is not an integer`,
      )
    const gold =
      o['gold_doc_ids'] !== undefined ? idList(o, 'gold_doc_ids') : idList(o, 'supporting_doc_ids')
    return { topicId: `${id}_turn_${turnId}`, conversationId: id, turnId, goldDocIds: gold }
  })
  return { id, task, turns }
}

async function readBenchmarkArray(file: string): Promise<Track2Conversation[]> {
  if (!(await exists(file))) return []
  let arr: unknown
  try {
    arr = JSON.parse((await readAll(file)).toString('utf8'))
  } catch (e) {
    throw new RetecoInputError([`${file}: not valid JSON (${(e as Error).message})`])
  }
  if (!Array.isArray(arr))
    throw new RetecoInputError([`${file}: expected a JSON array of conversations`])
  const problems: string[] = []
  const out: Track2Conversation[] = []
  arr.forEach((rec, i) => {
    try {
      if (rec === null || typeof rec !== 'object') throw new Error(`element ${i} is not an object`)
      out.push(conversationOf(rec as Record<string, unknown>, `element ${i}: `))
    } catch (e) {
      problems.push(`${file}: ${(e as Error).message}`)
    }
  })
  if (problems.length) throw new RetecoInputError(problems)
  return out
}

function manifestDomain(v: unknown): ManifestDomain {
  const o = (v ?? {}) as Record<string, unknown>
  const ids: Record<string, readonly string[]> = {}
  for (const [k, x] of Object.entries(o)) {
    const m = /^(.*)_ids$/.exec(k)
    if (m && Array.isArray(x))
      ids[m[1]!] = x.filter((s): s is string => typeof s === 'string').map(encodeId)
  }
  const dropped = o['dropped_gold_ids']
  return {
    documents: typeof o['documents'] === 'number' ? (o['documents'] as number) : null,
    droppedGoldIds: Array.isArray(dropped)
      ? dropped.filter((s): s is string => typeof s === 'string').map(encodeId)
      : [],
    ids,
  }
}

/** Read `split_manifest.json` (per track, per domain: documents, dropped gold ids, split ids). */
export async function readSplitManifest(file: string): Promise<SplitManifest> {
  let raw: unknown
  try {
    raw = JSON.parse((await readAll(file)).toString('utf8'))
  } catch (e) {
    throw new RetecoInputError([`${file}: not valid JSON (${(e as Error).message})`])
  }
  const o = (raw ?? {}) as Record<string, unknown>
  const track = (key: string): Map<string, ManifestDomain> => {
    const t = o[key]
    const m = new Map<string, ManifestDomain>()
    if (t && typeof t === 'object' && !Array.isArray(t))
      for (const [d, v] of Object.entries(t)) m.set(d, manifestDomain(v))
    return m
  }
  return { file, track1: track('track1_tempo'), track2: track('track2_recor'), raw }
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

async function domainsOf(dir: string): Promise<string[]> {
  if (!(await isDir(dir))) return []
  const entries = await fsp.readdir(dir, { withFileTypes: true })
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort(byteOrder)
}

async function loadReleaseDomain(
  root: string,
  track: RetecoTrack,
  domain: string,
  split: string,
): Promise<RetecoDomainData> {
  const dir = join(root, track, domain)
  const corpus = join(dir, 'documents.jsonl')
  const qrelsFile = join(dir, `qrels_${split}.txt`)
  const hasQrels = await exists(qrelsFile)
  const qrels = hasQrels ? await readQrelsFile(qrelsFile) : EMPTY_QRELS
  const base = {
    track,
    domain,
    dir,
    corpusFile: (await exists(corpus)) ? corpus : null,
    qrels,
    qrelsFile: hasQrels ? qrelsFile : null,
  }
  if (track === 'track1_tempo') {
    const stepFile = join(dir, `qrels_steps_${split}.txt`)
    const hasSteps = await exists(stepFile)
    return {
      ...base,
      stepQrels: hasSteps ? await readQrelsFile(stepFile) : null,
      stepQrelsFile: hasSteps ? stepFile : null,
      queries: await readExamples(join(dir, `examples_${split}.jsonl`)),
      stepRecords: await readSteps(join(dir, `steps_${split}.jsonl`)),
      guidance: await readGuidance(join(dir, `guidance_${split}.jsonl`)),
      conversations: [],
    }
  }
  return {
    ...base,
    stepQrels: null,
    stepQrelsFile: null,
    queries: [],
    stepRecords: new Map(),
    guidance: new Map(),
    conversations: await readBenchmarkArray(join(dir, `benchmark_${split}.json`)),
  }
}

function pickDomains(
  available: readonly string[],
  wanted: readonly string[] | undefined,
  where: string,
): string[] {
  if (!wanted) return [...available]
  const missing = wanted.filter((d) => !available.includes(d))
  if (missing.length)
    throw new RetecoInputError([
      `${where}: no domain ${missing.map((d) => JSON.stringify(d)).join(', ')} (domains: ${available.join(', ') || 'none'})`,
    ])
  return available.filter((d) => wanted.includes(d))
}

/** The domain of a pilot TEMPO query: the prefix before `/` shared by its gold ids, else `pilot`. */
function pilotTempoDomain(goldIds: readonly string[]): string {
  const prefixes = new Set(goldIds.map((g) => (g.includes('/') ? g.slice(0, g.indexOf('/')) : '')))
  const [only] = prefixes
  return prefixes.size === 1 && only ? only.toLowerCase() : 'pilot'
}

async function loadPilotTempo(dir: string): Promise<Map<string, RetecoDomainData>> {
  const out = new Map<string, RetecoDomainData>()
  const qrelsFile = join(dir, 'qrels.txt')
  if (!(await exists(join(dir, 'examples.jsonl')))) return out
  const queries = await readExamples(join(dir, 'examples.jsonl'))
  const steps = await readSteps(join(dir, 'steps.jsonl'))
  const qrels = (await exists(qrelsFile)) ? await readQrelsFile(qrelsFile) : EMPTY_QRELS
  const domainOf = new Map<string, string>()
  for (const q of queries) domainOf.set(q.id, pilotTempoDomain(q.goldIds))
  for (const [id, q] of qrels.queries)
    if (!domainOf.has(id)) domainOf.set(id, pilotTempoDomain([...q.grades.keys()]))
  const corpus = join(dir, 'documents.jsonl')
  const names = [...new Set(domainOf.values())].sort(byteOrder)
  for (const domain of names) {
    out.set(domain, {
      track: 'track1_tempo',
      domain,
      dir,
      corpusFile: (await exists(corpus)) ? corpus : null,
      qrels: subQrels(qrels, (t) => domainOf.get(t) === domain),
      qrelsFile: (await exists(qrelsFile)) ? qrelsFile : null,
      stepQrels: null,
      stepQrelsFile: null,
      queries: queries.filter((q) => domainOf.get(q.id) === domain),
      stepRecords: new Map([...steps].filter(([id]) => domainOf.get(id) === domain)),
      guidance: new Map(),
      conversations: [],
    })
  }
  return out
}

async function loadPilotRecor(dir: string): Promise<Map<string, RetecoDomainData>> {
  const out = new Map<string, RetecoDomainData>()
  const bench = join(dir, 'benchmark.jsonl')
  if (!(await exists(bench))) return out
  const conversations: Track2Conversation[] = []
  await readJsonl(bench, (rec) => conversations.push(conversationOf(rec, '')))
  const qrelsFile = join(dir, 'qrels.txt')
  const raw = (await exists(qrelsFile)) ? await readQrelsFile(qrelsFile) : EMPTY_QRELS
  const domainsOfConv = new Map<string, Set<string>>()
  for (const c of conversations) {
    const s = domainsOfConv.get(c.id) ?? new Set<string>()
    s.add(c.task || 'pilot')
    domainsOfConv.set(c.id, s)
  }
  const problems: string[] = []
  const topicDomain = new Map<string, string>()
  for (const id of raw.queries.keys()) {
    const topic = normalizeTurnTopic(id)
    const conv =
      topic.lastIndexOf('_turn_') >= 0 ? topic.slice(0, topic.lastIndexOf('_turn_')) : topic
    const doms = domainsOfConv.get(conv)
    if (!doms || doms.size !== 1) {
      problems.push(
        `${qrelsFile}:${raw.queries.get(id)!.lines.values().next().value ?? 0}: topic ${JSON.stringify(decodeId(id))} belongs to ${doms ? 'several conversations' : 'no conversation'} of ${bench}`,
      )
      continue
    }
    topicDomain.set(id, [...doms][0]!)
  }
  if (problems.length) throw new RetecoInputError(problems)
  const corpus = join(dir, 'documents.jsonl')
  const names = [...new Set(conversations.map((c) => c.task || 'pilot'))].sort(byteOrder)
  for (const domain of names) {
    out.set(domain, {
      track: 'track2_recor',
      domain,
      dir,
      corpusFile: (await exists(corpus)) ? corpus : null,
      qrels: subQrels(raw, (t) => topicDomain.get(t) === domain, normalizeTurnTopic),
      qrelsFile: (await exists(qrelsFile)) ? qrelsFile : null,
      stepQrels: null,
      stepQrelsFile: null,
      queries: [],
      stepRecords: new Map(),
      guidance: new Map(),
      conversations: conversations.filter((c) => (c.task || 'pilot') === domain),
    })
  }
  return out
}

/**
 * Load a RETECO data directory (release or pilot layout, detected) for one split: per track and
 * domain the qrels (file topic order kept), steps, examples, guidance ids and conversations.
 * Corpora are not read (see {@link readCorpusIds}). Pilot specifics: domains come from the gold
 * ids' `<domain>/` prefix (TEMPO) or the conversation's `task` (RECOR); pilot turn topics
 * `<conv>#turn<n>` become `<conv>_turn_<n>`; flat pilot steps records have no steps.
 * Throws {@link RetecoInputError} (exit code 2) with `file:line` for malformed files.
 *
 * @example
 * const data = await loadRetecoData('RETECO-SemEval2027', { split: 'dev', tracks: ['track1_tempo'] })
 * for (const [domain, d] of data.track1) console.log(domain, d.qrels.queries.size)
 */
export async function loadRetecoData(
  root: string,
  options: LoadRetecoOptions = {},
): Promise<RetecoData> {
  const layout = await detectRetecoLayout(root)
  if (!layout) {
    throw new RetecoInputError([
      `${root}: not a RETECO data directory (expected track1_tempo/ or track2_recor/ of the release, or the pilot sample's examples.jsonl / benchmark.jsonl)`,
    ])
  }
  const tracks = options.tracks ?? ['track1_tempo', 'track2_recor']
  if (layout === 'pilot') {
    const tempoDir = (await exists(join(root, 'tempo', 'examples.jsonl')))
      ? join(root, 'tempo')
      : root
    const recorDir = (await exists(join(root, 'recor', 'benchmark.jsonl')))
      ? join(root, 'recor')
      : root
    const t1 = tracks.includes('track1_tempo')
      ? await loadPilotTempo(tempoDir)
      : new Map<string, RetecoDomainData>()
    const t2 = tracks.includes('track2_recor')
      ? await loadPilotRecor(recorDir)
      : new Map<string, RetecoDomainData>()
    const wanted = options.domains
    if (wanted)
      pickDomains([...new Set([...t1.keys(), ...t2.keys()])].sort(byteOrder), wanted, root)
    const keep = (m: Map<string, RetecoDomainData>): Map<string, RetecoDomainData> =>
      wanted ? new Map([...m].filter(([d]) => wanted.includes(d))) : m
    return { root, layout, split: 'pilot', track1: keep(t1), track2: keep(t2), manifest: null }
  }
  const split = options.split ?? 'dev'
  const load = async (track: RetecoTrack): Promise<Map<string, RetecoDomainData>> => {
    const m = new Map<string, RetecoDomainData>()
    if (!tracks.includes(track)) return m
    const available = await domainsOf(join(root, track))
    const names = options.domains
      ? available.filter((d) => options.domains!.includes(d))
      : available
    for (const d of names) m.set(d, await loadReleaseDomain(root, track, d, split))
    return m
  }
  const track1 = await load('track1_tempo')
  const track2 = await load('track2_recor')
  if (options.domains) {
    const all = [
      ...(await domainsOf(join(root, 'track1_tempo'))),
      ...(await domainsOf(join(root, 'track2_recor'))),
    ].filter((d, i, a) => a.indexOf(d) === i)
    pickDomains(all, options.domains, root)
  }
  const manifestFile = join(root, 'split_manifest.json')
  const manifest = (await exists(manifestFile)) ? await readSplitManifest(manifestFile) : null
  return { root, layout, split, track1, track2, manifest }
}

/** The domains of `data` for a track, in name order. */
export function domainsOfTrack(
  data: RetecoData,
  track: RetecoTrack,
): ReadonlyMap<string, RetecoDomainData> {
  return track === 'track1_tempo' ? data.track1 : data.track2
}
