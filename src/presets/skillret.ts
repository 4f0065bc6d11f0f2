/**
 * SkillRet presets: the official evaluator (`trec_eval()` in `skillret/eval.py` of
 * skillretbenchmark/SKILLRET @ dbbdf22, on pytrec_eval-terrier 0.5.9) and the fusion convention.
 * Data (`--data DIR`: `queries/test.jsonl`, qrels rebuilt from each query's `skill_ids`) and runs
 * (official JSON or TREC) are read in `skillret-data.ts`; per-query values come from the engine
 * (`runPreset`); the official query set, summation order and rounding are data here.
 */
import { pytrecEval } from '../conventions/profiles.js'
import { TrecscoreError } from '../errors/trecscore-error.js'
import { definePreset, type Preset, type PresetDefinition } from './preset.js'

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

/** MRR@5 and MRR@10 of the fusion convention. */
const FUSION_EXTRA = [
  ['MRR@5', 'RR@5'],
  ['MRR@10', 'RR@10'],
] as const

/** SkillRet's measures: each family at every default cutoff, then `fixed` (printed names as labels). */
function skillRetMeasures(
  fixed: readonly (readonly [string, string])[],
): Pick<PresetDefinition, 'measures' | 'labels' | 'cutoffMeasures'> {
  const pairs = [
    ...FAMILIES.flatMap(([printed, m]) =>
      SKILLRET_DEFAULT_CUTOFFS.map((k) => [`${printed}@${k}`, `${m}@${k}`] as const),
    ),
    ...fixed,
  ]
  return {
    measures: pairs.map((p) => p[1]),
    labels: pairs.map((p) => p[0]),
    cutoffMeasures: { defaults: SKILLRET_DEFAULT_CUTOFFS, families: FAMILIES, fixed },
  }
}

const OFFICIAL = {
  tool: 'skillret/eval.py trec_eval() (pytrec_eval)',
  version: 'skillretbenchmark/SKILLRET @ dbbdf22; pytrec_eval-terrier 0.5.9 (trec_eval 9.0.8 code)',
  command:
    "trec_eval(qrels={q['id']: {sid: 1 for sid in q['skill_ids']}}, results=json.load(RUN)['retrieval']['test'])",
}

/** `skillret`: the official SkillRet evaluator (average over the run's queries, 5-decimal Python round). */
export const skillRet: Preset = definePreset({
  id: 'skillret',
  title: 'SkillRet skill retrieval (official evaluator, skillret/eval.py)',
  official: OFFICIAL,
  input: { qrels: 'skillret-data', runs: 'skillret-json-or-trec' },
  ...skillRetMeasures([]),
  conventions: { ...pytrecEval, missingQueries: 'skip', relevanceLevel: 1 },
  // The official loop sums pytrec_eval's per-query dict, which keeps the run's key order.
  aggregations: [{ id: 'mean', kind: 'query-mean', order: 'run' }],
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
  official: {
    ...OFFICIAL,
    tool: 'fusion convention (no public code; trecscore fixtures generator)',
    version: 'shared/conformance/presets/skillret (tools/gen_preset_fixtures.py)',
  },
  input: { qrels: 'skillret-data', runs: 'skillret-json-or-trec' },
  ...skillRetMeasures(FUSION_EXTRA),
  conventions: { ...pytrecEval, missingQueries: 'zero', relevanceLevel: 1 },
  // The fusion mean runs over the queries file, in its order.
  aggregations: [{ id: 'mean', kind: 'query-mean', order: 'declared' }],
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
export const SKILLRET_PRESETS: ReadonlyMap<string, Preset> = new Map(
  [skillRet, skillRetFusion].map((p) => [p.id, p]),
)

/** Whether `id` names a SkillRet preset. */
export function isSkillRetPreset(id: string): boolean {
  return SKILLRET_PRESETS.has(id)
}

/** Parse `--k 5,10,20`: distinct positive integers, in the order given. */
export function parseSkillRetCutoffs(text: string): number[] {
  const ks = text.split(',').map((s) => s.trim())
  const out: number[] = []
  for (const s of ks) {
    const k = Number(s)
    if (!/^[0-9]+$/.test(s) || !Number.isSafeInteger(k) || k < 1)
      throw new TrecscoreError(`--k: expected comma-separated positive integers, found '${s}'`, 2)
    if (!out.includes(k)) out.push(k)
  }
  return out
}
