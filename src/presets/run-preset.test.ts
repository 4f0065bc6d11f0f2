import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RunEvaluator } from '../evaluate/evaluate.js'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import { parseMeasures } from '../measures/name.js'
import { PRESET_CHECKS } from './checks.js'
import { dl21Passage } from './dl21.js'
import { neuclir23Zho } from './neuclir.js'
import { definePreset, type PresetCheck } from './preset.js'
import { PRESET_RESULT_SCHEMA, runPreset } from './run-preset.js'
import { skillRet, skillRetFusion } from './skillret.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-run-preset-'))
const QRELS = '1 zho a 1\n1 zho b 0\n2 zho c 3\n'
const RUN = '1 Q0 a 1 5.0 r\n1 Q0 b 2 5.0 r\n2 Q0 c 1 1.0 r\n'
const qrelsFile = join(tmp, 'neuclir.qrels')
const runFile = join(tmp, 'r.run')
writeFileSync(qrelsFile, QRELS)
writeFileSync(runFile, RUN)
const sha = (text: string): string => createHash('sha256').update(text).digest('hex')

describe('runPreset (issue 11 §2)', () => {
  it('NeuCLIR: RBP(rel=1) under cwl_eval ties is 0.2 (a then b), nDCG under pytrec_eval ties (b first) in one result', async () => {
    const r = await runPreset(neuclir23Zho, { qrels: qrelsFile, runs: [runFile] })
    expect(r.schema).toBe(PRESET_RESULT_SCHEMA)
    expect(r.measures).toEqual(['nDCG@20', 'AP', 'RBP(rel=1)', 'R@100', 'R@1000'])
    const run = r.runs[0]!
    const mean = run.aggregates['mean']!
    // RBP: topic 1 ranks a (relevant) first in file order: 0.2 * 1; topic 2: 0.2 * 1; mean 0.2.
    expect(mean[2]!.value).toBeCloseTo(0.2, 15)
    // AP: pytrec_eval ties by doc id descending put b (grade 0) above a: topic 1 AP = 1/2.
    expect(run.queries.map((q) => [q.queryId, q.values[1]])).toEqual([
      ['1', 0.5],
      ['2', 1],
    ])
    expect(r.conventions.map((c) => [c.measures, c.tieRule])).toEqual([
      [['nDCG@20', 'AP', 'R@100', 'R@1000'], 'pytrec_eval'],
      [['RBP(rel=1)'], 'cwl_eval'],
    ])
    expect(run.conventionCounts).toHaveLength(2)
  })

  it('is plain data: JSON round-trips it unchanged', async () => {
    const r = await runPreset(neuclir23Zho, { qrels: qrelsFile, runs: [runFile] })
    expect(JSON.parse(JSON.stringify(r))).toEqual(r)
  })

  it('provenance: preset id and version, sha256 and size of every input as read', async () => {
    const r = await runPreset(neuclir23Zho, {
      qrels: qrelsFile,
      runs: [{ path: runFile, name: 'mine' }],
    })
    expect(r.provenance).toEqual({
      preset: 'neuclir23-zho',
      version: '1',
      inputs: [
        { role: 'qrels', file: qrelsFile, sha256: sha(QRELS), bytes: QRELS.length },
        { role: 'run', file: runFile, sha256: sha(RUN), bytes: RUN.length },
      ],
    })
    expect(r.runs[0]!.name).toBe('mine')
    expect(r.runs[0]!.file).toBe(runFile)
    // A plain qrels read (no line checks) is hashed while it streams, too.
    const dl = await runPreset(dl21Passage, { qrels: qrelsFile, runs: [runFile] })
    expect(dl.provenance.inputs[0]).toEqual({
      role: 'qrels',
      file: qrelsFile,
      sha256: sha(QRELS),
      bytes: QRELS.length,
    })
  })

  it('checks: every issue names its check, severity and file; qrels-text errors stop scoring', async () => {
    const deep = join(tmp, 'deep.run')
    writeFileSync(
      deep,
      Array.from({ length: 1001 }, (_, i) => `1 Q0 d${i} ${i + 1} ${2000 - i} r\n`).join(''),
    )
    const r = await runPreset(neuclir23Zho, { qrels: qrelsFile, runs: [deep] })
    const issues = r.runs[0]!.issues
    expect(issues.find((i) => i.check === 'max-depth')).toMatchObject({
      severity: 'warning',
      code: 'too_deep',
      at: { file: deep },
    })
    expect(issues.filter((i) => i.check === 'topic-sets').map((i) => i.code)).toEqual([
      'qrels_topics_missing',
      'cut_by_depth',
    ])
    const bad = join(tmp, 'fas.qrels')
    writeFileSync(bad, '1 fas a 1\n')
    await expect(runPreset(neuclir23Zho, { qrels: bad, runs: [runFile] })).rejects.toThrow(
      `${bad}:1: language "fas" in column 2`,
    )
  })

  it('the check table has an implementation for every kind, and refuses inputs no check uses', async () => {
    const kinds: PresetCheck['kind'][] = [
      'doc-id-prefix',
      'max-depth',
      'qrels-missing-grade',
      'qrels-language',
      'qrels-forbidden-grade',
      'candidates',
      'unified-ranking',
      'topic-sets',
    ]
    expect(Object.keys(PRESET_CHECKS).sort()).toEqual([...kinds].sort())
    await expect(
      runPreset(dl21Passage, { qrels: qrelsFile, runs: [runFile], candidates: runFile }),
    ).rejects.toThrow('--candidates does not apply')
    await expect(
      runPreset(dl21Passage, { qrels: qrelsFile, runs: [runFile], force: true }),
    ).rejects.toThrow('--force does not apply')
    await expect(runPreset(dl21Passage, { runs: [runFile] })).rejects.toThrow(
      "preset 'dl21-passage' reads TREC qrels",
    )
  })

  it('-m: a measure keeps its own preset conventions; zeroFillMissing zero-fills a skipping preset', async () => {
    const r = await runPreset(
      neuclir23Zho,
      { qrels: qrelsFile, runs: [runFile] },
      { measures: ['RBP(rel=1)'] },
    )
    expect(r.conventions.map((c) => c.tieRule)).toEqual(['cwl_eval'])
    expect(r.runs[0]!.aggregates['mean']![0]!.value).toBeCloseTo(0.2, 15)
    const skipping = definePreset({
      ...dl21Passage,
      id: 'dl-skip',
      conventions: { ...dl21Passage.conventions, missingQueries: 'skip' },
    })
    const one = join(tmp, 'one.run')
    writeFileSync(one, '1 Q0 a 1 5.0 r\n')
    const skip = await runPreset(
      skipping,
      { qrels: qrelsFile, runs: [one] },
      { measures: ['P(rel=1)@1'] },
    )
    expect(skip.runs[0]!.queries.map((q) => q.queryId)).toEqual(['1'])
    const zero = await runPreset(
      skipping,
      { qrels: qrelsFile, runs: [one] },
      { measures: ['P(rel=1)@1'], zeroFillMissing: true },
    )
    expect(zero.runs[0]!.queries.map((q) => [q.queryId, q.status, q.values[0]])).toEqual([
      ['1', 'evaluated', 1],
      ['2', 'zero-filled', 0],
    ])
    expect(zero.runs[0]!.aggregates['mean']![0]!.value).toBe(0.5)
  })
})

