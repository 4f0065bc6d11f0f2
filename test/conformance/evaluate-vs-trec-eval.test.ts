/**
 * The ir_measures-named measures of `evaluate` must agree with NIST trec_eval's own output
 * (the fixtures' all_trec -c -q results) for every query and for the average, under the
 * trec_eval conventions with missing queries zero-filled (-c).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  evaluate,
  formatFixed,
  parseMeasures,
  parseQrels,
  parseRun,
  trecEvalV10,
} from '../../src/internal.js'
import { listCases, runDropIn } from './run-cases.js'

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'trec_eval')

/** Our measure name → trec_eval's printed name. */
const PAIRS: readonly (readonly [string, string])[] = [
  ['AP', 'map'],
  ['AP@10', 'map_cut_10'],
  ['nDCG', 'ndcg'],
  ['nDCG@10', 'ndcg_cut_10'],
  ['nDCG@1000', 'ndcg_cut_1000'],
  ['P@5', 'P_5'],
  ['P@100', 'P_100'],
  ['R@100', 'recall_100'],
  ['RR', 'recip_rank'],
  ['Rprec', 'Rprec'],
  ['Bpref', 'bpref'],
  ['infAP', 'infAP'],
  ['Success@5', 'success_5'],
  ['SetF', 'set_F'],
  ['SetP', 'set_P'],
  ['SetR', 'set_recall'],
  ['SetAP', 'set_map'],
  ['IPrec@0.5', 'iprec_at_recall_0.50'],
  ['Unjudged@10', 'unj_10'],
  ['RBP(p=0.9)', 'rbp'],
  ['GMAP', 'gm_map'],
  ['NumRelRet', 'num_rel_ret'],
  // The measures that were once the drop-in's alone.
  ['P(relative=True)@5', 'relative_P_5'],
  ['P(relative=True)@1000', 'relative_P_1000'],
  ['SetP(relative=True)', 'set_relative_P'],
  ['Rprec(mult=0.2)', 'Rprec_mult_0.20'],
  ['Rprec(mult=1.4)', 'Rprec_mult_1.40'],
  ['Rprec(mult=2)', 'Rprec_mult_2.00'],
  ['IPrecAvg', '11pt_avg'],
  ['G', 'G'],
  ['binG', 'binG'],
  ['RnDCG', 'Rndcg'],
  ['nDCG_rel', 'ndcg_rel'],
  ['Utility', 'utility'],
  ['GMBpref', 'gm_bpref'],
  ['NumQ', 'num_q'],
]

const cases = listCases(ROOT).filter(
  (c) =>
    existsSync(join(c.dir, 'run.txt')) &&
    c.results['v10.0']!.commands['all_trec_cq']?.exit_code === 0,
)

describe('evaluate agrees with trec_eval 10 (all_trec -c -q)', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(20))
  for (const c of cases) {
    it(c.name, () => {
      const expected = new Map<string, string>()
      const stdout = readFileSync(
        join(c.dir, c.results['v10.0']!.commands['all_trec_cq']!.stdout),
        'latin1',
      )
      for (const line of stdout.split('\n')) {
        const [name, qid, value] = line.split('\t')
        if (name !== undefined && qid !== undefined && value !== undefined)
          expected.set(`${name.trim()}\t${qid}`, value)
      }
      const qrels = parseQrels(readFileSync(join(c.dir, 'qrels.txt')), { file: 'qrels.txt' }).value
      // Read as trec_eval reads it (some fixtures hold junk scores such as `+-0.0002`, which
      // `evaluate`'s strict reader refuses): this test is about the measures.
      const run = parseRun(readFileSync(join(c.dir, 'run.txt')), {
        file: 'run.txt',
        syntax: 'c',
      }).value
      const result = evaluate(
        qrels,
        run,
        PAIRS.map(([m]) => m),
        { ...trecEvalV10, missingQueries: 'zero' },
      )
      let compared = 0
      for (const q of result.perQuery) {
        PAIRS.forEach(([, te], i) => {
          const want = expected.get(`${te}\t${q.queryId}`)
          if (want === undefined) return // summary-only measures (gm_map)
          const v = q.values[i]!
          const got = te.startsWith('num_') ? String(v) : formatFixed(v, 4)
          expect(`${te} ${q.queryId} ${got}`).toBe(`${te} ${q.queryId} ${want}`)
          compared++
        })
      }
      result.aggregates.forEach((a, i) => {
        const te = PAIRS[i]![1]
        const want = expected.get(`${te}\tall`)!
        const got = te.startsWith('num_') ? String(a.value) : formatFixed(a.value!, 4)
        expect(`${te} all ${got}`).toBe(`${te} all ${want}`)
      })
      expect(compared).toBeGreaterThan(0)
    })
  }
})

