/**
 * `trecscore judge agreement` end to end (in process): the shipped examples, every bad line
 * reported with file:line, mixed judge configs refused, pairing counts, --dimension, --bootstrap 0,
 * reproducible seeds, binary junk.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cohenKappa, krippendorffAlpha } from '../../../src/entries/stats.js'
import { runCli } from './helpers.js'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const HUMAN = join(ROOT, 'examples', 'judge', 'human-labels.jsonl')
const JUDGMENTS = join(ROOT, 'examples', 'judge', 'judgments.jsonl')
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-agreement-'))
const file = (name: string, content: string | Buffer): string => {
  const p = join(tmp, name)
  writeFileSync(p, content)
  return p
}
const lines = (p: string): Record<string, unknown>[] =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as Record<string, unknown>)

interface JsonOut {
  schema: string
  configHash: string
  dimensions: {
    dimension: string
    pairing: Record<string, number>
    statistics: Record<
      string,
      {
        value: number | null
        status: string
        ci: { lower: number; upper: number; resamples: number; undefinedResamples: number } | null
      }
    >
  }[]
}

describe('judge agreement on the shipped examples', () => {
  it('prints a table per dimension and exits 0', async () => {
    const r = await runCli([
      'judge',
      'agreement',
      '--human',
      HUMAN,
      '--judgments',
      JUDGMENTS,
      '--bootstrap',
      '200',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    for (const d of ['correctness', 'completeness', 'relevance', 'coherence', 'faithfulness'])
      expect(r.stdout).toContain(`${d}: `)
    expect(r.stdout).toContain("Cohen's kappa (quadratic)")
    expect(r.stdout).toContain('1 invalid judgment(s)')
  })

  it('JSON: values equal the statistics on the pairs joined by hand; counts of what did not pair', async () => {
    const r = await runCli([
      'judge',
      'agreement',
      '--human',
      HUMAN,
      '--judgments',
      JUDGMENTS,
      '--format',
      'json',
      '--bootstrap',
      '100',
      '--seed',
      '5',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as JsonOut
    expect(j.schema).toBe('trecscore.judge-agreement/1')
    const humans = lines(HUMAN)
    const judged = lines(JUDGMENTS)
    expect(j.configHash).toBe(judged[0]!['config_hash'])
    for (const dim of j.dimensions) {
      const ok = new Map(
        judged
          .filter((x) => x['dimension'] === dim.dimension && x['status'] === 'ok')
          .map((x) => [x['turn_id'], x['score'] as number]),
      )
      const hs = humans.filter((x) => x['dimension'] === dim.dimension && ok.has(x['turn_id']))
      const h = hs.map((x) => x['score'] as number)
      const g = hs.map((x) => ok.get(x['turn_id'])!)
      expect(dim.pairing['pairs']).toBe(h.length)
      expect(dim.statistics['qwk']!.value).toBe(cohenKappa(h, g).value)
      expect(dim.statistics['alphaOrdinal']!.value).toBe(krippendorffAlpha([h, g], 'ordinal').value)
      expect(dim.statistics['qwk']!.ci!.resamples).toBe(100)
      const labelled = new Set(
        humans.filter((x) => x['dimension'] === dim.dimension).map((x) => x['turn_id']),
      )
      const all = judged.filter((x) => x['dimension'] === dim.dimension)
      expect(dim.pairing['unpairedInvalid']).toBe(
        all.filter((x) => x['status'] === 'invalid' && labelled.has(x['turn_id'])).length,
      )
      expect(dim.pairing['unpairedMissing']).toBe(
        all.filter((x) => x['status'] === 'missing' && labelled.has(x['turn_id'])).length,
      )
      expect(dim.pairing['unpairedNoJudgment']).toBe(
        [...labelled].filter((t) => !all.some((x) => x['turn_id'] === t)).length,
      )
      expect(dim.pairing['judgedNotLabelled']).toBe(
        all.filter((x) => x['status'] === 'ok' && !labelled.has(x['turn_id'])).length,
      )
    }
    // the examples exercise each kind of unpaired turn
    const sum = (k: string): number => j.dimensions.reduce((s, d) => s + d.pairing[k]!, 0)
    expect(sum('unpairedInvalid')).toBeGreaterThan(0)
    expect(sum('unpairedMissing')).toBeGreaterThan(0)
    expect(sum('unpairedNoJudgment')).toBeGreaterThan(0)
    expect(sum('judgedNotLabelled')).toBeGreaterThan(0)
  })

  it('the same seed gives the same output; markdown renders one table per kind', async () => {
    const a = await runCli([
      'judge',
      'agreement',
      '--human',
      HUMAN,
      '--judgments',
      JUDGMENTS,
      '--format',
      'markdown',
      '--bootstrap',
      '50',
      '--seed',
      '9',
    ])
    const b = await runCli([
      'judge',
      'agreement',
      '--human',
      HUMAN,
      '--judgments',
      JUDGMENTS,
      '--format',
      'markdown',
      '--bootstrap',
      '50',
      '--seed',
      '9',
    ])
    expect(a.code).toBe(0)
    expect(a.stdout).toBe(b.stdout)
    expect(a.stdout).toContain('| dimension | pairs |')
    expect(a.stdout).toContain("| Cohen's kappa (quadratic) |")
  })

  it('--dimension keeps only the named dimensions; an unknown one is an error; --bootstrap 0 gives no CI', async () => {
    const r = await runCli([
      'judge',
      'agreement',
      '--human',
      HUMAN,
      '--judgments',
      JUDGMENTS,
      '--dimension',
      'relevance',
      '--bootstrap',
      '0',
      '--format',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as JsonOut
    expect(j.dimensions.map((d) => d.dimension)).toEqual(['relevance'])
    expect(j.dimensions[0]!.statistics['qwk']!.ci).toBeNull()
    const bad = await runCli([
      'judge',
      'agreement',
      '--human',
      HUMAN,
      '--judgments',
      JUDGMENTS,
      '--dimension',
      'fluency',
    ])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('dimension "fluency" is in neither file')
  })
})

describe('judge agreement input problems (exit 2, every one with file:line)', () => {
  const judgment = (
    turn: string,
    score: number | null,
    extra: Record<string, unknown> = {},
  ): string =>
    JSON.stringify({
      turn_id: turn,
      conversation_id: turn.split('_turn_')[0],
      dimension: 'correctness',
      score,
      status: score === null ? 'invalid' : 'ok',
      config_hash: 'h1',
      attempts: 1,
      ...extra,
    })

  it('reports every bad human line at once', async () => {
    const human = file(
      'bad-human.jsonl',
      Buffer.concat([
        Buffer.from('{"turn_id": "c1_turn_1", "dimension": "correctness", "score": 3}\n'),
        Buffer.from('{"turn_id": "c1_turn_2", "dimension": "correctness", "score": 6}\n'),
        Buffer.from('not json\n'),
        Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
        Buffer.from('{"dimension": "correctness", "score": 2}\n'),
        Buffer.from('{"turn_id": "c1_turn_1", "dimension": "correctness", "score": 4}\n'),
        Buffer.from('{"turn_id": "noturn", "dimension": "correctness", "score": 4}\n'),
        Buffer.from('[1, 2]\n'),
        Buffer.from(
          '{"turn_id": "c2_turn_1", "dimension": "correctness", "score": 2.5, "extra": 1}\n',
        ),
      ]),
    )
    const judgments = file('ok-judgments.jsonl', `${judgment('c1_turn_1', 3)}\n`)
    const r = await runCli(['judge', 'agreement', '--human', human, '--judgments', judgments])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    for (const at of [2, 3, 4, 5, 6, 7, 8, 9]) expect(r.stderr).toContain(`${human}:${at}: `)
    expect(r.stderr).not.toContain(`${human}:1: `)
    expect(r.stderr).toContain('invalid UTF-8')
    expect(r.stderr).toContain('invalid JSON')
    expect(r.stderr).toContain('"score" is 6')
    expect(r.stderr).toContain('missing "turn_id"')
    expect(r.stderr).toContain('duplicate label for turn "c1_turn_1"')
    expect(r.stderr).toContain('is not <conversation>_turn_<n>')
    expect(r.stderr).toContain('unknown field(s) "extra"')
    expect(r.stderr).toContain('expected')
    expect(r.stderr).not.toMatch(/\n\s+at /) // no stack trace
  })

  it('refuses judgments made under different judge configs', async () => {
    const human = file(
      'h.jsonl',
      '{"turn_id": "c1_turn_1", "dimension": "correctness", "score": 3}\n{"turn_id": "c2_turn_1", "dimension": "correctness", "score": 4}\n',
    )
    const judgments = file(
      'mixed.jsonl',
      `${judgment('c1_turn_1', 3)}\n${judgment('c2_turn_1', 4, { config_hash: 'h2' })}\n`,
    )
    const r = await runCli(['judge', 'agreement', '--human', human, '--judgments', judgments])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      'judgments made under 2 different judge configs: h1 (1 line(s), first at line 1), h2 (1 line(s), first at line 2)',
    )
  })

  it('bad judgment lines: status/score mismatch, missing hash, duplicates, conflicting conversation ids', async () => {
    const human = file(
      'h2.jsonl',
      '{"turn_id": "c1_turn_1", "dimension": "correctness", "score": 3, "conversation_id": "other"}\n',
    )
    const judgments = file(
      'bad-judgments.jsonl',
      [
        judgment('c1_turn_1', 3),
        judgment('c1_turn_2', 3, { status: 'invalid' }),
        judgment('c1_turn_3', null, { status: 'ok' }),
        judgment('c1_turn_4', 2, { config_hash: undefined }),
        judgment('c1_turn_1', 4),
        judgment('c1_turn_5', 2, { status: 'maybe' }),
      ].join('\n'),
    )
    const r = await runCli(['judge', 'agreement', '--human', human, '--judgments', judgments])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${judgments}:2: "score" is 3 with status "invalid"`)
    expect(r.stderr).toContain(`${judgments}:3: "score" is null with status "ok"`)
    expect(r.stderr).toContain(`${judgments}:4: missing "config_hash"`)
    expect(r.stderr).toContain(`${judgments}:5: duplicate judgment for turn "c1_turn_1"`)
    expect(r.stderr).toContain(`${judgments}:6: "status" is "maybe"`)
    expect(r.stderr).toContain(
      `${human}:1: turn "c1_turn_1" is in conversation "other" here but "c1"`,
    )
  })

  it('a turn id judged in two domains: labels with "domain" pair per domain; labels without one are refused with file:line', async () => {
    const inDomain = (domain: string, turn: string, score: number): string =>
      judgment(turn, score, { domain })
    const judgments = file(
      'domains.jsonl',
      [
        inDomain('finance', '2_turn_1', 4),
        inDomain('medical', '2_turn_1', 2),
        inDomain('finance', '2_turn_2', 3),
      ].join('\n'),
    )
    const withDomain = file(
      'h-domain.jsonl',
      '{"turn_id": "2_turn_1", "dimension": "correctness", "score": 4, "domain": "finance"}\n{"turn_id": "2_turn_1", "dimension": "correctness", "score": 1, "domain": "medical"}\n{"turn_id": "2_turn_2", "dimension": "correctness", "score": 3}\n',
    )
    const ok = await runCli([
      'judge',
      'agreement',
      '--human',
      withDomain,
      '--judgments',
      judgments,
      '--format',
      'json',
      '--bootstrap',
      '20',
    ])
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
    const d = (JSON.parse(ok.stdout) as JsonOut).dimensions[0]! as JsonOut['dimensions'][number] & {
      conversations: number
    }
    expect([
      d.pairing['pairs'],
      d.pairing['pairedTurns'],
      d.pairing['judgedNotLabelled'],
      d.conversations,
    ]).toEqual([3, 3, 0, 2])
    const without = file(
      'h-nodomain.jsonl',
      '{"turn_id": "2_turn_2", "dimension": "correctness", "score": 3}\n{"turn_id": "2_turn_1", "dimension": "correctness", "score": 4}\n',
    )
    const bad = await runCli(['judge', 'agreement', '--human', without, '--judgments', judgments])
    expect(bad.code).toBe(2)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toContain(
      `${without}:2: turn "2_turn_1" is judged in domains finance, medical (${judgments}:1, ${judgments}:2); add "domain" to the label`,
    )
    expect(bad.stderr).not.toContain(`${without}:1: `)
    expect(bad.stderr).not.toMatch(/\n\s+at /)
  })

  it('binary junk, empty files and missing files exit 2 without a trace', async () => {
    const junk = file(
      'junk.jsonl',
      Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 131 + 7) % 256)),
    )
    const empty = file('empty.jsonl', '')
    const a = await runCli(['judge', 'agreement', '--human', junk, '--judgments', junk])
    expect(a.code).toBe(2)
    expect(a.stderr).toContain('problem(s) in the input')
    const b = await runCli(['judge', 'agreement', '--human', empty, '--judgments', JUDGMENTS])
    expect(b.code).toBe(2)
    expect(b.stderr).toContain('no labels in the file')
    const c = await runCli([
      'judge',
      'agreement',
      '--human',
      join(tmp, 'nope.jsonl'),
      '--judgments',
      JUDGMENTS,
    ])
    expect(c.code).toBe(2)
    expect(c.stderr).toContain('no such file')
    const d = await runCli([
      'judge',
      'agreement',
      '--human',
      HUMAN,
      '--judgments',
      JUDGMENTS,
      '--confidence',
      '95',
    ])
    expect(d.code).toBe(2)
  })
})

describe('judge agreement option limits', () => {
  it('a seed outside [0, 2^32) or too many resamples is a usage error (exit 2), not a trace', async () => {
    for (const args of [
      ['--seed', '4294967296'],
      ['--seed', '-1'],
      ['--bootstrap', '1000001'],
      ['--bootstrap', 'lots'],
    ]) {
      const r = await runCli([
        'judge',
        'agreement',
        '--human',
        HUMAN,
        '--judgments',
        JUDGMENTS,
        ...args,
      ])
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2])
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
  })
})

describe('shipped examples', () => {
  it('carry the config hash of the shipped judge config (data/judge/reteco-judge-v1.json)', async () => {
    const { loadJudgeConfig } = await import('../../../src/entries/judge.js')
    const hash = loadJudgeConfig(join(ROOT, 'data', 'judge', 'reteco-judge-v1.json')).hash
    const hashes = new Set(lines(JUDGMENTS).map((j) => j['config_hash']))
    expect(
      [...hashes],
      'the judge config changed: replace config_hash in examples/judge/judgments.jsonl with its new hash',
    ).toEqual([hash])
  })
})