describe('summation order is preset data (skillret vs skillret-fusion)', () => {
  const dir = join(tmp, 'skillret')
  const queries = join(dir, 'queries')
  it('skillret sums in the run key order, skillret-fusion over the queries file; labels and cutoffs come from the definition', async () => {
    mkdirSync(queries, { recursive: true })
    writeFileSync(
      join(queries, 'test.jsonl'),
      [
        '{"id":"q1","skill_ids":["s1"]}',
        '{"id":"q2","skill_ids":["s2"]}',
        '{"id":"q3","skill_ids":["s3"]}',
      ].join('\n') + '\n',
    )
    const run = join(tmp, 'skill.json')
    writeFileSync(
      run,
      JSON.stringify({ retrieval: { test: { q2: { s2: 1 }, q1: { s9: 1, s1: 0.5 } } } }),
    )
    expect(skillRet.aggregations).toEqual([{ id: 'mean', kind: 'query-mean', order: 'run' }])
    expect(skillRetFusion.aggregations).toEqual([
      { id: 'mean', kind: 'query-mean', order: 'declared' },
    ])
    const off = await runPreset(skillRet, { data: dir, runs: [run] })
    expect(off.runs[0]!.summationOrders['mean']).toEqual(['q2', 'q1'])
    expect(off.labels.slice(0, 3)).toEqual(['NDCG@5', 'NDCG@10', 'NDCG@15'])
    const fusion = await runPreset(skillRetFusion, { data: dir, runs: [run] }, { cutoffs: [2] })
    expect(fusion.runs[0]!.summationOrders['mean']).toEqual(['q1', 'q2', 'q3'])
    expect(fusion.labels).toEqual([
      'NDCG@2',
      'MAP@2',
      'Recall@2',
      'Precision@2',
      'Completeness@2',
      'MRR@5',
      'MRR@10',
    ])
    expect(fusion.inputs.cutoffs).toEqual([2])
    const mrr5 = fusion.runs[0]!.aggregates['mean']![5]!
    // q2: rank 1 (1), q1: rank 2 (1/2), q3 missing (0): (1 + 0.5 + 0) / 3 in queries-file order.
    expect(mrr5.value).toBe((0.5 + 1 + 0) / 3)
    await expect(
      runPreset(dl21Passage, { qrels: qrelsFile, runs: [runFile] }, { cutoffs: [5] }),
    ).rejects.toThrow('cutoffs do not apply')
  })
})

