/**
 * The data of an HTML report (`trecscore report`), built from evaluation results (a preset family
 * with its own report model, such as RETECO, builds it in its own folder), plus an optional
 * comparison (significance). Plain JSON-ready data with every id
 * already decoded to display text; the page draws its table and charts from it. Pure: no I/O.
 */

import { runLetter as letter } from '../../compare/compare.js'
import type { CompareResult } from '../../compare/types.js'
import type { RunEvaluation } from '../../evaluate/evaluate.js'
import type { SensitivityReport } from '../../evaluate/sensitivity.js'
import { decodeId } from '../../io/bytes.js'
import { describeConventions } from '../leaderboard.js'

/** A run of the report. */
export interface ReportRunInfo {
  /** Name (file name). */
  readonly name: string
  /** Run tag (display text). */
  readonly tag: string
  /** Letter used by the significance markers (`a`, `b`, …). */
  readonly letter: string
}

/** One leaderboard row: a run's aggregate per measure, with the significance markers. */
export interface LeaderboardRow {
  /** Index into {@link ReportData.runs}. */
  readonly run: number
  /** Aligned with {@link ReportData.measures}; `null` = undefined. */
  readonly values: readonly (number | null)[]
  /** Per measure: letters of the runs this run significantly beats (empty without a comparison). */
  readonly beats: readonly (readonly string[])[]
}

/** Per-query values of one run. */
export interface QueryRow {
  readonly run: string
  readonly query: string
  /** Domain or other group, when the source has one. */
  readonly group: string | null
  /** Turn-depth bucket (`T1` … `T5+`) for conversational tracks. */
  readonly depth: string | null
  /** Measure → value (`null` = undefined for this query). */
  readonly values: Readonly<Record<string, number | null>>
}

/** Values of a run in one group (domain or turn depth). */
export interface GroupRow {
  readonly run: string
  readonly group: string
  readonly values: Readonly<Record<string, number | null>>
  /** Queries (topics) in the group. */
  readonly n: number | null
}

/** One significance result: `run` against `versus` on `measure`. */
export interface SignificanceRow {
  readonly run: string
  readonly versus: string
  readonly measure: string
  readonly meanDifference: number
  readonly p: number | null
  readonly pAdjusted: number | null
  readonly significant: boolean
  /** Which side is significantly better, if any. */
  readonly better: 'run' | 'versus' | null
  readonly wins: number
  readonly ties: number
  readonly losses: number
}

/** The significance settings and results. */
export interface ReportSignificance {
  /** The test, correction and level, in words (the legend). */
  readonly legend: string
  readonly rows: readonly SignificanceRow[]
}

/** Everything an HTML report shows (JSON schema `trecscore.report/1`). */
export interface ReportData {
  readonly schema: 'trecscore.report/1'
  readonly title: string
  /** Where the numbers come from (`qrels demo/qrels.txt`, `preset reteco-2a (plan) on DIR, split dev`). */
  readonly source: string
  readonly measures: readonly string[]
  /** The measure the charts show first. */
  readonly primary: string
  readonly runs: readonly ReportRunInfo[]
  readonly leaderboard: readonly LeaderboardRow[]
  /** The conventions in force, as (name, description) pairs. */
  readonly conventions: readonly (readonly [string, string])[]
  /** Per run, what was dropped, deduplicated or zero-filled: (what, how many) pairs. */
  readonly counts: readonly {
    readonly run: string
    readonly items: readonly (readonly [string, number])[]
  }[]
  readonly perQuery: readonly QueryRow[]
  /** Per-domain values (presets with domains), else `null`. */
  readonly domains: readonly GroupRow[] | null
  /** Per turn-depth values (conversational tracks), else `null`. */
  readonly turnDepth: readonly GroupRow[] | null
  /** The run the difference chart subtracts, or `null` (a single run). */
  readonly baseline: string | null
  readonly significance: ReportSignificance | null
  readonly notes: readonly string[]
  /** With `report --sensitivity`: how much each score and the run ranking depend on the conventions. */
  readonly sensitivity?: SensitivityReport
}

/** Options shared by the builders. */
export interface ReportBuildOptions {
  readonly title?: string
  /** Baseline run name (default: the first run). */
  readonly baseline?: string
  /** A comparison of the same runs (significance markers); `null` when not computed. */
  readonly comparison?: CompareResult | null
  /** Extra lines for the notes (e.g. why significance is missing). */
  readonly notes?: readonly string[]
  /** The convention sensitivity section's data. */
  readonly sensitivity?: SensitivityReport
}

