/**
 * SkillRet presets: the official evaluator (`trec_eval()` in `skillret/eval.py` of
 * skillretbenchmark/SKILLRET @ dbbdf22, on pytrec_eval-terrier 0.5.9) and the fusion convention.
 * Data (`--data DIR`: `queries/test.jsonl`, qrels rebuilt from each query's `skill_ids`) and runs
 * (official JSON or TREC) are read in `skillret-data.ts`; per-query values come from the engine
 * ({@link RunEvaluator}); only the official query set, summation order and rounding are here.
 */
import { pytrecEval } from '../conventions/profiles.js'
import { RunEvaluator } from '../evaluate/evaluate.js'
import { parseMeasures } from '../measures/name.js'
import { decodeId } from '../io/bytes.js'
import { runInputPath, type RunInput } from '../io/run-labels.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import { pythonRound } from '../report/python-round.js'
import { definePreset, type Preset } from './preset.js'
import { readSkillRetData, readSkillRetRun, type SkillRetData, type SkillRetRun } from './skillret-data.js'

/** The official cutoffs (`k_values` default of `skillret/eval.py`). */
export const SKILLRET_DEFAULT_CUTOFFS: readonly number[] = [5, 10, 15]

/** The SkillRet measure families: printed name → engine measure name prefix. */
const FAMILIES = [
  ['NDCG', 'nDCG'],
  ['MAP', 'AP'],
  ['Recall', 'R'],
  ['Precision', 'P'],
  ['Completeness', 'Completeness'],
] as const

/** SkillRet's printed measure names and the engine measures behind them, for cutoffs `ks`. */
export function skillRetMeasures(ks: readonly number[], fusion: boolean): { readonly printed: string[]; readonly engine: string[] } {
  const printed: string[] = []
  const engine: string[] = []
  for (const [name, m] of FAMILIES) {
    for (const k of ks) {
      printed.push(`${name}@${k}`)
      engine.push(`${m}@${k}`)
    }
  }
  if (fusion) {
    for (const k of [5, 10]) {
      printed.push(`MRR@${k}`)
      engine.push(`RR@${k}`)
    }
  }
  return { printed, engine }
}

const OFFICIAL = {
  tool: 'skillret/eval.py trec_eval() (pytrec_eval)',
  version: 'skillretbenchmark/SKILLRET @ dbbdf22; pytrec_eval-terrier 0.5.9 (trec_eval 9.0.8 code)',
  command: "trec_eval(qrels={q['id']: {sid: 1 for sid in q['skill_ids']}}, results=json.load(RUN)['retrieval']['test'])",
}

/** `skillret`: the official SkillRet evaluator (average over the run's queries, 5-decimal Python round). */
export const skillRet: Preset = definePreset({
  id: 'skillret',
  title: 'SkillRet skill retrieval (official evaluator, skillret/eval.py)',
  official: OFFICIAL,
  input: { qrels: 'skillret-data', runs: 'skillret-json-or-trec' },
  measures: skillRetMeasures(SKILLRET_DEFAULT_CUTOFFS, false).engine,
  conventions: { ...pytrecEval, missingQueries: 'skip', relevanceLevel: 1 },
  rounding: { digits: 5, rule: 'python-round' },
  report: { layout: 'leaderboard' },
  checks: [],
  notes: [
    "Qrels are rebuilt from each query's skill_ids (grade 1); the qrels config is not read.",
    'Scores are float32; ties (also doubles equal as float32) by skill id descending, byte order; JSON key order is ignored.',
    'Averaged over the run queries that are in the qrels: a query absent from the run is dropped from the denominator; a query with an empty ranking {} counts 0.',
    "Per measure the float64 sum in the run's key order, then Python round(sum / n, 5) (ties to even on the exact binary value).",
    'A TREC file cannot hold an empty ranking: such a query is absent, hence dropped, not 0.',
  ],
})

/** `skillret-fusion`: every qrels query counts (missing or empty = 0), plus MRR@5 and MRR@10. */
export const skillRetFusion: Preset = definePreset({
  id: 'skillret-fusion',
  title: 'SkillRet skill retrieval (fusion convention: all qrels queries, MRR@5/@10)',
  official: { ...OFFICIAL, tool: 'fusion convention (no public code; trecscore fixtures generator)', version: 'shared/conformance/presets/skillret (tools/gen_preset_fixtures.py)' },
  input: { qrels: 'skillret-data', runs: 'skillret-json-or-trec' },
  measures: skillRetMeasures(SKILLRET_DEFAULT_CUTOFFS, true).engine,
  conventions: { ...pytrecEval, missingQueries: 'zero', relevanceLevel: 1 },
  rounding: { digits: 5, rule: 'python-round' },
  report: { layout: 'leaderboard' },
  checks: [],
  notes: [
    'Every qrels (queries-file) query counts; a missing or empty ranking scores 0.',
    'Same ranking rule as skillret (float32 scores, ties by skill id descending): an assumption, the fusion code is not public.',
    'MRR@k = 1/rank of the first relevant skill if that rank is <= k, else 0.',
    'Plain mean in queries-file order, full precision (printed rounded to 5 decimals).',
  ],
})

