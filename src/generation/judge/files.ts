/**
 * File edges of the judge: the config file (validated and hashed), items, judgments and golden
 * JSONL files. Every problem of a file is reported at once as `file:line: what`; invalid UTF-8,
 * non-JSON lines, NUL bytes and over-long lines are problems, never crashes.
 */
import { existsSync, promises as fsp, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { jsonDeeperThan, jsonlStream, MAX_JSON_DEPTH } from '../../io/jsonl.js'
import { inputLimits, readChunks, SourceError } from '../../io/source.js'
import { type Judgment, judgmentToJson, parseJudgmentRecord } from './aggregate.js'
import { sha256Hex } from './cache.js'
import { canonicalJson, type JudgeConfig, parseJudgeConfig } from './config.js'
import {
  ioReason,
  type JudgeFieldProblem,
  JudgeInputError,
  type JudgeIssue,
  type JudgeRecordFinding,
} from './errors.js'
import { type JudgeItem, parseJudgeItem } from './items.js'

/** Largest batch-API reply read (bytes). JSONL files follow the shared input limits (`io/limits.ts`). */
export const MAX_JSONL_BYTES = 1 << 30

/** A loaded config with its identity. */
export interface LoadedJudgeConfig {
  readonly file: string
  readonly config: JudgeConfig
  /** `judge_config_id`: sha256 hex of the canonical JSON of the file's value. */
  readonly hash: string
  /** The file's JSON value (shown verbatim in disclosure reports). */
  readonly raw: unknown
}

/** The shipped default config, `data/judge/reteco-judge-v1.json` in the package. */
export function defaultJudgeConfigPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++) {
    const p = join(dir, 'data', 'judge', 'reteco-judge-v1.json')
    if (existsSync(p)) return p
    dir = dirname(dir)
  }
  return join('data', 'judge', 'reteco-judge-v1.json')
}

/** The config hash: sha256 hex of {@link canonicalJson} of the parsed file. */
export function judgeConfigHash(raw: unknown): string {
  return sha256Hex(canonicalJson(raw))
}

/** Read, validate and hash a judge config file. */
export function loadJudgeConfig(file: string): LoadedJudgeConfig {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new JudgeInputError([{ code: 'config_unreadable', file, reason: ioReason(e) }])
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    throw new JudgeInputError([{ code: 'config_not_json', file, error: (e as Error).message }])
  }
  if (jsonDeeperThan(raw, MAX_JSON_DEPTH))
    throw new JudgeInputError([{ code: 'config_too_deep', file, limit: MAX_JSON_DEPTH }])
  const r = parseJudgeConfig(raw)
  if (!r.ok)
    throw new JudgeInputError(
      r.problems.map((problem) => ({ code: 'config_invalid', file, problem }) as const),
    )
  return { file, config: r.config, hash: judgeConfigHash(raw), raw }
}

const LENIENT = new TextDecoder('utf-8', { fatal: false })

/** The start of a line's text kept in an issue (the wording clips it further). */
const KEPT_TEXT = 240

/** The start of an unreadable line, decoded with U+FFFD for bad bytes. */
function shown(bytes: Uint8Array): string {
  return LENIENT.decode(bytes.subarray(0, KEPT_TEXT))
}

/** Most problems a JSONL file reports before the reader stops. */
const MAX_PROBLEMS = 200

/**
 * Call `onRecord(value, line)` for every non-blank line of a JSONL file, JSON-parsed. Returns the
 * issues of lines that could not be read; `onRecord` may return its own findings, which get the
 * file, the line and the start of the line's text (worded `file:line: problem: "start of the
 * line"`).
 * Lines follow the shared conventions of `src/io/jsonl.ts` (physical line numbers, CRLF, BOM,
 * blank lines); a line with a NUL byte that does not parse is reported as binary data.
 */
export async function readJsonlFile(
  file: string,
  onRecord: (value: unknown, line: number) => readonly JudgeRecordFinding[] | void,
): Promise<JudgeIssue[]> {
  const cannotRead = (e: unknown): JudgeIssue => ({
    code: 'cannot_read',
    file,
    reason: e instanceof SourceError ? e.reason : ioReason(e),
  })
  try {
    const st = await fsp.stat(file)
    if (!st.isFile()) return [{ code: 'not_a_file', file }]
  } catch (e) {
    return [cannotRead(e)]
  }
  const problems: JudgeIssue[] = []
  const limits = inputLimits()
  const maxLineBytes = limits.maxLineBytes
  try {
    for await (const l of jsonlStream(readChunks(file, limits), { maxLineBytes })) {
      if (l.kind === 'blank') continue
      const line = l.line
      if (problems.length >= MAX_PROBLEMS) {
        problems.push({ code: 'too_many_problems', file, limit: MAX_PROBLEMS })
        break
      }
      if (l.kind === 'too_long') {
        problems.push({ code: 'line_too_long', file, line, limit: maxLineBytes })
        continue
      }
      if (l.kind !== 'value' && l.bytes.includes(0)) {
        problems.push({ code: 'nul_byte', file, line, text: shown(l.bytes) })
        continue
      }
      if (l.kind === 'invalid_utf8') {
        problems.push({ code: 'invalid_utf8', file, line, text: shown(l.bytes) })
        continue
      }
      const text = l.text.slice(0, KEPT_TEXT)
      if (l.kind === 'invalid_json') {
        problems.push({ code: 'invalid_json', file, line, error: l.error, text })
        continue
      }
      const more = onRecord(l.value, line)
      if (more) for (const p of more) problems.push({ ...p, file, line, text })
    }
  } catch (e) {
    if (!(e instanceof SourceError)) throw e
    problems.push(cannotRead(e))
  }
  return problems
}

