/**
 * RETECO `plan` convention set against the independent plan reference
 * (`test/fixtures/reteco/expected/<run>/plan_ref.json`, conformance README §5(d)): every value of
 * every run (headline, every aggregation, per domain, per topic with status, R and cleaned top 10,
 * turn depth, temporal diagnostics, the file-order dedup variant, and the validation counts),
 * numbers within 1e-12, `null` stays `null`. Also: the real pilot samples in
 * `../shared/datasets/{tempo,recor}` load and score with a run generated here.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { wordIssue } from '../../src/errors/format-issue.js'
import { decodeId } from '../../src/io/bytes.js'
import {
  type MacroSummary,
  type MeanSummary,
  type MetricValues,
  PLAN_METRICS,
} from '../../src/presets/reteco/aggregate.js'
import { loadRetecoData, readCorpusIds } from '../../src/presets/reteco/data.js'
import { judgeLabels } from '../../src/presets/reteco/labels.js'
import {
  type PlanResult,
  type PlanTopic,
  scorePlan,
  unscorableReasons,
} from '../../src/presets/reteco/plan.js'
import { readRetecoRun } from '../../src/presets/reteco/runs.js'
import type {
  RetecoData,
  RetecoRunProblem,
  RetecoSubtrack,
} from '../../src/presets/reteco/types.js'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'reteco')
const EXPECTED = join(FIXTURES, 'expected')
const REF_METRICS = PLAN_METRICS.filter((m) => m !== 'TP-TEMPO@10')

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

function metrics(v: MetricValues): Record<string, number> {
  return Object.fromEntries(REF_METRICS.map((m) => [m, v[m]]))
}

function mean(s: MeanSummary, extra: Record<string, Json> = {}): Record<string, Json> {
  const out: Record<string, Json> = { ...metrics(s.values), num_topics: s.count, ...extra }
  if (s.coverage) {
    out['TC@10'] = s.coverage.tc
    out['num_tc_defined'] = s.coverage.tcDefined
    out['nDCG|FC@10'] = s.coverage.ndcgFullCoverage
    out['num_full_coverage'] = s.coverage.fullCoverage
  }
  return out
}

function macro(s: MacroSummary, coverage: boolean): Record<string, Json> {
  return coverage
    ? {
        ...metrics(s.values),
        'TC@10': s.tc,
        'nDCG|FC@10': s.ndcgFullCoverage,
        num_domains: s.groups,
      }
    : metrics(s.values)
}

function mapOf<V>(m: ReadonlyMap<string, V>, f: (v: V) => Json): Record<string, Json> {
  return Object.fromEntries([...m].map(([k, v]) => [k, f(v)]))
}

/** The plan_ref.json `scores` shape of a result. */
function scoresShape(r: PlanResult): Json {
  const s = r.scores
  if (!s) return null
  if (s.subtrack === '1a') {
    return {
      headline: { 'nDCG@10': s.headline, aggregation: 'query macro' },
      query_macro: mean(s.queryMacro),
      per_domain: mapOf(s.perDomain, (m) => mean(m)),
      domain_macro: macro(s.domainMacro, true),
    }
  }
  if (s.subtrack === '1b') {
    return {
      per_domain: mapOf(s.perDomain, (p) => ({
        query_macro: mean(p.queryMacro, { num_queries: p.queryMacro.count }),
        step_macro: mean(p.stepMacro),
      })),
      headline: {
        'nDCG@10': s.headline,
        aggregation: 'per-query mean over steps, then mean over queries',
      },
      query_macro: mean(s.queryMacro),
      step_macro: mean(s.stepMacro),
      domain_macro_of_query_means: macro(s.domainMacroOfQueryMeans, false),
      domain_macro_of_step_means: macro(s.domainMacroOfStepMeans, false),
      per_query: Object.fromEntries(
        s.perQuery.map((q) => [
          `${q.domain}/${decodeId(q.queryId)}`,
          { ...metrics(q.values), num_steps: q.steps },
        ]),
      ),
    }
  }
  return {
    headline: { 'nDCG@10': s.headline, aggregation: 'turn macro over (domain, topic)' },
    turn_macro: mean(s.turnMacro),
    per_domain: mapOf(s.perDomain, (m) => mean(m)),
    domain_macro: macro(s.domainMacro, false),
    by_turn_depth: mapOf(s.byTurnDepth, (m) => mean(m)),
    by_turn_depth_per_domain: mapOf(s.byTurnDepthPerDomain, (b) => mapOf(b, (m) => mean(m))),
    conversation_then_domain_macro: macro(s.conversationThenDomainMacro, false),
    conversation_macro_per_domain: mapOf(s.conversationMacroPerDomain, (m) => ({
      ...metrics(m.values),
      num_conversations: m.count,
    })),
  }
}

