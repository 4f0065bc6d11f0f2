/**
 * The same measure gives the same number on every route (issue 10, items 1-3): `evaluate` (CLI
 * JSON), `compare` (JSON means), `report` (its data model), the library, and a preset where one
 * applies; and that number is the reference: the trec_eval drop-in (byte-identical with
 * trec_eval 10.0 / 9.0.8, see trec-eval.test.ts), or trec_eval on grades mapped to gains, which
 * is how ir_measures computes `nDCG(gains=…)`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  buildReportData,
  type Conventions,
  evaluate,
  parseGainSpec,
  parseQrels,
  parseRun,
  pytrecEval,
  trecEvalV9,
  trecEvalV10,
} from '../../src/internal.js'
import { cli, ROOT } from '../cli/helpers.js'

const QRELS = 'demo/qrels.txt'
const RUNS = ['demo/runs/bm25.run', 'demo/runs/dense.run', 'demo/runs/hybrid.run']
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-routes-'))
const qrels = parseQrels(readFileSync(join(ROOT, QRELS))).value
const runs = RUNS.map((r) => parseRun(readFileSync(join(ROOT, r))).value)

/** `name all value` of the drop-in, as numbers (4 decimals, trec_eval's `%6.4f`). */
function dropIn(args: readonly string[]): Map<string, number> {
  const r = cli(['trec-eval', ...args])
  expect(r.code, r.stderr).toBe(0)
  return new Map(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
      .map((f) => [f[0]!.trim(), Number(f[2])]),
  )
}

/** Means per measure and run from `evaluate -f json`. */
function viaEvaluate(args: readonly string[]): Record<string, number[]> {
  const r = cli(['evaluate', QRELS, ...RUNS, ...args, '-f', 'json'])
  expect(r.code, r.stderr).toBe(0)
  const j = JSON.parse(r.stdout) as {
    measures: string[]
    runs: { aggregates: Record<string, { value: number }> }[]
  }
  return Object.fromEntries(
    j.measures.map((m) => [m, j.runs.map((run) => run.aggregates[m]!.value)]),
  )
}

/** Means per measure and run from `compare -f json` (every qrels query is in every demo run). */
function viaCompare(args: readonly string[]): Record<string, number[]> {
  const r = cli(['compare', QRELS, ...RUNS, ...args, '-f', 'json'])
  expect(r.code, r.stderr).toBe(0)
  const j = JSON.parse(r.stdout) as { overall: { measure: string; means: number[] }[] }
  return Object.fromEntries(j.overall.map((o) => [o.measure, o.means]))
}

/** Leaderboard values of the HTML report's data model. */
async function viaReport(
  measures: readonly string[],
  conventions: Conventions,
): Promise<Record<string, number[]>> {
  const data = await buildReportData({
    qrels: join(ROOT, QRELS),
    runs: RUNS.map((r) => join(ROOT, r)),
    measures,
    conventions,
  })
  return Object.fromEntries(
    data.measures.map((m, i) => [m, data.leaderboard.map((row) => row.values[i]!)]),
  )
}

/** Means from the library's `evaluate`. */
function viaLibrary(
  measures: readonly string[],
  conventions: Partial<Conventions>,
): Record<string, number[]> {
  const results = runs.map((run) => evaluate(qrels, run, measures, conventions))
  return Object.fromEntries(
    results[0]!.measures.map((m, i) => [m, results.map((r) => r.aggregates[i]!.value!)]),
  )
}

function expectAllEqual(
  routes: Record<string, Record<string, number[]>>,
  measure: string,
  reference: readonly number[],
): void {
  for (const [route, values] of Object.entries(routes)) {
    expect([route, measure, values[measure]?.length]).toEqual([route, measure, reference.length])
    values[measure]!.forEach((v, i) =>
      expect([route, measure, i, Number(v.toFixed(4))]).toEqual([route, measure, i, reference[i]]),
    )
  }
  // Every route gives the same double, not just the same 4 decimals.
  const first = Object.values(routes)[0]![measure]!
  for (const values of Object.values(routes)) expect(values[measure]).toEqual(first)
}

