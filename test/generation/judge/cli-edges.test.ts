/**
 * The judge CLI on failures that used to look like success, and on edge values: an endpoint
 * that is down (exit 2, fast), too many invalid judgments (--max-failed), the loopback rpm note,
 * JSON nested 100,000 deep, duplicate judgments, a repeated dimension, RECOR data without
 * benchmark_<split>.json, junk items with their text.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type JudgeRunStats, judgeShortfall, loadJudgeConfig } from '../../../src/entries/judge.js'
import { cli, configJson, ROOT, tempDir, writeTestConfig } from './helpers.js'
import { dimOf, type ScriptedServer, startServer } from './server.js'

const ITEMS = join(ROOT, 'examples', 'judge', 'items.jsonl')
const SHIPPED_RETRY = configJson()['retry'] as Record<string, unknown>
const SLOW = 240_000
const NO_TRACE = /\n\s+at /

let server: ScriptedServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as { port: number }).port
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)

describe('judge run exit codes', () => {
  it(
    'an endpoint that is down: quick give-up on connection refused, every judgment missing, exit 2; judgments and report still written',
    async () => {
      const dir = tempDir()
      // The shipped retry policy (6 transport retries, backoff up to 60 s) would take minutes per judgment.
      const cfg = writeTestConfig(dir, { retry: SHIPPED_RETRY, concurrency: 4 })
      const out = join(dir, 'j.jsonl')
      const r = await cli([
        'judge',
        'run',
        ITEMS,
        '--config',
        cfg,
        '--cache',
        join(dir, 'c.sqlite'),
        '--out',
        out,
        '--base-url',
        `http://127.0.0.1:${await closedPort()}/v1`,
        '--quiet',
      ])
      expect(r.code).toBe(2)
      expect(r.stderr.trim()).toBe(
        'trecscore: judge run: every judgment (25 of 25) ended missing or invalid; see the reasons in the report',
      )
      expect(r.stdout).toMatch(
        /missing ×\d+: not asked: the endpoint is unreachable \(last: network error: fetch failed \(ECONNREFUSED\); gave up after 3 tries\)/,
      )
      const js = lines(out)
      expect(js).toHaveLength(25)
      expect(js.every((j) => j['status'] === 'missing')).toBe(true)
      // At most the 4 judgments in flight made requests (3 tries each); the rest were not asked.
      expect(js.reduce((s, j) => s + (j['attempts'] as number), 0)).toBeLessThanOrEqual(12)
    },
    SLOW,
  )

  it(
    'more than --max-failed invalid: exit 2 after writing everything; a larger share passes; the loopback rpm note',
    async () => {
      server = await startServer((q) =>
        dimOf(q.user) === 'faithfulness'
          ? { kind: 'content', content: 'three' }
          : { kind: 'score', score: 4 },
      )
      const dir = tempDir()
      const cfg = writeTestConfig(dir, { requests_per_minute: 60000 })
      const out = join(dir, 'j.jsonl')
      const args = [
        'judge',
        'run',
        ITEMS,
        '--config',
        cfg,
        '--cache',
        join(dir, 'c.sqlite'),
        '--out',
        out,
        '--base-url',
        server.url,
        '--format',
        'json',
      ]
      const r = await cli(args)
      expect(r.code).toBe(2)
      const err = r.stderr.trim().split('\n')
      expect(err[0]).toBe(
        `trecscore judge: note: ${server.url} is on this machine, but the config allows only 60000 requests per minute; pass --rpm 0 to lift the limit`,
      )
      expect(err.at(-1)).toBe(
        'trecscore: judge run: 5 of 25 judgments (20%) ended missing or invalid, more than the 10% allowed (--max-failed); see the reasons in the report',
      )
      expect(
        (
          JSON.parse(r.stdout) as { dimensions: { dimension: string; invalid: number }[] }
        ).dimensions.find((d) => d.dimension === 'faithfulness')!.invalid,
      ).toBe(5)
      expect(lines(out).filter((j) => j['status'] === 'invalid')).toHaveLength(5)
      const before = server.total()
      const ok = await cli([...args, '--max-failed', '0.25', '--force', '--rpm', '0', '--quiet'])
      expect(ok.stderr).toBe('')
      expect(ok.code).toBe(0)
      expect(server.total()).toBe(before) // all cached, invalid ones included
      const bad = await cli([...args, '--max-failed', '2', '--force'])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain(
        "option '--max-failed <share>' argument '2' is invalid. expected a share from 0 to 1, such as 0.1 (10%)",
      )
    },
    SLOW,
  )

  it('judgeShortfall: all failed, over the share, at the share, nothing needed', () => {
    const stats = (needed: number, failed: number) =>
      ({ dimensions: [{ judgeNeeded: needed, judgeFailed: failed }] }) as unknown as JudgeRunStats
    expect(judgeShortfall([stats(4, 4)], 1)).toBe(
      'every judgment (4 of 4) ended missing or invalid; see the reasons in the report',
    )
    expect(judgeShortfall([stats(10, 1), stats(10, 2)], 0.1)).toBe(
      '3 of 20 judgments (15%) ended missing or invalid, more than the 10% allowed (--max-failed); see the reasons in the report',
    )
    expect(judgeShortfall([stats(10, 1)], 0.1)).toBeNull()
    expect(judgeShortfall([stats(3, 1)], 0)).toBe(
      '1 of 3 judgments (33.3%) ended missing or invalid, more than the 0% allowed (--max-failed); see the reasons in the report',
    )
    expect(judgeShortfall([stats(0, 0)], 0)).toBeNull()
  })
})

describe('judge edge values', () => {
  it(
    'JSON nested 100,000 deep in items, judgments, human labels and config: one-line errors, exit 2',
    async () => {
      const dir = tempDir()
      const deep = '['.repeat(100_000) + ']'.repeat(100_000)
      const items = join(dir, 'items.jsonl')
      const line = `{"turn_id":"a_turn_1","question":"q","answer":${deep}}`
      writeFileSync(items, `${line}\n`)
      const cfg = writeTestConfig(dir)
      const a = await cli([
        'judge',
        'run',
        items,
        '--config',
        cfg,
        '--cache',
        join(dir, 'c.sqlite'),
        '--out',
        join(dir, 'o.jsonl'),
        '--base-url',
        'http://127.0.0.1:9/v1',
      ])
      expect(a.code).toBe(2)
      expect(a.stderr).toBe(
        `trecscore: ${items}:1: not valid JSON (nested deeper than 1000 levels): ${JSON.stringify(`${line.slice(0, 60)}…`)}\n`,
      )
      const judgments = join(dir, 'j.jsonl')
      writeFileSync(
        judgments,
        `{"turn_id":"a_turn_1","dimension":"relevance","score":3,"status":"ok","config_hash":"x","attempts":1,"rationale":${deep}}\n`,
      )
      const b = await cli(['judge', 'report', judgments, '--config', cfg])
      expect(b.code).toBe(2)
      expect(b.stderr).toContain(`${judgments}:1: not valid JSON (nested deeper than 1000 levels)`)
      expect(b.stderr).not.toMatch(NO_TRACE)
      const human = join(dir, 'h.jsonl')
      writeFileSync(human, `{"turn_id":"a_turn_1","dimension":"relevance","score":${deep}}\n`)
      const good = join(dir, 'good.jsonl')
      writeFileSync(
        good,
        `${JSON.stringify({ turn_id: 'a_turn_1', dimension: 'relevance', score: 3, status: 'ok', config_hash: loadJudgeConfig(cfg).hash, attempts: 1 })}\n`,
      )
      const c = await cli(['judge', 'agreement', '--human', human, '--judgments', good])
      expect(c.code).toBe(2)
      expect(c.stderr).toContain(`${human}:1: invalid JSON (nested deeper than 1000 levels)`)
      expect(c.stderr).not.toMatch(NO_TRACE)
      const badCfg = join(dir, 'deep-config.json')
      writeFileSync(badCfg, `{"name":${deep}}`)
      const d = await cli(['judge', 'report', good, '--config', badCfg])
      expect(d.code).toBe(2)
      expect(d.stderr).toBe(
        `trecscore: ${badCfg}: the judge config is nested deeper than 1000 levels (expected a judge config object)\n`,
      )
    },
    SLOW,
  )

  it(
    'duplicate judgments in judge report, a repeated --dimensions entry: refused with where and why',
    async () => {
      const dir = tempDir()
      const cfg = writeTestConfig(dir)
      const hash = loadJudgeConfig(cfg).hash
      const rec = (dimension: string, score: number) =>
        JSON.stringify({
          turn_id: 'c1_turn_1',
          dimension,
          score,
          status: 'ok',
          config_hash: hash,
          attempts: 1,
        })
      const judgments = join(dir, 'j.jsonl')
      writeFileSync(
        judgments,
        [rec('relevance', 3), rec('coherence', 4), rec('relevance', 5)].join('\n') + '\n',
      )
      const r = await cli(['judge', 'report', judgments, '--config', cfg])
      expect(r.code).toBe(2)
      expect(r.stderr).toBe(
        `trecscore: ${judgments}:3: turn "c1_turn_1" already has a relevance judgment at line 1; expected one judgment per turn and dimension: ${JSON.stringify(rec('relevance', 5).slice(0, 60) + '…')}\n`,
      )
      const d = await cli([
        'judge',
        'run',
        ITEMS,
        '--config',
        cfg,
        '--dimensions',
        'correctness,relevance,correctness',
        '--base-url',
        'http://127.0.0.1:9/v1',
      ])
      expect(d.code).toBe(2)
      expect(d.stderr).toContain(
        "option '--dimensions <list>' argument 'correctness,relevance,correctness' is invalid. each dimension at most once; given more than once: correctness",
      )
      expect(d.stderr).not.toMatch(NO_TRACE)
    },
    SLOW,
  )

  it(
    '--preset reteco-2b on release data without benchmark_<split>.json: one line naming the file',
    async () => {
      const dir = tempDir()
      const dom = join(dir, 'data', 'track2_recor', 'gardening')
      mkdirSync(dom, { recursive: true })
      mkdirSync(join(dir, 'answers'))
      const recor = join(ROOT, 'examples', 'judge', 'recor')
      writeFileSync(
        join(dom, 'documents.jsonl'),
        readFileSync(join(recor, 'documents.jsonl'), 'utf8')
          .split('\n')
          .filter((l) => l.includes('gardening'))
          .join('\n') + '\n',
      )
      writeFileSync(
        join(dom, 'qrels_dev.txt'),
        readFileSync(join(recor, 'qrels.txt'), 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('c1_'))
          .join('\n') + '\n',
      )
      writeFileSync(
        join(dir, 'answers', 'gardening.jsonl'),
        readFileSync(join(ROOT, 'examples', 'judge', 'answers', 'gardening.jsonl')),
      )
      const r = await cli([
        'judge',
        'run',
        '--preset',
        'reteco-2b',
        '--data',
        join(dir, 'data'),
        join(dir, 'answers'),
        '--config',
        writeTestConfig(dir),
        '--cache',
        join(dir, 'c.sqlite'),
        '--out',
        join(dir, 'o.jsonl'),
        '--base-url',
        'http://127.0.0.1:9/v1',
      ])
      expect(r.code).toBe(2)
      expect(r.stderr).toBe(
        `trecscore: ${join(dom, 'benchmark_dev.json')}: missing; the judge needs the RECOR conversations (questions and benchmark answers) of domain gardening for split dev (--split)\n`,
      )
    },
    SLOW,
  )

  it(
    'junk items: every problem with file:line and the offending text',
    async () => {
      const dir = tempDir()
      const junk = join(dir, 'junk.jsonl')
      writeFileSync(
        junk,
        '{"a":1}\n{"turn_id":"x","question":"q","answer":"a"}\n{"turn_id":"x","question":"q","answer":"a"}\n',
      )
      const r = await cli([
        'judge',
        'run',
        junk,
        '--config',
        writeTestConfig(dir),
        '--cache',
        join(dir, 'c.sqlite'),
        '--base-url',
        'http://127.0.0.1:9/v1',
      ])
      expect(r.code).toBe(2)
      expect(r.stderr.trim().split('\n')).toEqual([
        `trecscore: ${junk}:1: unknown field "a" (expected turn_id, conversation_id, domain, turn_depth, history, question, answer, passages, reference): "{\\"a\\":1}"`,
        `${junk}:1: "turn_id": expected a non-empty string, found nothing: "{\\"a\\":1}"`,
        `${junk}:1: "question": expected a non-empty string, found nothing: "{\\"a\\":1}"`,
        `${junk}:1: "answer": expected a string (or null for an unanswered turn), found nothing: "{\\"a\\":1}"`,
        `${junk}:3: turn "x" already given at line 2: "{\\"turn_id\\":\\"x\\",\\"question\\":\\"q\\",\\"answer\\":\\"a\\"}"`,
      ])
    },
    SLOW,
  )
})
