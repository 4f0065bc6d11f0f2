import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import { parseMeasure, parseMeasures } from '../measures/name.js'
import { aggregate } from './aggregate.js'
import { evaluate } from './evaluate.js'

const qrels = parseQrels(Buffer.from('q1 0 a 2\nq1 0 b 0\nq2 0 c 1\nq3 0 d 0\n')).value
const run = parseRun(
  Buffer.from('q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 a 3 1 t\nq3 Q0 d 1 1 t\nqx Q0 z 1 1 t\n'),
).value

describe('evaluate', () => {
  it('counts missing, extra and deduplicated items, and never changes a value silently', () => {
    const r = evaluate(qrels, run, ['AP', 'NumRet'], {
      duplicates: 'keep-first',
      missingQueries: 'zero',
    })
    expect(r.counts).toMatchObject({
      declaredQueries: 3,
      runQueries: 3,
      evaluatedQueries: 2,
      missingQueries: ['q2'],
      extraQueries: 1,
      duplicatesRemoved: 1,
    })
    expect(r.perQuery.map((q) => [q.queryId, q.status, q.values])).toEqual([
      ['q1', 'evaluated', [1, 2]],
      ['q2', 'zero-filled', [0, 0]],
      ['q3', 'evaluated', [0, 1]],
    ])
    // AP: mean over the 3 declared queries (q2 zero-filled); NumRet: a sum.
    expect(r.aggregates.map((a) => [a.measure, a.value, a.queries])).toEqual([
      ['AP', 1 / 3, 3],
      ['NumRet', 3, 3],
    ])
  })
  it('skips missing queries by default and keeps undefined values apart from 0', () => {
    const r = evaluate(qrels, run, ['AP'], {
      duplicates: 'keep-first',
      queriesWithoutRelevant: 'undefined',
    })
    expect(r.perQuery.map((q) => q.values[0])).toEqual([1, null]) // q3 has no relevant doc
    expect(r.aggregates[0]).toMatchObject({ value: 1, queries: 1, undefinedQueries: 1 })
  })
  it('reports a duplicate under the error policy as a failed query', () => {
    const r = evaluate(qrels, run, ['AP'], trecEvalV10)
    expect(r.counts.failedQueries).toEqual([
      { queryId: 'q1', failure: { code: 'duplicate_doc', docId: 'a', line: 3, firstLine: 1 } },
    ])
  })
  it('builds perQuery on first read, as an ordinary property to JSON, spreads and Object.keys', () => {
    const r = evaluate(qrels, run, ['AP', 'NumRet'], {
      duplicates: 'keep-first',
      missingQueries: 'zero',
    })
    expect(Object.keys(r)).toEqual([
      'runName',
      'runTag',
      'measures',
      'conventions',
      'perQuery',
      'aggregates',
      'counts',
    ])
    const first = r.perQuery
    expect(r.perQuery).toBe(first)
    const json = JSON.parse(JSON.stringify(r)) as { perQuery: unknown }
    expect(json.perQuery).toEqual([
      { queryId: 'q1', status: 'evaluated', values: [1, 2] },
      { queryId: 'q2', status: 'zero-filled', values: [0, 0] },
      { queryId: 'q3', status: 'evaluated', values: [0, 1] },
    ])
    expect({ ...r }.perQuery).toBe(first)
    expect(structuredClone(r).perQuery).toEqual(first)
  })
  it('gives queries with equal values their own rows and ids (rows are shared inside only)', () => {
    const q = parseQrels(Buffer.from('a 0 d 1\nb 0 d 1\nc 0 x 1\n')).value
    const r = evaluate(
      q,
      parseRun(Buffer.from('a Q0 d 1 1 t\nb Q0 d 1 1 t\nc Q0 d 1 1 t\n')).value,
      ['AP', 'RR'],
    )
    expect(r.perQuery.map((x) => [x.queryId, x.values])).toEqual([
      ['a', [1, 1]],
      ['b', [1, 1]],
      ['c', [0, 0]],
    ])
    expect(r.perQuery[0]!.values).not.toBe(r.perQuery[1]!.values)
    expect(r.aggregates.map((a) => a.value)).toEqual([2 / 3, 2 / 3])
  })
  it('refuses a (group, qid) key without a preset that supplies groups', () => {
    expect(() => evaluate(qrels, run, ['AP'], { queryKey: 'group-qid' })).toThrow(/preset/)
  })
})

describe("a measure's aggregate parameter", () => {
  it('aggregates as asked: AP with gmean is GMAP, a count with mean is its average', () => {
    const q = parseQrels(Buffer.from('1 0 a 1\n1 0 b 1\n2 0 c 1\n'), { file: 'q' }).value
    const r = parseRun(Buffer.from('1 Q0 a 1 2 t\n1 Q0 x 2 1 t\n2 Q0 y 1 2 t\n2 Q0 c 2 1 t\n'), {
      file: 'r',
    }).value
    // AP: query 1 = (1/1) / 2 = 0.5, query 2 = (1/2) / 1 = 0.5
    const e = evaluate(q, r, [
      "AP(aggregate='gmean')",
      'GMAP',
      "NumRet(aggregate='mean')",
      'NumRet',
    ])
    expect(e.measures).toEqual([
      "AP(aggregate='gmean')",
      'GMAP',
      "NumRet(aggregate='mean')",
      'NumRet',
    ])
    expect(e.aggregates.map((a) => [a.aggregate, a.value])).toEqual([
      ['gmean', 0.5],
      ['gmean', 0.5],
      ['mean', 2],
      ['sum', 4],
    ])
    expect(parseMeasures(["GMAP(aggregate='mean')"])[0]!.name).toBe("GMAP(aggregate='mean')")
    expect(parseMeasures(["AP(aggregate='mean')"])[0]!.name).toBe('AP')
  })
  it('is offered only where it makes sense', () => {
    expect(() => parseMeasure("NumRet(aggregate='gmean')")).toThrow(/'sum' or 'mean'/)
    expect(() => parseMeasure("DCG(aggregate='gmean')")).toThrow(/no parameter 'aggregate'/)
  })
})

describe('aggregate', () => {
  it('means, sums and geometric means (trec_eval gm floor 1e-5), null excluded', () => {
    expect(aggregate('m', 'mean', [0.5, 1, null])).toEqual({
      measure: 'm',
      aggregate: 'mean',
      value: 0.75,
      queries: 2,
      undefinedQueries: 1,
      std: 0.25,
    })
    expect(aggregate('m', 'sum', [1, 2, 3]).value).toBe(6)
    expect(aggregate('m', 'gmean', [0.5, 0]).value).toBeCloseTo(
      Math.exp((Math.log(0.5) + Math.log(1e-5)) / 2),
      15,
    )
    expect(aggregate('m', 'mean', [null]).value).toBeNull()
  })
  it('gives the population standard deviation (numpy std, ddof = 0) beside every aggregate', () => {
    // mean 5, squared deviations 9 1 1 1 0 0 4 16 = 32, / 8 = 4
    expect(aggregate('m', 'mean', [2, 4, 4, 4, 5, 5, 7, 9]).std).toBe(2)
    expect(aggregate('m', 'sum', [2, 4, 4, 4, 5, 5, 7, 9, null]).std).toBe(2)
    // GMAP: of the per-query values, not their logs
    expect(aggregate('m', 'gmean', [0.25, 0.75]).std).toBe(0.25)
    expect(aggregate('m', 'mean', [0.3]).std).toBe(0)
    expect(aggregate('m', 'mean', [null]).std).toBeNull()
  })
})
