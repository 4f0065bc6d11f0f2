/**
 * The cases of `table-layouts.test.ts`: every text layout of compare, judge agreement, the
 * SkillRet report and the RETECO report, rendered from fixed inputs. Each case's output is kept
 * byte for byte in `test/fixtures/tables/<name>`, recorded from the renderers as they were before
 * they moved onto the one table model (`src/report/table.ts`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  COMPARE_FORMATS,
  compareTable,
  type PerQueryTable,
  renderCompare,
  renderRetecoReports,
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

export const LAYOUT_CASES: readonly LayoutCase[] = cases
export const LAYOUT_FIXTURES = 'test/fixtures/tables'
