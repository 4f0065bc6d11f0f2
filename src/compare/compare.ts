/**
 * `compareRuns`: paired comparison of runs on the evaluate engine's per-query values. Pure: the
 * CLI reads the files and evaluates; this pairs the values, runs the tests, corrects, and
 * measures effects.
 *
 * Rules (each echoed in the result's settings and notes):
 * - Every run is scored on the SAME query set (the qrels queries); a query missing from a run is
 *   scored on an empty ranking (zero-filled) and counted per run.
 * - Per measure, queries whose value is undefined for some run are left out of that measure
 *   (counted in `undefinedQueries`).
 * - Pairs: every run against the baseline when one is given, else all pairs (i < j).
 * - Correction family: per measure, per test and per scope (all queries, or one group of a
 *   breakdown), across every compared pair of that measure.
 * - Significance letters follow the FIRST test: run A "beats" B when A's mean is higher and the
 *   corrected p < α. Higher is better for every measure.
 * - Every resampling (permutation, bootstrap, CI) of every pair starts from the same seed.
 * - Non-finite per-query values (NaN, ±Infinity) are refused upfront (exit 2), naming the first
 *   run, query and measure.
 */
import type { Conventions } from '../conventions/conventions.js'
import { resolveConventions } from '../conventions/profiles.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import {
  evaluate,
  queryColumns,
  type RunEvaluation,
  type ValueColumn,
} from '../evaluate/evaluate.js'
import { decodeId } from '../io/bytes.js'
import type { Qrels, Run } from '../model/types.js'
import { bootstrapTest, bootstrapTestAndEffect } from '../stats/significance/bootstrap.js'
import { adjustPValues } from '../stats/significance/correction.js'
import { pairedEffect } from '../stats/significance/effect.js'
import type { PairedTestResult } from '../stats/significance/paired.js'
import { permutationTest } from '../stats/significance/permutation.js'
import { pairedTTest } from '../stats/significance/t-test.js'
import { wilcoxonTest } from '../stats/significance/wilcoxon.js'
import type {
  Breakdown,
  CompareOptions,
  CompareQuery,
  CompareResult,
  CompareSettings,
  GroupComparison,
  GroupingName,
  MeasureComparison,
  PairComparison,
  PerQueryTable,
  TestName,
  TestResult,
} from './types.js'
import { CORRECTION_NAMES, TEST_NAMES } from './types.js'

/**
 * Defaults. `minGroupSize` 6: with n ≤ 5 pairs no two-sided sign-flip or signed-rank test can
 * reach p < 0.05 (its smallest p is 2/2^n = 0.0625 at n = 5), so smaller groups are not tested.
 */
export const DEFAULT_COMPARE_SETTINGS: CompareSettings = {
  tests: ['t'],
  correction: 'holm',
  alpha: 0.05,
  permutations: 10000,
  bootstrap: 10000,
  seed: 42,
  baseline: null,
  minGroupSize: 6,
}

/** Letter of the i-th run: a … z, then aa, ab, … (spreadsheet-style, lower case). */
export function runLetter(i: number): string {
  let s = ''
  let k = i
  do {
    s = String.fromCharCode(97 + (k % 26)) + s
    k = Math.floor(k / 26) - 1
  } while (k >= 0)
  return s
}

function checkSettings(s: CompareSettings): void {
  const bad: string[] = []
  if (!(s.alpha > 0 && s.alpha < 1)) bad.push(`alpha must be in (0, 1), got ${s.alpha}`)
  if (!(Number.isInteger(s.permutations) && s.permutations >= 1))
    bad.push(`permutations must be a positive integer, got ${s.permutations}`)
  if (!(Number.isInteger(s.bootstrap) && s.bootstrap >= 1))
    bad.push(`bootstrap must be a positive integer, got ${s.bootstrap}`)
  if (!Number.isInteger(s.seed)) bad.push(`seed must be an integer, got ${s.seed}`)
  if (!(Number.isInteger(s.minGroupSize) && s.minGroupSize >= 2))
    bad.push(`minGroupSize must be an integer ≥ 2, got ${s.minGroupSize}`)
  if (s.tests.length === 0) bad.push('at least one test is needed')
  for (const t of s.tests)
    if (!(TEST_NAMES as readonly string[]).includes(t))
      bad.push(`unknown test '${t}' (known: ${TEST_NAMES.join(', ')})`)
  if (!(CORRECTION_NAMES as readonly string[]).includes(s.correction))
    bad.push(`unknown correction '${s.correction}' (known: ${CORRECTION_NAMES.join(', ')})`)
  if (bad.length) throw new TrecscoreError(`compare: ${bad.join('; ')}`, 2)
}