/** Significance of a comparison as report data, and per run and measure the letters of the runs it beats. */
export function significanceOf(
  cmp: CompareResult | null | undefined,
  runs: readonly string[],
  measures: readonly string[],
): { sig: ReportSignificance | null; beats: string[][][] } {
  const beats = runs.map(() => measures.map((): string[] => []))
  if (!cmp) return { sig: null, beats }
  const rows: SignificanceRow[] = []
  const index = (name: string): number => runs.indexOf(name)
  for (const mc of cmp.overall) {
    const mi = measures.indexOf(mc.measure)
    if (mi < 0) continue
    mc.beats.forEach((beaten, ci) => {
      const ri = index(cmp.runs[ci]!.name)
      if (ri >= 0) beats[ri]![mi] = beaten.map((b) => letter(index(cmp.runs[b]!.name)))
    })
    for (const p of mc.pairs) {
      const first = p.tests[0]
      rows.push({
        run: cmp.runs[p.a]!.name,
        versus: cmp.runs[p.b]!.name,
        measure: mc.measure,
        meanDifference: p.effect.meanDifference,
        p: first?.p ?? null,
        pAdjusted: first?.pAdjusted ?? null,
        significant: first?.significant ?? false,
        better: p.better === 'a' ? 'run' : p.better === 'b' ? 'versus' : null,
        wins: p.wins,
        ties: p.ties,
        losses: p.losses,
      })
    }
  }
  const s = cmp.settings
  const test = {
    t: "Student's paired t-test",
    permutation: 'Fisher randomization test',
    bootstrap: 'paired bootstrap test',
    wilcoxon: 'Wilcoxon signed-rank test',
  }[s.tests[0] ?? 't']
  const correction = {
    holm: 'Holm',
    bonferroni: 'Bonferroni',
    bh: 'Benjamini–Hochberg',
    none: 'no',
  }[s.correction]
  const family = s.baseline === null ? 'all pairs' : `against the baseline ${s.baseline}`
  const legend = `Letters mark the runs a run significantly beats: ${test}, ${correction} correction over ${family} per measure, α = ${s.alpha}; missing queries count 0 in the tests.`
  return { sig: { legend, rows }, beats }
}

/** The baseline run: the one asked for, else the first of several runs, else none. */
export function chooseBaseline(runs: readonly string[], wanted: string | undefined): string | null {
  if (wanted !== undefined) return wanted
  return runs.length > 1 ? runs[0]! : null
}

/**
 * Report data from evaluations of several runs (one `evaluate` call per run, same measures and
 * conventions).
 */
export function reportFromEvaluations(
  results: readonly RunEvaluation[],
  source: string,
  options: ReportBuildOptions = {},
): ReportData {
  const measures = results[0]?.measures ?? []
  const names = results.map((r) => r.runName)
  const { sig, beats } = significanceOf(options.comparison, names, measures)
  const conv = results[0]
    ? describeConventions(results[0].conventions)
        .split('\n')
        .map((l): [string, string] => {
          const i = l.indexOf(': ')
          return [l.slice(0, i), l.slice(i + 2)]
        })
    : []
  return {
    schema: 'trecscore.report/1',
    title: options.title ?? 'trecscore report',
    source,
    measures,
    primary: measures[0] ?? '',
    runs: results.map((r, i) => ({ name: r.runName, tag: decodeId(r.runTag), letter: letter(i) })),
    leaderboard: results.map((r, i) => ({
      run: i,
      values: r.aggregates.map((a) => a.value),
      beats: beats[i]!,
    })),
    conventions: conv,
    counts: results.map((r) => {
      const c = r.counts
      return {
        run: r.runName,
        items: [
          ['queries evaluated', c.evaluatedQueries],
          [
            c.missingPolicy === 'zero' ? 'missing queries zero-filled' : 'missing queries skipped',
            c.missingQueries.length,
          ],
          ['run queries without judgments (ignored)', c.extraQueries],
          ['duplicate docs removed', c.duplicatesRemoved],
          ['unknown docs discarded', c.unknownDiscarded],
          ['docs below the depth cut', c.cutByDepth],
          ['unjudged docs dropped', c.unjudgedDropped],
          ['queries judged only negative (scored 0)', c.negativeOnlyQueries.length],
          ['queries that failed', c.failedQueries.length],
        ],
      }
    }),
    perQuery: results.flatMap((r) =>
      r.perQuery.map((q) => ({
        run: r.runName,
        query: decodeId(q.queryId),
        group: null,
        depth: null,
        values: Object.fromEntries(measures.map((m, i) => [m, q.values[i] ?? null])),
      })),
    ),
    domains: null,
    turnDepth: null,
    baseline: chooseBaseline(names, options.baseline),
    significance: sig,
    notes: [
      ...results
        .filter((r) => r.counts.failedQueries.length)
        .map(
          (r) =>
            `${r.runName}: ${r.counts.failedQueries.length} quer${r.counts.failedQueries.length === 1 ? 'y' : 'ies'} could not be evaluated (${r.counts.failedQueries
              .slice(0, 5)
              .map((f) => `${decodeId(f.queryId)}: ${f.failure.code}`)
              .join(
                ', ',
              )}${r.counts.failedQueries.length > 5 ? ', …' : ''}) and ${r.counts.failedQueries.length === 1 ? 'is' : 'are'} left out of its means`,
        ),
      ...(options.notes ?? []),
    ],
    ...(options.sensitivity ? { sensitivity: options.sensitivity } : {}),
  }
}
