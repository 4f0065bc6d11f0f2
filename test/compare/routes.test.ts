/**
 * "The same number on every route": one measure, one run, the same value through `evaluate`
 * (CLI JSON and library), `compare` (CLI JSON and library), `report` (the JSON model embedded in
 * the HTML, and the library's ReportData) and, for a preset, `score --preset`, `runPreset` and
 * the deprecated `scorePreset`/`scoreSkillRet` shapes (issue 11 §2: one runner, one result).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  buildReportData,
  compareRuns,
  evaluate,
  getPreset,
  PRESETS,
  type PresetResult,
  parseQrels,
  parseRun,
  resolveConventions,
  runPreset,
  scorePreset,
  scoreSkillRet,
} from '../../src/internal.js'
import { retecoReportRoute } from '../../src/presets/reteco/html-route.js'
import { RETECO_PRESETS } from '../../src/presets/reteco/presets.js'
import { cli } from '../cli/helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-routes-'))

/** The report's data model, read back from the page (`<script type="application/json" id="report-data">`). */
interface ReportModel {
  readonly measures: readonly string[]
  readonly runs: readonly { readonly name: string }[]
  readonly leaderboard: readonly {
    readonly run: number
    readonly values: readonly (number | null)[]
  }[]
}

function reportModel(html: string): ReportModel {
  const m = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)
  if (!m) throw new Error('no report data in the page')
  return JSON.parse(m[1]!)
}

/** measure -> run name -> value, from each route's output. */
type Table = Record<string, Record<string, number>>

function fromEvaluateJson(stdout: string): Table {
  const j = JSON.parse(stdout) as {
    measures: string[]
    runs: { run: string; aggregates: Record<string, { value: number }> }[]
  }
  return Object.fromEntries(
    j.measures.map((m) => [
      m,
      Object.fromEntries(j.runs.map((r) => [r.run, r.aggregates[m]!.value])),
    ]),
  )
}

function fromCompareJson(j: {
  runs: readonly { name: string }[]
  overall: readonly { measure: string; means: readonly (number | null)[] }[]
}): Table {
  return Object.fromEntries(
    j.overall.map((o) => [
      o.measure,
      Object.fromEntries(j.runs.map((r, i) => [r.name, o.means[i]!])),
    ]),
  )
}

/** measure -> run name -> headline value, from a {@link PresetResult}. */
function fromResult(r: PresetResult): Table {
  return Object.fromEntries(
    r.measures.map((m, mi) => [
      m,
      Object.fromEntries(
        r.runs.map((run) => [run.name, run.aggregates[r.aggregations[0]!.id]![mi]!.value!]),
      ),
    ]),
  )
}

function fromReport(d: ReportModel): Table {
  return Object.fromEntries(
    d.measures.map((m, mi) => [
      m,
      Object.fromEntries(d.leaderboard.map((row) => [d.runs[row.run]!.name, row.values[mi]!])),
    ]),
  )
}

/** `compare --preset ID --data DIR RUNS -f json` (runs named by path); its output. */
function compareDataPreset(
  id: string,
  data: string,
  runs: readonly string[],
  extra: readonly string[] = [],
): { stdout: string } {
  const args = ['compare', '--preset', id, '--data', data, ...runs, '-f', 'json']
  const cmp = cli([...args, '--names-from', 'path', ...extra])
  expect(cmp.code, cmp.stderr).toBe(0)
  return cmp
}

/** `report --preset ID --data DIR RUNS` into a fresh page; its path. */
function reportDataPreset(id: string, data: string, runs: readonly string[]): string {
  const out = join(tmp, `${id}.html`)
  const rep = cli([
    'report',
    '--preset',
    id,
    '--data',
    data,
    ...runs,
    '--out',
    out,
    '--names-from',
    'path',
  ])
  expect(rep.code, rep.stderr).toBe(0)
  return out
}

