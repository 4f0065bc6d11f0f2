import { describe, expect, it } from 'vitest'
import {
  compareRuns,
  compareTable,
  evaluate,
  type PerQueryTable,
  pairedTTest,
  parseQrels,
  parseRun,
  runLetter,
  tableFromEvaluations,
} from '../../src/internal.js'

// Hand-built per-query values: 3 runs, 6 queries.
const A = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
const B = [0.2, 0.2, 0.5, 0.6, 0.6, 0.9]
const C = [0.9, 0.8, 0.9, 0.9, 1.0, 0.9]

function table(groups?: readonly string[]): PerQueryTable {
  return {
    source: 'hand-built',
    measures: ['m'],
    queries: A.map((_, i) => ({ id: `q${i + 1}`, groups: groups ? { domain: groups[i]! } : {} })),
    groupings: groups ? ['domain'] : [],
    runs: [
      { name: 'runs/a.run', tag: 'ta', zeroFilledQueries: [], values: [A] },
      { name: 'runs/b.run', tag: 'tb', zeroFilledQueries: ['q6'], values: [B] },
      { name: 'runs/c.run', tag: 'tc', zeroFilledQueries: [], values: [C] },
    ],
    notes: [],
  }
}

describe('compareTable', () => {
  it('all pairs: means, wins/ties/losses, raw t p-values and Holm over the 3 pairs (hand-applied)', () => {
    const r = compareTable(table())
    expect(r.schema).toBe('trecscore.compare/1')
    expect(r.runs.map((x) => x.letter)).toEqual(['a', 'b', 'c'])
    const m = r.overall[0]!
    expect(m.means[0]).toBeCloseTo(0.35, 12)
    expect(m.means[1]).toBeCloseTo(0.5, 12)
    expect(m.pairs.map((p) => [p.a, p.b])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ])
    // A vs B: A never higher, tie at q2; A vs C: always lower; B vs C: tie at q6 (0.9 = 0.9).
    expect(m.pairs.map((p) => [p.wins, p.ties, p.losses])).toEqual([
      [0, 1, 5],
      [0, 0, 6],
      [0, 1, 5],
    ])
    const raw = [pairedTTest(A, B).p!, pairedTTest(A, C).p!, pairedTTest(B, C).p!]
    m.pairs.forEach((p, k) => expect(p.tests[0]!.p).toBe(raw[k]))
    // Holm: sorted p_(1) ≤ p_(2) ≤ p_(3) get 3p_(1), max(3p_(1), 2p_(2)), max(…, p_(3)).
    const order = [0, 1, 2].sort((x, y) => raw[x]! - raw[y]!)
    const holm: number[] = []
    let run = 0
    order.forEach((k, j) => {
      run = Math.max(run, Math.min(1, (3 - j) * raw[k]!))
      holm[k] = run
    })
    m.pairs.forEach((p, k) => expect(p.tests[0]!.pAdjusted).toBeCloseTo(holm[k]!, 15))
    expect(m.family).toContain('3 comparison(s) of all pairs')
    expect(m.best).toEqual([2])
    // c beats a and b (p tiny); whether b beats a depends on p: check it agrees with the adjusted p.
    expect(m.beats[2]).toEqual([0, 1])
    expect(m.beats[1]).toEqual(m.pairs[0]!.tests[0]!.pAdjusted! < 0.05 ? [0] : [])
    expect(m.pairs[0]!.effect.meanDifference).toBeCloseTo(-0.15, 12)
    expect(r.notes).toContain('zero-filled (query missing from the run, scored 0): runs/b.run 1')
    expect(r.runs[1]).toMatchObject({ zeroFilled: 1, zeroFilledQueries: ['q6'] })
  })

  it('baseline: every run against it (by base name or tag), family of n − 1', () => {
    for (const baseline of ['runs/b.run', 'b.run', 'tb']) {
      const r = compareTable(table(), {
        baseline,
        tests: ['t', 'wilcoxon'],
        correction: 'bonferroni',
      })
      expect(r.settings.baseline).toBe('runs/b.run')
      const m = r.overall[0]!
      expect(m.pairs.map((p) => [p.a, p.b])).toEqual([
        [0, 1],
        [2, 1],
      ])
      m.pairs.forEach((p) => {
        expect(p.tests.map((t) => t.test)).toEqual(['t', 'wilcoxon'])
        expect(p.tests[0]!.pAdjusted).toBeCloseTo(Math.min(1, 2 * p.tests[0]!.p!), 15)
      })
    }
  })

  it('no correction: adjusted = raw; significance uses alpha strictly', () => {
    const r = compareTable(table(), { correction: 'none', alpha: 0.5 })
    for (const p of r.overall[0]!.pairs) {
      expect(p.tests[0]!.pAdjusted).toBe(p.tests[0]!.p)
      expect(p.tests[0]!.significant).toBe(p.tests[0]!.p! < 0.5)
    }
  })

  it('breakdown: groups in natural order, small groups listed but not tested, correction inside each group', () => {
    const groups = ['law', 'law', 'law', 'law', 'law', 'bio']
    const r = compareTable(table(groups), {
      by: ['domain'],
      minGroupSize: 5,
      tests: ['permutation'],
      permutations: 64,
    })
    const b = r.breakdowns[0]!
    expect(b.by).toBe('domain')
    expect(b.groups.map((g) => [g.group, g.size, g.tested])).toEqual([
      ['bio', 1, false],
      ['law', 5, true],
    ])
    expect(b.groups[0]!.note).toBe('1 query < 5: means only, not tested')
    expect(
      b.groups[0]!.measures[0]!.pairs.every(
        (p) => p.tests[0]!.p === null && !p.tests[0]!.significant,
      ),
    ).toBe(true)
    expect(b.groups[0]!.measures[0]!.means).toEqual([0.6, 0.9, 0.9])
    // law: exact permutation over 2^5 = 32 sign vectors; a vs c differs in every query with one sign → p = 2/32.
    const law = b.groups[1]!.measures[0]!
    expect(law.pairs[1]!.tests[0]!.p).toBe(2 / 32)
    expect(law.pairs[1]!.tests[0]!.method).toContain('exact')
    expect(law.family).toContain('domain law')
  })

  it('undefined values leave the query out of that measure, counted', () => {
    const t = table()
    const runs = t.runs.map((r, i) => (i === 0 ? { ...r, values: [[null, ...A.slice(1)]] } : r))
    const r = compareTable({ ...t, runs })
    expect(r.overall[0]!.queries).toEqual([1, 2, 3, 4, 5])
    expect(r.overall[0]!.undefinedQueries).toBe(1)
    expect(r.notes.some((n) => n.includes('m: 1 query left out'))).toBe(true)
  })

  it('errors name the problem: unknown grouping, unknown baseline, one run, bad settings', () => {
    expect(() => compareTable(table(), { by: ['domain'] })).toThrow(/plain qrels define no groups/)
    expect(() => compareTable(table(), { baseline: 'nope' })).toThrow(/matches no run/)
    expect(() => compareTable({ ...table(), runs: table().runs.slice(0, 1) })).toThrow(
      /at least 2 runs/,
    )
    expect(() => compareTable(table(), { alpha: 2 })).toThrow(/alpha must be in \(0, 1\)/)
  })

  it('non-finite per-query values are refused upfront: one line naming run, query and measure, with the count', () => {
    const t = table()
    const runs = [
      t.runs[0]!,
      { ...t.runs[1]!, values: [[0.2, NaN, 0.5, Infinity, 0.6, 0.9]] },
      { ...t.runs[2]!, values: [[0.9, 0.8, -Infinity, 0.9, 1.0, 0.9]] },
    ]
    let err: unknown
    try {
      compareTable({ ...t, runs })
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({ exitCode: 2 })
    expect((err as Error).message).toBe(
      'compare: per-query values must be finite numbers, found 3 that are not (first: run "runs/b.run", query "q2", measure m: NaN); check the runs\' scores and the qrels\' grades',
    )
    expect((err as Error).message).not.toContain('\n')
    // null (undefined for the query) is not refused: it leaves the query out of the measure.
    expect(() =>
      compareTable({
        ...t,
        runs: [
          t.runs[0]!,
          { ...t.runs[1]!, values: [[null, 0.2, 0.5, 0.6, 0.6, 0.9]] },
          t.runs[2]!,
        ],
      }),
    ).not.toThrow()
  })

  it('run letters: a … z, aa, ab', () => {
    expect([0, 1, 25, 26, 27, 51, 52].map(runLetter)).toEqual([
      'a',
      'b',
      'z',
      'aa',
      'ab',
      'az',
      'ba',
    ])
  })

  it('same seed, same result (permutation sampled and bootstrap)', () => {
    const o = {
      tests: ['permutation', 'bootstrap'] as const,
      permutations: 50,
      bootstrap: 200,
      seed: 5,
    }
    expect(JSON.stringify(compareTable(table(), { ...o, tests: [...o.tests] }))).toBe(
      JSON.stringify(compareTable(table(), { ...o, tests: [...o.tests] })),
    )
  })
})

