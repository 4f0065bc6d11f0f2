/**
 * RETECO convention sets: named ways of scoring one submission, all behind one signature so the
 * `score` command and the report treat them alike.
 *
 * - `plan`: the evaluation plan's written rules (headline; `plan.ts`).
 * - `official-baseline`: pytrec_eval + `official_baseline.py` aggregation (`reference-ports/`).
 * - `scorer-py`: the organizers' `scorer.py` (`reference-ports/`).
 *
 * A set is registered by adding an entry to {@link RETECO_CONVENTION_SETS}: a
 * {@link RetecoScorer} that turns a {@link RetecoScoreRequest} into a {@link RetecoReport}.
 */
import { decodeId } from '../../io/bytes.js'
import {
  type MacroSummary,
  type MeanSummary,
  type MetricValues,
  PLAN_METRICS,
} from './aggregate.js'
import { offlineLabels, type TemporalLabelProvider } from './labels.js'
import { type PlanResult, runCorpora, scorePlan } from './plan.js'
import {
  officialBaselineConventionSet,
  scorerPyConventionSet,
} from './reference-ports/compat-sets.js'
import type {
  ReportTable,
  ReportValues,
  RetecoConventionSet,
  RetecoConventionSetName,
  RetecoReport,
  RetecoScoreRequest,
} from './report-model.js'
import { formatRunProblem } from './runs.js'
import type { RetecoRunProblem } from './types.js'

const METRIC_COLUMNS: readonly string[] = PLAN_METRICS

function metricValues(v: MetricValues): Record<string, number> {
  return Object.fromEntries(PLAN_METRICS.map((m) => [m, v[m]]))
}

function meanRow(
  label: string,
  m: MeanSummary,
  coverage: boolean,
): { label: string; values: ReportValues } {
  const values: Record<string, number | null> = { ...metricValues(m.values), n: m.count }
  if (coverage && m.coverage) {
    values['TC@10'] = m.coverage.tc
    values['nDCG|FC@10'] = m.coverage.ndcgFullCoverage
    values['full_coverage'] = m.coverage.fullCoverage
    values['tc_defined'] = m.coverage.tcDefined
  }
  return { label, values }
}

function macroRow(
  label: string,
  m: MacroSummary,
  coverage: boolean,
): { label: string; values: ReportValues } {
  const values: Record<string, number | null> = { ...metricValues(m.values), n: m.groups }
  if (coverage) {
    values['TC@10'] = m.tc
    values['nDCG|FC@10'] = m.ndcgFullCoverage
  }
  return { label, values }
}

/** The plan conventions in force, for reports. */
export function planConventionLines(
  r: PlanResult,
  split: string,
  labels: TemporalLabelProvider,
): [string, string][] {
  return [
    [
      'format',
      'TREC 6 columns (query_id Q0 doc_id rank score run_id), ASCII whitespace; rank [+-]?[0-9]+, score a finite decimal',
    ],
    [
      'ordering',
      `score descending after rounding to ${r.scorePrecision}; ties by doc id descending (byte order), then line order; rank column ignored`,
    ],
    [
      'duplicates',
      r.duplicates === 'keep-first-ranked'
        ? 'removed after the first occurrence in ranking order'
        : 'removed after the first line in file order',
    ],
    [
      'unknown doc ids',
      `discarded (not in the domain's documents.jsonl) before the cut at 10${r.domainsWithoutCorpus.length ? `; KEPT in ${r.domainsWithoutCorpus.join(', ')}, which ha${r.domainsWithoutCorpus.length === 1 ? 's' : 've'} no documents.jsonl (--allow-missing-corpus)` : ''}`,
    ],
    [
      'missing topics',
      'scored 0 on every measure (TC 0 when the query has required periods), counted',
    ],
    ['topics', `qrels topics of split ${split}; run topics without qrels ignored (counted)`],
    [
      'relevance',
      'binary: grade >= 1; nDCG IDCG over min(R, 10); MAP@10 divided by R; MRR without cutoff',
    ],
    ['temporal labels', `${labels.name}: ${labels.description}`],
    [
      'TP@10',
      'RETECO offline definition (DCG-weighted share of the top n = min(10, len)); TP-TEMPO@10 = the TEMPO paper AP-style definition',
    ],
    ['nDCG|FC@10', 'mean nDCG@10 over queries with TC@10 = 1; null when none'],
    [
      'headline',
      r.subtrack === '1a'
        ? 'query macro over all domains'
        : r.subtrack === '1b'
          ? 'per-query mean over its steps, then mean over queries'
          : 'turn macro over (domain, topic)',
    ],
    ['sums', 'left to right in domain-name order, then qrels-file topic order; no rounding'],
  ]
}