describe('the same number on every route', () => {
  it('demo/: evaluate, compare, report and the library agree exactly on every measure and run', async () => {
    const runs = ['demo/runs/bm25.run', 'demo/runs/dense.run', 'demo/runs/hybrid.run']
    const measures = ['nDCG@10', 'AP', 'P@5', 'RR', 'R@100']
    const mArgs = measures.flatMap((m) => ['-m', m])
    const ev = cli([
      'evaluate',
      'demo/qrels.txt',
      ...runs,
      ...mArgs,
      '-f',
      'json',
      '--names-from',
      'path',
    ])
    expect(ev.code).toBe(0)
    const cmp = cli([
      'compare',
      'demo/qrels.txt',
      ...runs,
      ...mArgs,
      '-f',
      'json',
      '--names-from',
      'path',
    ])
    expect(cmp.code).toBe(0)
    const out = join(tmp, 'demo.html')
    const rep = cli([
      'report',
      'demo/qrels.txt',
      ...runs,
      ...mArgs,
      '--out',
      out,
      '--names-from',
      'path',
    ])
    expect(rep.code).toBe(0)

    const qrels = parseQrels(readFileSync('demo/qrels.txt'), { file: 'demo/qrels.txt' })
    if (!qrels.ok) throw new Error('demo qrels')
    const named = runs.map((f) => {
      const r = parseRun(readFileSync(f), { file: f })
      if (!r.ok) throw new Error(f)
      return { name: f, run: r.value }
    })
    const conventions = resolveConventions({})
    const lib: Table = Object.fromEntries(measures.map((m) => [m, {} as Record<string, number>]))
    for (const { name, run } of named) {
      const e = evaluate(qrels.value, run, measures, conventions, { runName: name })
      e.aggregates.forEach((a, i) => (lib[measures[i]!]![name] = a.value!))
    }

    const routes: Record<string, Table> = {
      'evaluate (CLI)': fromEvaluateJson(ev.stdout),
      'compare (CLI)': fromCompareJson(JSON.parse(cmp.stdout)),
      'report (HTML model)': fromReport(reportModel(readFileSync(out, 'utf8'))),
      'compare (library)': fromCompareJson(compareRuns(qrels.value, named, measures)),
      'report (library)': fromReport(
        await buildReportData({ qrels: 'demo/qrels.txt', runs, measures }),
      ),
    }
    // A hand-checked anchor: hybrid's nDCG@10 on demo/ (README).
    expect(lib['nDCG@10']!['demo/runs/hybrid.run']!.toFixed(4)).toBe('0.7805')
    for (const [route, t] of Object.entries(routes)) expect({ route, t }).toEqual({ route, t: lib })
  })

  it('NeuCLIR-like preset (issue 11): RBP(rel=1) under cwl_eval ties is 0.2000 through score, compare, report and scorePreset', async () => {
    // Query 1: a (grade 1) and b (grade 0) tie at 5.0; cwl_eval keeps file order, so a is at rank 1:
    // RBP = (1 − 0.8)·1 = 0.2. Query 2: c (grade 3 ≥ 1) at rank 1: 0.2. Mean 0.2000.
    // (Under the pytrec_eval tie rule, b would come first: (0.16 + 0.2)/2 = 0.18, the old bug.)
    const qrels = join(tmp, 'neuclir.qrels')
    const r1 = join(tmp, 'r1.run')
    const r2 = join(tmp, 'r2.run')
    writeFileSync(qrels, '1 zho a 1\n1 zho b 0\n2 zho c 3\n')
    writeFileSync(r1, '1 Q0 a 1 5.0 r\n1 Q0 b 2 5.0 r\n2 Q0 c 1 1.0 r\n')
    writeFileSync(r2, '1 Q0 b 1 5.0 s\n1 Q0 a 2 4.0 s\n2 Q0 c 1 1.0 s\n')
    const runs = [r1, r2]
    const score = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      qrels,
      ...runs,
      '-f',
      'json',
    ])
    expect(score.code).toBe(0)
    const cmp = cli([
      'compare',
      '--preset',
      'neuclir23-zho',
      qrels,
      ...runs,
      '-f',
      'json',
      '--names-from',
      'path',
    ])
    expect(cmp.code).toBe(0)
    const out = join(tmp, 'neuclir.html')
    expect(
      cli([
        'report',
        '--preset',
        'neuclir23-zho',
        qrels,
        ...runs,
        '--out',
        out,
        '--names-from',
        'path',
      ]).code,
    ).toBe(0)
    const lib = await scorePreset(getPreset('neuclir23-zho'), { qrels, runs })
    const libTable: Table = {}
    lib.runs.forEach((r) =>
      r.evaluation.measures.forEach(
        (m, i) => ((libTable[m] ??= {})[r.evaluation.runName] = r.evaluation.aggregates[i]!.value!),
      ),
    )

    expect(libTable['RBP(rel=1)']![r1]).toBeCloseTo(0.2, 12)
    expect(libTable['RBP(rel=1)']![r2]).toBeCloseTo(0.18, 12)
    const routes: Record<string, Table> = {
      'score --preset (CLI)': fromEvaluateJson(JSON.stringify(JSON.parse(score.stdout).results)),
      'compare --preset (CLI)': fromCompareJson(JSON.parse(cmp.stdout)),
      'report --preset (HTML model)': fromReport(reportModel(readFileSync(out, 'utf8'))),
      'report --preset (library)': fromReport(
        await buildReportData({ preset: 'neuclir23-zho', qrels, runs }),
      ),
      'runPreset (library)': fromResult(await runPreset('neuclir23-zho', { qrels, runs })),
    }
    for (const [route, t] of Object.entries(routes))
      expect({ route, t }).toEqual({ route, t: libTable })
    // `score --preset` prints ir_measures' line for it.
    expect(cli(['score', '--preset', 'neuclir23-zho', '--qrels', qrels, r1]).stdout).toContain(
      'RBP(rel=1)\t0.2000\n',
    )
    // The printed table says 0.2000 too, and the legend names RBP's own conventions.
    const text = cli(['compare', '--preset', 'neuclir23-zho', qrels, ...runs])
    expect(text.stdout).toMatch(/^a {2}\S*r1\.run\s+.*\s0\.2000\*?\s/m)
    expect(text.stdout).toContain(
      'RBP(rel=1): tie rule cwl_eval; ordering score-file-order; scores float64',
    )
  })

  it("compare --preset -m keeps a measure's own preset conventions and refuses convention flags", () => {
    const qrels = join(tmp, 'neuclir.qrels')
    const runs = [join(tmp, 'r1.run'), join(tmp, 'r2.run')]
    const r = cli([
      'compare',
      '--preset',
      'neuclir23-zho',
      qrels,
      ...runs,
      '-m',
      'RBP(rel=1)',
      '-f',
      'json',
      '--names-from',
      'path',
    ])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).overall[0].means[0]).toBeCloseTo(0.2, 12)
    const bad = cli(['compare', '--preset', 'neuclir23-zho', qrels, ...runs, '--corpus', qrels])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--corpus: --preset neuclir23-zho fixes the conventions')
  })

  // Every preset read from TREC qrels, on inputs that exercise its tie rules, grades and depth:
  // score (CLI JSON), compare (CLI JSON), report (HTML model and library) and runPreset agree to the bit.
  const trecQrelsPresets = [...PRESETS.values()].filter((p) => p.input.qrels === 'trec-qrels')
  it('covers every TREC-qrels preset of the registry', () => {
    expect(trecQrelsPresets.map((p) => p.id).sort()).toEqual([
      'dl21-doc',
      'dl21-passage',
      'dl21-passage-pash',
      'neuclir23-fas',
      'neuclir23-mlir',
      'neuclir23-rus',
      'neuclir23-zho',
    ])
  })
  for (const preset of trecQrelsPresets) {
    it(`${preset.id}: score, compare, report and runPreset give the same numbers`, async () => {
      const lang = preset.id.startsWith('neuclir23-')
        ? preset.id === 'neuclir23-mlir'
          ? 'zho'
          : preset.id.slice('neuclir23-'.length)
        : '0'
      const qrels = join(tmp, `${preset.id}.qrels`)
      // Grades 0, 1, 3 (NeuCLIR gains; DL grades), topic 3 judged but absent from run b (zero-filled).
      writeFileSync(
        qrels,
        ['1 L d1 3', '1 L d2 0', '1 L d3 1', '1 L d4 1', '2 L d5 1', '2 L d6 3', '3 L d7 3']
          .map((l) => `${l.replace('L', lang)}\n`)
          .join(''),
      )
      const a = join(tmp, `${preset.id}.a.run`)
      const b = join(tmp, `${preset.id}.b.run`)
      // Ties on score (doc id and file order rules differ), and a float32-equal pair (2.0000001 vs 2).
      writeFileSync(
        a,
        [
          '1 Q0 d2 1 3 a',
          '1 Q0 d1 2 3 a',
          '1 Q0 d4 3 2.0000001 a',
          '1 Q0 d3 4 2 a',
          '2 Q0 d6 1 1 a',
          '2 Q0 d5 2 1 a',
          '3 Q0 d7 1 1 a',
        ]
          .map((l) => `${l}\n`)
          .join(''),
      )
      writeFileSync(
        b,
        ['1 Q0 d3 1 9 b', '1 Q0 d4 2 8 b', '1 Q0 d1 3 8 b', '2 Q0 d5 1 1 b', '2 Q0 dx 2 0.5 b']
          .map((l) => `${l}\n`)
          .join(''),
      )
      const runs = [a, b]
      const score = cli(['score', '--preset', preset.id, '--qrels', qrels, ...runs, '-f', 'json'])
      expect(score.code, score.stderr).toBe(0)
      const cmp = cli([
        'compare',
        '--preset',
        preset.id,
        qrels,
        ...runs,
        '-f',
        'json',
        '--names-from',
        'path',
      ])
      expect(cmp.code, cmp.stderr).toBe(0)
      const out = join(tmp, `${preset.id}.html`)
      const rep = cli([
        'report',
        '--preset',
        preset.id,
        qrels,
        ...runs,
        '--out',
        out,
        '--names-from',
        'path',
      ])
      expect(rep.code, rep.stderr).toBe(0)
      const lib = fromResult(await runPreset(preset, { qrels, runs }))
      expect(Object.keys(lib)).toEqual(preset.parsedMeasures.map((m) => m.name))
      const routes: Record<string, Table> = {
        'score --preset (CLI)': fromEvaluateJson(JSON.stringify(JSON.parse(score.stdout).results)),
        'compare --preset (CLI)': fromCompareJson(JSON.parse(cmp.stdout)),
        'report --preset (HTML model)': fromReport(reportModel(readFileSync(out, 'utf8'))),
        'report --preset (library)': fromReport(
          await buildReportData({ preset: preset.id, qrels, runs }),
        ),
      }
      for (const [route, t] of Object.entries(routes))
        expect({ route, t }).toEqual({ route, t: lib })
    })
  }

  it('skillret and skillret-fusion: score (CLI JSON), runPreset and scoreSkillRet give the same numbers', async () => {
    const dir = join(import.meta.dirname, '..', 'fixtures', 'presets', 'skillret')
    const data = join(dir, 'data')
    const runs = [join(dir, 'runs', 'mixed.json'), join(dir, 'runs', 'ties.json')]
    for (const id of ['skillret', 'skillret-fusion']) {
      const score = cli(['score', '--preset', id, '--data', data, ...runs, '-f', 'json'])
      expect(score.code, score.stderr).toBe(0)
      const body = JSON.parse(score.stdout) as {
        runs: { run: string; values: Record<string, number> }[]
      }
      const result = await runPreset(id, { data, runs })
      const old = await scoreSkillRet(id, data, runs)
      const viaResult = result.runs.map((r) =>
        Object.fromEntries(result.labels.map((l, i) => [l, r.aggregates['mean']![i]!.value])),
      )
      expect({ id, cli: body.runs.map((r) => r.values) }).toEqual({ id, cli: viaResult })
      expect({
        id,
        old: old.runs.map((r) => Object.fromEntries(r.measures.map((m, i) => [m, r.values[i]]))),
      }).toEqual({ id, old: viaResult })
    }
  })

  it("skillret and skillret-fusion: compare --preset and report --preset give score --preset's numbers", async () => {
    const dir = join(import.meta.dirname, '..', 'fixtures', 'presets', 'skillret')
    const data = join(dir, 'data')
    // Runs with every query present: compare zero-fills missing queries for its paired tests,
    // which is skillret-fusion's rule but not skillret's (that difference is noted, not hidden).
    const runs = [join(dir, 'runs', 'good.json'), join(dir, 'runs', 'perfect.json')]
    for (const id of ['skillret', 'skillret-fusion']) {
      const result = await runPreset(id, { data, runs })
      const lib = fromResult(result)
      const cmp = compareDataPreset(id, data, runs, ['--bootstrap', '100'])
      const out = reportDataPreset(id, data, runs)
      const routes: Record<string, Table> = {
        'compare --preset (CLI JSON)': fromCompareJson(JSON.parse(cmp.stdout)),
        'report --preset (page model)': fromReport(reportModel(readFileSync(out, 'utf8'))),
        'report --preset (library)': fromReport(await buildReportData({ preset: id, data, runs })),
      }
      for (const [route, t] of Object.entries(routes))
        expect({ id, route, t }).toEqual({ id, route, t: lib })
    }
  })

  // The RETECO presets (definePreset values on the engine): score (CLI JSON), report (HTML model
  // and library) and runPreset agree to the bit on the headline aggregation of every plan measure;
  // compare, which tests per topic, gives the flat topic mean (1b: steps, not the step-then-query
  // headline) that runPreset reports as its flat aggregation.
  const RETECO_RUNS: Record<string, readonly [string, string, string]> = {
    'reteco-1a': ['1a_random', '1a_dups_unknown', 'query-macro'],
    'reteco-1b': ['1b_perfect', '1b_random_ties', 'step-macro'],
    'reteco-2a': ['2a_random', '2a_missing_turns_unknown', 'turn-macro'],
    'reteco-2c': ['2a_random', '2a_ties_rank', 'turn-macro'],
  }
  it('covers every RETECO preset', () => {
    expect(Object.keys(RETECO_RUNS)).toEqual([...RETECO_PRESETS])
  })
  for (const id of RETECO_PRESETS) {
    it(`${id}: score, compare, report and runPreset give the same numbers`, async () => {
      const F = join(import.meta.dirname, '..', 'fixtures', 'reteco')
      const data = join(F, 'data')
      const [a, b, flat] = RETECO_RUNS[id]!
      const runs = [join(F, 'runs', a), join(F, 'runs', b)]
      const result = await runPreset(id, { data, runs })
      const metrics = result.labels.slice(0, 8)
      const byLabel = (agg: string): Table =>
        Object.fromEntries(
          metrics.map((l, i) => [
            l,
            Object.fromEntries(result.runs.map((r) => [r.file, r.aggregates[agg]![i]!.value!])),
          ]),
        )
      const lib = byLabel(result.aggregations[0]!.id)
      const score = cli(['score', '--preset', id, '--data', data, ...runs, '-f', 'json'])
      expect(score.code, score.stderr).toBe(0)
      const reports = (
        JSON.parse(score.stdout) as {
          reports: {
            run: string
            tables: { key: string; rows: { values: Record<string, number> }[] }[]
          }[]
        }
      ).reports
      const fromScore: Table = Object.fromEntries(
        metrics.map((l) => [
          l,
          Object.fromEntries(
            reports.map((r) => [
              r.run,
              r.tables.find((t) => t.key === 'aggregations')!.rows[0]!.values[l]!,
            ]),
          ),
        ]),
      )
      const out = reportDataPreset(id, data, runs)
      const routes: Record<string, Table> = {
        'score --preset (CLI JSON)': fromScore,
        'report --preset (HTML model)': fromReport(reportModel(readFileSync(out, 'utf8'))),
        'report --preset (library)': fromReport(
          await buildReportData({ preset: id, data, runs, routes: [retecoReportRoute] }),
        ),
      }
      for (const [route, t] of Object.entries(routes))
        expect({ id, route, t }).toEqual({ id, route, t: lib })
      const cmp = compareDataPreset(id, data, runs)
      expect({ id, t: fromCompareJson(JSON.parse(cmp.stdout)) }).toEqual({
        id,
        t: { 'nDCG@10': byLabel(flat)['nDCG@10'] },
      })
    })
  }
})