describe('compareRuns on the evaluate engine', () => {
  const qrels = parseQrels(
    Buffer.from(['q1 0 d1 1', 'q1 0 d2 0', 'q2 0 d3 1', 'q3 0 d4 1', ''].join('\n')),
  ).value
  const good = parseRun(
    Buffer.from(['q1 Q0 d1 1 3 good', 'q2 Q0 d3 1 3 good', 'q3 Q0 d4 1 3 good', ''].join('\n')),
  ).value
  // misses q3 entirely: zero-filled and counted
  const weak = parseRun(
    Buffer.from(['q1 Q0 d2 1 3 weak', 'q1 Q0 d1 2 2 weak', 'q2 Q0 d3 1 3 weak', ''].join('\n')),
  ).value

  it('scores every run on the qrels queries, zero-fills the missing one and counts it', () => {
    const r = compareRuns(
      qrels,
      [
        { name: 'good', run: good },
        { name: 'weak', run: weak },
      ],
      ['RR'],
      { tests: ['permutation'] },
    )
    expect(r.queries.map((q) => q.id)).toEqual(['q1', 'q2', 'q3'])
    expect(r.runs[1]).toMatchObject({ name: 'weak', zeroFilled: 1, zeroFilledQueries: ['q3'] })
    // RR: good = (1, 1, 1); weak = (1/2, 1, 0 zero-filled)
    expect(r.overall[0]!.values).toEqual([
      [1, 1, 1],
      [0.5, 1, 0],
    ])
    const p = r.overall[0]!.pairs[0]!
    expect([p.wins, p.ties, p.losses]).toEqual([2, 1, 0])
    // exact: d = (0.5, 0, 1), |Σ| = 1.5 reached by the all-plus and all-minus vectors, each with both signs of the zero: 4/8
    expect(p.tests[0]!.p).toBe(0.5)
  })

  it('zero-fills even when the conventions say skip, and says so', () => {
    const r = compareRuns(
      qrels,
      [
        { name: 'good', run: good },
        { name: 'weak', run: weak },
      ],
      ['RR'],
      { conventions: { missingQueries: 'skip' } },
    )
    expect(r.runs[1]!.zeroFilled).toBe(1)
    expect(r.notes[0]).toContain('zero-filled for the paired tests')
  })

  it('tableFromEvaluations refuses runs scored on different query sets', () => {
    const a = evaluate(qrels, good, ['RR'], { missingQueries: 'zero' }, { runName: 'good' })
    const b = evaluate(qrels, weak, ['RR'], { missingQueries: 'skip' }, { runName: 'weak' })
    expect(() => tableFromEvaluations([a, b], 'x')).toThrow(
      /weak: 1 shared query has no value \(q3\)/,
    )
  })
})