function runTest(
  test: TestName,
  a: readonly number[],
  b: readonly number[],
  s: CompareSettings,
): PairedTestResult {
  switch (test) {
    case 't':
      return pairedTTest(a, b)
    case 'permutation':
      return permutationTest(a, b, { permutations: s.permutations, seed: s.seed })
    case 'bootstrap':
      return bootstrapTest(a, b, { resamples: s.bootstrap, seed: s.seed })
    case 'wilcoxon':
      return wilcoxonTest(a, b)
  }
}

function meanOf(x: readonly number[]): number | null {
  if (x.length === 0) return null
  let s = 0
  for (const v of x) s += v
  return s / x.length
}

/** Index of the baseline run: exact name, else a unique run whose name ends with `/NAME`, else a unique tag. */
function findBaseline(table: PerQueryTable, baseline: string): number {
  const exact = table.runs.findIndex((r) => r.name === baseline)
  if (exact >= 0) return exact
  const bySuffix = table.runs.flatMap((r, i) => (r.name.endsWith(`/${baseline}`) ? [i] : []))
  if (bySuffix.length === 1) return bySuffix[0]!
  const byTag = table.runs.flatMap((r, i) => (r.tag === baseline ? [i] : []))
  if (byTag.length === 1) return byTag[0]!
  const why =
    bySuffix.length > 1 || byTag.length > 1 ? 'matches more than one run' : 'matches no run'
  throw new TrecscoreError(
    `--baseline ${JSON.stringify(baseline)} ${why}; runs: ${table.runs.map((r) => r.name).join(', ')}`,
    2,
  )
}

function pairsOf(nRuns: number, base: number | null): [number, number][] {
  const out: [number, number][] = []
  if (base !== null) {
    for (let i = 0; i < nRuns; i++) if (i !== base) out.push([i, base])
  } else {
    for (let i = 0; i < nRuns; i++) for (let j = i + 1; j < nRuns; j++) out.push([i, j])
  }
  return out
}

