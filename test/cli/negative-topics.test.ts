/**
 * Issue 10 item 6: a topic whose judgments are all negative is scored with zero relevant
 * documents (as gdeval, ndeval, cwl_eval, trectools, ir_measures and pytrec_eval do) on every
 * route: `evaluate`, `compare`, `report`, `score --preset` and the library; only the `trec-eval`
 * drop-in keeps trec_eval's refusal (exit 4).
 *
 * Hand computation: q1 judges d1 grade 2 (retrieved first) and d2 grade 0; q2 judges d1 -1 and
 * d3 -2. q1: AP 1, nDCG@10 1, P@5 1/5, P@10 1/10; q2: every measure 0. Means over 2 topics:
 * AP 0.5, nDCG@10 0.5, P@5 0.1, P@10 0.05.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { reportFromEvaluations } from '../../src/entries/report.js'
import { evaluate, parseQrels, parseRun } from '../../src/internal.js'
import { cli } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-neg-'))
const file = (name: string, content: string): string => {
  const p = join(tmp, name)
  writeFileSync(p, content)
  return p
}
const QRELS_TEXT = 'q1 0 d1 2\nq1 0 d2 0\nq2 0 d1 -1\nq2 0 d3 -2\n'
const RUN_TEXT = 'q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d1 1 2.0 r\nq2 Q0 d3 2 1.0 r\n'
const QRELS = file('qrels', QRELS_TEXT)
const RUN = file('run', RUN_TEXT)
const RUN2 = file('run2', RUN_TEXT.replace('d1 1 2.0', 'd1 1 0.5'))

describe('topics judged only negative', () => {
  it('library: scored 0 and counted', () => {
    const r = evaluate(
      parseQrels(Buffer.from(QRELS_TEXT)).value,
      parseRun(Buffer.from(RUN_TEXT)).value,
      ['AP', 'nDCG@10', 'P@5'],
    )
    expect(r.counts.failedQueries).toEqual([])
    expect(r.counts.negativeOnlyQueries).toEqual(['q2'])
    expect(r.perQuery.map((q) => [q.queryId, q.values])).toEqual([
      ['q1', [1, 1, 0.2]],
      ['q2', [0, 0, 0]],
    ])
    expect(r.aggregates.map((a) => a.value)).toEqual([0.5, 0.5, 0.1])
    // Undefined rather than 0 when asked: left out of the mean like any topic without a relevant doc.
    const u = evaluate(
      parseQrels(Buffer.from(QRELS_TEXT)).value,
      parseRun(Buffer.from(RUN_TEXT)).value,
      ['AP'],
      { queriesWithoutRelevant: 'undefined' },
    )
    expect(u.aggregates[0]).toMatchObject({ value: 1, queries: 1, undefinedQueries: 1 })
  })
  it('evaluate: exit 0 with the means above; --explain counts the topic', () => {
    const r = cli(['evaluate', QRELS, RUN, '-m', 'AP', '-m', 'nDCG@10', '-m', 'P@5', '-f', 'json'])
    expect([r.code, r.stderr]).toEqual([0, ''])
    const body = JSON.parse(r.stdout) as {
      runs: {
        aggregates: Record<string, { value: number; queries: number }>
        counts: { negativeOnlyQueries: string[] }
      }[]
    }
    expect(
      Object.entries(body.runs[0]!.aggregates).map(([m, a]) => [m, a.value, a.queries]),
    ).toEqual([
      ['AP', 0.5, 2],
      ['nDCG@10', 0.5, 2],
      ['P@5', 0.1, 2],
    ])
    expect(body.runs[0]!.counts.negativeOnlyQueries).toEqual(['q2'])
    const e = cli(['evaluate', QRELS, RUN, '-m', 'AP', '--explain'])
    expect(e.code).toBe(0)
    expect(e.stdout).toContain('queries judged only negative (scored with no relevant doc): 1 (q2)')
    expect(e.stdout).toMatch(/run\s+0\.5000\n/)
  })
  it('compare and report: exit 0', () => {
    const c = cli(['compare', QRELS, RUN, RUN2, '-m', 'AP'])
    expect([c.code, c.stderr]).toEqual([0, ''])
    // run2 ranks d2 above d1 for q1 (AP 1/2): means 0.5 and 0.25 over both topics.
    expect(c.stdout).toMatch(/AP\s+2\s+0\.5000\s+0\.2500/)
    const out = join(tmp, 'r.html')
    const r = cli(['report', QRELS, RUN, RUN2, '-m', 'AP', '--out', out])
    expect(r.code).toBe(0)
    expect(existsSync(out) && readFileSync(out, 'utf8').length > 0).toBe(true)
    // The report's counts name the topic's treatment.
    const ev = evaluate(
      parseQrels(Buffer.from(QRELS_TEXT)).value,
      parseRun(Buffer.from(RUN_TEXT)).value,
      ['AP'],
    )
    expect(
      new Map(reportFromEvaluations([ev], 'qrels').counts[0]!.items).get(
        'queries judged only negative (scored 0)',
      ),
    ).toBe(1)
  })
  it('score --preset dl21-passage: the trec_eval numbers and a note', () => {
    const r = cli(['score', '--preset', 'dl21-passage', '--qrels', QRELS, RUN])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      'map                   \tall\t0.5000\nrecip_rank            \tall\t0.5000\nP_10                  \tall\t0.0500\nrecall_100            \tall\t0.5000\nrecall_1000           \tall\t0.5000\nndcg_cut_10           \tall\t0.5000\n',
    )
    expect(r.stderr).toContain(
      `trecscore: note: ${RUN}: 1 qrels topic(s) judged only negative (no relevant document), scored 0 where a measure needs one: q2\n`,
    )
  })
  it("the trec-eval drop-in keeps trec_eval's exit 4 when such a topic comes first", () => {
    const q = file('q0', 'q0 0 d1 -1\nq1 0 d1 2\n')
    const r = cli(['trec-eval', q, file('r0', 'q0 Q0 d1 1 1.0 r\nq1 Q0 d1 1 1.0 r\n')])
    expect(r.code).toBe(4)
    expect(r.stderr).toBe("trec_eval: Can't calculate measure 'num_ret'\n")
  })
})

/*
 * The negativeJudgments convention. nonrelevant (default): as above; Judged@2 counts q2's two
 * negative labels as judged (1). unjudged: the negative lines are dropped when read, so q2's
 * docs are unjudged (Judged@2 0) and q2 stays with no judgment (AP 0, counted as judged only
 * negative): means AP 0.5, Judged@2 0.5. error: exit 2 naming each line.
 */
