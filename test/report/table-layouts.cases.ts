/**
 * The cases of `table-layouts.test.ts`: every text layout of compare, judge agreement, the
 * SkillRet report, the RETECO report and the judge reports, rendered from fixed inputs. Each case's output is kept
 * byte for byte in `test/fixtures/tables/<name>`, recorded from the renderers as they were before
 * they moved onto the one table model (`src/report/table.ts`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  aggregateJudgments,
  type CalibrationResult,
  COMPARE_FORMATS,
  compareTable,
  defaultJudgeConfigPath,
  type JudgeRunStats,
  judgeReportCommand,
  loadJudgeConfig,
  type PerQueryTable,
  readJudgments,
  renderCalibration,
  renderCompare,
  renderRetecoReports,
  renderRunReport,
  renderSkillRetScore,
  runPreset,
  scoreRetecoRuns,
  tableFromRetecoReports,
} from '../../src/internal.js'
import { T as HAND, hostile } from '../compare/hand-table.js'
import { runCli } from '../stats/agreement/helpers.js'

const RT = 'test/fixtures/reteco'
const SR = 'test/fixtures/presets/skillret'
const HUMAN = 'examples/judge/human-labels.jsonl'
const JUDGMENTS = 'examples/judge/judgments.jsonl'

// The compare renderer tests' table, with a third run, control characters and more specials in
// the hostile name, and a group label and a note with specials.
const evil = `${hostile}|*\`[a]\u001b[2J\u202eevil\r\nline`
const T: PerQueryTable = {
  ...HAND,
  queries: HAND.queries.map((q) =>
    q.groups['domain'] === 'tiny' ? { ...q, groups: { domain: 'tiny_<1>' } } : q,
  ),
  runs: [
    HAND.runs[0]!,
    { ...HAND.runs[1]!, name: evil },
    {
      name: 'mid',
      tag: '',
      zeroFilledQueries: [],
      values: [[0.5, 0.5, 0.5, 0.55, 0.45, 0.5, 0.5, 0.5], HAND.runs[1]!.values[1]!],
    },
  ],
  notes: ['a note_with *specials*'],
}

/** A case: its fixture file name and the text it renders. */
export interface LayoutCase {
  readonly name: string
  readonly render: () => Promise<string>
}

const cases: LayoutCase[] = []
const add = (name: string, render: () => Promise<string>): void => {
  cases.push({ name, render })
}

// compare: a hand-built table (hostile name, a tiny untested group) and RETECO 2a breakdowns.
const hand = compareTable(T, { by: ['domain'], tests: ['t', 'permutation'], permutations: 1000 })
const twoRuns = compareTable(
  { ...T, runs: [T.runs[0]!, T.runs[2]!] },
  { baseline: 'base.run', correction: 'none' },
)
for (const format of COMPARE_FORMATS) {
  if (format === 'json') continue
  add(`compare-hand.${format}`, async () => renderCompare(hand, { format }))
  add(`compare-hand-3.${format}`, async () => renderCompare(hand, { format, digits: 3 }))
  add(`compare-two-runs.${format}`, async () => renderCompare(twoRuns, { format }))
  add(`compare-reteco-2a.${format}`, async () => {
    const reports = await scoreRetecoRuns({
      preset: 'reteco-2a',
      data: `${RT}/data`,
      runs: ['2a_random', '2a_missing_turns_unknown', '2a_perfect'].map((r) => `${RT}/runs/${r}`),
    })
    const t = tableFromRetecoReports(reports, ['nDCG@10', 'MRR'], 'reteco')
    return renderCompare(compareTable(t, { by: ['domain', 'turn-depth'], baseline: '2a_random' }), {
      format,
    })
  })
}

// judge agreement: the shipped examples; and one dimension where every label is the same, so
// its statistics and their intervals are undefined.
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-layouts-'))
const flat = (src: string, name: string): string => {
  const p = join(tmp, name)
  writeFileSync(
    p,
    readFileSync(src, 'utf8').replace(
      /("dimension":"coherence","score":)\d/g,
      (_m, head: string) => `${head}3`,
    ),
  )
  return p
}
const agreement = async (args: readonly string[]): Promise<string> => {
  const r = await runCli(['judge', 'agreement', ...args])
  if (r.code !== 0) throw new Error(r.stderr)
  return r.stdout.split(tmp).join('TMP')
}
for (const format of ['table', 'markdown'] as const) {
  const base = ['--human', HUMAN, '--judgments', JUDGMENTS, '--format', format]
  add(`agreement-examples.${format}`, () => agreement([...base, '--bootstrap', '200']))
  add(`agreement-no-bootstrap.${format}`, () => agreement([...base, '--bootstrap', '0']))
  add(`agreement-flat.${format}`, () =>
    agreement([
      '--human',
      flat(HUMAN, 'human.jsonl'),
      '--judgments',
      flat(JUDGMENTS, 'judgments.jsonl'),
      '--format',
      format,
      '--bootstrap',
      '50',
      '--seed',
      '3',
    ]),
  )
}

// SkillRet: official and fusion, JSON and TREC runs, labels with markdown specials.
for (const preset of ['skillret', 'skillret-fusion'])
  for (const format of ['table', 'markdown'] as const)
    add(`skillret-${preset}.${format}`, async () => {
      const result = await runPreset(
        preset,
        {
          data: `${SR}/data`,
          runs: [
            `${SR}/runs/good.json`,
            { path: `${SR}/runs/missing_queries.trec`, name: 'missing' },
            { path: `${SR}/runs/ties.json`, name: 'ties' },
          ],
        },
        { cutoffs: [1, 5, 10] },
      )
      return renderSkillRetScore(result, { format })
    })

