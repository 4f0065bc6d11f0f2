/**
 * The RETECO input adapter's pieces: a loaded release or pilot folder and a run, as the engine
 * reads them. Queries are keyed by (domain, topic) (`groupedQueryId`), declared in domain-name
 * order then qrels-file order (the plan's summation order); each carries the table keys its
 * aggregations group by (`group` = domain, `parent` = a 1b step's query, `conversation` and
 * `bucket` = a 2a/2c turn's conversation and depth); the corpus and the temporal labels are
 * looked up per domain. Pure apart from reading the corpus ids a run needs.
 */

import type { KeyOrder } from '../../evaluate/aggregations.js'
import { groupedQueryId, groupQrels, splitGroupedQueryId } from '../../evaluate/grouped-keys.js'
import type { LabelProvider } from '../../measures/labels.js'
import type { Qrels, Run, RunQuery } from '../../model/types.js'
import { readCorpusIds } from './data.js'
import type { TemporalLabelProvider } from './labels.js'
import { parseTurnTopic, stepQueryOf, TURN_BUCKETS, turnBucket } from './topics.js'
import {
  type RetecoData,
  type RetecoDomainData,
  type RetecoRun,
  type RetecoRunFile,
  type RetecoSubtrack,
  topicQrels,
} from './types.js'

/** A sub-track's data as the engine reads it. */
export interface RetecoEngineData {
  readonly subtrack: RetecoSubtrack
  /** The scored domains, in name order. */
  readonly domains: ReadonlyMap<string, RetecoDomainData>
  /** Qrels of every domain, keyed by (domain, topic). */
  readonly qrels: Qrels
  /** The declared queries (grouped keys), in domain-name order, then qrels-file order. */
  readonly queries: readonly string[]
  /** The table keys of a declared query (`group`, `parent`, `conversation`, `bucket`). */
  keys(queryId: string): Readonly<Record<string, string>>
  /** Domains in name order (empty ones kept), turn buckets T1…T5+, T?. */
  readonly keyOrders: Readonly<Record<string, KeyOrder>>
}

/** The domains a sub-track scores. */
export function subtrackDomains(
  data: RetecoData,
  subtrack: RetecoSubtrack,
): ReadonlyMap<string, RetecoDomainData> {
  return subtrack === '1a' || subtrack === '1b' ? data.track1 : data.track2
}

/** Step id → query id from the steps file; ids it lacks fall back to the `<qid>_step<n>` form. */
export function stepQueries(d: RetecoDomainData): (stepId: string) => string {
  const m = new Map<string, string>()
  for (const rec of d.stepRecords.values()) for (const s of rec.steps) m.set(s.stepId, rec.queryId)
  return (stepId) => m.get(stepId) ?? stepQueryOf(stepId) ?? stepId
}

/** The engine's view of a sub-track (every domain must have the qrels it needs: see `unscorableReasons`). */
export function retecoEngineData(data: RetecoData, subtrack: RetecoSubtrack): RetecoEngineData {
  const domains = subtrackDomains(data, subtrack)
  const perDomain = new Map<string, Qrels>()
  const queries: string[] = []
  const keys = new Map<string, Readonly<Record<string, string>>>()
  for (const [name, d] of domains) {
    const qrels = topicQrels(d, subtrack)!
    perDomain.set(name, qrels)
    const queryOfStep = stepQueries(d)
    for (const topicId of qrels.queries.keys()) {
      const id = groupedQueryId(name, topicId)
      queries.push(id)
      const turn = subtrack === '2a' || subtrack === '2c' ? parseTurnTopic(topicId) : null
      keys.set(id, {
        group: name,
        parent: subtrack === '1b' ? queryOfStep(topicId) : topicId,
        conversation: turn ? turn.conversationId : topicId,
        bucket: turn ? turnBucket(turn.turnId) : 'T?',
      })
    }
  }
  return {
    subtrack,
    domains,
    qrels: groupQrels(perDomain),
    queries,
    keys: (id) => keys.get(id) ?? { group: splitGroupedQueryId(id)?.group ?? '' },
    keyOrders: {
      group: { values: [...domains.keys()], keepEmpty: true },
      bucket: { values: TURN_BUCKETS, keepEmpty: false },
    },
  }
}

/**
 * A RETECO run (as the RETECO parser read it, per domain) as one grouped engine run; scores
 * narrowed to float32 when the conventions order by float32 scores.
 */
export function retecoEngineRun(run: RetecoRun, float32: boolean): Run {
  const queries = new Map<string, RunQuery>()
  const tags: string[] = []
  let lineCount = 0
  for (const [domain, file] of run.domains) {
    for (const t of file.topics.values()) {
      const id = groupedQueryId(domain, t.topicId)
      queries.set(id, {
        queryId: id,
        docIds: t.docIds,
        scores: float32 ? t.scores.map(Math.fround) : t.scores,
        ranks: t.ranks,
        lines: t.lines,
      })
      lineCount += t.docIds.length
    }
    for (const [tag] of file.tags) if (!tags.includes(tag)) tags.push(tag)
  }
  return { queries, tag: tags[tags.length - 1] ?? '', tags, lineCount }
}