/** Turn a plan result into the common report. `variant` is the file-order dedup result, if computed. */
export function planReport(
  r: PlanResult,
  request: RetecoScoreRequest,
  labels: TemporalLabelProvider,
  variant: PlanResult | null,
): RetecoReport {
  const s = r.scores
  const tables: ReportTable[] = []
  let diagnostics: Record<string, number | null> = {}
  let aggregation = ''
  if (s?.subtrack === '1a') {
    aggregation = 'query macro'
    const cols = [...METRIC_COLUMNS, 'TC@10', 'nDCG|FC@10', 'n']
    diagnostics = { ...meanRow('', s.queryMacro, true).values }
    tables.push({
      key: 'aggregations',
      title: 'Aggregations',
      columns: cols,
      rows: [
        meanRow('query macro (headline)', s.queryMacro, true),
        macroRow('domain macro', s.domainMacro, true),
      ],
    })
    tables.push({
      key: 'per_domain',
      title: 'Per domain (query means)',
      columns: [...cols, 'full_coverage', 'tc_defined'],
      rows: [...s.perDomain].map(([d, m]) => meanRow(d, m, true)),
    })
  } else if (s?.subtrack === '1b') {
    aggregation = 'per-query mean over steps, then mean over queries'
    const cols = [...METRIC_COLUMNS, 'n']
    diagnostics = { ...meanRow('', s.queryMacro, false).values }
    tables.push({
      key: 'aggregations',
      title: 'Aggregations',
      columns: cols,
      rows: [
        meanRow('query macro of step means (headline)', s.queryMacro, false),
        meanRow('flat step mean', s.stepMacro, false),
        macroRow('domain macro of query means', s.domainMacroOfQueryMeans, false),
        macroRow('domain macro of step means', s.domainMacroOfStepMeans, false),
      ],
    })
    tables.push({
      key: 'per_domain',
      title: 'Per domain',
      columns: cols,
      rows: [...s.perDomain].flatMap(([d, p]) => [
        meanRow(`${d} query means`, p.queryMacro, false),
        meanRow(`${d} step means`, p.stepMacro, false),
      ]),
    })
  } else if (s) {
    aggregation = 'turn macro over (domain, topic)'
    const cols = [...METRIC_COLUMNS, 'n']
    diagnostics = { ...meanRow('', s.turnMacro, false).values }
    tables.push({
      key: 'aggregations',
      title: 'Aggregations',
      columns: cols,
      rows: [
        meanRow('turn macro (headline)', s.turnMacro, false),
        macroRow('domain macro', s.domainMacro, false),
        macroRow('conversation then domain macro', s.conversationThenDomainMacro, false),
      ],
    })
    tables.push({
      key: 'per_domain',
      title: 'Per domain (turn means)',
      columns: cols,
      rows: [...s.perDomain].map(([d, m]) => meanRow(d, m, false)),
    })
    tables.push({
      key: 'conversation_per_domain',
      title: 'Per domain (conversation means)',
      columns: cols,
      rows: [...s.conversationMacroPerDomain].map(([d, m]) => meanRow(d, m, false)),
    })
    tables.push({
      key: 'turn_depth',
      title: 'Turn depth (pooled)',
      columns: cols,
      rows: [...s.byTurnDepth].map(([b, m]) => meanRow(b, m, false)),
    })
    tables.push({
      key: 'turn_depth_per_domain',
      title: 'Turn depth per domain',
      columns: cols,
      rows: [...s.byTurnDepthPerDomain].flatMap(([d, bs]) =>
        [...bs].map(([b, m]) => meanRow(`${d} ${b}`, m, false)),
      ),
    })
  }
  delete diagnostics['nDCG@10']
  if (variant?.scores && r.counts.some((c) => c.duplicateRows > 0))
    diagnostics['nDCG@10 (dedup in file order)'] = variant.scores.headline
  // Parse errors stop scoring; validation errors (rank <= 0, a repeated rank) do not.
  const isParse = (p: RetecoRunProblem): boolean =>
    p.code === 'columns' || p.code === 'rank' || p.code === 'score'
  const problems = [
    ...r.runProblems,
    ...r.counts.flatMap((c) => [...c.parseErrors, ...c.validationErrors]),
  ]
  const errors = problems.filter(isParse).map(formatRunProblem)
  const warnings = [
    ...r.runWarnings.map(decodeId),
    ...r.counts.flatMap((c) => c.warnings.map((w) => `${c.domain}: ${decodeId(w)}`)),
    ...problems.filter((p) => !isParse(p)).map(formatRunProblem),
  ]
  return {
    schema: 'trecscore.reteco-score/1',
    conventionSet: 'plan',
    subtrack: r.subtrack,
    split: request.data.split,
    run: request.run.path,
    runLayout: request.run.layout,
    domains: r.domains,
    conventions: planConventionLines(r, request.data.split, labels),
    headline: { measure: 'nDCG@10', value: s ? s.headline : null, aggregation },
    diagnostics,
    tables,
    counts: r.counts.map((c) => ({
      domain: c.domain,
      file: c.file,
      topics: c.topics,
      lines: c.lines,
      missing: c.missing.map(decodeId),
      emptyAfterCleaning: c.emptyAfterCleaning.map(decodeId),
      duplicatesRemoved: c.duplicateRows,
      unknownDocsDiscarded: c.unknownDocRows,
      unknownTopics: c.unknownTopics.length,
      unknownTopicLines: c.unknownTopicLines,
      rankDisagreements: c.rankDisagreements,
      float32OnlyTies: c.float32OnlyTies,
      unlabelled: c.unlabelled,
    })),
    perTopic: r.topics.map((t) => {
      const values: Record<string, number | null> = { ...metricValues(t.values) }
      if (r.subtrack === '1a') values['TC@10'] = t.tc
      const info: Record<string, string> = { R: String(t.R) }
      if (t.queryId !== null) info['query'] = decodeId(t.queryId)
      if (t.bucket !== null) info['bucket'] = t.bucket
      return { domain: t.domain, topic: decodeId(t.topicId), status: t.status, values, info }
    }),
    warnings,
    errors,
    printed: null,
  }
}

