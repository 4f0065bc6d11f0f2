import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-sensitivity-'))
const file = (name: string, text: string): string => {
  const p = join(tmp, name)
  writeFileSync(p, text)
  return p
}
// q1: a relevant. Run x's q1 scores differ beyond float32 precision: read as float32 they tie
// at 1 and doc id descending puts z and y before a (RR 1 -> 1/3); run y finds a second (RR 1/2).
const qrels = file('qrels.txt', 'q1 0 a 1\nq1 0 b 0\n')
const x = file('x.run', 'q1 Q0 a 1 1.00000003 x\nq1 Q0 z 2 1.00000002 x\nq1 Q0 y 3 1.00000001 x\n')
const y = file('y.run', 'q1 Q0 d 1 2 y\nq1 Q0 a 2 1 y\n')

describe('trecscore evaluate --sensitivity', () => {
  it('prints every alternative and flags the float32 ranking swap (table)', () => {
    const r = cli(['evaluate', qrels, `x=${x}`, `y=${y}`, '-m', 'RR', '--sensitivity'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe(
      'convention sensitivity: 2 run(s), 1 measure(s); each convention varied alone, the others as chosen',
    )
    expect(lines).toContain('  score precision: chosen float64')
    expect(lines).toContain(
      '  not varied: unknown docs (not in the corpus) (no corpus id list given)',
    )
    const float32 = lines.findIndex((l) => /^score precision\s+float32\s+x\s+RR/.test(l))
    expect(lines[float32]!.split(/\s{2,}/)).toEqual([
      'score precision',
      'float32',
      'x',
      'RR',
      '1.0000',
      '0.3333',
      '-0.6667',
      '1',
    ])
    expect(lines).toContain('ranking of the runs: changes under score precision float32 (RR)')
    const swap = lines.filter((l) => /^score precision\s+float32\s+RR\s/.test(l))
    expect(swap.map((l) => l.split(/\s{2,}/))).toEqual([
      ['score precision', 'float32', 'RR', '-1.0000', 'x > y becomes y > x'],
    ])
  })

  it('writes the model as JSON, with the pair and tau of the swap', () => {
    const r = cli([
      'evaluate',
      qrels,
      `x=${x}`,
      `y=${y}`,
      '-m',
      'RR',
      '--sensitivity',
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schema).toBe('trecscore.sensitivity/1')
    expect(j.runs).toEqual(['x', 'y'])
    expect(j.chosen).toEqual([[1], [0.5]])
    const precision = j.conventions.find(
      (c: { convention: string }) => c.convention === 'scorePrecision',
    )
    expect(precision.chosen).toBe('float64')
    expect(precision.alternatives).toHaveLength(1)
    const alt = precision.alternatives[0]
    expect(alt.value).toBe('float32')
    expect(alt.cells.map((row: { score: number }[]) => row[0]!.score)).toEqual([1 / 3, 0.5])
    expect(alt.rankings).toEqual([{ measure: 'RR', tau: -1, swaps: [['x', 'y']] }])
    // Every other convention leaves both runs in place.
    const others = j.conventions
      .filter((c: { convention: string }) => c.convention !== 'scorePrecision')
      .flatMap((c: { alternatives: { rankings: { swaps: unknown[] }[] }[] }) => c.alternatives)
      .flatMap((a: { rankings: { swaps: unknown[] }[] }) => a.rankings)
    expect(others.length).toBeGreaterThan(0)
    expect(others.every((g: { swaps: unknown[] }) => g.swaps.length === 0)).toBe(true)
  })

  it('the chosen float32 profile sees the swap the other way round', () => {
    const r = cli([
      'evaluate',
      qrels,
      `x=${x}`,
      `y=${y}`,
      '-m',
      'RR',
      '--profile',
      'trec-eval-v9',
      '--sensitivity',
      '-f',
      'json',
    ])
    const j = JSON.parse(r.stdout)
    expect(j.chosen).toEqual([[1 / 3], [0.5]])
    const alt = j.conventions.find((c: { convention: string }) => c.convention === 'scorePrecision')
      .alternatives[0]
    expect(alt.value).toBe('float64')
    expect(alt.rankings[0]).toEqual({ measure: 'RR', tau: -1, swaps: [['y', 'x']] })
  })

  it('refuses formats it cannot write, with a one-line error', () => {
    const r = cli(['evaluate', qrels, x, '-m', 'RR', '--sensitivity', '-f', 'csv'])
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toBe('trecscore: --sensitivity writes table or json, not --format csv')
  })
})

// graded_basic: six topics, 31 of their qrels lines negative; understandability values beside.
const GB = 'test/fixtures/measures-extra/graded_basic'
const mean = (args: string[]): number => {
  const r = cli(['evaluate', `${GB}/qrels.txt`, `${GB}/run.txt`, ...args, '-f', 'json'])
  expect(r.code).toBe(0)
  const a = JSON.parse(r.stdout).runs[0].aggregates
  return (Object.values(a)[0] as { value: number }).value
}

describe('evaluate --sensitivity: negative judgments and auxiliary judgments', () => {
  const args = [`${GB}/qrels.txt`, `${GB}/run.txt`, '-m', 'Judged@10', '--sensitivity']
  it('varies negative judgments (nonrelevant, unjudged) as evaluate scores them', () => {
    const asNonrel = mean(['-m', 'Judged@10'])
    const asUnjudged = mean(['-m', 'Judged@10', '--negative-judgments', 'unjudged'])
    // One topic has a negative line in its top 10: judged there, unjudged here.
    expect(asNonrel).toBeCloseTo(5.1 / 6, 12)
    expect(asUnjudged).toBeCloseTo(5 / 6, 12)
    const r = cli(['evaluate', ...args])
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines).toContain('  negative judgments: chosen nonrelevant')
    expect(lines).toContain(
      "  not varied: negative judgments (alternative 'error' not tried: it rejects negative judgments rather than scoring them)",
    )
    expect(lines.find((l) => l.startsWith('negative judgments'))!.split(/\s{2,}/)).toEqual([
      'negative judgments',
      'unjudged',
      'run.txt',
      'Judged@10',
      '0.8500',
      '0.8333',
      '-0.0167',
      '1',
    ])
    // Chosen unjudged: the qrels keep their negative lines, so nonrelevant is tried too.
    const j = JSON.parse(
      cli(['evaluate', ...args, '--negative-judgments', 'unjudged', '-f', 'json']).stdout,
    ) as Json
    expect(j.chosen[0]![0]).toBe(asUnjudged)
    const neg = j.conventions.find((c) => c.convention === 'negativeJudgments')!
    expect(neg.chosen).toBe('unjudged')
    expect(neg.alternatives.map((a) => [a.value, a.cells[0]![0]!.score])).toEqual([
      ['nonrelevant', asNonrel],
    ])
  })
  it('lists negative judgments as not applicable without one', () => {
    const r = cli(['evaluate', qrels, x, '-m', 'RR', '--sensitivity'])
    expect(r.stdout.split('\n')).toContain(
      '  not varied: negative judgments (not applicable: no negative judgments)',
    )
  })
  it('passes --aux-qrels to every alternative (uRBP)', () => {
    const aux = ['--aux-qrels', `${GB}/qrels.understandability.txt`]
    const m = ['-m', 'uRBP(p=0.8,factor=0.01)']
    const plain = mean([...m, ...aux])
    const r = cli([
      'evaluate',
      `${GB}/qrels.txt`,
      `${GB}/run.txt`,
      ...m,
      ...aux,
      '--sensitivity',
      '-f',
      'json',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as Json
    expect(j.chosen).toEqual([[plain]])
    // Relevance level 2 is scored (not refused), as evaluate scores it.
    const rel = j.conventions.find((c) => c.convention === 'relevanceLevel')!
    expect(rel.alternatives.find((a) => a.value === '2')!.cells[0]![0]!.score).toBe(
      mean([...m, ...aux, '--rel-level', '2']),
    )
  })
})

const DL = 'test/fixtures/presets/dl21'
const NEUCLIR = 'test/fixtures/presets/neuclir23'
const SKILLRET = 'test/fixtures/presets/skillret'

interface Json {
  runs: string[]
  measures: string[]
  chosen: number[][]
  conventions: {
    convention: string
    chosen: string
    alternatives: {
      value: string
      cells: { score: number | null; note: string | null }[][]
      rankings: { swaps: string[][] }[]
    }[]
  }[]
  skipped: { convention: string; label: string; reason: string }[]
}

describe('score --preset P --sensitivity', () => {
  it('dl21-passage: the preset conventions as chosen (its scores), relevance level fixed', () => {
    const runs = [`${DL}/runs/p_bm25.txt`, `${DL}/runs/p_ties.txt`]
    const args = ['score', '--preset', 'dl21-passage', '--qrels', `${DL}/qrels.pass.txt`, ...runs]
    const r = cli([...args, '--sensitivity', '-f', 'json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as Json
    // The chosen scores are the preset's own (its JSON output, full precision).
    const plain = JSON.parse(cli([...args, '-f', 'json']).stdout)
    const own = plain.results.runs.map((x: { aggregates: Record<string, { value: number }> }) =>
      j.measures.map((m) => x.aggregates[m]!.value),
    )
    expect(j.chosen).toEqual(own)
    expect(j.conventions.map((c) => [c.convention, c.chosen])).toEqual([
      ['ordering', 'score-docid-desc'],
      ['scorePrecision', 'float32'],
      ['duplicates', 'error'],
      ['missingQueries', 'zero'],
      ['queriesWithoutRelevant', 'zero'],
      ['gains', 'grade'],
    ])
    expect(j.skipped).toEqual([
      {
        convention: 'relevanceLevel',
        label: 'relevance level',
        reason: 'fixed by preset dl21-passage: grade >= 2 is relevant in its official evaluation',
      },
      {
        convention: 'unknownDocs',
        label: 'unknown docs (not in the corpus)',
        reason: 'no corpus id list given',
      },
      {
        convention: 'negativeJudgments',
        label: 'negative judgments',
        reason: 'not applicable: no negative judgments',
      },
    ])
    // p_ties holds tied float32 scores: the tie rule moves RR.
    const asc = j.conventions[0]!.alternatives.find((a) => a.value === 'score-docid-asc')!
    expect(asc.cells[1]![j.measures.indexOf('RR')]!.score).not.toBe(j.chosen[1]![2])
  })

  it('neuclir23-zho: a measure with conventions of its own is named with its chosen value', () => {
    const r = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      `${NEUCLIR}/qrels.final.gains.zho`,
      `${NEUCLIR}/runs/zho-good.txt`,
      `${NEUCLIR}/runs/zho-weak.txt`,
      '--sensitivity',
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as Json
    const ordering = j.conventions.find((c) => c.convention === 'ordering')!
    expect(ordering.chosen).toBe('score-docid-desc (RBP(rel=1): score-file-order)')
    const rbp = j.measures.indexOf('RBP(rel=1)')
    const fileOrder = ordering.alternatives.find((a) => a.value === 'score-file-order')!
    expect(fileOrder.cells[0]![rbp]!.note).toBe('chosen')
  })

  it('skillret: the preset labels and its declared query set', () => {
    const r = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      `${SKILLRET}/data`,
      `${SKILLRET}/runs/good.json`,
      '--k',
      '5',
      '--sensitivity',
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as Json
    expect(j.measures[0]).toBe('NDCG@5')
    // JSON runs carry no rank column: the rank ordering is not tried.
    const orderings = j.conventions.find((c) => c.convention === 'ordering')!.alternatives
    expect(orderings.map((a) => a.value)).toEqual([
      'score-docid-asc',
      'score-file-order',
      'file-order',
    ])
  })

  it('RETECO: the plan conventions, unknown docs varied with the domain corpus', () => {
    const runs = ['1a_dups_unknown', '1a_weak'].map((r) => `test/fixtures/reteco/runs/${r}`)
    const r = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      'test/fixtures/reteco/data',
      ...runs,
      '--sensitivity',
      '-f',
      'json',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout) as Json & { notes: string[] }
    const unknown = j.conventions.find((c) => c.convention === 'unknownDocs')!
    expect(unknown.chosen).toBe('discard')
    expect(unknown.alternatives.map((a) => a.value)).toEqual(['keep'])
    // 1a_dups_unknown retrieves docs outside its domains' documents.jsonl: keeping them moves nDCG@10.
    expect(unknown.alternatives[0]!.cells[0]![0]!.score).not.toBe(j.chosen[0]![0])
    expect(j.notes).toEqual([
      "scores are each measure's mean over the preset's queries, not its headline aggregation 'query-macro'",
    ])
  })

  it('RETECO reference emulations refuse it with one line', () => {
    const r = cli([
      'score',
      '--preset',
      'reteco-2a',
      '--data',
      'test/fixtures/reteco/data',
      'test/fixtures/reteco/runs/2a_random',
      '--conventions',
      'scorer-py',
      '--sensitivity',
    ])
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain('--sensitivity varies the plan conventions on the engine')
  })
})

describe('report --sensitivity', () => {
  const dataOf = (html: string): { sensitivity?: Json } =>
    JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!)
  it('adds the section, its data escaped in the page', () => {
    const out = join(tmp, 'report.html')
    const r = cli([
      'report',
      qrels,
      `<b>x</b>=${x}`,
      `y=${y}`,
      '-m',
      'RR',
      '--sensitivity',
      '-o',
      out,
    ])
    expect(r.code).toBe(0)
    const html = readFileSync(out, 'utf8')
    expect(html).toContain('<section id="sensitivity-section">')
    expect(html).not.toContain('<b>x</b>')
    expect(html).toContain('\\u003cb\\u003ex\\u003c/b\\u003e')
    const s = dataOf(html).sensitivity!
    expect(s.runs).toEqual(['<b>x</b>', 'y'])
    const float32 = s.conventions.find((c) => c.convention === 'scorePrecision')!
    expect(float32.alternatives[0]!.rankings[0]!.swaps).toEqual([['<b>x</b>', 'y']])
  })
  it('with a preset: its conventions, the relevance level fixed', () => {
    const out = join(tmp, 'preset.html')
    const r = cli([
      'report',
      '--preset',
      'dl21-passage',
      '--qrels',
      `${DL}/qrels.pass.txt`,
      `${DL}/runs/p_bm25.txt`,
      `${DL}/runs/p_good.txt`,
      '--sensitivity',
      '-o',
      out,
    ])
    expect(r.code).toBe(0)
    const s = dataOf(readFileSync(out, 'utf8')).sensitivity!
    expect(s.skipped.map((k) => k.convention)).toEqual([
      'relevanceLevel',
      'unknownDocs',
      'negativeJudgments',
    ])
    expect(s.conventions.find((c) => c.convention === 'scorePrecision')!.chosen).toBe('float32')
  })
  it('with a RETECO preset (data folder): the section beside its own report', () => {
    const out = join(tmp, 'reteco.html')
    const r = cli([
      'report',
      '--preset',
      'reteco-2a',
      '--data',
      'test/fixtures/reteco/data',
      'test/fixtures/reteco/runs/2a_random',
      'test/fixtures/reteco/runs/2a_perfect',
      '--sensitivity',
      '-o',
      out,
    ])
    expect(r.code).toBe(0)
    const s = dataOf(readFileSync(out, 'utf8')).sensitivity!
    expect(s.runs).toEqual(['2a_random', '2a_perfect'])
    expect(s.conventions.find((c) => c.convention === 'duplicates')!.chosen).toBe(
      'keep-first-ranked',
    )
  })
  it('without --sensitivity the page has no sensitivity data', () => {
    const out = join(tmp, 'plain.html')
    expect(cli(['report', qrels, x, y, '-m', 'RR', '-o', out]).code).toBe(0)
    expect(dataOf(readFileSync(out, 'utf8')).sensitivity).toBeUndefined()
  })
})