// RETECO: 1a (with an unscorable run), 1b and 2a, per topic, two digit counts.
const reteco = async (
  preset: Parameters<typeof scoreRetecoRuns>[0]['preset'],
  runs: readonly string[],
) => scoreRetecoRuns({ preset, data: `${RT}/data`, runs: runs.map((r) => `${RT}/runs/${r}`) })
for (const format of ['table', 'markdown'] as const) {
  add(`reteco-1a.${format}`, async () =>
    renderRetecoReports(
      await reteco('reteco-1a', ['1a_weak', '1a_missing_queries', '1a_dups_unknown', 'bad_5cols']),
      { format },
    ),
  )
  add(`reteco-1a-per-query-3.${format}`, async () =>
    renderRetecoReports(await reteco('reteco-1a', ['1a_ties_rank', '1a_domain_empty']), {
      format,
      perQuery: true,
      digits: 3,
    }),
  )
  add(`reteco-1b.${format}`, async () =>
    renderRetecoReports(await reteco('reteco-1b', ['1b_missing_steps_dups', '1b_random_ties']), {
      format,
      perQuery: true,
    }),
  )
  add(`reteco-2a.${format}`, async () =>
    renderRetecoReports(await reteco('reteco-2a', ['2a_missing_turns_unknown', '2a_ties_rank']), {
      format,
      perQuery: true,
    }),
  )
}

// Judge reports: the run report (with request counts, lexical diagnostics and per-turn rows), the
// calibration report and the disclosure report, on the shipped examples.
const judgeConfig = loadJudgeConfig(defaultJudgeConfigPath())
const DIMS = ['correctness', 'completeness', 'relevance', 'coherence', 'faithfulness'] as const
const stats = (): JudgeRunStats => ({
  dimensions: DIMS.map((dimension, i) => ({
    dimension,
    requested: 36,
    cacheHits: i,
    calls: 36 - i,
    okFirstAttempt: 30,
    okAfterRetry: 5 - (i % 2),
    transportFailures: i,
    malformedReplies: 1,
    invalid: i === 0 ? { 'score out of range': 1 } : {},
    missing: i === 1 ? { 'no reply | timeout': 1 } : {},
    unanswered: 0,
    judgeNeeded: 36,
    judgeFailed: i === 0 ? 1 : 0,
  })),
  tokens: { promptTokens: 12345, completionTokens: 678 },
  recordedTokens: { promptTokens: 23456, completionTokens: 789 },
  cost: 0.03125,
  recordedCost: 0.0625,
  currency: 'USD',
  structuredOutput: 'json_schema',
  models: ['judge-model-1'],
  systemFingerprints: [],
})
for (const format of ['text', 'markdown'] as const) {
  add(`judge-run.${format}`, async () => {
    const agg = aggregateJudgments(await readJudgments(JUDGMENTS), judgeConfig.config.invalidPolicy)
    return renderRunReport(
      agg,
      stats(),
      {
        config: judgeConfig.config,
        configHash: judgeConfig.hash,
        baseUrl: 'http://127.0.0.1:1/v1',
        source: 'examples_judge | items',
        notes: ['a note'],
        lexical: {
          method: 'ROUGE-L F (a *method*)',
          all: { key: 'all', turns: 36, rougeL: 0.25, meteor: 0.03125 },
          byDomain: [{ key: 'fin_ance|x', turns: 12, rougeL: 0.5, meteor: null }],
          byDepth: [{ key: '1', turns: 6, rougeL: 0.125, meteor: 0.0625 }],
          turns: [],
          noReference: 1,
          unanswered: 2,
          tooLong: 0,
        },
      },
      format,
      { perTurn: true },
    )
  })
  add(`judge-run-no-stats.${format}`, async () => {
    const agg = aggregateJudgments(await readJudgments(JUDGMENTS), 'minimum')
    return renderRunReport(
      agg,
      null,
      {
        config: judgeConfig.config,
        configHash: judgeConfig.hash,
        baseUrl: null,
        source: 's',
        notes: [],
      },
      format,
    )
  })
  const calibration: CalibrationResult = {
    configHash: judgeConfig.hash,
    dimensions: [
      {
        dimension: 'correctness',
        cases: 4,
        passed: 3,
        ties: 1,
        inverted: 0,
        unjudged: 0,
        rate: 0.75,
      },
      {
        dimension: 'coherence',
        cases: 0,
        passed: 0,
        ties: 0,
        inverted: 0,
        unjudged: 0,
        rate: null,
      },
    ],
    cases: [],
    failures: [
      {
        id: 'case_1',
        dimension: 'correctness',
        respect: 'facts | dates',
        betterScore: 3,
        worseScore: 3,
        outcome: 'tie',
        note: null,
      },
      {
        id: 'case-2',
        dimension: 'correctness',
        respect: 'r',
        betterScore: null,
        worseScore: 2,
        outcome: 'unjudged',
        note: 'better: invalid (no JSON)',
      },
    ],
    passed: 3,
    total: 4,
  }
  add(`judge-calibration.${format}`, async () =>
    renderCalibration(calibration, { config: judgeConfig.config, golden: 'g.jsonl' }, format),
  )
  add(`judge-calibration-passed.${format}`, async () =>
    renderCalibration(
      { ...calibration, failures: [], passed: 4 },
      { config: judgeConfig.config, golden: 'g.jsonl' },
      format,
    ),
  )
}
add(
  'judge-disclosure.markdown',
  async () =>
    (
      await judgeReportCommand({
        judgments: JUDGMENTS,
        human: HUMAN,
        bootstrap: 20,
        format: 'markdown',
      })
    ).report,
)

export const LAYOUT_CASES: readonly LayoutCase[] = cases
export const LAYOUT_FIXTURES = 'test/fixtures/tables'
