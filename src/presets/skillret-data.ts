/**
 * SkillRet input: the data directory (`queries/test.jsonl`, qrels rebuilt from each query's
 * `skill_ids` as `skillret/eval.py` does) and runs, as the official JSON
 * (`{"retrieval": {"test": {qid: {skill_id: score}}}}`) or as TREC files.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Conventions } from '../conventions/conventions.js'
import { formatIssue } from '../errors/format-issue.js'
import { InputError, TrecscoreError } from '../errors/trecscore-error.js'
import { encodeId } from '../io/bytes.js'
import { jsonlStream } from '../io/jsonl.js'
import { readRun } from '../io/read.js'
import { inputLimits, readAll, readChunks } from '../io/source.js'
import { parseQrels } from '../io/trec-qrels.js'
import type { Qrels, RunQuery } from '../model/types.js'

/** A loaded SkillRet data directory. */
export interface SkillRetData {
  /** The queries file read. */
  readonly queriesFile: string
  /** Query ids (byte strings) in file order. */
  readonly queryIds: readonly string[]
  /** The same, as a set. */
  readonly queryIdSet: ReadonlySet<string>
  /** Qrels rebuilt from `skill_ids` (grade 1 each) or from `labels` where a query has them. */
  readonly qrels: Qrels
  /** sha256 (hex) and size of the queries file's bytes. */
  readonly sha256: string
  readonly bytes: number
}

