/**
 * The two RETECO compatibility convention sets replay the organizers' own tools on the
 * conformance fixtures (test/fixtures/reteco, README sections 2 and 5):
 * - `scorer-py` reproduces `expected/<run>/scorer_py.json`: per-topic values within 1e-12, the
 *   top-10 ranking, the exact stdout bytes (text and --json) per domain and pooled, crashes;
 * - `official-baseline` reproduces `expected/<run>/pytrec_official.json`: pytrec_eval per-topic
 *   values within 1e-12, the organizers' 5-decimal per-domain and macro values exactly, main()'s
 *   summary line, the KeyError case, and the dataset-card snippet's behaviour.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  officialBaseline,
  type ScorerPyDomainFiles,
  scorerPy,
  scorerPyPooled,
} from '../../src/entries/reteco.js'
import { parseQrels } from '../../src/io/trec-qrels.js'

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'reteco')
const RUNS = readdirSync(join(ROOT, 'expected'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

function json(...parts: string[]): Json {
  return JSON.parse(readFileSync(join(ROOT, ...parts), 'utf8')) as Json
}

function subtrackOf(run: string): '1a' | '1b' | '2a' {
  const index = json('runs', 'index.json').runs as Json[]
  return index.find((r) => r['name'] === run)!['subtrack']
}

function files(
  run: string,
  domain: string,
): { track: 'track1_tempo' | 'track2_recor'; qrels: Buffer; steps?: Buffer; run: Buffer } {
  const sub = subtrackOf(run)
  const track = sub === '2a' ? 'track2_recor' : 'track1_tempo'
  const dir = join(ROOT, 'data', track, domain)
  return {
    track,
    qrels: readFileSync(join(dir, sub === '1b' ? 'qrels_steps_dev.txt' : 'qrels_dev.txt')),
    ...(track === 'track1_tempo' ? { steps: readFileSync(join(dir, 'steps_dev.jsonl')) } : {}),
    run: readFileSync(join(ROOT, 'runs', run, `${domain}.trec`)),
  }
}

function expectClose(
  actual: number | null | undefined,
  expected: number | null,
  what: string,
): void {
  if (expected === null) expect(actual, what).toBeNull()
  else
    expect(Math.abs((actual ?? NaN) - expected) <= 1e-12, `${what}: ${actual} vs ${expected}`).toBe(
      true,
    )
}

describe('fixtures are present', () => {
  it('has the 20 recorded runs', () => expect(RUNS.length).toBe(20))
})

describe.each(RUNS)('scorer-py reproduces scorer.py on %s', (run) => {
  const expected = json('expected', run, 'scorer_py.json')
  const track = subtrackOf(run) === '2a' ? 2 : 1
  it.each(Object.keys(expected['per_domain'] as Json))(
    'domain %s: stdout, per-topic values, errors',
    (domain) => {
      const e = expected['per_domain'][domain] as Json
      const f = files(run, domain)
      const out = scorerPy({
        track,
        run: f.run,
        qrels: f.qrels,
        ...(f.steps ? { steps: f.steps } : {}),
      })
      expect(out.exitCode).toBe(e['text']['exit_code'])
      if (!out.ok) {
        expect(out.error).toBe(e['text']['error'])
        expect(out.error).toBe(e['json']['error'])
        expect(e['per_topic']).toBeNull()
        return
      }
      expect(out.text).toBe(
        readFileSync(join(ROOT, 'expected', run, e['text']['stdout_file']), 'utf8'),
      )
      expect(out.json).toBe(
        readFileSync(join(ROOT, 'expected', run, e['json']['stdout_file']), 'utf8'),
      )
      expect(JSON.parse(out.json)).toEqual(e['json']['result'])
      const perTopic = e['per_topic'] as Json
      expect(out.perTopic.map((t) => t.topic)).toEqual(Object.keys(perTopic))
      for (const t of out.perTopic) {
        const x = perTopic[t.topic] as Json
        expectClose(t.nDCG, x['nDCG'], `${domain}/${t.topic} nDCG`)
        if (track === 1) {
          expectClose(t.TP, x['TP'], `${domain}/${t.topic} TP`)
          expectClose(t.TR, x['TR'], `${domain}/${t.topic} TR`)
          expectClose(t.TC, x['TC'], `${domain}/${t.topic} TC`)
        } else expect(t.bucket).toBe(x['bucket'])
        expect(t.rankingTopK).toEqual(x['ranking_top10'])
      }
      for (const [m, v] of Object.entries(e['per_topic_unrounded_means'] as Json))
        expectClose(out.unroundedMeans[m], v, `${domain} mean ${m}`)
    },
  )
  if (expected['pooled_all_domains']) {
    it('Track 1 pooled over all domains (files concatenated in sorted domain order)', () => {
      const e = expected['pooled_all_domains'] as Json
      const domains: ScorerPyDomainFiles[] = Object.keys(expected['per_domain'] as Json).map(
        (domain) => {
          const f = files(run, domain)
          return { domain, run: f.run, qrels: f.qrels, ...(f.steps ? { steps: f.steps } : {}) }
        },
      )
      const out = scorerPyPooled(domains)
      expect(out.exitCode).toBe(e['text']['exit_code'])
      if (!out.ok) throw new Error(out.error)
      expect(out.text).toBe(
        readFileSync(join(ROOT, 'expected', run, e['text']['stdout_file']), 'utf8'),
      )
      expect(out.json).toBe(
        readFileSync(join(ROOT, 'expected', run, e['json']['stdout_file']), 'utf8'),
      )
    })
  }
})

describe.each(RUNS)(
  'official-baseline reproduces pytrec_eval + official_baseline.py on %s',
  (run) => {
    const expected = json('expected', run, 'pytrec_official.json')
    const sub = subtrackOf(run)
    const domainNames = Object.keys(expected['per_domain'] as Json)
    const track = sub === '2a' ? 'track2_recor' : 'track1_tempo'
    const result = officialBaseline(
      track,
      `${sub}_dev`,
      domainNames.map((domain) => {
        const f = files(run, domain)
        return { domain, qrels: parseQrels(f.qrels).value, run: f.run }
      }),
    )
    it.each(domainNames)('domain %s: per-topic values, rounded metrics, counts', (domain) => {
      const e = expected['per_domain'][domain] as Json
      const d = result.domains.find((x) => x.domain === domain)!
      expect(d.snippetLoads).toBe(e['dataset_card_snippet_loads'])
      expect(d.snippetError).toBe(e['dataset_card_snippet_error'])
      expect(d.error).toBe(e['error'])
      if (e['error']) return
      expect(d.metrics).toEqual(e['official_calculate_retrieval_metrics'])
      expect(Object.keys(d.metrics)).toEqual(
        Object.keys(e['official_calculate_retrieval_metrics'] as Json),
      )
      expect(d.numTopicsEvaluated).toBe(e['num_topics_evaluated'])
      expect(d.numQrelsTopics).toBe(e['num_qrels_topics'])
      expect(d.topicsMissingFromRun).toEqual(e['topics_missing_from_run'])
      const perTopic = e['per_topic'] as Json
      expect([...d.perTopic.keys()]).toEqual(Object.keys(perTopic))
      for (const [topic, values] of Object.entries(perTopic)) {
        for (const [m, v] of Object.entries(values as Json))
          expectClose(d.perTopic.get(topic)![m], v, `${domain}/${topic} ${m}`)
      }
      for (const [m, v] of Object.entries(e['unrounded_means'] as Json))
        expectClose(d.unroundedMeans?.[m] ?? null, v, `${domain} mean ${m}`)
    })
    it('official macro (5-decimal, rounded twice), main() summary line or its failure', () => {
      expect(result.macro).toEqual(expected['official_macro'])
      const main = expected['official_main_aggregation'] as Json
      if (main['error']) expect(result.macroError).toBe(main['error'])
      else if (main['skipped']) expect(result.macroError).toBe('a domain could not be loaded')
      else {
        expect(result.macro).toEqual(main['macro'])
        expect(result.summaryLine).toBe((main['stdout_tail'] as string[])[1])
      }
      if (expected['macro_over_nonempty_domains'])
        expect(result.macroOverNonemptyDomains).toEqual(expected['macro_over_nonempty_domains'])
      if (expected['domains_in_macro'] !== undefined)
        expect(result.domainsInMacro).toBe(expected['domains_in_macro'])
      for (const [key, got] of [
        ['unrounded_domain_macro', result.unroundedDomainMacro],
        ['unrounded_pooled_over_evaluated_topics', result.unroundedPooledOverEvaluatedTopics],
      ] as const) {
        if (!expected[key]) continue
        for (const [m, v] of Object.entries(expected[key] as Json))
          expectClose(got?.[m], v, `${key} ${m}`)
      }
    })
  },
)