function topicShape(t: PlanTopic, subtrack: RetecoSubtrack): Json {
  const out: Record<string, Json> = { ...metrics(t.values) }
  if (subtrack === '1a') out['TC@10'] = t.tc
  out['status'] = t.status
  if (t.status !== 'missing') out['ranking_top10'] = t.top10.map(decodeId)
  out['R'] = t.R
  if (subtrack === '1b') out['query'] = decodeId(t.queryId!)
  if (subtrack === '2a' || subtrack === '2c') {
    out['conversation'] = decodeId(t.conversationId!)
    out['turn_id'] = t.turnId
    out['bucket'] = t.bucket
  }
  return out
}

function perTopicShape(r: PlanResult): Json {
  if (!r.scores) return null
  const out: Record<string, Record<string, Json>> = {}
  for (const d of r.domains) out[d] = {}
  for (const t of r.topics) out[t.domain]![decodeId(t.topicId)] = topicShape(t, r.subtrack)
  return out
}

function validationShape(r: PlanResult): Json {
  const line = (p: RetecoRunProblem): string => `L${p.line}: ${wordIssue('retecoPlan', p)}`
  const perDomain: Record<string, Json> = {}
  for (const c of r.counts) {
    perDomain[c.domain] = {
      parse_errors: c.parseErrors.map(line),
      validation_errors: c.validationErrors.map(line),
      warnings: c.warnings.map(decodeId),
      lines: c.lines,
      topics_in_file: c.topicsInFile,
      unknown_topic_lines: c.unknownTopicLines,
      duplicate_rows: c.duplicateRows,
      unknown_doc_rows: c.unknownDocRows,
      tags: c.tags.map(([t, n]) => [decodeId(t), n]),
    }
  }
  return {
    parseable: r.parseable,
    valid: r.valid,
    parse_errors: r.counts.flatMap((c) => c.parseErrors.map((p) => `${c.domain}: ${line(p)}`)),
    validation_errors: r.counts.flatMap((c) =>
      c.validationErrors.map((p) => `${c.domain}: ${line(p)}`),
    ),
    per_domain: perDomain,
  }
}

/** Compare `actual` with every value of `expected` (numbers within 1e-12); returns values checked. */
function compare(
  actual: Json | undefined,
  expected: Json,
  path: string,
  problems: string[],
): number {
  if (expected === null || typeof expected !== 'object') {
    if (typeof expected === 'number' && typeof actual === 'number') {
      if (!(Math.abs(actual - expected) <= 1e-12))
        problems.push(`${path}: ${actual} != ${expected}`)
    } else if (actual !== expected)
      problems.push(`${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`)
    return 1
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      problems.push(`${path}: ${JSON.stringify(actual)} is not an array`)
      return 1
    }
    if (actual.length !== expected.length)
      problems.push(`${path}: length ${actual.length} != ${expected.length}`)
    let n = 0
    expected.forEach((e, i) => (n += compare(actual[i], e, `${path}[${i}]`, problems)))
    return n
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
    problems.push(`${path}: ${JSON.stringify(actual)?.slice(0, 80)} is not an object`)
    return 1
  }
  let n = 0
  for (const [k, e] of Object.entries(expected))
    n += compare(actual[k], e, `${path}.${k}`, problems)
  const extra = Object.keys(actual).filter((k) => !(k in expected))
  if (extra.length) problems.push(`${path}: unexpected keys ${extra.join(', ')}`)
  return n
}

const dataCache = new Map<string, Promise<RetecoData>>()
function dataFor(subtrack: RetecoSubtrack, domains: readonly string[]): Promise<RetecoData> {
  const track = subtrack === '1a' || subtrack === '1b' ? 'track1_tempo' : 'track2_recor'
  const k = `${track}:${domains.join(',')}`
  if (!dataCache.has(k))
    dataCache.set(
      k,
      loadRetecoData(join(FIXTURES, 'data'), { split: 'dev', tracks: [track], domains }),
    )
  return dataCache.get(k)!
}

const runs = readdirSync(EXPECTED, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(EXPECTED, e.name, 'plan_ref.json')))
  .map((e) => e.name)
  .sort()