describe('--negative-judgments', () => {
  it('library: unjudged drops the lines (q2 stays, unjudged), error names each line', () => {
    const qrels = parseQrels(Buffer.from(QRELS_TEXT)).value
    const run = parseRun(Buffer.from(RUN_TEXT)).value
    const kept = evaluate(qrels, run, ['AP', 'Judged@2'])
    expect(kept.perQuery.map((q) => [q.queryId, q.values])).toEqual([
      ['q1', [1, 1]],
      ['q2', [0, 1]],
    ])
    expect(kept.counts.negativeJudgmentsDropped).toBe(0)
    const r = evaluate(qrels, run, ['AP', 'Judged@2'], { negativeJudgments: 'unjudged' })
    expect(r.perQuery.map((q) => [q.queryId, q.values])).toEqual([
      ['q1', [1, 1]],
      ['q2', [0, 0]],
    ])
    expect(r.aggregates.map((a) => a.value)).toEqual([0.5, 0.5])
    expect(r.counts.negativeJudgmentsDropped).toBe(2)
    expect(r.counts.negativeOnlyQueries).toEqual(['q2'])
    expect(r.conventions.negativeJudgments).toBe('unjudged')
    // Read under the policy, the same numbers.
    const read = parseQrels(Buffer.from(QRELS_TEXT), { negativeJudgments: 'unjudged' }).value
    expect(read.negativeJudgments).toEqual({ policy: 'unjudged', dropped: 2 })
    expect(read.queries.get('q2')!.grades.size).toBe(0)
    expect(
      evaluate(read, run, ['AP', 'Judged@2'], { negativeJudgments: 'unjudged' }).perQuery.map(
        (q) => q.values,
      ),
    ).toEqual([
      [1, 1],
      [0, 0],
    ])
    expect(() => evaluate(qrels, run, ['AP'], { negativeJudgments: 'error' })).toThrow(
      /2 negative judgment/,
    )
    const bad = parseQrels(Buffer.from(QRELS_TEXT), { negativeJudgments: 'error' })
    expect(bad.ok).toBe(false)
    expect(bad.issues.map((i) => ('line' in i ? i.line : 0))).toEqual([3, 4])
  })
  it('evaluate: unjudged reports the count and the convention; error exits 2 with file:line', () => {
    const r = cli([
      'evaluate',
      QRELS,
      RUN,
      '-m',
      'AP',
      '--negative-judgments',
      'unjudged',
      '--explain',
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('negative judgment lines dropped (negative judgments: unjudged): 2')
    expect(r.stdout).toContain('negative judgments: unjudged')
    expect(r.stdout).toMatch(/run\s+0\.5000\n/)
    expect(r.stdout).toContain('; negative judgments unjudged;')
    const j = cli(['evaluate', QRELS, RUN, '-m', 'AP', '-f', 'json'])
    expect(JSON.parse(j.stdout).conventions.negativeJudgments).toBe('nonrelevant')
    const e = cli(['evaluate', QRELS, RUN, '-m', 'AP', '--negative-judgments', 'error'])
    expect(e.code).toBe(2)
    expect(e.stderr).toContain(
      `${QRELS}:3: negative judgment "-1" refused (--negative-judgments error)`,
    )
    expect(e.stderr).toContain(`${QRELS}:4: negative judgment "-2" refused`)
    expect(e.stderr).not.toContain('    at ')
  })
})
