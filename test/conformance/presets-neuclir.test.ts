/**
 * TREC 2023 NeuCLIR presets against test/fixtures/presets/neuclir23 (copied from
 * shared/conformance/presets/neuclir23; see its README): the official command
 * `ir_measures QRELS RUN 'nDCG@20 MAP RBP(rel=1) R@100 R@1000'` (ir_measures 0.4.3 with its
 * pytrec_eval and cwl_eval providers): printed stdout exactly, full-precision means and per-topic
 * values within 1e-12, the averaged topic set, and the two tie rules.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CWL_EVAL_TIES, PYTREC_EVAL_TIES, withTieRule } from '../../src/conventions/tie-rules.js'
import {
  definePreset,
  formatFixed,
  getPreset,
  type Preset,
  type RunEvaluation,
  renderPresetScore,
  scorePreset,
} from '../../src/internal.js'

const DIR = join(import.meta.dirname, '..', 'fixtures', 'presets', 'neuclir23')
const TOL = 1e-12
const TMP = mkdtempSync(join(tmpdir(), 'trecscore-neuclir-'))

interface Expected {
  preset: string
  task: 'zho' | 'fas' | 'rus' | 'mlir'
  qrels: string
  run: string
  command: string
  aggregate: Record<string, number>
  num_queries: number
  qrels_topics_missing_from_run: string[]
  run_topics_not_in_qrels: string[]
  per_query: Record<string, Record<string, number>>
  cli_stdout: string
  topics_where_rbp_differs_if_ties_were_broken_by_docno_desc: string[]
  topics_where_tie_breaking_matters_for_trec_eval_measures: string[]
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

const TREC_EVAL_MEASURES = ['nDCG@20', 'AP', 'R@100', 'R@1000']

function valuesByTopic(ev: RunEvaluation, measure: string): Map<string, number> {
  const i = ev.measures.indexOf(measure)
  return new Map(ev.perQuery.map((q) => [q.queryId, q.values[i]!]))
}

/** Topics whose value of any of `measures` differs between two evaluations. */
function differing(a: RunEvaluation, b: RunEvaluation, measures: readonly string[]): string[] {
  const out = new Set<string>()
  for (const m of measures) {
    const va = valuesByTopic(a, m)
    const vb = valuesByTopic(b, m)
    for (const [q, v] of va) if (Math.abs(v - vb.get(q)!) > TOL) out.add(q)
  }
  return [...out].sort()
}

/** The run rewritten in (double score descending, doc id ascending) order: file order then is that tie rule. */
function sortedByScoreThenDocidAscending(file: string): string {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
  const rows = lines.map((l) => {
    const f = l.trim().split(/\s+/)
    return { l, q: f[0]!, d: f[2]!, s: Number(f[4]) }
  })
  const order = [...new Set(rows.map((r) => r.q))]
  const out = order.flatMap((q) =>
    rows
      .filter((r) => r.q === q)
      .sort((a, b) => (a.s !== b.s ? b.s - a.s : a.d < b.d ? -1 : a.d > b.d ? 1 : 0))
      .map((r) => r.l),
  )
  const path = join(TMP, `${file.split('/').pop()}.docid-asc`)
  writeFileSync(path, out.join('\n') + '\n')
  return path
}