let checkedValues = 0
afterAll(() => {
  console.log(
    `reteco plan conformance: ${checkedValues} plan_ref values compared over ${runs.length} runs`,
  )
})

describe('RETECO plan scorer reproduces plan_ref.json', () => {
  it('has every run of the fixtures', () => {
    expect(runs.length).toBe(20)
  })
  for (const name of runs) {
    it(name, async () => {
      const ref = JSON.parse(readFileSync(join(EXPECTED, name, 'plan_ref.json'), 'utf8')) as Record<
        string,
        Json
      >
      const subtrack = ref['subtrack'] as RetecoSubtrack
      const domains = ref['domains'] as string[]
      const data = await dataFor(subtrack, domains)
      const scored = subtrack === '1b' || subtrack === '1a' ? data.track1 : data.track2
      const run = await readRetecoRun(join(FIXTURES, 'runs', name), { domains: scored, subtrack })
      const result = await scorePlan({ data, subtrack, run })
      const variant = await scorePlan({ data, subtrack, run, duplicates: 'keep-first' })
      const problems: string[] = []
      let n = 0
      n += compare(scoresShape(result), ref['scores']!, 'scores', problems)
      n += compare(perTopicShape(result), ref['per_topic'] ?? null, 'per_topic', problems)
      n += compare(validationShape(result), ref['validation']!, 'validation', problems)
      if (ref['variant_dedup_file_order'] !== undefined) {
        const v = scoresShape(variant)
        const shown =
          v && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(
                Object.keys(ref['variant_dedup_file_order'] as object).map((k) => [
                  k,
                  v[k] ?? null,
                ]),
              )
            : v
        n += compare(shown, ref['variant_dedup_file_order'], 'variant_dedup_file_order', problems)
      }
      checkedValues += n
      expect(problems.slice(0, 30)).toEqual([])
    })
  }
})

describe('RETECO plan scorer: judge-label file', () => {
  it('a label file holding the offline labels (qrels, steps) gives the offline diagnostics', async () => {
    const data = await dataFor('1a', ['bitcoin', 'history', 'law'])
    const tmp = mkdtempSync(join(tmpdir(), 'reteco-judge-'))
    try {
      const lines = [
        '{"schema": "trecscore.reteco-labels/1", "judge": "offline labels, as a test"}',
      ]
      for (const [domain, d] of data.track1) {
        for (const [topic, j] of d.qrels.queries) {
          const rec = d.stepRecords.get(topic)
          if (rec && rec.steps.length)
            lines.push(
              JSON.stringify({
                topic: decodeId(topic),
                domain,
                required_periods: rec.steps.map((s) => decodeId(s.stepId)),
              }),
            )
          const docs = new Set([
            ...j.grades.keys(),
            ...(rec?.steps.flatMap((s) => s.goldIds) ?? []),
          ])
          for (const doc of docs) {
            const periods =
              rec?.steps.filter((s) => s.goldIds.includes(doc)).map((s) => decodeId(s.stepId)) ?? []
            lines.push(
              JSON.stringify({
                topic: decodeId(topic),
                domain,
                doc: decodeId(doc),
                temporally_relevant: (j.grades.get(doc) ?? 0) >= 1,
                covered_periods: periods,
              }),
            )
          }
        }
      }
      writeFileSync(join(tmp, 'labels.jsonl'), lines.join('\n') + '\n')
      const run = await readRetecoRun(join(FIXTURES, 'runs', '1a_dups_unknown'), {
        domains: data.track1,
        subtrack: '1a',
      })
      const offline = await scorePlan({ data, subtrack: '1a', run })
      const judged = await scorePlan({
        data,
        subtrack: '1a',
        run,
        labels: await judgeLabels(join(tmp, 'labels.jsonl')),
      })
      expect(judged.labels).toMatch(/^judge-file:/)
      expect(scoresShape(judged)).toEqual(scoresShape(offline))
      expect(judged.topics.map((t) => [t.values['TP@10'], t.tc])).toEqual(
        offline.topics.map((t) => [t.values['TP@10'], t.tc]),
      )
      // Unlabelled top-10 docs are counted (the file labels only gold documents).
      expect(judged.counts.reduce((n, c) => n + c.unlabelled, 0)).toBeGreaterThan(0)
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })
})

describe('RETECO plan scorer: corpus ids are streamed, never the text', () => {
  it('readCorpusIds keeps only the ids asked for', async () => {
    const file = join(FIXTURES, 'data', 'track1_tempo', 'law', 'documents.jsonl')
    const all = await readCorpusIds(file)
    expect(all.size).toBe(110)
    const some = await readCorpusIds(file, { only: new Set([[...all][0]!, 'law/not-a-doc.txt']) })
    expect([...some]).toEqual([[...all][0]])
  })
})

const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'datasets')
const hasSamples =
  existsSync(join(SHARED, 'tempo', 'examples.jsonl')) &&
  existsSync(join(SHARED, 'recor', 'benchmark.jsonl'))
