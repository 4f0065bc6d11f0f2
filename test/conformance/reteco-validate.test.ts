/**
 * RETECO submission validation against the recorded outputs of the organizers' format_checker.py
 * (test/fixtures/reteco/expected/<run>/format_checker.json) and the injections listed in
 * test/fixtures/reteco/runs/index.json.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  FormatChecker,
  type FormatCheckerFinding,
  type RetecoValidation,
  type RunProblem,
  readCorpusIds,
  renderFormatCheckerOutput,
  validateRetecoRun,
} from '../../src/internal.js'

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'reteco')
const DATA = join(ROOT, 'data')

interface RunEntry {
  readonly name: string
  readonly subtrack: '1a' | '1b' | '2a'
  readonly domains: readonly string[]
  readonly malformed: boolean
  readonly notes: readonly string[]
}
interface CheckerCall {
  readonly command: string
  readonly exit_code: number
  readonly stdout: string
}

const RUNS: readonly RunEntry[] = (
  JSON.parse(readFileSync(join(ROOT, 'runs', 'index.json'), 'utf8')) as { runs: RunEntry[] }
).runs
const SUMMARY = JSON.parse(readFileSync(join(ROOT, 'expected', 'summary.json'), 'utf8')) as {
  runs: Record<string, { counts?: Record<string, number> }>
}

function recorded(run: string): Record<string, Record<string, CheckerCall>> {
  return JSON.parse(
    readFileSync(join(ROOT, 'expected', run, 'format_checker.json'), 'utf8'),
  ) as Record<string, Record<string, CheckerCall>>
}

function topicsOf(file: string): Set<string> {
  const ids = new Set<string>()
  for (const line of readFileSync(file, 'latin1').split('\n')) {
    const f = line.trim().split(/\s+/)[0]
    if (f) ids.add(f)
  }
  return ids
}

const enc = (s: string): string => Buffer.from(s, 'utf8').toString('latin1')

/** Every problem of a run with its domain (`maxListed` is unlimited in these tests). */
function problems(v: RetecoValidation): { domain: string | null; p: RunProblem }[] {
  return v.files.flatMap((f) => f.report.problems.map((p) => ({ domain: f.domain, p })))
}

function has(p: RunProblem, key: string): string | undefined {
  return (p as unknown as Record<string, string | undefined>)[key]
}

const validations = new Map<string, RetecoValidation>()

beforeAll(async () => {
  for (const r of RUNS) {
    validations.set(
      r.name,
      await validateRetecoRun(join(ROOT, 'runs', r.name), {
        subtrack: r.subtrack,
        data: DATA,
        maxListed: Infinity,
      }),
    )
  }
})

describe('the format_checker.py port', () => {
  const cases = RUNS.flatMap((r) =>
    Object.entries(recorded(r.name)).flatMap(([domain, calls]) =>
      Object.entries(calls).map(([variant, call]) => ({ run: r.name, domain, variant, call })),
    ),
  )
  it.each(cases)(
    '$run/$domain ($variant): stdout and exit code byte for byte',
    async ({ run, domain, call }) => {
      const q = / --qrels (\S+)/.exec(call.command)
      const c = / --corpus (\S+)/.exec(call.command)
      const checker = new FormatChecker({
        ...(q ? { topics: topicsOf(join(ROOT, q[1]!)) } : {}),
        ...(c ? { docs: await readCorpusIds(join(ROOT, c[1]!)) } : {}),
      })
      checker.feed(readFileSync(join(ROOT, 'runs', run, `${domain}.trec`)))
      const result = checker.end()
      expect(renderFormatCheckerOutput(result)).toBe(call.stdout)
      expect(result.valid ? 0 : 1).toBe(call.exit_code)
    },
  )
})

/** Our code for a checker finding on the same line. */
function ourCode(f: FormatCheckerFinding): readonly string[] {
  switch (f.kind) {
    case 'columns':
      return f.found < 6 ? ['field_count'] : ['extra_fields']
    case 'rank':
      return ['rank_not_an_integer', 'rank_not_positive']
    case 'score':
      return ['score_not_a_number', 'score_not_finite']
    case 'duplicate_rank':
      return ['duplicate_rank']
    case 'score_increases':
      return ['score_rises']
    case 'unknown_topic':
      return ['not_a_topic']
    case 'unknown_doc':
      return ['doc_not_in_corpus']
  }
}