/** The SkillRet presets by id. */
export const SKILLRET_PRESETS: ReadonlyMap<string, Preset> = new Map([skillRet, skillRetFusion].map((p) => [p.id, p]))

/** Whether `id` names a SkillRet preset. */
export function isSkillRetPreset(id: string): boolean {
  return SKILLRET_PRESETS.has(id)
}

/** One run scored by a SkillRet preset. */
export interface SkillRetRunScore {
  /** The run's label: its file as given, or the `name` of a `{ path, name }` run input. */
  readonly run: string
  /** Its format. */
  readonly format: 'json' | 'trec'
  /** Printed measure names (`NDCG@5`, …, `MRR@10`). */
  readonly measures: readonly string[]
  /** Full-precision means, one per measure (`official_unrounded` / `fusion` of the fixtures). */
  readonly values: readonly number[]
  /** The values as printed: Python `round(v, 5)` (the official dict); fusion: the same rounding for display. */
  readonly rounded: readonly number[]
  /** Queries averaged (the official `n`, or every qrels query). */
  readonly numQueries: number
  /** Averaged queries in summation order. */
  readonly queryOrder: readonly string[]
  /** Per-query values (printed names), by query id, for the averaged queries. */
  readonly perQuery: ReadonlyMap<string, readonly number[]>
  /** Qrels queries absent from the run (dropped by `skillret`, 0 under `skillret-fusion`). */
  readonly missingQueries: readonly string[]
  /** Run queries present with an empty ranking (0 under both). */
  readonly emptyQueries: readonly string[]
  /** Run queries not in the queries file (ignored). */
  readonly unknownQueries: readonly string[]
}

/** Every run of one SkillRet `score --preset` call. */
export interface SkillRetScore {
  readonly preset: Preset
  readonly data: string
  readonly cutoffs: readonly number[]
  readonly runs: readonly SkillRetRunScore[]
}

/** Options of {@link scoreSkillRet}. */
export interface SkillRetScoreOptions {
  /** Cutoffs (default 5, 10, 15). */
  readonly cutoffs?: readonly number[]
  /**
   * A run query not in the queries file: `ignore` (default; what the official code does: it is
   * left out of the average and listed in `unknownQueries`) or `error` (exit 2, naming file and
   * ids; `score --strict`).
   */
  readonly unknownQueries?: 'error' | 'ignore'
}

/** Score one in-memory run on loaded data (see {@link scoreSkillRet}). */
export function scoreSkillRetRun(preset: Preset, data: SkillRetData, run: SkillRetRun, cutoffs: readonly number[] = SKILLRET_DEFAULT_CUTOFFS): SkillRetRunScore {
  const fusion = preset.id === 'skillret-fusion'
  const { printed, engine } = skillRetMeasures(cutoffs, fusion)
  const ev = new RunEvaluator(data.qrels, parseMeasures(engine), preset.conventions, { runName: run.file, queries: data.queryIds })
  const missing = data.queryIds.filter((q) => !run.queries.has(q))
  const unknown: string[] = []
  const empty: string[] = []
  for (const q of run.queries.values()) {
    if (!data.qrels.queries.has(q.queryId)) unknown.push(q.queryId)
    else if (q.docIds.length === 0) empty.push(q.queryId)
    ev.add(q)
  }
  const evaluation = ev.finish()
  const failed = evaluation.counts.failedQueries
  if (failed.length) throw new TrecscoreError(`${run.file}: query ${JSON.stringify(decodeId(failed[0]!.queryId))} cannot be scored (${failed[0]!.failure.code})`, 2)
  const perQuery = new Map(evaluation.perQuery.map((r) => [r.queryId, r.values.map((v) => v ?? 0)] as const))
  // Summation order: the official loop iterates pytrec_eval's result in the run's key order;
  // the fusion mean runs over the queries file in its order.
  const order = fusion ? data.queryIds.filter((q) => perQuery.has(q)) : [...run.queries.keys()].filter((q) => perQuery.has(q))
  const n = order.length
  const values = printed.map((_, i) => {
    let s = 0
    for (const q of order) s += perQuery.get(q)![i]!
    return n === 0 ? 0 : s / n
  })
  return {
    run: run.file,
    format: run.format,
    measures: printed,
    values,
    rounded: values.map((v) => pythonRound(v, 5)),
    numQueries: n,
    queryOrder: order.map(decodeId),
    perQuery: new Map(order.map((q) => [decodeId(q), perQuery.get(q)!])),
    missingQueries: missing.map(decodeId),
    emptyQueries: empty.map(decodeId),
    unknownQueries: unknown.map(decodeId),
  }
}