if (!hasSamples)
  console.warn(`RETECO pilot samples not found at ${SHARED}: the sample tests are skipped`)

;(hasSamples ? describe : describe.skip)(
  'RETECO pilot samples (../shared/datasets) load and score',
  () => {
    const tmp = mkdtempSync(join(tmpdir(), 'reteco-pilot-'))
    afterAll(() => rmSync(tmp, { recursive: true, force: true }))

    it('TEMPO: 5 queries in 5 domains, flat steps, space-separated qrels; a perfect run scores 1', async () => {
      const data = await loadRetecoData(SHARED, { tracks: ['track1_tempo'] })
      expect(data.layout).toBe('pilot')
      expect([...data.track1.keys()]).toEqual([
        'bitcoin',
        'economics',
        'genealogy',
        'history',
        'hsm',
      ])
      const lines: string[] = []
      for (const d of data.track1.values()) {
        expect(d.qrels.queries.size).toBe(1)
        for (const rec of d.stepRecords.values()) expect(rec.flat).toBe(true)
        // The gold documents first, then every other corpus document.
        const corpus = [...(await readCorpusIds(d.corpusFile!))].sort()
        for (const [qid, j] of d.qrels.queries) {
          const gold = [...j.grades.keys()]
          const rest = corpus.filter((c) => !j.grades.has(c))
          ;[...gold, ...rest].forEach((doc, i) =>
            lines.push(`${qid} Q0 ${doc} ${i + 1} ${100 - i} test`),
          )
        }
      }
      writeFileSync(join(tmp, 'tempo.trec'), lines.join('\n') + '\n')
      const run = await readRetecoRun(join(tmp, 'tempo.trec'), {
        domains: data.track1,
        subtrack: '1a',
      })
      expect(run.layout).toBe('single-file')
      const r = await scorePlan({ data, subtrack: '1a', run })
      expect(r.scores?.headline).toBe(1)
      expect(r.topics.map((t) => t.status)).toEqual([
        'scored',
        'scored',
        'scored',
        'scored',
        'scored',
      ])
      expect(r.topics.every((t) => t.tc === null)).toBe(true) // flat pilot steps: no periods
      // The pilot has no step qrels: 1b cannot be scored on it, and says so per domain.
      expect(unscorableReasons(data, '1b')).toHaveLength(5)
      expect(unscorableReasons(data, '1a')).toEqual([])
    })

    it('RECOR: 4 conversations, #turn ids normalised to _turn_, turn depths T1..T4; a per-domain run scores', async () => {
      const data = await loadRetecoData(SHARED, { tracks: ['track2_recor'] })
      expect([...data.track2.keys()]).toEqual(['biology', 'drones', 'earth_science', 'law'])
      const dir = join(tmp, 'recor-run')
      mkdirSync(dir)
      for (const [name, d] of data.track2) {
        const lines: string[] = []
        for (const [topic, j] of d.qrels.queries) {
          expect(topic).toMatch(/_turn_[0-9]+$/)
          ;[...j.grades.keys()]
            .reverse()
            .forEach((doc, i) => lines.push(`${topic}\tQ0\t${doc}\t${i + 1}\t${10 - i}\ttest`))
          lines.push(`${topic}\tQ0\tnot-in-corpus\t99\t0.5\ttest`)
        }
        writeFileSync(join(dir, `${name}.trec`), lines.join('\n') + '\n')
      }
      const run = await readRetecoRun(dir, { domains: data.track2, subtrack: '2a' })
      const r = await scorePlan({ data, subtrack: '2a', run })
      expect(r.topics).toHaveLength(13)
      expect(r.scores?.headline).toBe(1)
      expect(r.scores?.subtrack === '2a' && [...r.scores.byTurnDepth.keys()]).toEqual([
        'T1',
        'T2',
        'T3',
        'T4',
      ])
      expect(r.counts.reduce((s, c) => s + c.unknownDocRows, 0)).toBe(13)
    })
  },
)