describe('TREC 2023 NeuCLIR presets reproduce ir_measures 0.4.3', () => {
  it('has all twelve expected files', () =>
    expect(CASES.map(([n]) => n).sort()).toEqual([
      'fas-good',
      'fas-missing',
      'fas-weak',
      'mlir-good',
      'mlir-missing',
      'rus-good',
      'rus-missing',
      'rus-weak',
      'zho-good',
      'zho-missing',
      'zho-ties',
      'zho-weak',
    ]))

  for (const [name, x] of CASES) {
    describe(name, () => {
      const preset = getPreset(`neuclir23-${x.task}`)
      const qrels = join(DIR, x.qrels)
      const run = join(DIR, x.run)

      it('prints exactly what the official ir_measures command prints', async () => {
        expect(x.command).toBe(
          preset.official.command.replace('QRELS', x.qrels).replace('RUN', x.run),
        )
        const s = await scorePreset(preset, { qrels, runs: [run] })
        expect(s.qrelsWarnings).toEqual([])
        expect(s.runs[0]!.warnings).toEqual([])
        expect(renderPresetScore(s, { format: 'table', perQuery: false })).toBe(x.cli_stdout)
      })

      it('-q prints every topic as ir_measures -q does (qid, measure, value; then the "all" rows)', async () => {
        const s = await scorePreset(preset, { qrels, runs: [run] })
        const topics = Object.keys(x.per_query).sort()
        const measures = Object.keys(x.aggregate)
        const want =
          topics
            .flatMap((t) =>
              measures.map((m) => `${t}\t${m}\t${formatFixed(x.per_query[t]![m]!, 4)}\n`),
            )
            .join('') +
          x.cli_stdout
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => `all\t${l}\n`)
            .join('')
        expect(renderPresetScore(s, { format: 'table', perQuery: true })).toBe(want)
      })

      it('full-precision means and every qrels topic within 1e-12; missing topics 0, extra run topics ignored', async () => {
        const r = (await scorePreset(preset, { qrels, runs: [run] })).runs[0]!
        const ev = r.evaluation
        expect(ev.measures).toEqual(Object.keys(x.aggregate))
        ev.measures.forEach((m, i) =>
          expect(Math.abs(ev.aggregates[i]!.value! - x.aggregate[m]!), m).toBeLessThanOrEqual(TOL),
        )
        expect(ev.perQuery.length).toBe(x.num_queries)
        expect(ev.aggregates.every((a) => a.queries === x.num_queries)).toBe(true)
        expect(ev.perQuery.map((q) => q.queryId).sort()).toEqual(Object.keys(x.per_query).sort())
        for (const q of ev.perQuery)
          ev.measures.forEach((m, i) =>
            expect(
              Math.abs(q.values[i]! - x.per_query[q.queryId]![m]!),
              `${q.queryId} ${m}`,
            ).toBeLessThanOrEqual(TOL),
          )
        expect([...r.missingTopics].sort()).toEqual(x.qrels_topics_missing_from_run)
        expect([...r.ignoredTopics].sort()).toEqual(x.run_topics_not_in_qrels)
        expect(
          ev.perQuery
            .filter((q) => q.status === 'zero-filled')
            .map((q) => q.queryId)
            .sort(),
        ).toEqual(x.qrels_topics_missing_from_run)
        for (const t of x.qrels_topics_missing_from_run)
          expect(x.per_query[t]).toEqual({
            'nDCG@20': 0,
            AP: 0,
            'RBP(rel=1)': 0,
            'R@100': 0,
            'R@1000': 0,
          })
        expect(ev.counts.extraQueries).toBe(x.run_topics_not_in_qrels.length)
        // Both lists are also reported (stderr notes), never silent.
        const notes = r.notes.join('\n')
        for (const t of [...x.qrels_topics_missing_from_run, ...x.run_topics_not_in_qrels])
          expect(notes).toContain(t)
      })

      it('RBP changes on exactly the listed topics if it broke ties by doc id (the pytrec_eval rule)', async () => {
        const base = (await scorePreset(preset, { qrels, runs: [run] })).runs[0]!.evaluation
        const rbp = preset.measureConventions![0]!
        const docid: Preset = definePreset({
          ...preset,
          measureConventions: [
            {
              ...rbp,
              tieRule: PYTREC_EVAL_TIES,
              conventions: withTieRule(rbp.conventions, PYTREC_EVAL_TIES),
            },
          ],
        })
        const other = (await scorePreset(docid, { qrels, runs: [run] })).runs[0]!.evaluation
        expect(differing(base, other, ['RBP(rel=1)'])).toEqual(
          x.topics_where_rbp_differs_if_ties_were_broken_by_docno_desc,
        )
        expect(differing(base, other, TREC_EVAL_MEASURES)).toEqual([])
      })

      it('nDCG@20, AP, R@100, R@1000 change on exactly the listed topics under (double score, doc id ascending)', async () => {
        const base = (await scorePreset(preset, { qrels, runs: [run] })).runs[0]!.evaluation
        // A stable file-order rule on the run sorted by (double score desc, doc id asc) is that rule.
        const asc: Preset = definePreset({
          ...preset,
          conventions: withTieRule(preset.conventions, CWL_EVAL_TIES),
          tieRule: CWL_EVAL_TIES,
        })
        const other = (
          await scorePreset(asc, { qrels, runs: [sortedByScoreThenDocidAscending(run)] })
        ).runs[0]!.evaluation
        expect(differing(base, other, TREC_EVAL_MEASURES)).toEqual(
          x.topics_where_tie_breaking_matters_for_trec_eval_measures,
        )
      })
    })
  }

  it('a topic deeper than 1,000: RBP is cut at 1,000 (cwl_eval), AP and recall use every line (pytrec_eval); both are reported', async () => {
    // Topic 1: 1,002 retrieved documents, the only relevant one at rank 1,002.
    const docs = Array.from({ length: 1002 }, (_, i) => `d${String(i).padStart(4, '0')}`)
    const qrels = join(TMP, 'deep.qrels')
    writeFileSync(qrels, `1 zho ${docs[1001]} 1\n1 zho ${docs[0]} 0\n`)
    const runFile = join(TMP, 'deep.run')
    writeFileSync(
      runFile,
      docs.map((d, i) => `1 Q0 ${d} ${i + 1} ${2000 - i} deep`).join('\n') + '\n',
    )
    const r = (await scorePreset('neuclir23-zho', { qrels, runs: [runFile] })).runs[0]!
    const ev = r.evaluation
    const v = (m: string): number => ev.aggregates[ev.measures.indexOf(m)]!.value!
    expect(v('AP')).toBe(1 / 1002)
    expect([v('R@100'), v('R@1000'), v('nDCG@20'), v('RBP(rel=1)')]).toEqual([0, 0, 0, 0])
    expect(r.groups.map((g) => [g.measures, g.counts.cutByDepth])).toEqual([
      [['nDCG@20', 'AP', 'R@100', 'R@1000'], 0],
      [['RBP(rel=1)'], 2],
    ])
    expect(r.notes).toEqual([
      `${runFile}: RBP(rel=1): 2 document(s) below rank 1000 not counted (the other measures use them)`,
    ])
    expect(r.warnings).toEqual([
      `${runFile}: 1 query retrieves more than 1000 documents (deepest: 1 with 1002): NeuCLIR runs rank at most 1,000 documents per topic; RBP is cut at 1,000, the other measures use every line`,
    ])
  })

  it('zho-ties needs both tie rules: one rule for every measure misses the official output', async () => {
    const x = Object.fromEntries(CASES)['zho-ties']!
    const preset = getPreset('neuclir23-zho')
    const args = { qrels: join(DIR, x.qrels), runs: [join(DIR, x.run)] }
    const { measureConventions: _drop, ...single } = preset
    const allPytrec = definePreset(single)
    const allCwl = definePreset({
      ...single,
      conventions: withTieRule({ ...preset.conventions, depth: 1000 }, CWL_EVAL_TIES),
      tieRule: CWL_EVAL_TIES,
    })
    for (const p of [allPytrec, allCwl])
      expect(
        renderPresetScore(await scorePreset(p, args), { format: 'table', perQuery: false }),
      ).not.toBe(x.cli_stdout)
    expect(
      renderPresetScore(await scorePreset(preset, args), { format: 'table', perQuery: false }),
    ).toBe(x.cli_stdout)
  })
})