/**
 * Score SkillRet runs (official JSON or TREC files) with `skillret` or `skillret-fusion`.
 * @example
 * const s = await scoreSkillRet('skillret', 'data', ['runs/bm25.json'])
 * s.runs[0].rounded // the official dict's values, in s.runs[0].measures order
 */
export async function scoreSkillRet(presetId: string, dataDir: string, runFiles: readonly RunInput[], options: SkillRetScoreOptions = {}): Promise<SkillRetScore> {
  const preset = SKILLRET_PRESETS.get(presetId)
  if (!preset) throw new TrecscoreError(`unknown SkillRet preset '${presetId}'; known: ${[...SKILLRET_PRESETS.keys()].join(', ')}`, 2)
  if (runFiles.length === 0) throw new TrecscoreError(`preset '${preset.id}': no run given`, 2)
  const cutoffs = options.cutoffs ?? SKILLRET_DEFAULT_CUTOFFS
  const data = await readSkillRetData(dataDir)
  const runs: SkillRetRunScore[] = []
  for (const input of runFiles) {
    const file = runInputPath(input)
    const run = await readSkillRetRun(file, preset.conventions)
    if (options.unknownQueries === 'error') {
      const unknown = [...run.queries.keys()].filter((q) => !data.queryIdSet.has(q)).map((q) => JSON.stringify(decodeId(q)))
      if (unknown.length) {
        throw new TrecscoreError(`${file}: ${unknown.length} query id(s) not in the queries file ${data.queriesFile} (--strict; the official evaluator ignores them): ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`, 2)
      }
    }
    const scored = scoreSkillRetRun(preset, data, run, cutoffs)
    runs.push(typeof input === 'string' ? scored : { ...scored, run: input.name })
  }
  return { preset, data: dataDir, cutoffs, runs }
}

/** A note for each run that held queries outside the queries file (ignored, as the official code does). */
export function skillRetUnknownQueryNotes(score: SkillRetScore): string[] {
  return score.runs
    .filter((r) => r.unknownQueries.length > 0)
    .map((r) => `${r.run}: ${r.unknownQueries.length} run quer${r.unknownQueries.length === 1 ? 'y' : 'ies'} not in the queries file, ignored as the official evaluator does (--strict refuses them): ${r.unknownQueries.slice(0, 10).join(', ')}${r.unknownQueries.length > 10 ? ', …' : ''}`)
}

/** Parse `--k 5,10,20`: distinct positive integers, in the order given. */
export function parseSkillRetCutoffs(text: string): number[] {
  const ks = text.split(',').map((s) => s.trim())
  const out: number[] = []
  for (const s of ks) {
    const k = Number(s)
    if (!/^[0-9]+$/.test(s) || !Number.isSafeInteger(k) || k < 1) throw new TrecscoreError(`--k: expected comma-separated positive integers, found '${s}'`, 2)
    if (!out.includes(k)) out.push(k)
  }
  return out
}

/** Why the two conventions differ on one run (for `--explain`). */
export function explainSkillRetRun(r: SkillRetRunScore, totalQueries: number): string {
  const m = r.missingQueries.length
  const lines = [
    `${r.run}: ${m} quer${m === 1 ? 'y differs' : 'ies differ'} between skillret and skillret-fusion` +
      (m ? ` (absent from the run: dropped from the official average, 0 in fusion: ${r.missingQueries.slice(0, 10).join(', ')}${m > 10 ? ', …' : ''})` : ''),
    `  official n = ${totalQueries - m} (run queries in the qrels), fusion n = ${totalQueries} (every qrels query)`,
    `  empty rankings (0 under both): ${r.emptyQueries.length}${r.format === 'trec' ? ' (a TREC file cannot hold an empty ranking: such a query is absent, so the official evaluator drops it)' : ''}`,
    `  run queries not in the qrels (ignored by both): ${r.unknownQueries.length}`,
  ]
  return lines.join('\n') + '\n'
}
