/**
 * The RETECO (SemEval-2027 Task 1) retrieval presets as data: `reteco-1a`, `reteco-1b`,
 * `reteco-2a` and `reteco-2c` (2c's retrieval is scored as 2a), run by `runPreset` on the engine
 * like every other preset. What they declare, from the evaluation plan
 * (datascienceuibk.github.io/RETECO/evaluation.html) and the conformance README §5(d):
 *
 * - queries keyed by (domain, topic) (`queryKey: 'group-qid'`): a 1a query, a 1b step, a 2a/2c
 *   turn; unknown doc ids (not in the domain's `documents.jsonl`) discarded before the cut;
 *   float32 score order, ties by doc id descending; the first copy in ranking order kept;
 *   missing topics scored 0; binary relevance (grade ≥ 1);
 * - nDCG@10, MAP@10 (`AP@10`, divided by R), Recall@10, P@10, MRR (no cutoff), and the temporal
 *   measures TP@10, TR@10, TP-TEMPO@10 (and for 1a TC@10, nDCG|FC@10) on temporal labels;
 * - the aggregations as data ({@link PLAN_AGGREGATIONS}, computed by the engine's
 *   `aggregateTable`): left-to-right sums in domain-name order, then qrels-file topic order.
 *
 * The organizers' own code paths (`official-baseline`, `scorer-py`, `format_checker`) are
 * reference emulations in `reference-ports/`, set beside these numbers by `--conventions`.
 */
import type { Conventions } from '../../conventions/conventions.js'
import { trecEvalV9 } from '../../conventions/profiles.js'
import { definePreset, type Preset, type TableAggregation } from '../preset.js'
import type { RetecoSubtrack } from './types.js'

/** The RETECO scoring presets (`--preset`), one per retrieval sub-track. */
export const RETECO_PRESETS = ['reteco-1a', 'reteco-1b', 'reteco-2a', 'reteco-2c'] as const

/** One of {@link RETECO_PRESETS}. */
export type RetecoPreset = (typeof RETECO_PRESETS)[number]

/** The sub-track a preset scores (`reteco-2c` scores its retrieval as 2a). */
export function subtrackOfPreset(preset: RetecoPreset): RetecoSubtrack {
  return preset.slice('reteco-'.length) as RetecoSubtrack
}

/** The rank cutoff of every plan measure. */
export const PLAN_CUTOFF = 10

/**
 * The core {@link Conventions} of the plan: trec_eval 9 ordering (float32 scores, ties by doc id
 * descending), first copy in ranking order kept, unknown docs discarded (given the domain
 * corpus), missing queries scored 0, binary gains at level 1, (domain, topic) query keys.
 */
export const retecoPlanConventions = {
  ...trecEvalV9,
  duplicates: 'keep-first-ranked',
  unknownDocs: 'discard',
  missingQueries: 'zero',
  gains: { kind: 'binary' },
  queryKey: 'group-qid',
  comments: false,
} as const satisfies Conventions

/** The plan's measures (engine names) and the names the RETECO reports print, in column order. */
const MEASURES: readonly (readonly [engine: string, printed: string])[] = [
  ['nDCG@10', 'nDCG@10'],
  ['AP@10', 'MAP@10'],
  ['R@10', 'Recall@10'],
  ['P@10', 'P@10'],
  ['RR', 'MRR'],
  ['TP@10', 'TP@10'],
  ['TR@10', 'TR@10'],
  ['TP_TEMPO@10', 'TP-TEMPO@10'],
]
/** 1a only: temporal coverage, and nDCG over the fully covered queries. */
const COVERAGE: readonly (readonly [string, string])[] = [
  ['TC@10', 'TC@10'],
  ['nDCG_FC@10', 'nDCG|FC@10'],
]
/** Top-10 docs without a temporal label (summed per domain in the reports). */
const UNLABELLED: readonly [string, string] = ['Unlabelled@10', 'unlabelled']