/** The temporal labels of each grouped query, from a provider keyed by (domain, topic). */
export function retecoLabels(
  engine: RetecoEngineData,
  provider: TemporalLabelProvider,
): LabelProvider {
  return (id) => {
    const k = splitGroupedQueryId(id)
    const d = k ? engine.domains.get(k.group) : undefined
    return d && k ? { temporal: provider.labelsFor(d, k.queryId) } : undefined
  }
}

/** The corpus of each grouped query: its domain's (`undefined`: the domain has none, nothing discarded). */
export function retecoCorpusOf(
  corpora: ReadonlyMap<string, ReadonlySet<string>>,
): (queryId: string) => ReadonlySet<string> | undefined {
  return (id) => {
    const k = splitGroupedQueryId(id)
    return k ? corpora.get(k.group) : undefined
  }
}

/** The corpus ids of a domain that a run file retrieves (`given` first), `null` without a corpus. */
export async function corpusFor(
  d: RetecoDomainData,
  file: RetecoRunFile | undefined,
  given: ReadonlyMap<string, ReadonlySet<string>> | undefined,
): Promise<ReadonlySet<string> | null> {
  const pre = given?.get(d.domain)
  if (pre) return pre
  if (!d.corpusFile) return null
  // Only the run's own doc ids are looked up: memory stays bounded by the run, not the corpus.
  const wanted = new Set<string>()
  if (file) for (const t of file.topics.values()) for (const id of t.docIds) wanted.add(id)
  return readCorpusIds(d.corpusFile, { only: wanted })
}

/**
 * The corpus ids a run needs, per domain of the sub-track: the run's doc ids that are in the
 * domain's `documents.jsonl` (streamed once). Pass the result as `corpora` to score the same run
 * several times without re-reading the corpora. Domains without a corpus file are left out
 * (nothing is then discarded as unknown there).
 */
export async function runCorpora(
  data: RetecoData,
  subtrack: RetecoSubtrack,
  run: RetecoRun,
  given?: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<Map<string, ReadonlySet<string>>> {
  const out = new Map<string, ReadonlySet<string>>()
  for (const [name, d] of subtrackDomains(data, subtrack)) {
    const c = await corpusFor(d, run.domains.get(name), given)
    if (c) out.set(name, c)
  }
  return out
}

/**
 * The domains of a sub-track that have no corpus (`documents.jsonl`, or a set in `corpora`), and
 * the error lines that refuse them unless `allowMissingCorpus` is set.
 */
export function missingCorpusProblems(
  data: RetecoData,
  subtrack: RetecoSubtrack,
  corpora?: ReadonlyMap<string, ReadonlySet<string>>,
): { domains: string[]; problems: string[] } {
  const domains = subtrack === '1a' || subtrack === '1b' ? data.track1 : data.track2
  const missing = [...domains.values()].filter((d) => !d.corpusFile && !corpora?.has(d.domain))
  return {
    domains: missing.map((d) => d.domain),
    problems: missing.map(
      (d) =>
        `${d.dir}: no documents.jsonl for domain ${d.domain}: the plan discards run doc ids that are not in the domain's corpus, so scoring without it would change the score silently; add the corpus, or give --allow-missing-corpus (score, validate) to keep unknown ids in this domain, which the printed conventions then say`,
    ),
  }
}

/**
 * Why a sub-track cannot be scored on loaded data (empty when it can): no domain of the track,
 * or a domain without the qrels the sub-track needs (`qrels_<split>.txt`; 1b:
 * `qrels_steps_<split>.txt`, which the pilot sample lacks).
 */
export function unscorableReasons(data: RetecoData, subtrack: RetecoSubtrack): string[] {
  const track1 = subtrack === '1a' || subtrack === '1b'
  const domains = track1 ? data.track1 : data.track2
  if (domains.size === 0)
    return [`${data.root}: no ${track1 ? 'track1_tempo' : 'track2_recor'} domain to score`]
  const problems: string[] = []
  const file =
    data.layout === 'pilot'
      ? subtrack === '1b'
        ? 'step qrels'
        : 'qrels.txt'
      : subtrack === '1b'
        ? `qrels_steps_${data.split}.txt`
        : `qrels_${data.split}.txt`
  for (const d of domains.values()) {
    const missing = subtrack === '1b' ? !d.stepQrels : !d.qrelsFile
    if (missing)
      problems.push(
        `${d.dir}: no ${file} for domain ${d.domain}: sub-track ${subtrack} cannot be scored on this data`,
      )
  }
  return problems
}