function compareMeasure(
  table: PerQueryTable,
  columns: readonly (readonly ValueColumn[])[],
  m: number,
  scope: readonly number[],
  pairs: readonly [number, number][],
  s: CompareSettings,
  tested: boolean,
  scopeName: string,
): MeasureComparison {
  const runs = table.runs
  const cols = columns.map((c) => c[m]!)
  const queries = cols.every((c) => c.undefinedAt === null)
    ? scope
    : scope.filter((q) => cols.every((c) => !c.undefinedAt?.[q]))
  const values = cols.map((c) => queries.map((q) => c.values[q]!))
  const means = values.map(meanOf)
  const raw = pairs.map(([i, j]) => {
    const a = values[i]!
    const b = values[j]!
    let wins = 0
    let ties = 0
    let losses = 0
    for (let k = 0; k < a.length; k++) {
      if (a[k]! > b[k]!) wins++
      else if (a[k]! < b[k]!) losses++
      else ties++
    }
    // The bootstrap test and the CI draw the same indices: one resampling serves both.
    const shared =
      tested && s.tests.includes('bootstrap')
        ? bootstrapTestAndEffect(a, b, { resamples: s.bootstrap, seed: s.seed })
        : null
    const tests: PairedTestResult[] = tested
      ? s.tests.map((t) => (t === 'bootstrap' && shared ? shared.test : runTest(t, a, b, s)))
      : s.tests.map(() => ({
          statistic: null,
          p: null,
          method: `not tested: fewer than ${s.minGroupSize} queries`,
        }))
    const eff = shared
      ? shared.effect
      : pairedEffect(a, b, { resamples: s.bootstrap, seed: s.seed })
    return { i, j, n: a.length, wins, ties, losses, tests, eff }
  })
  const adjusted = s.tests.map((_, t) =>
    adjustPValues(
      raw.map((r) => r.tests[t]!.p),
      s.correction,
    ),
  )
  const beats: number[][] = runs.map(() => [])
  const pairResults: PairComparison[] = raw.map((r, k) => {
    const tests: TestResult[] = r.tests.map((t, ti) => {
      const pAdj = adjusted[ti]![k]!
      return {
        test: s.tests[ti]!,
        statistic: t.statistic,
        p: t.p,
        pAdjusted: pAdj,
        significant: pAdj !== null && pAdj < s.alpha,
        method: t.method,
      }
    })
    const meanA = means[r.i] ?? 0
    const meanB = means[r.j] ?? 0
    let better: 'a' | 'b' | null = null
    if (tests[0]!.significant && meanA !== meanB) better = meanA > meanB ? 'a' : 'b'
    if (better === 'a') beats[r.i]!.push(r.j)
    if (better === 'b') beats[r.j]!.push(r.i)
    return {
      a: r.i,
      b: r.j,
      n: r.n,
      meanA,
      meanB,
      tests,
      effect: { meanDifference: r.eff.meanDifference, ci95: r.eff.ci, cohensDz: r.eff.cohensDz },
      wins: r.wins,
      ties: r.ties,
      losses: r.losses,
      better,
    }
  })
  const defined = means.flatMap((v, i) => (v === null ? [] : [[v, i] as const]))
  const top = defined.length ? Math.max(...defined.map(([v]) => v)) : null
  const best = top === null ? [] : defined.filter(([v]) => v === top).map(([, i]) => i)
  const kind = s.baseline !== null ? `each run against the baseline` : 'all pairs'
  const family = `${table.measures[m]}, ${scopeName}: the ${pairs.length} comparison(s) of ${kind}, corrected per test (${s.correction})`
  for (const b of beats) b.sort((x, y) => x - y)
  return {
    measure: table.measures[m]!,
    means,
    queries,
    undefinedQueries: scope.length - queries.length,
    values,
    pairs: pairResults,
    family,
    best,
    beats,
  }
}

/**
 * Refuse non-finite per-query values (NaN, ±Infinity) before any test: a paired test on them
 * has no meaning, and NaN would poison means and p-values silently. One line naming the first
 * offending run, query and measure, and how many values are affected in all.
 */
function checkFinite(table: PerQueryTable, columns: readonly (readonly ValueColumn[])[]): void {
  let count = 0
  let first = ''
  columns.forEach((run, r) =>
    run.forEach((col, m) => {
      const { values, undefinedAt } = col
      for (let q = 0; q < values.length; q++) {
        const v = values[q]!
        if (Number.isFinite(v) || undefinedAt?.[q]) continue
        if (count === 0)
          first = `run ${JSON.stringify(table.runs[r]!.name)}, query ${JSON.stringify(table.queries[q]?.id ?? String(q))}, measure ${table.measures[m]}: ${v}`
        count++
      }
    }),
  )
  if (count)
    throw new TrecscoreError(
      `compare: per-query values must be finite numbers, found ${count} that ${count === 1 ? 'is' : 'are'} not (first: ${first}); check the runs' scores and the qrels' grades`,
      2,
    )
}

/** A column given as an array (`null`: undefined) as a {@link ValueColumn}; a column is kept as is. */
function asColumn(c: readonly (number | null)[] | ValueColumn): ValueColumn {
  if (!Array.isArray(c)) return c as ValueColumn
  const values = new Float64Array(c.length)
  let undefinedAt: Uint8Array | null = null
  c.forEach((v: number | null | undefined, q: number) => {
    if (v === null || v === undefined) (undefinedAt ??= new Uint8Array(c.length))[q] = 1
    else values[q] = v
  })
  return { values, undefinedAt }
}

function naturalOrder(x: string, y: string): number {
  return x.localeCompare(y, 'en', { numeric: true }) || (x < y ? -1 : x > y ? 1 : 0)
}