/** The `plan` convention set: {@link scorePlan}, with the file-order dedup variant as a diagnostic. */
export const planConventionSet: RetecoConventionSet = {
  name: 'plan',
  description:
    "the evaluation plan's rules: float32 score order, duplicates and unknown ids removed, missing topics 0, query/step/turn macro",
  async score(request) {
    const labels = request.labels ?? offlineLabels()
    const corpora = await runCorpora(request.data, request.subtrack, request.run)
    const base = {
      data: request.data,
      subtrack: request.subtrack,
      run: request.run,
      labels,
      corpora,
      ...(request.allowMissingCorpus ? { allowMissingCorpus: true } : {}),
    }
    const r = await scorePlan(base)
    const variant =
      r.parseable && r.counts.some((c) => c.duplicateRows > 0)
        ? await scorePlan({ ...base, duplicates: 'keep-first' })
        : null
    return planReport(r, request, labels, variant)
  },
}

/**
 * The registered convention sets, by name: the plan (headline) and the two that reproduce the
 * organizers' code (`official_baseline.py` with pytrec_eval, and `scorer.py`).
 */
export const RETECO_CONVENTION_SETS: ReadonlyMap<RetecoConventionSetName, RetecoConventionSet> =
  new Map<RetecoConventionSetName, RetecoConventionSet>([
    ['plan', planConventionSet],
    ['official-baseline', officialBaselineConventionSet],
    ['scorer-py', scorerPyConventionSet],
  ])