describe('RunEvaluator with per-measure conventions (issue 11 §2)', () => {
  const qrels = parseQrels(Buffer.from(QRELS)).value
  const run = parseRun(Buffer.from(RUN)).value
  it('gives each measure the values of an evaluator under its own conventions, counts per set', () => {
    const [ap, rbp] = parseMeasures(['AP', 'RBP(rel=1)']) as [
      ReturnType<typeof parseMeasures>[number],
      ReturnType<typeof parseMeasures>[number],
    ]
    const base = neuclir23Zho.conventions
    const cwl = neuclir23Zho.measureConventions![0]!.conventions
    const both = new RunEvaluator(qrels, [ap, { measure: rbp, conventions: cwl }], base)
    for (const q of run.queries.values()) both.add(q)
    const e = both.finish()
    const alone = (c: typeof base, m: typeof ap): (number | null)[] => {
      const ev = new RunEvaluator(qrels, [m], c)
      for (const q of run.queries.values())
        ev.add(c.scorePrecision === 'float32' ? { ...q, scores: q.scores.map(Math.fround) } : q)
      return ev.finish().perQuery.map((q) => q.values[0]!)
    }
    expect(e.perQuery.map((q) => q.values[0])).toEqual(alone(base, ap))
    expect(e.perQuery.map((q) => q.values[1])).toEqual(alone(cwl, rbp))
    expect(e.conventionSets!.map((s) => s.measures)).toEqual([['AP'], ['RBP(rel=1)']])
    expect(
      () =>
        new RunEvaluator(
          qrels,
          [ap, { measure: rbp, conventions: { ...cwl, missingQueries: 'skip' } }],
          base,
        ),
    ).toThrow('must share the evaluation')
  })
  it('without per-measure conventions the result has no conventionSets', () => {
    const ev = new RunEvaluator(qrels, parseMeasures(['AP']), neuclir23Zho.conventions)
    for (const q of run.queries.values()) ev.add(q)
    expect(ev.finish().conventionSets).toBeUndefined()
  })
})
