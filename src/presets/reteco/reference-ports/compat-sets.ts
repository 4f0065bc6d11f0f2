/**
 * The two compatibility convention sets as registry entries ({@link RetecoConventionSet}), so
 * `trecscore score --conventions official-baseline|scorer-py` reports them like `plan`:
 * - {@link officialBaselineConventionSet}: {@link officialBaseline} per domain of the data, in
 *   domain-name order (what `official_baseline.py` does with the release folders);
 * - {@link scorerPyConventionSet}: {@link scorerPy} per domain file, plus, for Track 1, the
 *   files concatenated in sorted domain order (pooled; the headline).
 * Both read each run file's bytes themselves (their own parsers decide what is malformed); a
 * `.gz` file is inflated first (the organizers' scripts read plain text), as on every route.
 */
import { join } from 'node:path'
import { decodeId } from '../../../io/bytes.js'
import { readAll } from '../../../io/source.js'
import type {
  ReportCounts,
  ReportTable,
  ReportTopic,
  ReportValues,
  RetecoConventionSet,
  RetecoReport,
  RetecoScoreRequest,
} from '../report-model.js'
import { type RetecoDomainData, type RetecoRunFile, topicQrels } from '../types.js'
import {
  type OfficialBaselineDomainInput,
  officialBaseline,
  type PytrecTopicValues,
} from './official-baseline.js'
import {
  type ScorerPyDomainFiles,
  type ScorerPyOutput,
  scorerPy,
  scorerPyPooled,
} from './scorer-py.js'

const EMPTY = new Uint8Array(0)

