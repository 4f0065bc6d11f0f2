/**
 * The judge CLI end to end against the scripted server: crash (SIGKILL) and resume, calibrate on
 * the shipped golden set, the disclosure report with human labels, user errors (exit 2).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { JudgeCache, loadJudgeConfig } from '../../../src/entries/judge.js'
import { cli, ROOT, TEST_RETRY, tempDir, writeTestConfig } from './helpers.js'
import {
  type Action,
  answerOf,
  type ScriptedServer,
  type ScriptRequest,
  startServer,
} from './server.js'

const ITEMS = join(ROOT, 'examples', 'judge', 'items.jsonl')
const GOLDEN = join(ROOT, 'data', 'judge', 'golden-v1.jsonl')

let server: ScriptedServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

// Each test spawns the CLI from source (tsx) up to three times: generous timeouts for a loaded machine.
const SLOW = 240_000

describe('judge CLI', () => {
  it(
    'a run killed with SIGKILL midway resumes: every finished judgment kept, no finished request sent again',
    async () => {
      const dir = tempDir()
      // A generous timeout, so a loaded machine causes no retries.
      const cfg = writeTestConfig(dir, { retry: { ...TEST_RETRY, request_timeout_ms: 20000 } })
      const cache = join(dir, 'cache.sqlite')
      const out = join(dir, 'judgments.jsonl')
      server = await startServer(() => ({
        kind: 'delay',
        ms: 100,
        then: { kind: 'score', score: 3 },
      }))
      const args = [
        'judge',
        'run',
        ITEMS,
        '--config',
        cfg,
        '--cache',
        cache,
        '--out',
        out,
        '--base-url',
        server.url,
        '--concurrency',
        '1',
        '--rpm',
        '0',
        '--quiet',
      ]
      // Concurrency 1: judgment n+1 is asked only after judgment n is committed. Kill when the 6th arrives.
      let interrupted = ''
      const killed = await cli(args, {}, (kill) =>
        server!.setOnRequest((r) => {
          if (r.seen === 0 && server!.counts.size === 6) {
            interrupted = r.hash
            kill()
          }
        }),
      )
      expect(killed.signal).toBe('SIGKILL')
      server.setOnRequest(null)
      const hash = loadJudgeConfig(cfg).hash
      const c = JudgeCache.open(cache, hash)
      expect(c.size()).toBe(5)
      c.close()
      const resumed = await cli(args)
      expect(resumed.code).toBe(0)
      // 25 distinct requests; only the one in flight at the kill was sent twice; each answered once.
      expect(server.counts.size).toBe(25)
      expect([...server.counts.entries()].filter(([, n]) => n > 1)).toEqual([[interrupted, 2]])
      // Every other request was answered exactly once (the interrupted one may have been answered
      // into the dead socket too, which is not a finished judgment).
      expect(
        [...server.answered.entries()].filter(([h, n]) => h !== interrupted && n !== 1),
      ).toEqual([])
      expect(server.total()).toBe(26)
      expect(interrupted).not.toBe('')
      const lines = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(lines).toHaveLength(25)
      expect(
        lines.every((l) => l['status'] === 'ok' && l['score'] === 3 && l['config_hash'] === hash),
      ).toBe(true)
      expect(resumed.stdout).toContain(
        `judge config hash (judge_config_id, sha256 of canonical JSON): ${hash}`,
      )
      // A third run: refused without --force (judgments.jsonl exists), then zero requests with it.
      const before = server.total()
      const refused = await cli(args)
      expect(refused.code).toBe(2)
      expect(refused.stderr.trim()).toBe(
        `trecscore: ${out}: already exists; refusing to overwrite it (pass --force to replace it: finished judgments come from the cache, so a rerun makes no new calls for them)`,
      )
      expect(server.total()).toBe(before)
      const third = await cli([...args, '--force'])
      expect(third.code).toBe(0)
      expect(server.total()).toBe(before)
    },
    SLOW,
  )

  it(
    'calibrate on the shipped golden set: rates per dimension, failures listed',
    async () => {
      const golden = readFileSync(GOLDEN, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, string>)
      expect(golden.length).toBeGreaterThanOrEqual(40)
      const score = new Map<string, number>()
      for (const g of golden) {
        score.set(g['better']!, 4)
        score.set(g['worse']!, 2)
      }
      // Scripted mistakes: faith-03 a tie, corr-05 inverted, coh-02's worse answer always malformed.
      const s = (q: ScriptRequest): Action => {
        const a = answerOf(q.user)
        if (a === golden.find((g) => g['id'] === 'faith-03')!['worse'])
          return { kind: 'score', score: 4 }
        if (a === golden.find((g) => g['id'] === 'corr-05')!['better'])
          return { kind: 'score', score: 1 }
        if (a === golden.find((g) => g['id'] === 'coh-02')!['worse'])
          return { kind: 'content', content: 'four' }
        return { kind: 'score', score: score.get(a) ?? 3 }
      }
      server = await startServer(s)
      const dir = tempDir()
      const cfg = writeTestConfig(dir)
      const r = await cli([
        'judge',
        'calibrate',
        '--golden',
        GOLDEN,
        '--config',
        cfg,
        '--cache',
        join(dir, 'c.sqlite'),
        '--base-url',
        server.url,
        '--format',
        'json',
        '--quiet',
      ])
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      const j = JSON.parse(r.stdout) as {
        passed: number
        total: number
        dimensions: {
          dimension: string
          cases: number
          passed: number
          ties: number
          inverted: number
          unjudged: number
        }[]
        failures: { id: string; outcome: string; note: string | null }[]
      }
      expect(j.total).toBe(golden.length)
      expect(j.passed).toBe(golden.length - 3)
      expect(j.failures.map((f) => [f.id, f.outcome])).toEqual([
        ['faith-03', 'tie'],
        ['coh-02', 'unjudged'],
        ['corr-05', 'inverted'],
      ])
      expect(j.failures[1]!.note).toBe(
        'worse: invalid (not exactly one JSON object (text around it))',
      )
      expect(j.dimensions.find((d) => d.dimension === 'faithfulness')).toMatchObject({
        cases: 9,
        passed: 8,
        ties: 1,
      })
      for (const dim of ['correctness', 'completeness', 'relevance', 'coherence', 'faithfulness'])
        expect(j.dimensions.find((d) => d.dimension === dim)!.cases).toBeGreaterThanOrEqual(8)
      const text = await cli([
        'judge',
        'calibrate',
        '--golden',
        GOLDEN,
        '--config',
        cfg,
        '--cache',
        join(dir, 'c.sqlite'),
        '--base-url',
        server.url,
        '--quiet',
      ])
      expect(text.stdout).toMatch(/faithfulness\s+9\s+8\s+0\.8889\s+1\s+0\s+0/)
      expect(text.stdout).toContain('Failures')
    },
    SLOW,
  )

  it(
    'run → report: markdown and JSON with the sample, prompts verbatim, retry procedure, counts; agreement with --human',
    async () => {
      server = await startServer((q) =>
        answerOf(q.user).includes('pH')
          ? { kind: 'score', score: 2 }
          : /^Dimension: RELEVANCE/.test(q.user)
            ? { kind: 'score', score: 5 }
            : { kind: 'score', score: 4 },
      )
      const dir = tempDir()
      const cfg = writeTestConfig(dir)
      const out = join(dir, 'j.jsonl')
      const runJson = join(dir, 'run.json')
      const run = await cli(
        [
          'judge',
          'run',
          ITEMS,
          '--config',
          cfg,
          '--cache',
          join(dir, 'c.sqlite'),
          '--out',
          out,
          '--per-turn',
          '--format',
          'markdown',
          '--report-json',
          runJson,
        ],
        { TRECSCORE_JUDGE_BASE_URL: server.url },
      )
      expect(run.code).toBe(0)
      expect(run.stderr).toMatch(
        /trecscore judge: done, 25\/25 judgments \(100%\), 0 from cache, 25 HTTP calls/,
      )
      expect(run.stdout).toContain(`- endpoint: ${server.url}`)
      expect(run.stdout).toContain('| relevance | 0.8500 | 5 | 5 | 0 | 0 | 0 | 0 |')
      expect(run.stdout).toContain('## Lexical diagnostics (against the reference answers)')
      expect(
        (JSON.parse(readFileSync(runJson, 'utf8')) as { lexical: { all: { turns: number } } })
          .lexical.all.turns,
      ).toBe(5)
      const humans = join(dir, 'human.jsonl')
      const turns = ['c1_turn_1', 'c1_turn_2', 'c1_turn_3', 'c2_turn_1', 'c2_turn_2']
      writeFileSync(
        humans,
        turns
          .flatMap((t, i) =>
            ['correctness', 'relevance'].map((d) =>
              JSON.stringify({ turn_id: t, dimension: d, score: 1 + ((i + d.length) % 5) }),
            ),
          )
          .join('\n') + '\n',
      )
      const md = join(dir, 'r.md')
      const js = join(dir, 'r.json')
      const rep = await cli([
        'judge',
        'report',
        out,
        '--config',
        cfg,
        '--human',
        humans,
        '--bootstrap',
        '20',
        '--markdown',
        md,
        '--json',
        js,
        '--diagnostics',
        runJson,
      ])
      expect(rep.stderr).toBe('')
      expect(rep.code).toBe(0)
      const text = readFileSync(md, 'utf8')
      const config = loadJudgeConfig(cfg)
      // The report went to the files only: stdout is one summary line; no local absolute path inside.
      // relevance (4 × 1 + 0.25) / 5 = 0.85, the other four (4 × 0.75 + 0.25) / 5 = 0.65: (0.85 + 4 × 0.65) / 5 = 0.69
      expect(rep.stdout).toBe(
        `judge report: wrote ${md} (markdown) and ${js} (JSON): 5 turns, mean over dimensions 0.6900, judge config ${config.hash.slice(0, 12)}\n`,
      )
      expect(text).not.toContain(dir)
      expect(readFileSync(js, 'utf8')).not.toContain(dir)
      expect(text).toContain('- judge config: `judge-config.json`')
      expect(text).toContain('- judgments: `j.jsonl`')
      expect(text).toContain(config.hash)
      expect(text).toContain('gpt-4o-2024-08-06')
      expect(text).toContain(config.config.systemPrompt)
      for (const d of config.config.dimensions) expect(text).toContain(d.prompt)
      expect(text).toContain('## Retry procedure')
      expect(text).toContain('| dimension | invalid | missing | excluded from the mean |')
      expect(text).toContain('5 turns in 2 conversations')
      expect(text).toContain('Agreement')
      expect(text).toContain('## Lexical diagnostics')
      const json = JSON.parse(readFileSync(js, 'utf8')) as Record<string, any>
      expect(json['judge_config_id']).toBe(config.hash)
      expect(json['sample']).toMatchObject({ turns: 5, conversations: 2, unanswered_turns: 0 })
      expect(json['agreement']).not.toBeNull()
      expect(json['prompts']['dimensions']).toHaveLength(5)
      // The shipped default config has another hash: the report refuses these judgments.
      const wrong = await cli(['judge', 'report', out])
      expect(wrong.code).toBe(2)
      expect(wrong.stderr).toContain('were made under judge config')
      expect(wrong.stderr).not.toMatch(/\n\s+at /)
    },
    SLOW,
  )

  it(
    'user errors exit 2 with every problem and no stack trace',
    async () => {
      const dir = tempDir()
      const bad = join(dir, 'bad.json')
      writeFileSync(bad, JSON.stringify({ name: 'x', model: 'm', dimensions: [] }))
      const r = await cli([
        'judge',
        'run',
        ITEMS,
        '--config',
        bad,
        '--base-url',
        'http://127.0.0.1:9/v1',
      ])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(
        `${bad}: $.system_prompt: expected a non-empty string, found nothing`,
      )
      expect(r.stderr).toContain(
        `${bad}: $.dimensions: dimension "correctness" is missing (all five are required)`,
      )
      expect(r.stderr).not.toMatch(/\n\s+at /)
      const junk = join(dir, 'junk.jsonl')
      writeFileSync(junk, Buffer.from([0x7b, 0xff, 0xfe, 0x0a, 0x00, 0x01, 0x0a, 0x5b, 0x5d, 0x0a]))
      const j = await cli([
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
      expect(j.code).toBe(2)
      expect(j.stderr.trim().split('\n')).toEqual([
        `trecscore: ${junk}:1: invalid UTF-8, expected UTF-8 text: "{\ufffd\ufffd"`,
        `${junk}:2: NUL byte in line (binary data?), expected one JSON object per line: "\\u0000\\u0001"`,
        `${junk}:3: expected a JSON object, found []: "[]"`,
      ])
    },
    SLOW,
  )
})
