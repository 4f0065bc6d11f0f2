/**
 * TREC 2021 DL presets against test/fixtures/presets/dl21 (copied from
 * shared/conformance/presets/dl21; see its README): trec_eval v9.0.8's printed output exactly,
 * pytrec_eval full-precision values within 1e-12, and exponential-gain nDCG@5/@10 as ir_measures
 * (pytrec_eval provider) and gdeval.pl (5-decimal per-topic values, double-score ranking) give it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  decodeId,
  formatFixed,
  getPreset,
  type Preset,
  type RunEvaluation,
  renderTrecEvalLayout,
  scorePreset,
} from '../../src/internal.js'

const DIR = join(import.meta.dirname, '..', 'fixtures', 'presets', 'dl21')
const TOL = 1e-12

interface Expected {
  preset: string
  qrels: string
  run: string
  trec_eval: Record<'summary_c' | 'per_query_c' | 'summary_no_c', { args: string; stdout: string }>
  aggregate: Record<string, number>
  num_queries: number
  aggregate_without_c: Record<string, number>
  num_queries_without_c: number
  per_query: Record<string, Record<string, number>>
  exp_gain_ndcg: {
    aggregate: Record<string, number>
    per_query: Record<string, Record<string, number>>
    ir_measures_gains: { measures: string[]; aggregate: Record<string, number> }
    ir_measures_gdeval?: {
      measures: string[]
      aggregate: Record<string, number>
      per_query: Record<string, Record<string, number>>
    }
  }
}

const CASES = readdirSync(join(DIR, 'expected'))
  .filter((f) => f.endsWith('.json'))
  .map(
    (f) =>
      [
        f.replace(/\.json$/, ''),
        JSON.parse(readFileSync(join(DIR, 'expected', f), 'utf8')) as Expected,
      ] as const,
  )

function byName(preset: Preset, ev: RunEvaluation): Map<string, number> {
  if (preset.report.layout !== 'trec_eval') throw new Error('trec_eval layout expected')
  return new Map(
    preset.report.names.map(([m, printed]) => [
      printed,
      ev.aggregates[ev.measures.indexOf(m)]!.value!,
    ]),
  )
}

function perQuery(ev: RunEvaluation, index: number): Map<string, number | null> {
  return new Map(ev.perQuery.map((q) => [decodeId(q.queryId), q.values[index]!]))
}

const withConventions = (p: Preset, c: Partial<Preset['conventions']>): Preset => ({
  ...p,
  conventions: { ...p.conventions, ...c },
})

describe('TREC 2021 DL presets reproduce trec_eval v9.0.8 and ir_measures', () => {
  it('has all eight expected files', () =>
    expect(CASES.map(([n]) => n).sort()).toEqual([
      'd_bm25',
      'd_good',
      'd_missing',
      'd_ties',
      'p_bm25',
      'p_good',
      'p_missing',
      'p_ties',
    ]))

  for (const [name, x] of CASES) {
    describe(name, () => {
      const preset = getPreset(x.preset)
      const qrels = join(DIR, x.qrels)
      const run = join(DIR, x.run)

      it('prints exactly what the official trec_eval command prints (summary with -c, -q -c, and without -c)', async () => {
        expect(x.trec_eval.summary_c.args).toBe(
          preset.official.command.replace('QRELS', x.qrels).replace('RUN', x.run),
        )
        const s = await scorePreset(preset, { qrels, runs: [run] })
        const ev = s.runs[0]!.evaluation
        expect(s.runs[0]!.warnings).toEqual([])
        expect(s.qrelsWarnings).toEqual([])
        expect(renderTrecEvalLayout(preset, ev, false)).toBe(x.trec_eval.summary_c.stdout)
        expect(renderTrecEvalLayout(preset, ev, true)).toBe(x.trec_eval.per_query_c.stdout)
        const noC = (
          await scorePreset(withConventions(preset, { missingQueries: 'skip' }), {
            qrels,
            runs: [run],
          })
        ).runs[0]!.evaluation
        expect(renderTrecEvalLayout(preset, noC, false)).toBe(x.trec_eval.summary_no_c.stdout)
        expect(noC.counts.evaluatedQueries).toBe(x.num_queries_without_c)
        for (const [k, v] of byName(preset, noC))
          expect(Math.abs(v - x.aggregate_without_c[k]!), k).toBeLessThanOrEqual(TOL)
      })

      it('full-precision means (-c) and per-query values within 1e-12', async () => {
        const ev = (await scorePreset(preset, { qrels, runs: [run] })).runs[0]!.evaluation
        expect(ev.counts.declaredQueries).toBe(x.num_queries)
        const agg = byName(preset, ev)
        expect([...agg.keys()].sort()).toEqual(Object.keys(x.aggregate).sort())
        for (const [k, v] of agg) expect(Math.abs(v - x.aggregate[k]!), k).toBeLessThanOrEqual(TOL)
        if (preset.report.layout !== 'trec_eval') throw new Error('unreachable')
        const evaluated = ev.perQuery
          .filter((q) => q.status === 'evaluated')
          .map((q) => decodeId(q.queryId))
        expect(evaluated.sort()).toEqual(Object.keys(x.per_query).sort())
        for (const [m, printed] of preset.report.names) {
          const got = perQuery(ev, ev.measures.indexOf(m))
          for (const [qid, vals] of Object.entries(x.per_query))
            expect(
              Math.abs(got.get(qid)! - vals[printed]!),
              `${qid} ${printed}`,
            ).toBeLessThanOrEqual(TOL)
        }
      })

      // The exp-gain values are defined for both tasks (nDCG does not depend on -l); the pash
      // preset is the passage one, so on document runs only its task-mix-up warning differs.
      it('exponential-gain nDCG@5/@10 (dl21-passage-pash) equals ir_measures nDCG(gains={0:0,1:1,2:3,3:7}) within 1e-12', async () => {
        const pash = getPreset('dl21-passage-pash')
        const s = await scorePreset(pash, { qrels, runs: [run] })
        const ev = s.runs[0]!.evaluation
        expect(s.runs[0]!.warnings.length).toBe(name.startsWith('d_') ? 1 : 0)
        for (const [i, k] of [
          [0, 5],
          [1, 10],
        ] as const) {
          expect(
            Math.abs(ev.aggregates[i]!.value! - x.exp_gain_ndcg.aggregate[`nDCG_exp@${k}`]!),
          ).toBeLessThanOrEqual(TOL)
          expect(
            Math.abs(
              ev.aggregates[i]!.value! -
                x.exp_gain_ndcg.ir_measures_gains.aggregate[`nDCG(gains={2:3,3:7})@${k}`]!,
            ),
          ).toBeLessThanOrEqual(TOL)
          const got = perQuery(ev, i)
          for (const [qid, vals] of Object.entries(x.exp_gain_ndcg.per_query))
            expect(
              Math.abs((got.get(qid) ?? 0)! - vals[`nDCG_exp@${k}`]!),
              `${qid} @${k}`,
            ).toBeLessThanOrEqual(TOL)
        }
      })

      it('the gdeval.pl provider: double-score ranking, per-topic values printed with 5 decimals', async () => {
        const g = x.exp_gain_ndcg.ir_measures_gdeval
        if (!g) return
        const pash = withConventions(getPreset('dl21-passage-pash'), { scorePrecision: 'float64' })
        const ev = (await scorePreset(pash, { qrels, runs: [run] })).runs[0]!.evaluation
        for (const [i, k] of [
          [0, 5],
          [1, 10],
        ] as const) {
          const key = `nDCG(dcg='exp-log2')@${k}`
          const rounded = ev.perQuery.map(
            (q) => [decodeId(q.queryId), Number(formatFixed(q.values[i] ?? 0, 5))] as const,
          )
          for (const [qid, v] of rounded) expect(v, `${qid} ${key}`).toBe(g.per_query[qid]![key])
          const mean = rounded.reduce((a, [, v]) => a + v, 0) / rounded.length
          expect(Math.abs(mean - g.aggregate[key]!)).toBeLessThanOrEqual(TOL)
        }
      })
    })
  }
})