function scoredDomains(request: RetecoScoreRequest): [string, RetecoDomainData][] {
  const track =
    request.subtrack === '1a' || request.subtrack === '1b'
      ? request.data.track1
      : request.data.track2
  return [...track].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/**
 * The bytes a tool reads for `domain`: its own file, the whole single file (read once, the same
 * buffer for every domain), or nothing.
 */
async function runBytes(
  request: RetecoScoreRequest,
  domain: string,
  whole: Map<string, Promise<Buffer>>,
): Promise<{ bytes: Uint8Array; file: RetecoRunFile | null }> {
  const file = request.run.domains.get(domain) ?? null
  if (request.run.layout === 'single-file') {
    if (!whole.has(request.run.path)) whole.set(request.run.path, readAll(request.run.path))
    return { bytes: await whole.get(request.run.path)!, file }
  }
  return { bytes: file ? await readAll(file.file) : EMPTY, file }
}

/** Rank-column order vs trec_eval order (float32 score desc, doc id desc) per topic, and f32-only ties. */
function orderDiagnostics(file: RetecoRunFile | null): {
  rankDisagreements: number
  float32OnlyTies: number
} {
  let rankDisagreements = 0
  let float32OnlyTies = 0
  for (const t of file?.topics.values() ?? []) {
    const idx = t.docIds.map((_, i) => i)
    const byRank = [...idx].sort((a, b) => t.ranks[a]! - t.ranks[b]! || t.scores[b]! - t.scores[a]!)
    const f = t.scores.map(Math.fround)
    const byScore = [...idx].sort(
      (a, b) =>
        f[b]! - f[a]! || (t.docIds[a]! < t.docIds[b]! ? 1 : t.docIds[a]! > t.docIds[b]! ? -1 : 0),
    )
    if (byRank.some((i, k) => t.docIds[i] !== t.docIds[byScore[k]!])) rankDisagreements++
    for (let k = 1; k < byScore.length; k++)
      if (
        f[byScore[k]!] === f[byScore[k - 1]!] &&
        t.scores[byScore[k]!] !== t.scores[byScore[k - 1]!]
      )
        float32OnlyTies++
  }
  return { rankDisagreements, float32OnlyTies }
}

function baseCounts(
  domain: string,
  d: RetecoDomainData,
  request: RetecoScoreRequest,
  file: RetecoRunFile | null,
  missing: readonly string[],
): ReportCounts {
  const qrels = topicQrels(d, request.subtrack)
  let unknownTopics = 0
  let unknownTopicLines = 0
  for (const t of file?.topics.values() ?? []) {
    if (qrels?.queries.has(t.topicId)) continue
    unknownTopics++
    unknownTopicLines += t.docIds.length
  }
  return {
    domain,
    file: file?.file ?? null,
    topics: qrels?.queries.size ?? 0,
    lines: file?.lines ?? 0,
    missing,
    emptyAfterCleaning: [],
    duplicatesRemoved: 0,
    unknownDocsDiscarded: 0,
    unknownTopics,
    unknownTopicLines,
    ...orderDiagnostics(file),
    unlabelled: 0,
  }
}

const PYTREC_COLUMNS: readonly (readonly [string, string])[] = [
  ['nDCG@10', 'ndcg_cut_10'],
  ['MAP@10', 'map_cut_10'],
  ['Recall@10', 'recall_10'],
  ['P@10', 'P_10'],
  ['MRR', 'recip_rank'],
]

function pytrecRow(v: PytrecTopicValues | null): ReportValues {
  return Object.fromEntries(PYTREC_COLUMNS.map(([name, key]) => [name, v ? v[key]! : null]))
}

function officialRow(m: Readonly<Record<string, number>> | null): ReportValues {
  const keys: readonly (readonly [string, string])[] = [
    ['nDCG@10', 'NDCG@10'],
    ['MAP@10', 'MAP@10'],
    ['Recall@10', 'Recall@10'],
    ['P@10', 'P@10'],
    ['MRR', 'MRR'],
  ]
  return {
    ...Object.fromEntries(keys.map(([name, key]) => [name, m && key in m ? m[key]! : null])),
    n: m && 'num_topics' in m ? m['num_topics']! : null,
  }
}

/** `official-baseline`: pytrec_eval + official_baseline.py, see `official-baseline.ts`. */
export const officialBaselineConventionSet: RetecoConventionSet = {
  name: 'official-baseline',
  description:
    'pytrec_eval (trec_eval 9.0.8) + official_baseline.py: last duplicate wins, unknown ids kept, missing topics excluded, 5-decimal domain means, domain macro rounded again',
  async score(request) {
    const track =
      request.subtrack === '1a' || request.subtrack === '1b' ? 'track1_tempo' : 'track2_recor'
    const key = `${request.subtrack === '2c' ? '2a' : request.subtrack}_${request.data.split}`
    const inputs: OfficialBaselineDomainInput[] = []
    const whole = new Map<string, Promise<Buffer>>()
    const files = new Map<string, RetecoRunFile | null>()
    for (const [domain, d] of scoredDomains(request)) {
      const qrels = topicQrels(d, request.subtrack)
      if (!qrels) continue
      const { bytes, file } = await runBytes(request, domain, whole)
      files.set(domain, file)
      inputs.push({ domain, qrels, run: bytes })
    }
    const r = officialBaseline(track, key, inputs)
    const domainsData = new Map(scoredDomains(request))
    const warnings: string[] = []
    const errors: string[] = []
    for (const d of r.domains) {
      if (d.error)
        errors.push(`${d.domain}: the run cannot be read into the dataset-card dict: ${d.error}`)
      else if (!d.snippetLoads)
        warnings.push(
          `${d.domain}: the dataset card's literal snippet would fail (${d.snippetError}); whitespace-only lines skipped here`,
        )
    }
    if (r.macroError && !errors.length)
      warnings.push(
        `official_baseline.main() fails: ${r.macroError}; see "macro over non-empty domains"`,
      )
    const tables: ReportTable[] = [
      {
        key: 'aggregations',
        title: 'Aggregations (official values rounded to 5 decimals)',
        columns: ['nDCG@10', 'MAP@10', 'Recall@10', 'P@10', 'MRR', 'n'],
        rows: [
          { label: 'official domain macro (headline)', values: officialRow(r.macro) },
          {
            label: 'macro over non-empty domains',
            values: { ...officialRow(r.macroOverNonemptyDomains), n: r.domainsInMacro },
          },
          {
            label: 'unrounded domain macro',
            values: { ...pytrecRow(r.unroundedDomainMacro), n: r.domainsInMacro },
          },
          {
            label: 'pooled over evaluated topics',
            values: {
              ...pytrecRow(r.unroundedPooledOverEvaluatedTopics),
              n: r.domains.reduce((n, d) => n + d.numTopicsEvaluated, 0),
            },
          },
        ],
      },
      {
        key: 'per_domain',
        title: 'Per domain (calculate_retrieval_metrics)',
        columns: ['nDCG@10', 'MAP@10', 'Recall@10', 'P@10', 'MRR', 'n'],
        rows: r.domains.map((d) => ({ label: d.domain, values: officialRow(d.metrics) })),
      },
    ]
    const perTopic: ReportTopic[] = r.domains.flatMap((d) => [
      ...[...d.perTopic].map(([topic, v]) => ({
        domain: d.domain,
        topic,
        status: 'scored',
        values: pytrecRow(v),
        info: {},
      })),
      ...d.topicsMissingFromRun.map((topic) => ({
        domain: d.domain,
        topic,
        status: 'missing (excluded)',
        values: pytrecRow(null),
        info: {},
      })),
    ])
    const counts = r.domains.map((d) => {
      const file = files.get(d.domain) ?? null
      const c = baseCounts(
        d.domain,
        domainsData.get(d.domain)!,
        request,
        file,
        d.topicsMissingFromRun,
      )
      // The dict keeps one entry per (topic, doc): every other line of a duplicate is dropped.
      let dups = 0
      for (const t of file?.topics.values() ?? []) dups += t.docIds.length - new Set(t.docIds).size
      return { ...c, duplicatesRemoved: dups }
    })
    const printed =
      r.summaryLine === null
        ? null
        : `${'='.repeat(70)}\nMACRO-AVERAGE nDCG@10 (official BM25, pytrec_eval)\n${'='.repeat(70)}\n${r.summaryLine}\n`
    return report(request, 'official-baseline', {
      conventions: [
        [
          'format',
          "the dataset card's dict: q,_,d,rank,score,_tag = ln.split(); run[q][d] = float(score) (Python text; whitespace-only lines skipped)",
        ],
        [
          'ordering',
          'pytrec_eval (trec_eval 9.0.8): float32 score descending, ties by doc id descending; rank column never read',
        ],
        ['duplicates', 'the last line of a (topic, doc) wins (dict)'],
        ['unknown doc ids', 'kept in place, non-relevant'],
        ['missing topics', 'excluded (pytrec_eval returns nothing for them), listed'],
        [
          'measures',
          'ndcg_cut_10 (gain = grade), map_cut_10 divided by R, recall_10, P_10, recip_rank without cutoff',
        ],
        [
          'domain value',
          'calculate_retrieval_metrics: mean over evaluated topics in run order, Python round(., 5)',
        ],
        [
          'headline',
          'official_baseline.main(): mean over domains of the rounded domain values, round(., 5); KeyError when a domain has no evaluated topic',
        ],
      ],
      headline: {
        measure: 'nDCG@10',
        value: r.macro?.['NDCG@10'] ?? null,
        aggregation: 'domain macro of 5-decimal domain means, rounded to 5 decimals',
      },
      diagnostics: { ...officialRow(r.macro) },
      tables,
      counts,
      perTopic,
      warnings,
      errors,
      printed,
    })
  },
}

/** `scorer-py`: the organizers' scorer.py + ir_metrics.py, see `scorer-py.ts`. */
export const scorerPyConventionSet: RetecoConventionSet = {
  name: 'scorer-py',
  description:
    "the organizers' scorer.py: rank-column order, duplicates and unknown ids kept, missing topics excluded, NDCG|FC 0.0 when none, 4-decimal output",
  async score(request) {
    const track = request.subtrack === '1a' || request.subtrack === '1b' ? 1 : 2
    const domainFiles: (ScorerPyDomainFiles & {
      file: RetecoRunFile | null
      out: ScorerPyOutput
    })[] = []
    const domainsData = scoredDomains(request)
    const whole = new Map<string, Promise<Buffer>>()
    for (const [domain, d] of domainsData) {
      const qrelsFile = request.subtrack === '1b' ? d.stepQrelsFile : d.qrelsFile
      if (!qrelsFile) continue
      const qrels = await readAll(qrelsFile)
      const steps =
        track === 1
          ? await readAll(join(d.dir, `steps_${request.data.split}.jsonl`)).catch(() => null)
          : null
      // A single file is scored whole against each domain's qrels: other domains' topics have no gold there.
      const { bytes, file } = await runBytes(request, domain, whole)
      const files = { domain, run: bytes, qrels, ...(steps ? { steps } : {}) }
      domainFiles.push({ ...files, file, out: scorerPy({ track, ...files }) })
    }
    // Pooled: run, qrels and steps files concatenated in domain order; a single file already is
    // the whole run, so it is passed once.
    const pooledInputs = domainFiles.map((f, i) =>
      request.run.layout === 'single-file' && i > 0 ? { ...f, run: EMPTY } : f,
    )
    const pooled = track === 1 && domainFiles.length ? scorerPyPooled(pooledInputs) : null
    const errors = domainFiles.flatMap((f) =>
      f.out.ok ? [] : [`${f.domain}: scorer.py crashes: ${f.out.error}`],
    )
    if (pooled && !pooled.ok && !errors.length)
      errors.push(`pooled: scorer.py crashes: ${pooled.error}`)
    const results = domainFiles.flatMap((f) => (f.out.ok ? [{ domain: f.domain, out: f.out }] : []))
    const metrics =
      track === 1
        ? ['nDCG@10', 'TP@10', 'TR@10', 'TC@10', 'NDCG|FC@10', 'num_full_coverage']
        : ['nDCG@10']
    const row = (out: ScorerPyOutput): ReportValues => {
      if (!out.ok) return Object.fromEntries(metrics.map((m) => [m, null]))
      const values: Record<string, number | null> = {}
      for (const [k, v] of out.result)
        if (typeof v === 'number' && k !== 'k') values[k === 'num_topics' ? 'n' : k] = v
      if (track === 2)
        for (const [, v] of out.result)
          if (typeof v !== 'number') for (const [b, x] of v) values[b] = x
      return values
    }
    const allTopics = results.flatMap((r) => (r.out.ok ? r.out.perTopic : []))
    const topicMean = allTopics.length
      ? allTopics.reduce((s, t) => s + t.nDCG, 0) / allTopics.length
      : null
    const headlineValue = errors.length
      ? null
      : track === 1
        ? pooled?.ok
          ? (pooled.result.find(([k]) => k === 'nDCG@10')![1] as number)
          : null
        : topicMean
    const tables: ReportTable[] = [
      {
        key: 'per_domain',
        title: 'Per domain (scorer.py output, rounded to 4 decimals)',
        columns:
          track === 1 ? [...metrics, 'n'] : ['nDCG@10', 'n', 'T1', 'T2', 'T3', 'T4', 'T5+', 'T?'],
        rows: [
          ...(pooled ? [{ label: 'pooled over all domains (headline)', values: row(pooled) }] : []),
          ...domainFiles.map((f) => ({ label: f.domain, values: row(f.out) })),
        ],
      },
    ]
    const perTopic: ReportTopic[] = results.flatMap(({ domain, out }) =>
      out.ok
        ? out.perTopic.map((t) => ({
            domain,
            topic: t.topic,
            status: 'scored',
            values:
              track === 1
                ? {
                    'nDCG@10': t.nDCG,
                    'TP@10': t.TP ?? null,
                    'TR@10': t.TR ?? null,
                    'TC@10': t.TC ?? null,
                  }
                : { 'nDCG@10': t.nDCG },
            info: t.bucket ? { bucket: t.bucket } : {},
          }))
        : [],
    )
    const counts = domainFiles.map((f) => {
      const d = domainsData.find(([n]) => n === f.domain)![1]
      const qrels = topicQrels(d, request.subtrack)
      const scored = new Set(f.out.ok ? f.out.perTopic.map((t) => t.topic) : [])
      const missing = [...(qrels?.queries.keys() ?? [])].map(decodeId).filter((t) => !scored.has(t))
      return baseCounts(f.domain, d, request, f.file, f.out.ok ? missing : [])
    })
    const printed =
      track === 1 && pooled?.ok
        ? pooled.text
        : domainFiles
            .map(
              (f) =>
                `==> ${f.domain} <==\n${f.out.ok ? f.out.text : `(no output: exit 1, its traceback ends with ${f.out.error})\n`}`,
            )
            .join('\n')
    return report(request, 'scorer-py', {
      conventions: [
        [
          'format',
          'Python text: qid Q0 docid rank score tag split on whitespace; a line without 6 fields, an int rank and a float score crashes scorer.py',
        ],
        [
          'ordering',
          'rank column ascending, then score descending, then file order (score ignored unless ranks tie)',
        ],
        ['duplicates', 'kept: a doc listed twice earns gain twice (nDCG can exceed 1)'],
        ['unknown doc ids', 'kept in place, non-relevant'],
        ['missing topics', 'excluded (scored topics = qrels topics present in the run)'],
        [
          'measures',
          'binary nDCG@10 (IDCG over min(|gold|, 10)); TP@10, TR@10 over n = min(10, len); TC@10 from the steps file (None without steps); NDCG|FC@10 0.0 when no topic has TC = 1',
        ],
        ['rounding', "Python round(., 4) of plain left-to-right means, printed with Python's repr"],
        [
          'headline',
          track === 1
            ? 'Track 1: one call on the domain files concatenated in sorted domain order (query mean over all domains)'
            : 'Track 2: mean of the per-turn values of every domain call (scorer.py is per domain: ids collide); per-domain values as printed',
        ],
      ],
      headline: {
        measure: 'nDCG@10',
        value: headlineValue,
        aggregation:
          track === 1
            ? 'pooled topic mean (scorer.py on all domains), rounded to 4 decimals'
            : 'mean over scored turns of all domains, unrounded',
      },
      diagnostics: pooled ? { ...row(pooled) } : { 'nDCG@10': topicMean },
      tables,
      counts,
      perTopic,
      warnings: [],
      errors,
      printed,
    })
  },
}

type ReportBody = Pick<
  RetecoReport,
  | 'conventions'
  | 'headline'
  | 'diagnostics'
  | 'tables'
  | 'counts'
  | 'perTopic'
  | 'warnings'
  | 'errors'
  | 'printed'
>

function report(
  request: RetecoScoreRequest,
  conventionSet: RetecoReport['conventionSet'],
  body: ReportBody,
): RetecoReport {
  return {
    schema: 'trecscore.reteco-score/1',
    conventionSet,
    subtrack: request.subtrack,
    split: request.data.split,
    run: request.run.path,
    runLayout: request.run.layout,
    domains: scoredDomains(request).map(([d]) => d),
    ...body,
  }
}
