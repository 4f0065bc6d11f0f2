/**
 * The ir_measures-named measures of `evaluate` must agree with NIST trec_eval's own output
 * (the fixtures' all_trec -c -q results) for every query and for the average, under the
 * trec_eval conventions with missing queries zero-filled (-c).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { evaluate, formatFixed, parseQrels, parseRun, trecEvalV10 } from '../../src/index.js'
import { listCases } from './run-cases.js'

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