/**
 * Compare runs given as per-query values over one shared query set (what every source is
 * turned into; see {@link tableFromEvaluations} and the RETECO adapter).
 */
export function compareTable(table: PerQueryTable, options: CompareOptions = {}): CompareResult {
  const { by = [], ...rest } = options
  const settings: CompareSettings = {
    ...DEFAULT_COMPARE_SETTINGS,
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
  }
  checkSettings(settings)
  if (table.runs.length < 2)
    throw new TrecscoreError(`compare needs at least 2 runs, got ${table.runs.length}`, 2)
  for (const r of table.runs) {
    if (
      r.values.length !== table.measures.length ||
      r.values.some(
        (v) =>
          (Array.isArray(v) ? v.length : (v as ValueColumn).values.length) !== table.queries.length,
      )
    )
      throw new TrecscoreError(
        `compare: run ${r.name} does not have one value per measure and query`,
        2,
      )
  }
  const columns = table.runs.map((r) => r.values.map(asColumn))
  checkFinite(table, columns)
  const unknown = by.filter((g) => !table.groupings.includes(g))
  if (unknown.length)
    throw new TrecscoreError(
      `--by ${unknown.join(', ')}: ${table.groupings.length ? `this source defines only: ${table.groupings.join(', ')}` : 'plain qrels define no groups; use a preset that does (e.g. --preset reteco-2a --data DIR)'}`,
      2,
    )
  const base = settings.baseline === null ? null : findBaseline(table, settings.baseline)
  const resolved: CompareSettings = {
    ...settings,
    baseline: base === null ? null : table.runs[base]!.name,
  }
  const pairs = pairsOf(table.runs.length, base)
  const all = table.queries.map((_, i) => i)
  const overall = table.measures.map((_, m) =>
    compareMeasure(table, columns, m, all, pairs, resolved, true, 'all queries'),
  )
  const breakdowns: Breakdown[] = [...new Set(by)].map((g: GroupingName) => {
    const members = new Map<string, number[]>()
    table.queries.forEach((q, i) => {
      const label = q.groups[g] ?? '(none)'
      const list = members.get(label)
      if (list) list.push(i)
      else members.set(label, [i])
    })
    const groups: GroupComparison[] = [...members.keys()].sort(naturalOrder).map((label) => {
      const scope = members.get(label)!
      const tested = scope.length >= resolved.minGroupSize
      return {
        group: label,
        size: scope.length,
        tested,
        note: tested
          ? null
          : `${scope.length} quer${scope.length === 1 ? 'y' : 'ies'} < ${resolved.minGroupSize}: means only, not tested`,
        measures: table.measures.map((_, m) =>
          compareMeasure(table, columns, m, scope, pairs, resolved, tested, `${g} ${label}`),
        ),
      }
    })
    return { by: g, groups }
  })
  const zf = table.runs.filter((r) => r.zeroFilledQueries.length)
  const notes = [...table.notes]
  notes.push(
    zf.length
      ? `zero-filled (query missing from the run, scored 0): ${zf.map((r) => `${r.name} ${r.zeroFilledQueries.length}`).join(', ')}`
      : 'zero-filled (query missing from the run, scored 0): none',
  )
  for (const o of overall)
    if (o.undefinedQueries)
      notes.push(
        `${o.measure}: ${o.undefinedQueries} quer${o.undefinedQueries === 1 ? 'y' : 'ies'} left out (value undefined for some run)`,
      )
  return {
    schema: 'trecscore.compare/1',
    settings: resolved,
    source: table.source,
    runs: table.runs.map((r, i) => ({
      name: r.name,
      letter: runLetter(i),
      tag: r.tag,
      zeroFilled: r.zeroFilledQueries.length,
      zeroFilledQueries: r.zeroFilledQueries,
    })),
    measures: table.measures,
    queries: table.queries,
    overall,
    breakdowns,
    notes,
  }
}

/**
 * The per-query table of engine evaluations (one per run, same measures, every query of the
 * shared set present: evaluate with `missingQueries: 'zero'`). Throws when they do not line up.
 */