/** A SkillRet run: queries in the file's key (or line) order. */
export interface SkillRetRun {
  readonly file: string
  readonly format: 'json' | 'trec'
  readonly queries: ReadonlyMap<string, RunQuery>
  /** sha256 (hex) and size of the file's bytes. */
  readonly sha256: string
  readonly bytes: number
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

function fail(msg: string): never {
  throw new TrecscoreError(msg, 2)
}

/**
 * Read `DIR/queries/<split>.jsonl` (or `DIR/data/queries/…`) and rebuild the qrels as the
 * official evaluator does: `{q.id: {sid: 1 for sid in q.skill_ids}}`, or `labels` ({id, relevance}).
 */
export async function readSkillRetData(dir: string, split = 'test'): Promise<SkillRetData> {
  const candidates = [
    join(dir, 'queries', `${split}.jsonl`),
    join(dir, 'data', 'queries', `${split}.jsonl`),
  ]
  const file =
    candidates.find((f) => existsSync(f)) ??
    fail(`--data ${dir}: no SkillRet queries file (expected ${candidates[0]})`)
  const ids: string[] = []
  const seen = new Set<string>()
  let qrels = ''
  const limits = inputLimits()
  // The file is hashed as it streams (provenance of `runPreset`).
  const hash = createHash('sha256')
  let size = 0
  async function* hashed(): AsyncGenerator<Buffer> {
    for await (const chunk of readChunks(file, limits)) {
      hash.update(chunk)
      size += chunk.length
      yield chunk
    }
  }
  for await (const ln of jsonlStream(hashed(), { maxLineBytes: limits.maxLineBytes })) {
    if (ln.kind === 'blank') continue
    const n = ln.line
    if (ln.kind === 'too_long')
      fail(
        `${file}:${n}: line longer than ${limits.maxLineBytes} bytes (raise the limit with TRECSCORE_MAX_LINE_BYTES)`,
      )
    if (ln.kind === 'invalid_utf8')
      fail(`${file}:${n}: invalid UTF-8 (expected a UTF-8 encoded line)`)
    if (ln.kind !== 'value') fail(`${file}:${n}: not valid JSON`)
    // a line that is JSON but not an object (null, 3, "x") has no "id": reported below, not a TypeError
    const rec = (typeof ln.value === 'object' && ln.value !== null ? ln.value : {}) as {
      id?: unknown
      skill_ids?: unknown
      labels?: unknown
    }
    if (typeof rec.id !== 'string' || rec.id === '' || /\s/.test(rec.id))
      fail(`${file}:${n}: expected a string "id" without whitespace`)
    const id = encodeId(rec.id)
    if (seen.has(id)) fail(`${file}:${n}: query id ${JSON.stringify(rec.id)} appears twice`)
    seen.add(id)
    ids.push(id)
    const grades = new Map<string, number>()
    if (Array.isArray(rec.labels)) {
      for (const l of rec.labels as { id?: unknown; relevance?: unknown }[]) {
        if (typeof l?.id !== 'string' || typeof l.relevance !== 'number')
          fail(`${file}:${n}: expected "labels" entries {"id", "relevance"}`)
        grades.set(l.id, l.relevance)
      }
    } else if (Array.isArray(rec.skill_ids)) {
      for (const s of rec.skill_ids) {
        if (typeof s !== 'string')
          fail(`${file}:${n}: expected "skill_ids" to be a list of strings`)
        grades.set(s, 1)
      }
    } else fail(`${file}:${n}: query ${JSON.stringify(rec.id)} has no "skill_ids" list`)
    for (const [sid, g] of grades) {
      if (sid === '' || /\s/.test(sid))
        fail(`${file}:${n}: skill id ${JSON.stringify(sid)} is empty or contains whitespace`)
      qrels += `${rec.id} 0 ${sid} ${g}\n`
    }
  }
  if (ids.length === 0) fail(`${file}: no queries`)
  const parsed = parseQrels(Buffer.from(qrels, 'utf8'), { file, comments: false })
  if (!parsed.ok) fail(`${file}: ${parsed.issues.map(formatIssue).join('; ')}`)
  return {
    queriesFile: file,
    queryIds: ids,
    queryIdSet: seen,
    qrels: parsed.value,
    sha256: hash.digest('hex'),
    bytes: size,
  }
}

/** Whether a run file is SkillRet JSON (by extension, else by its first non-blank byte). */
function isJson(file: string, bytes: Buffer): boolean {
  if (file.endsWith('.json')) return true
  for (const b of bytes) {
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue
    return b === 0x7b
  }
  return false
}

/**
 * Read a SkillRet run: official JSON (`raw.get("retrieval", raw)["test"]`, scores as numbers,
 * float32 under the preset's conventions) or a TREC run file.
 */
export async function readSkillRetRun(
  file: string,
  conventions: Conventions,
): Promise<SkillRetRun> {
  const bytes = await readAll(file).catch((e: unknown) =>
    fail(`${file}: cannot read (${e instanceof Error ? e.message : String(e)})`),
  )
  const f32 = conventions.scorePrecision === 'float32'
  if (!isJson(file, bytes)) {
    try {
      const run = await readRun(file, { comments: conventions.comments, float32: f32 })
      return {
        file,
        format: 'trec',
        queries: run.queries,
        sha256: sha256(bytes),
        bytes: bytes.length,
      }
    } catch (e) {
      if (e instanceof InputError) fail(e.issues.map(formatIssue).join('\n'))
      throw e
    }
  }
  let raw: unknown
  try {
    raw = JSON.parse(bytes.toString('utf8'))
  } catch (e) {
    fail(`${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`)
  }
  const obj = raw as Record<string, unknown>
  const top = (
    obj && typeof obj === 'object' && 'retrieval' in obj ? obj['retrieval'] : obj
  ) as Record<string, unknown> | null
  const test = top && typeof top === 'object' ? top['test'] : undefined
  if (!test || typeof test !== 'object' || Array.isArray(test))
    fail(`${file}: expected {"retrieval": {"test": {query_id: {skill_id: score}}}}`)
  const queries = new Map<string, RunQuery>()
  for (const [qid, docs] of Object.entries(test as Record<string, unknown>)) {
    if (!docs || typeof docs !== 'object' || Array.isArray(docs))
      fail(`${file}: query ${JSON.stringify(qid)}: expected an object {skill_id: score}`)
    const docIds: string[] = []
    const scores: number[] = []
    const lines: number[] = []
    for (const [sid, score] of Object.entries(docs as Record<string, unknown>)) {
      if (typeof score !== 'number')
        fail(
          `${file}: query ${JSON.stringify(qid)}, skill ${JSON.stringify(sid)}: score is not a number`,
        )
      docIds.push(encodeId(sid))
      scores.push(f32 ? Math.fround(score) : score)
      lines.push(lines.length + 1)
    }
    queries.set(encodeId(qid), { queryId: encodeId(qid), docIds, scores, ranks: null, lines })
  }
  return { file, format: 'json', queries, sha256: sha256(bytes), bytes: bytes.length }
}