describe('validate --preset reteco-*: verdicts and findings against format_checker.json', () => {
  const KNOWN_DIFFERENCES: Record<string, string> = { '1a_domain_empty/law': 'empty_file' }
  it.each(RUNS)('$name', async (r) => {
    const v = validations.get(r.name)!
    const calls = recorded(r.name)
    for (const f of v.files) {
      const domain = f.domain!
      const call = calls[domain]!.with_qrels_corpus!
      const plain = calls[domain]!.plain!
      const key = `${r.name}/${domain}`
      // The checker port on the same file gives the recorded verdict.
      expect(f.checker.valid ? 0 : 1, key).toBe(call.exit_code)
      expect(plain.exit_code, key).toBe(call.exit_code)
      expect(renderFormatCheckerOutput(f.checker), key).toBe(call.stdout)
      const oursValid = f.report.errors === 0
      if (KNOWN_DIFFERENCES[key]) {
        expect(oursValid, key).toBe(false)
        expect(f.agrees, key).toBe(false)
        expect(
          f.differences.map((d) => d.code),
          key,
        ).toEqual([KNOWN_DIFFERENCES[key]])
        expect(f.differences[0]!.reason, key).toMatch(/format_checker\.py accepts an empty file/)
      } else {
        expect(oursValid, key).toBe(call.exit_code === 0)
        expect(f.agrees, key).toBe(true)
        expect(f.differences, key).toEqual([])
      }
      // Each finding the checker prints is one of ours on the same line (unknown topics: on the
      // topic's first line, as we report a topic once).
      const firstLineOf = new Map<string, number>()
      for (const p of f.report.problems)
        if (p.code === 'not_a_topic') firstLineOf.set(p.queryId, p.line)
      const byLine = new Map<number, Set<string>>()
      for (const p of f.report.problems)
        if ('line' in p)
          (byLine.get(p.line) ?? byLine.set(p.line, new Set()).get(p.line)!).add(p.code)
      for (const finding of [...f.checker.errors, ...f.checker.warnings]) {
        const line =
          finding.kind === 'unknown_topic' ? firstLineOf.get(finding.queryId) : finding.line
        expect(line, `${key}: ${JSON.stringify(finding)}`).toBeDefined()
        const codes = byLine.get(line!) ?? new Set()
        expect(
          ourCode(finding).some((c) => codes.has(c)),
          `${key}: L${finding.line} ${finding.kind}: ours ${[...codes].join(',')}`,
        ).toBe(true)
      }
      // Totals: the checker's errors are our line errors of the same kinds; its plain warnings our score_rises.
      const count = (code: string): number =>
        f.report.counts.find((c) => c.code === code)?.count ?? 0
      const header = (s: string): [number, number] => {
        const m = /errors: (\d+) {2}warnings: (\d+)/.exec(s)!
        return [Number(m[1]), Number(m[2])]
      }
      const lineErrors = [
        'field_count',
        'extra_fields',
        'rank_not_an_integer',
        'rank_not_positive',
        'score_not_a_number',
        'score_not_finite',
        'duplicate_rank',
      ].reduce((n, c) => n + count(c), 0)
      expect(lineErrors, key).toBe(header(call.stdout)[0])
      expect(count('score_rises'), key).toBe(header(plain.stdout)[1])
      expect(count('doc_not_in_corpus'), key).toBe(f.checker.kinds.unknown_doc)
    }
  })
})