/**
 * The trec_eval names given to `evaluate` mean what they mean to the drop-in: the same values,
 * per query and averaged, for the measures defined once in a family file (those in no fixture's
 * all_trec output, `dcg` and `yaap`, included).
 */
const TREC_NAMES = [
  'dcg',
  'yaap',
  '11pt_avg',
  'G',
  'binG',
  'Rndcg',
  'ndcg_rel',
  'Rprec_mult',
  'relative_P.5,20',
  'utility',
  'gm_bpref',
  'set_relative_P',
  'num_q',
]

describe('evaluate and the drop-in agree on trec_eval names (-c -q)', () => {
  for (const name of [
    'basic_tiny',
    'graded_small',
    'medium_random',
    'missing_in_run',
    'ties_all_equal',
  ]) {
    const c = cases.find((x) => x.name === name)
    it.skipIf(!c)(name, async () => {
      const dir = c!.dir
      const out = await runDropIn(
        ['-c', '-q', ...TREC_NAMES.flatMap((m) => ['-m', m]), 'qrels.txt', 'run.txt'],
        dir,
        2,
      )
      expect(out.code).toBe(0)
      const want = new Map<string, string>()
      for (const line of out.stdout.split('\n')) {
        const [n, qid, value] = line.split('\t')
        if (n !== undefined && qid !== undefined && value !== undefined)
          want.set(`${n.trim()}\t${qid}`, value)
      }
      const qrels = parseQrels(readFileSync(join(dir, 'qrels.txt')), { file: 'qrels.txt' }).value
      const run = parseRun(readFileSync(join(dir, 'run.txt')), {
        file: 'run.txt',
        syntax: 'c',
      }).value
      const measures = parseMeasures(TREC_NAMES)
      const result = evaluate(qrels, run, measures, { ...trecEvalV10, missingQueries: 'zero' })
      // Our name → the drop-in's printed name, in the drop-in's order of parameters.
      const printed = (m: (typeof measures)[number]): string => {
        // The most specific trec_eval name whose fixed parameters the measure has.
        const te = m.spec.trecEval
          .filter((t) => Object.entries(t.fixed ?? {}).every(([k, v]) => m.given[k] === v))
          .sort((a, b) => Object.keys(b.fixed ?? {}).length - Object.keys(a.fixed ?? {}).length)[0]!
        const mult = m.given['mult']
        if (typeof mult === 'number') return `Rprec_mult_${mult.toFixed(2)}`
        if (m.spec.name === 'Rprec') return 'Rprec_mult_1.00'
        return m.at === undefined ? te.name : `${te.name}_${m.at}`
      }
      let compared = 0
      const check = (key: string, got: string) => {
        expect(`${key} ${got}`).toBe(`${key} ${want.get(key)}`)
        compared++
      }
      measures.forEach((m, i) => {
        const te = printed(m)
        const fmt = (v: number) => (te === 'num_q' ? String(v) : formatFixed(v, 4))
        for (const q of result.perQuery)
          if (want.has(`${te}\t${q.queryId}`)) check(`${te}\t${q.queryId}`, fmt(q.values[i]!))
        check(`${te}\tall`, fmt(result.aggregates[i]!.value!))
      })
      expect(compared).toBeGreaterThan(measures.length * 2)
    })
  }
})