describe('compareTable settings from library callers', () => {
  it('unknown test or correction names are refused, not crashed on', () => {
    const t: PerQueryTable = {
      source: 's',
      measures: ['m'],
      queries: [{ id: 'q', groups: {} }],
      groupings: [],
      runs: [0, 1].map((i) => ({ name: `r${i}`, tag: '', zeroFilledQueries: [], values: [[i]] })),
      notes: [],
    }
    expect(() => compareTable(t, { tests: ['z' as 't'] })).toThrow(/unknown test 'z'/)
    expect(() => compareTable(t, { correction: 'sidak' as 'holm' })).toThrow(
      /unknown correction 'sidak'/,
    )
  })

  it('one query: tests that need 2 pairs report p = null and nothing is significant', () => {
    const t: PerQueryTable = {
      source: 's',
      measures: ['m'],
      queries: [{ id: 'q', groups: {} }],
      groupings: [],
      runs: [0, 1].map((i) => ({ name: `r${i}`, tag: '', zeroFilledQueries: [], values: [[i]] })),
      notes: [],
    }
    const r = compareTable(t, { tests: ['t', 'bootstrap', 'permutation', 'wilcoxon'] })
    const p = r.overall[0]!.pairs[0]!
    expect(p.tests.map((x) => x.p)).toEqual([null, null, 1, 1])
    expect(p.tests.some((x) => x.significant)).toBe(false)
    expect(p.effect.ci95).toBeNull()
  })
})