/** A record parser's problems as findings of the line. */
export function badRecords(problems: readonly JudgeFieldProblem[]): JudgeRecordFinding[] {
  return problems.map((problem) => ({ code: 'bad_record', problem }))
}

/** Read an items JSONL file; throws every problem at once. Duplicate (domain, turn_id) is a problem. */
export async function readJudgeItems(file: string): Promise<JudgeItem[]> {
  const items: JudgeItem[] = []
  const seen = new Map<string, number>()
  const problems = await readJsonlFile(file, (v, line) => {
    const r = parseJudgeItem(v)
    if (!r.ok) return badRecords(r.problems)
    const key = `${r.item.domain ?? ''}\u0000${r.item.turnId}`
    const first = seen.get(key)
    if (first !== undefined)
      return [
        {
          code: 'duplicate_item',
          turnId: r.item.turnId,
          domain: r.item.domain ?? null,
          firstLine: first,
        },
      ]
    seen.set(key, line)
    items.push(r.item)
  })
  if (problems.length) throw new JudgeInputError(problems)
  if (items.length === 0) throw new JudgeInputError([{ code: 'no_records', file, of: 'items' }])
  return items
}

/**
 * Read a judgments JSONL file (the shared format); throws every problem at once. A second
 * judgment of the same (domain, turn, dimension) is a problem naming the line of the first
 * (files concatenated, or runs mixed): which one counts is not guessed.
 */
export async function readJudgments(file: string): Promise<Judgment[]> {
  const out: Judgment[] = []
  const seen = new Map<string, number>()
  const problems = await readJsonlFile(file, (v, line) => {
    const r = parseJudgmentRecord(v)
    if (!r.ok) return badRecords(r.problems)
    const j = r.judgment
    const key = `${j.domain ?? ''}\u0000${j.turnId}\u0000${j.dimension}`
    const first = seen.get(key)
    if (first !== undefined)
      return [
        {
          code: 'duplicate_judgment',
          turnId: j.turnId,
          domain: j.domain,
          dimension: j.dimension,
          firstLine: first,
        },
      ]
    seen.set(key, line)
    out.push(j)
  })
  const hashes = [...new Set(out.map((j) => j.configHash))]
  if (hashes.length > 1) problems.push({ code: 'mixed_configs', file, hashes })
  if (problems.length) throw new JudgeInputError(problems)
  return out
}

/** The first line of a file (at most 1 MiB of it), or `null` when it cannot be read. */
async function firstLine(file: string): Promise<string | null> {
  let fh: Awaited<ReturnType<typeof fsp.open>> | null = null
  try {
    fh = await fsp.open(file, 'r')
    const buf = Buffer.alloc(1 << 20)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    const text = buf.subarray(0, bytesRead).toString('utf8')
    return text.split('\n', 1)[0] ?? ''
  } catch {
    return null
  } finally {
    await fh?.close()
  }
}

/**
 * Check, before any judging, that judgments may be written to `file`: an existing file is
 * refused unless `force` (a rerun with `--force` costs nothing: finished judgments come from the
 * cache), and one made under another config hash is refused even then (judgments of different
 * configs are never mixed).
 */
export async function checkJudgmentsOut(
  file: string,
  configHash: string,
  force: boolean,
): Promise<void> {
  if (!existsSync(file)) return
  const first = (await firstLine(file)) ?? ''
  let prev: unknown = null
  try {
    prev = (JSON.parse(first) as Record<string, unknown>)['config_hash']
  } catch {
    prev = null
  }
  if (typeof prev === 'string' && prev !== configHash) {
    throw new JudgeInputError([
      { code: 'out_other_config', file, found: prev, expected: configHash },
    ])
  }
  if (!force) throw new JudgeInputError([{ code: 'out_exists', file }])
}

/** Write a text file; a failure is a one-line user error naming the file. */
export async function writeTextFile(file: string, text: string): Promise<void> {
  try {
    await fsp.writeFile(file, text)
  } catch (e) {
    throw new JudgeInputError([{ code: 'cannot_write', file, reason: ioReason(e) }])
  }
}

/**
 * Write judgments as JSONL, after {@link checkJudgmentsOut} (an existing file is replaced only
 * with `force`; one of another config hash never).
 */
export async function writeJudgments(
  file: string,
  judgments: readonly Judgment[],
  configHash: string,
  force: boolean,
): Promise<void> {
  await checkJudgmentsOut(file, configHash, force)
  await writeTextFile(
    file,
    judgments.map((j) => JSON.stringify(judgmentToJson(j))).join('\n') +
      (judgments.length ? '\n' : ''),
  )
}