describe('item 1: a gains map keeps gain = grade for grades it does not list', () => {
  const GAINS = '{0:0,1:1,2:3}' // demo grades are 0-3: grade 3 is unlisted and keeps gain 3
  // trec_eval -m ndcg.0=0,1=1,2=3 (setup_gains: unlisted grades gain their grade).
  const full = RUNS.map(
    (r) => dropIn(['-m', 'ndcg.0=0,1=1,2=3', QRELS, r]).get('ndcg_0=0,1=1,2=3')!,
  )
  // ir_measures: qrels grades mapped through gains.get(g, g), then trec_eval's ndcg_cut.10.
  const mapped = join(tmp, 'qrels-gains.txt')
  writeFileSync(mapped, readFileSync(join(ROOT, QRELS), 'utf8').replace(/ 2$/gm, ' 3'))
  const cut10 = RUNS.map(
    (r) => dropIn(['-m', 'ndcg_cut.10', mapped, join(ROOT, r)]).get('ndcg_cut_10')!,
  )

  it("the reference is the issue's 0.4637 on bm25, not 0.3081", () => {
    expect(full[0]).toBe(0.4637)
    expect(full).toEqual([0.4637, 0.5989, 0.7847])
  })
  it('nDCG(gains=…) and ndcg.0=0,… agree on evaluate, compare, report and the library', async () => {
    const ms = [`nDCG(gains=${GAINS})`, `nDCG(gains=${GAINS})@10`]
    const routes = {
      evaluate: viaEvaluate(ms.flatMap((m) => ['-m', m])),
      'evaluate ndcg.0=0,1=1,2=3': viaEvaluate(['-m', 'ndcg.0=0,1=1,2=3']),
      compare: viaCompare(ms.flatMap((m) => ['-m', m])),
      report: await viaReport(ms, trecEvalV10),
      library: viaLibrary(ms, {}),
    }
    expectAllEqual(routes, ms[0]!, full)
    const withCut = {
      evaluate: routes.evaluate,
      compare: routes.compare,
      report: routes.report,
      library: routes.library,
    }
    expectAllEqual(withCut, ms[1]!, cut10)
  })
  it('the --gains convention map does the same', async () => {
    const conventions = { ...trecEvalV10, gains: parseGainSpec(GAINS) }
    const routes = {
      evaluate: viaEvaluate(['-m', 'nDCG', '-m', 'nDCG@10', '--gains', GAINS]),
      compare: viaCompare(['-m', 'nDCG', '-m', 'nDCG@10', '--gains', GAINS]),
      report: await viaReport(['nDCG', 'nDCG@10'], conventions),
      library: viaLibrary(['nDCG', 'nDCG@10'], { gains: conventions.gains }),
    }
    expectAllEqual(routes, 'nDCG', full)
    expectAllEqual(routes, 'nDCG@10', cut10)
  })
  it('the dl21-passage-pash preset gives an unlisted grade its grade as gain', () => {
    // Grade 4 is not in the preset's map {0:0,1:1,2:3,3:7}: ir_measures gives it gain 4.
    const q4 = join(tmp, 'qrels-grade4.txt')
    writeFileSync(q4, readFileSync(join(ROOT, QRELS), 'utf8').replace(/ 3$/gm, ' 4'))
    const asGains = join(tmp, 'qrels-grade4-gains.txt')
    writeFileSync(asGains, readFileSync(q4, 'utf8').replace(/ 2$/gm, ' 3'))
    const run = join(ROOT, RUNS[0]!)
    const r = cli(['score', '--preset', 'dl21-passage-pash', '--qrels', q4, run, '-f', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const agg = (
      JSON.parse(r.stdout) as {
        results: { runs: { aggregates: Record<string, { value: number }> }[] }
      }
    ).results.runs[0]!.aggregates
    // The preset reads scores as float32 (trec_eval 9), so the reference is the 9.0.8 drop-in, -c.
    const ref = dropIn(['--compat', '9.0.8', '-c', '-m', 'ndcg_cut.5,10', asGains, run])
    expect(Number(agg['nDCG(gains={0:0,1:1,2:3,3:7})@10']!.value.toFixed(4))).toBe(
      ref.get('ndcg_cut_10'),
    )
    expect(Number(agg['nDCG(gains={0:0,1:1,2:3,3:7})@5']!.value.toFixed(4))).toBe(
      ref.get('ndcg_cut_5'),
    )
  })
})

describe('item 2: IPrec under the trec-eval-v9 and pytrec-eval profiles rounds as trec_eval 9.0.8', () => {
  const POINTS = [0.1, 0.2, 0.3, 0.4, 0.6, 0.7]
  const v9 = RUNS.map((r) =>
    dropIn(['--compat', '9.0.8', '-m', `iprec_at_recall.${POINTS.join(',')}`, QRELS, r]),
  )
  const v10 = RUNS.map((r) => dropIn(['-m', `iprec_at_recall.${POINTS.join(',')}`, QRELS, r]))
  const ms = POINTS.map((p) => `IPrec@${p}`)
  const ref = (tables: Map<string, number>[], p: number) =>
    tables.map((t) => t.get(`iprec_at_recall_${p.toFixed(2)}`)!)

  it('the demo data tells the two roundings apart', () => {
    expect(ref(v9, 0.2)).not.toEqual(ref(v10, 0.2))
  })
  for (const [profile, conventions] of [
    ['trec-eval-v9', trecEvalV9],
    ['pytrec-eval', pytrecEval],
  ] as const) {
    it(`${profile}: (long)(r·R + 0.9) on evaluate, compare, report and the library`, async () => {
      const flags = ['--profile', profile, ...ms.flatMap((m) => ['-m', m])]
      const routes = {
        evaluate: viaEvaluate(flags),
        compare: viaCompare(flags),
        report: await viaReport(ms, conventions),
        library: viaLibrary(ms, conventions),
      }
      for (const p of POINTS) expectAllEqual(routes, `IPrec@${p}`, ref(v9, p))
    })
  }
  it('trec-eval (10.0): lround(r·R), and --explain says which', async () => {
    const flags = ms.flatMap((m) => ['-m', m])
    const routes = {
      evaluate: viaEvaluate(flags),
      compare: viaCompare(flags),
      report: await viaReport(ms, trecEvalV10),
      library: viaLibrary(ms, {}),
    }
    for (const p of POINTS) expectAllEqual(routes, `IPrec@${p}`, ref(v10, p))
    expect(cli(['evaluate', QRELS, RUNS[0]!, '-m', 'IPrec@0.5', '--explain']).stdout).toContain(
      'IPrec recall rounding: lround(r·R) (trec_eval 10)',
    )
    expect(
      cli(['evaluate', QRELS, RUNS[0]!, '-m', 'IPrec@0.5', '--explain', '--profile', 'pytrec-eval'])
        .stdout,
    ).toContain('IPrec recall rounding: (long)(r·R + 0.9)')
    const j = JSON.parse(
      cli([
        'evaluate',
        QRELS,
        RUNS[0]!,
        '-m',
        'IPrec@0.5',
        '-f',
        'json',
        '--profile',
        'trec-eval-v9',
      ]).stdout,
    )
    expect(j.conventions.recallRounding).toBe('plus-0.9')
  })
})

describe('item 3: rel=k acts like -l k (SetF, infAP, Bpref and the rest)', () => {
  const ref = RUNS.map((r) =>
    dropIn([
      '-l',
      '2',
      '-m',
      'infAP',
      '-m',
      'bpref',
      '-m',
      'set_F',
      '-m',
      'map',
      '-m',
      'P.10',
      QRELS,
      r,
    ]),
  )
  const pairs = [
    ['infAP(rel=2)', 'infAP'],
    ['Bpref(rel=2)', 'bpref'],
    ['SetF(rel=2)', 'set_F'],
    ['AP(rel=2)', 'map'],
    ['P(rel=2)@10', 'P_10'],
  ] as const
  const ms = pairs.map(([m]) => m)

  it('matches trec_eval -l 2 on evaluate, compare, report and the library', async () => {
    const flags = ms.flatMap((m) => ['-m', m])
    const routes = {
      evaluate: viaEvaluate(flags),
      compare: viaCompare(flags),
      report: await viaReport(ms, trecEvalV10),
      library: viaLibrary(ms, {}),
    }
    for (const [m, te] of pairs)
      expectAllEqual(
        routes,
        m,
        ref.map((t) => t.get(te)!),
      )
  })
  it('infAP(rel=2) is not half of the -l 2 value any more (R counted at level 2)', () => {
    const ours = viaLibrary(['infAP(rel=2)'], {})['infAP(rel=2)']!
    const atLevel2 = viaLibrary(['infAP'], { relevanceLevel: 2 })['infAP']!
    expect(ours).toEqual(atLevel2)
    expect(viaLibrary(['infAP(rel=2)'], {})['infAP(rel=2)']).not.toEqual(
      viaLibrary(['infAP(rel=1)'], {})['infAP(rel=1)'],
    )
  })
  it('the dl21-passage preset (level 2) equals AP(rel=2) under trec_eval 9 conventions, -c', () => {
    const run = RUNS[0]!
    const r = cli(['score', '--preset', 'dl21-passage', '--qrels', QRELS, run, '-f', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const agg = (
      JSON.parse(r.stdout) as {
        results: { runs: { aggregates: Record<string, { value: number }> }[] }
      }
    ).results.runs[0]!.aggregates
    const lib = evaluate(qrels, runs[0]!, ['AP(rel=2)', 'RR(rel=2)'], {
      ...trecEvalV9,
      missingQueries: 'zero',
    })
    expect(agg['AP']!.value).toBe(lib.aggregates[0]!.value)
    expect(agg['RR']!.value).toBe(lib.aggregates[1]!.value)
  })
})