/** The plan's aggregations of each sub-track, as data (computed by the engine's `aggregateTable`). */
export const PLAN_AGGREGATIONS = {
  '1a': [
    { kind: 'table', id: 'query-macro', title: 'query macro', levels: [] },
    { kind: 'table', id: 'per-domain', title: 'per domain', levels: [], splitBy: ['group'] },
    { kind: 'table', id: 'domain-macro', title: 'domain macro', levels: [['group']] },
  ],
  '1b': [
    {
      kind: 'table',
      id: 'query-macro',
      title: 'query macro of step means',
      levels: [['group', 'parent']],
    },
    { kind: 'table', id: 'step-macro', title: 'flat step mean', levels: [] },
    {
      kind: 'table',
      id: 'per-domain-queries',
      title: 'per domain (query means)',
      levels: [['group', 'parent']],
      splitBy: ['group'],
    },
    {
      kind: 'table',
      id: 'per-domain-steps',
      title: 'per domain (step means)',
      levels: [],
      splitBy: ['group'],
    },
    {
      kind: 'table',
      id: 'per-query',
      title: 'per query',
      levels: [],
      splitBy: ['group', 'parent'],
    },
    {
      kind: 'table',
      id: 'domain-macro-of-query-means',
      title: 'domain macro of query means',
      levels: [['group', 'parent'], ['group']],
    },
    {
      kind: 'table',
      id: 'domain-macro-of-step-means',
      title: 'domain macro of step means',
      levels: [['group']],
    },
  ],
  '2a': [
    { kind: 'table', id: 'turn-macro', title: 'turn macro', levels: [] },
    { kind: 'table', id: 'per-domain', title: 'per domain', levels: [], splitBy: ['group'] },
    { kind: 'table', id: 'domain-macro', title: 'domain macro', levels: [['group']] },
    {
      kind: 'table',
      id: 'turn-depth',
      title: 'turn depth (pooled)',
      levels: [],
      splitBy: ['bucket'],
    },
    {
      kind: 'table',
      id: 'turn-depth-per-domain',
      title: 'turn depth per domain',
      levels: [],
      splitBy: ['group', 'bucket'],
    },
    {
      kind: 'table',
      id: 'conversation-per-domain',
      title: 'per domain (conversation means)',
      levels: [['group', 'conversation']],
      splitBy: ['group'],
    },
    {
      kind: 'table',
      id: 'conversation-then-domain',
      title: 'conversation then domain macro',
      levels: [['group', 'conversation'], ['group']],
    },
  ],
} as const satisfies Record<'1a' | '1b' | '2a', readonly TableAggregation[]>

const HEADLINE: Readonly<Record<RetecoSubtrack, string>> = {
  '1a': 'query macro over all domains',
  '1b': 'per-query mean over its steps, then mean over queries',
  '2a': 'turn macro over (domain, topic)',
  '2c': 'turn macro over (domain, topic)',
}

function retecoPreset(subtrack: RetecoSubtrack): Preset {
  const measures = [...MEASURES, ...(subtrack === '1a' ? COVERAGE : []), UNLABELLED]
  return definePreset({
    id: `reteco-${subtrack}`,
    title: `RETECO (SemEval-2027 Task 1) sub-track ${subtrack}`,
    version: '1',
    official: {
      tool: 'RETECO evaluation plan (written rules; plan_ref.json of the conformance fixtures)',
      version: 'datascienceuibk.github.io/RETECO/evaluation.html, conformance README §5(d)',
      command: `trecscore score --preset reteco-${subtrack} --data DIR RUN`,
    },
    input: { qrels: 'reteco-data', runs: 'reteco-run' },
    measures: measures.map(([m]) => m),
    labels: measures.map(([, l]) => l),
    aggregations: PLAN_AGGREGATIONS[subtrack === '2c' ? '2a' : subtrack],
    undefinedWhenEmpty: subtrack === '1a' ? COVERAGE.map(([m]) => m) : [],
    conventions: retecoPlanConventions,
    rounding: { digits: 4, rule: 'c-printf' },
    report: { layout: 'leaderboard' },
    checks: [],
    notes: [
      `headline: nDCG@10, ${HEADLINE[subtrack]}`,
      'temporal labels: offline (qrels as temporal relevance, steps as required periods) unless a judge-label file is given',
      'domains without documents.jsonl are refused unless --allow-missing-corpus keeps their unknown doc ids',
    ],
  })
}

/** The four RETECO presets, by id. */
export const RETECO_PRESET_VALUES: ReadonlyMap<RetecoPreset, Preset> = new Map(
  RETECO_PRESETS.map((id) => [id, retecoPreset(subtrackOfPreset(id))]),
)

/** The preset of a sub-track. */
export function retecoPresetOf(subtrack: RetecoSubtrack): Preset {
  return RETECO_PRESET_VALUES.get(`reteco-${subtrack}`)!
}
