import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import type { RunQuery } from '../model/types.js'
import { createQueryJob, type TrecEvalJobConfig } from './trec-eval.js'

/** What the job keeps for one query (values, texts, or why it failed). */
type Outcomes = { outcome(queryId: string): unknown }

const run = (queryId: string, docIds: string[]): RunQuery => ({
  queryId,
  docIds,
  scores: docIds.map((_, k) => 10 - k),
  ranks: null,
  lines: docIds.map((_, k) => k + 1),
})

describe('the drop-in job state that worker threads send back', () => {
  it('gives the receiving job every value, text and failure the sending job had', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trecscore-job-'))
    const qrelsFile = join(dir, 'qrels.txt')
    writeFileSync(qrelsFile, '1 0 a 1\n1 0 b 0\n2 0 c 2\n3 0 d 1\n4 0 e 1\n')
    const config: TrecEvalJobConfig = {
      relFormat: 'qrels',
      qrelsFile,
      runFile: join(dir, 'run.txt'),
      conv: trecEvalV10,
      ctx: { collectionSize: 0, recallRounding: 'lround' },
      measures: [
        { name: 'map', param: null },
        { name: 'P', param: '1,2' },
        { name: 'relstring', param: null },
      ],
    }
    const sender = await createQueryJob(config)
    const queries = [
      run('1', ['a', 'x', 'b']),
      run('2', ['y', 'c']),
      run('3', ['d', 'd']), // a duplicate doc: trec_eval cannot calculate the query
      run('4', ['z']),
      run('4', ['e']), // the same query again: the later outcome replaces the earlier one
      run('9', ['a']), // not in the qrels: ignored
    ]
    for (const q of queries) sender.add(q)
    const receiver = await createQueryJob(config)
    // The receiver has evaluated queries of its own: a row equal to one of the sender's (query 4
    // as the sender first had it) and an outcome for query 2 that the sender's replaces.
    receiver.add(run('4', ['z']))
    receiver.add(run('2', ['c', 'y']))
    receiver.absorb(structuredClone(sender.exportState()))
    const a = sender as unknown as Outcomes
    const b = receiver as unknown as Outcomes
    for (const q of ['1', '2', '3', '4', '9']) expect(b.outcome(q)).toEqual(a.outcome(q))
    // The values are real ones, not defaults that would also compare equal.
    expect(a.outcome('1')).toMatchObject({ ok: true, texts: [null, null, '1-0'] })
    expect(Array.from((a.outcome('2') as { values: Float64Array }).values)).toEqual([
      0.5, 0, 0.5, 0,
    ])
    expect(a.outcome('3')).toMatchObject({ ok: false, measure: 'map' })
    expect(Array.from((b.outcome('4') as { values: Float64Array }).values)).toEqual([1, 1, 0.5, 0])
    expect(b.outcome('9')).toBeUndefined()
  })
})