describe('validate --preset reteco-*: what the checker misses (runs/index.json injections)', () => {
  it.each(RUNS.filter((r) => !r.malformed))(
    '$name: plan counts equal expected/summary.json',
    (r) => {
      const v = validations.get(r.name)!
      const counts = SUMMARY.runs[r.name]!.counts!
      const total = (code: string): number =>
        v.files.reduce((n, f) => n + (f.report.counts.find((c) => c.code === code)?.count ?? 0), 0)
      expect(total('missing_topic'), 'missing topics').toBe(counts['missing_topics'])
      expect(total('duplicate_doc_dropped'), 'duplicate rows').toBe(counts['duplicate_rows'])
      expect(total('doc_not_in_corpus'), 'unknown doc rows').toBe(counts['unknown_doc_rows'])
      expect(total('rank_order_differs'), 'rank vs score topics').toBe(
        counts['rank_vs_score_topics'],
      )
    },
  )

  it.each(RUNS.filter((r) => r.notes.length > 0 && !r.malformed))(
    '$name: every injected problem is reported where it was put',
    (r) => {
      const all = problems(validations.get(r.name)!)
      const at = (domain: string, code: string, topic: string): boolean =>
        all.some(
          ({ domain: d, p }) => d === domain && p.code === code && has(p, 'queryId') === enc(topic),
        )
      for (const note of r.notes) {
        const m = /^([a-z_]+)(?::(\S+))?: (.*)$/.exec(note)!
        const [, domain, topic, what] = m as unknown as [string, string, string | undefined, string]
        if (what === 'omitted') expect(at(domain, 'missing_topic', topic!), note).toBe(true)
        else if (what === 'topic not in qrels')
          expect(at(domain, 'not_a_topic', topic!), note).toBe(true)
        else if (/listed twice|again at rank|repeated with the same score/.test(what))
          expect(at(domain, 'duplicate_doc_dropped', topic!), note).toBe(true)
        else if (what.startsWith('unknown doc ids'))
          expect(at(domain, 'doc_not_in_corpus', topic!), note).toBe(true)
        else if (what.startsWith('rank column contradicts score'))
          expect(at(domain, 'rank_order_differs', topic!), note).toBe(true)
        else if (what.startsWith('depth ')) {
          const p = all.find(
            ({ domain: d, p }) =>
              d === domain && p.code === 'deeper_than_limit' && has(p, 'queryId') === topic,
          )
          expect(p && 'count' in p.p ? p.p.count : null, note).toBe(Number(what.slice(6)))
        } else if (what === 'empty run file')
          expect(
            all.some(({ domain: d, p }) => d === domain && p.code === 'empty_file'),
            note,
          ).toBe(true)
      }
    },
  )

  it('hints: pilot #turn ids, topics of the train split, query ids in a 1b run, steps and turns that do not exist', () => {
    const hint = (run: string, topic: string): [string | null, string | null] => {
      const p = problems(validations.get(run)!).find(
        ({ p }) => p.code === 'not_a_topic' && p.queryId === topic,
      )!.p
      return p.code === 'not_a_topic' ? [p.hint, p.suggestion] : [null, null]
    }
    expect(hint('2a_missing_turns_unknown', '2#turn1')).toEqual(['pilot_turn', '2_turn_1'])
    expect(hint('2a_missing_turns_unknown', 'ex_4102#turn1')).toEqual([
      'pilot_turn',
      'ex_4102_turn_1',
    ])
    expect(hint('1a_dups_unknown', '20727_19')).toEqual(['other_split', 'train'])
    expect(hint('1a_dups_unknown', '999999_1')).toEqual([null, null])
    expect(hint('1b_missing_steps_dups', '87830_4')[0]).toBe('query_id')
    expect(hint('1b_missing_steps_dups', '38520_46_step9')).toEqual([
      'unknown_step',
      'step1, step2, step4',
    ])
    expect(hint('2a_missing_turns_unknown', 'ex_4102_turn_7')).toEqual([
      'unknown_turn',
      '1, 2, 3, 4',
    ])
  })

  it('mixed run tags and depth over 1,000 are warnings (the checker accepts both)', () => {
    const v = validations.get('1a_deep_format')!
    expect(v.ok).toBe(true)
    for (const f of v.files)
      expect(f.report.counts.find((c) => c.code === 'mixed_tags')?.count, f.domain!).toBe(2)
    expect(
      problems(v)
        .filter(({ p }) => p.code === 'deeper_than_limit')
        .map(({ p }) => has(p, 'queryId')),
    ).toEqual(['68855_19', '80955_35', '12833_42'])
  })

  it('a run of another sub-track: step ids in a 1a run, query ids in a 1b run', async () => {
    const asA = await validateRetecoRun(join(ROOT, 'runs', '1b_perfect'), {
      subtrack: '1a',
      data: DATA,
      maxListed: Infinity,
    })
    expect(asA.ok).toBe(false)
    for (const f of asA.files) {
      expect(
        f.report.problems.some((p) => p.code === 'no_known_topics'),
        f.domain!,
      ).toBe(true)
      expect(f.agrees).toBe(false)
      expect(f.differences.map((d) => d.code)).toEqual(['no_known_topics'])
    }
    const step = problems(asA).find(({ p }) => p.code === 'not_a_topic')!.p
    expect(step.code === 'not_a_topic' && [step.hint, step.suggestion]).toEqual([
      'step_id',
      '38520_46',
    ])
    const asB = await validateRetecoRun(join(ROOT, 'runs', '1a_perfect'), {
      subtrack: '1b',
      data: DATA,
      maxListed: Infinity,
    })
    const query = problems(asB).find(({ p }) => p.code === 'not_a_topic')!.p
    expect(query.code === 'not_a_topic' && [query.hint, query.suggestion]).toEqual([
      'query_id',
      '38520_46_step1',
    ])
  })

  it('Track 2 needs the directory form; a single Track 1 file covers every domain', async () => {
    await expect(
      validateRetecoRun(join(ROOT, 'runs', '2a_perfect', 'biology.trec'), {
        subtrack: '2a',
        data: DATA,
      }),
    ).rejects.toThrow(/one file per domain/)
    await expect(
      validateRetecoRun(join(ROOT, 'runs'), { subtrack: '1a', data: DATA }),
    ).rejects.toThrow(
      /no run file named after a domain \(expected bitcoin\.trec, history\.trec, law\.trec\)/,
    )
    const single = await validateRetecoRun(join(ROOT, 'runs', '1a_perfect', 'law.trec'), {
      subtrack: '1a',
      data: DATA,
      maxListed: Infinity,
    })
    expect(single.layout).toBe('single-file')
    expect(single.files[0]!.report.counts.find((c) => c.code === 'missing_topic')?.count).toBe(
      12 + 14,
    )
    expect(single.files[0]!.report.errors).toBe(0)
  })

  it('a directory lacking a domain file, and the malformed runs', () => {
    const v = validations.get('bad_5cols')!
    expect(v.problems.map((p) => p.code)).toEqual(['missing_domain_file', 'missing_domain_file'])
    for (const name of readdirSync(join(ROOT, 'runs')).filter((n) => n.startsWith('bad_')))
      expect(validations.get(name)!.ok, name).toBe(false)
  })
})