export function tableFromEvaluations(
  evaluations: readonly RunEvaluation[],
  source: string,
): PerQueryTable {
  if (evaluations.length === 0) throw new TrecscoreError('compare needs at least 2 runs, got 0', 2)
  const measures = evaluations[0]!.measures
  for (const e of evaluations)
    if (e.measures.join('\u0000') !== measures.join('\u0000'))
      throw new TrecscoreError(`compare: run ${e.runName} was evaluated on other measures`, 2)
  // The engine's value rows are read straight into one flat column per run and measure
  // (`queryColumns`): no `perQuery` is built, so a million tiny queries stay small.
  const columns = evaluations.map(queryColumns)
  // Evaluations list their queries sorted by id; when every run has the same list (the usual
  // case: the qrels queries, missing ones zero-filled) it is the shared set, read in one pass.
  const first = columns[0]!.queryIds
  const aligned = columns.every(
    (c) =>
      c.queryIds === first ||
      (c.queryIds.length === first.length && c.queryIds.every((id, i) => id === first[i])),
  )
  const ids = aligned ? first : [...new Set(columns.flatMap((c) => c.queryIds))].sort()
  const problems: string[] = []
  const runs = evaluations.map((e, r) => {
    const c = columns[r]!
    const zeroFilledQueries: string[] = []
    c.zeroFilled.forEach((z, j) => z && zeroFilledQueries.push(decodeId(c.queryIds[j]!)))
    const run = { name: e.runName, tag: decodeId(e.runTag), zeroFilledQueries }
    if (aligned) return { ...run, values: measures.map((_, m) => c.column(m)) }
    const at = new Map(c.queryIds.map((id, j) => [id, j]))
    const lacking = ids.filter((id) => !at.has(id))
    if (lacking.length)
      problems.push(
        `${e.runName}: ${lacking.length} shared quer${lacking.length === 1 ? 'y has' : 'ies have'} no value (${lacking.slice(0, 5).map(decodeId).join(', ')}${lacking.length > 5 ? ', …' : ''})`,
      )
    return {
      ...run,
      values: measures.map((_, m) => {
        const col = c.column(m)
        return ids.map((id) => {
          const j = at.get(id)
          return j === undefined || col.undefinedAt?.[j] ? null : col.values[j]!
        })
      }),
    }
  })
  if (problems.length)
    throw new TrecscoreError(
      `compare: runs must be scored on the same queries (missing queries zero-filled): ${problems.join('; ')}`,
      2,
    )
  return {
    source,
    measures,
    queries: ids.map((id) => ({ id: decodeId(id), groups: NO_GROUPS })),
    groupings: [],
    runs,
    notes: [],
  }
}

/** The groups of a query of plain qrels (none), one object for every query. */
const NO_GROUPS: CompareQuery['groups'] = Object.freeze({})

/** A run to compare, with its report name. */
export interface NamedRun {
  readonly name: string
  readonly run: Run
}

/**
 * Evaluate in-memory runs on the engine and compare them. Missing queries are zero-filled
 * whatever `conventions.missingQueries` says (paired tests need every run on the same queries);
 * a note says so when that overrides the given conventions.
 * @example
 * const result = compareRuns(qrels, [{ name: 'bm25', run: bm25 }, { name: 'dense', run: dense }], ['nDCG@10'], { tests: ['t', 'permutation'] })
 * result.overall[0].pairs[0].tests[0].pAdjusted
 */
export function compareRuns(
  qrels: Qrels,
  runs: readonly NamedRun[],
  measures: readonly string[],
  options: CompareOptions & {
    readonly conventions?: Partial<Conventions>
    readonly source?: string
  } = {},
): CompareResult {
  const { conventions: given = {}, source = 'qrels', ...rest } = options
  const conventions = resolveConventions({ ...given, missingQueries: 'zero' })
  const evals = runs.map((r) => evaluate(qrels, r.run, measures, conventions, { runName: r.name }))
  const table = tableFromEvaluations(evals, source)
  const notes =
    given.missingQueries === 'skip'
      ? ['missing queries: zero-filled for the paired tests (the given conventions said skip)']
      : []
  return compareTable({ ...table, notes }, rest)
}
