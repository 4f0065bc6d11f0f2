import { type Command, Option } from 'commander'
import {
  COMPARE_FORMATS,
  CORRECTION_NAMES,
  type CompareFormat,
  type CorrectionName,
  compareTable,
  GROUPING_NAMES,
  type GroupingName,
  perQueryTableFromFiles,
  renderCompare,
  TEST_NAMES,
  type TestName,
} from '../../entries/compare.js'
import { InputError, type InputIssue, TrecscoreError } from '../../entries/errors.js'
import { resolveRunLabels } from '../../entries/io.js'
import { getPreset, PRESETS, scorePresetForComparison } from '../../entries/presets.js'
import { describeConventions, jsonChunks } from '../../entries/report.js'
import { perQueryTableFromReteco, RETECO_PRESETS, type RetecoPreset } from '../../entries/reteco.js'
import {
  addConventionOptions,
  CONVENTION_FLAG_KEYS,
  type ConventionFlags,
  conventionFlagKeys,
  conventionsFromFlags,
  flagsGiven,
  parseRelMap,
} from '../conventions-options.js'
import {
  addRunLabelOptions,
  collectList,
  digitsOption,
  explainOption,
  explainStream,
  formatOption,
  measureOption,
  type RunLabelFlags,
  runLabelOptions,
} from './shared-options.js'
import { writeChunks } from './write-chunks.js'

interface CompareFlags extends ConventionFlags, RunLabelFlags {
  measure?: string[]
  qrels?: string
  explain?: boolean
  preset?: string
  data?: string
  split: string
  domains?: string
  baseline?: string
  test?: TestName[]
  correction: CorrectionName
  alpha: string
  permutations: string
  bootstrap: string
  seed: string
  by?: GroupingName[]
  minGroupSize: string
  format: CompareFormat
  digits?: number
}

function isReteco(preset: string | undefined): preset is RetecoPreset {
  return preset !== undefined && (RETECO_PRESETS as readonly string[]).includes(preset)
}

/** Parse the numeric flags, collecting every problem. */
function numbers(
  flags: CompareFlags,
  issues: InputIssue[],
): { alpha: number; permutations: number; bootstrap: number; seed: number; minGroupSize: number } {
  const num = (
    option: string,
    text: string,
    ok: (x: number) => boolean,
    expected: string,
  ): number => {
    const x = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text.trim()) ? Number(text) : NaN
    if (!ok(x)) issues.push({ code: 'bad_argument', option, found: text, expected })
    return x
  }
  const int = (x: number): boolean => Number.isSafeInteger(x)
  const out = {
    alpha: num('--alpha', flags.alpha, (x) => x > 0 && x < 1, 'a number strictly between 0 and 1'),
    permutations: num(
      '--permutations',
      flags.permutations,
      (x) => int(x) && x >= 1 && x <= 1e7,
      'an integer from 1 to 10000000',
    ),
    bootstrap: num(
      '--bootstrap',
      flags.bootstrap,
      (x) => int(x) && x >= 1 && x <= 1e7,
      'an integer from 1 to 10000000',
    ),
    seed: num(
      '--seed',
      flags.seed,
      (x) => int(x) && x >= 0 && x <= 4294967295,
      'an integer from 0 to 4294967295',
    ),
    minGroupSize: num(
      '--min-group-size',
      flags.minGroupSize,
      (x) => int(x) && x >= 2,
      'an integer >= 2',
    ),
  }
  return out
}

/**
 * `trecscore compare QRELS RUN... -m MEASURE...` and
 * `trecscore compare --preset reteco-… --data DIR RUN... [-m MEASURE...]`.
 */
export function registerCompare(program: Command): void {
  const cmd = program
    .command('compare')
    .description(
      'paired significance tests between runs per measure (t, permutation, bootstrap, Wilcoxon), corrected for multiple comparisons, with effect sizes, wins/ties/losses and per-group breakdowns',
    )
    .argument(
      '<files...>',
      'QRELS RUN... (TREC qrels then TREC runs; .gz ok), RUN... with --qrels FILE, or RUN... with --preset reteco-… --data DIR; a run may be given as LABEL=PATH',
    )
    .addOption(
      measureOption(
        "measures (ir_measures or trec_eval names: nDCG@10 'P(rel=2)@5' AP); default: the preset's, or nDCG@10 for RETECO",
      ),
    )
    .option(
      '--qrels <file>',
      'TREC qrels file; every argument is then a run (as with score --preset)',
    )
    .option(
      '--preset <name>',
      'conventions and default measures of a preset (dl21-…, neuclir23-…; skillret|skillret-fusion with --data), or a RETECO sub-track (reteco-1a|1b|2a|2c, with --data) whose topics carry groups',
    )
    .option(
      '--data <dir>',
      'RETECO: data directory (release or pilot layout); SkillRet: the data folder (queries and skills)',
    )
    .option('--split <split>', 'RETECO: split whose qrels are used', 'dev')
    .option('--domains <list>', 'RETECO: only these domains (comma-separated)')
    .option(
      '--baseline <run>',
      'compare every run against this one (its label, path, base name, or run tag) instead of all pairs',
    )
    .addOption(
      new Option(
        '--test <tests>',
        `paired tests, the first decides the superscript letters (repeat or comma-separate; choices: ${TEST_NAMES.join(', ')}; default t)`,
      ).argParser(collectList<TestName>),
    )
    .addOption(
      new Option(
        '--correction <method>',
        "multiple-comparison correction over each measure's compared pairs",
      )
        .choices([...CORRECTION_NAMES])
        .default('holm'),
    )
    .option('--alpha <a>', 'significance level for the corrected p-values', '0.05')
    .option(
      '--permutations <n>',
      'sign-flip budget of the permutation test (exact enumeration when 2^n <= it)',
      '10000',
    )
    .option(
      '--bootstrap <n>',
      'resamples of the bootstrap test and of the 95% CI of the mean difference',
      '10000',
    )
    .option('--seed <n>', 'seed of every resampling (mulberry32)', '42')
    .addOption(
      new Option(
        '--by <groupings>',
        `breakdowns by a grouping the preset defines (choices: ${GROUPING_NAMES.join(', ')}; domain: any RETECO sub-track, turn-depth: 2a/2c, step: 1b); repeat or comma-separate`,
      ).argParser(collectList<GroupingName>),
    )
    .option(
      '--min-group-size <n>',
      'groups with fewer queries are shown but not tested (default 6: below it no sign-based two-sided test reaches p < 0.05)',
      '6',
    )
    .addOption(formatOption(COMPARE_FORMATS))
    .addOption(
      digitsOption(
        'decimals of means and differences in table, markdown, latex and html output (0 to 17; default 4)',
      ),
    )
    .addOption(
      explainOption(
        'print the conventions the runs are evaluated under (on stderr for csv and json)',
      ),
    )
  addRunLabelOptions(cmd)
  addConventionOptions(cmd).action(
    async (files: string[], flags: CompareFlags, command: Command) => {
      const issues: InputIssue[] = []
      const n = numbers(flags, issues)
      const tests: TestName[] = [...new Set<TestName>(flags.test ?? ['t'])]
      const badTests = tests.filter((t) => !(TEST_NAMES as readonly string[]).includes(t))
      const by = [...new Set(flags.by ?? [])]
      const badBy = by.filter((g) => !(GROUPING_NAMES as readonly string[]).includes(g))
      issues.push(
        ...badTests.map(
          (t): InputIssue => ({
            code: 'bad_argument',
            option: '--test',
            found: t,
            expected: TEST_NAMES.join(', '),
          }),
        ),
        ...badBy.map(
          (g): InputIssue => ({
            code: 'bad_argument',
            option: '--by',
            found: g,
            expected: GROUPING_NAMES.join(', '),
          }),
        ),
      )
      if (flags.missingQueries === 'skip')
        issues.push({
          code: 'bad_argument',
          option: '--missing-queries',
          found: 'skip',
          expected:
            'zero (paired tests need every run on the same queries; missing queries are zero-filled and counted)',
        })
      if (issues.length) throw new InputError(issues)
      const labelled = async (args: readonly string[]) => {
        const runs = await resolveRunLabels(args, runLabelOptions(flags))
        // --baseline may name a run by its path as typed; the table knows runs by their labels.
        const byPath = runs.find(
          (r, i) =>
            flags.baseline !== undefined &&
            flags.baseline !== r.name &&
            (r.path === flags.baseline || args[i] === flags.baseline),
        )
        return { runs, baseline: byPath ? byPath.name : (flags.baseline ?? null) }
      }
      const options = {
        tests,
        correction: flags.correction,
        alpha: n.alpha,
        permutations: n.permutations,
        bootstrap: n.bootstrap,
        seed: n.seed,
        minGroupSize: n.minGroupSize,
        baseline: flags.baseline ?? null,
        by,
      }
      let table
      if (isReteco(flags.preset)) {
        if (flags.data === undefined)
          throw new TrecscoreError(
            `--preset ${flags.preset} needs --data <dir> (RETECO data directory); every argument is then a run`,
            2,
          )
        const engineOnly = flagsGiven(command, CONVENTION_FLAG_KEYS)
        if (engineOnly.length)
          throw new TrecscoreError(
            `${engineOnly.join(', ')}: RETECO runs are scored under the evaluation plan's conventions (see trecscore score --preset ${flags.preset})`,
            2,
          )
        if (flags.qrels !== undefined)
          throw new TrecscoreError(
            `--qrels: --preset ${flags.preset} takes its qrels from --data`,
            2,
          )
        const named = await labelled(files)
        options.baseline = named.baseline
        if (flags.explain)
          explainStream(flags.format).write(
            `conventions: the evaluation plan's (see trecscore presets show ${flags.preset})\n\n`,
          )
        const { table: t, warnings } = await perQueryTableFromReteco({
          preset: flags.preset,
          data: flags.data,
          split: flags.split,
          runs: named.runs,
          ...(flags.measure ? { measures: flags.measure } : {}),
          ...(flags.domains ? { domains: flags.domains.split(',').filter(Boolean) } : {}),
        })
        for (const w of warnings)
          if (w.warnings.length)
            process.stderr.write(
              `trecscore: warning: ${w.run}: ${w.warnings.length} scoring warning(s); trecscore score --preset ${flags.preset} lists them\n`,
            )
        table = t
      } else if (
        flags.preset !== undefined &&
        getPreset(flags.preset).input.qrels === 'skillret-data'
      ) {
        const preset = getPreset(flags.preset)
        if (flags.data === undefined)
          throw new TrecscoreError(
            `--preset ${preset.id} needs --data <dir> (the SkillRet data folder); every argument is then a run`,
            2,
          )
        if (flags.qrels !== undefined)
          throw new TrecscoreError(`--qrels: --preset ${preset.id} takes its qrels from --data`, 2)
        const other = flagsGiven(command, [
          'split',
          'domains',
          'relMap',
          ...conventionFlagKeys(['relMap']),
        ])
        if (other.length)
          throw new TrecscoreError(
            `${other.join(', ')}: --preset ${preset.id} fixes the conventions and reads its qrels from --data`,
            2,
          )
        if (files.length < 2)
          throw new TrecscoreError(
            `compare needs at least 2 runs with --preset ${preset.id}, got ${files.length}`,
            2,
          )
        const named = await labelled(files)
        options.baseline = named.baseline
        if (flags.explain)
          explainStream(flags.format).write(
            `conventions: those of preset ${preset.id} (see trecscore presets show ${preset.id}); missing queries are zero-filled for paired tests\n\n`,
          )
        table = (
          await scorePresetForComparison({
            preset,
            data: flags.data,
            runs: named.runs,
            ...(flags.measure ? { measures: flags.measure } : {}),
          })
        ).table
      } else {
        const retecoOnly = ['data', 'split', 'domains'].filter(
          (o) => command.getOptionValueSource(o) === 'cli',
        )
        if (retecoOnly.length)
          throw new TrecscoreError(
            `${retecoOnly.map((o) => `--${o}`).join(', ')}: only with --preset reteco-1a|reteco-1b|reteco-2a|reteco-2c (--data also with skillret|skillret-fusion)`,
            2,
          )
        const [qrelsFile, ...runFiles] = flags.qrels !== undefined ? [flags.qrels, ...files] : files
        if (runFiles.length < 2)
          throw new TrecscoreError(
            `compare needs QRELS and at least 2 runs, got ${flags.qrels !== undefined ? `--qrels and ${files.length} run(s)` : `${files.length} file(s)`}`,
            2,
          )
        const preset = flags.preset === undefined ? null : getPreset(flags.preset)
        if (preset && preset.input.qrels !== 'trec-qrels')
          throw new TrecscoreError(
            `--preset ${preset.id}: compare takes presets scored from TREC qrels (${[
              ...PRESETS.values(),
            ]
              .filter((p) => p.input.qrels === 'trec-qrels')
              .map((p) => p.id)
              .join(', ')}), the SkillRet presets (with --data) or RETECO sub-tracks`,
            2,
          )
        const measureNames = flags.measure ?? (preset ? [...preset.measures] : null)
        if (!measureNames)
          throw new TrecscoreError(
            "required option '-m, --measure <names>' not specified (or give --preset); see `trecscore compare --help`",
            2,
          )
        const engineFlags = flagsGiven(command, conventionFlagKeys(['relMap']))
        if (preset && engineFlags.length)
          throw new TrecscoreError(
            `${engineFlags.join(', ')}: --preset ${preset.id} fixes the conventions`,
            2,
          )
        const named = await labelled(runFiles)
        options.baseline = named.baseline
        if (flags.explain)
          explainStream(flags.format).write(
            preset
              ? `conventions: those of preset ${preset.id} (see trecscore presets show ${preset.id}); missing queries are zero-filled for paired tests\n\n`
              : `conventions (profile ${flags.profile}; missing queries are zero-filled for paired tests):\n${describeConventions(conventionsFromFlags(flags)).replace(/^/gm, '  ')}\n\n`,
          )
        // With a preset, per-query values come from the route `score --preset` takes (scorePreset).
        if (preset)
          table = (
            await scorePresetForComparison({
              preset,
              qrels: qrelsFile!,
              runs: named.runs,
              ...(flags.measure ? { measures: flags.measure } : {}),
              ...(flags.relMap ? { relMap: flags.relMap } : {}),
            })
          ).table
        else
          table = await perQueryTableFromFiles({
            qrels: qrelsFile!,
            runs: named.runs,
            measures: measureNames,
            conventions: conventionsFromFlags(flags),
            conventionsFrom: `profile ${flags.profile}`,
            remap: flags.relMap ? parseRelMap(flags.relMap) : null,
            ...(flags.corpus ? { corpus: flags.corpus } : {}),
          })
      }
      const result = compareTable(table, options)
      // JSON is written in chunks (the same text as compareToJson): a million queries' values are
      // never one string.
      if (flags.format === 'json')
        await writeChunks(withNewline(jsonChunks(result, { nonFinite: (v) => String(v) })))
      else
        process.stdout.write(
          renderCompare(result, { format: flags.format, digits: flags.digits ?? 4 }),
        )
    },
  )
}

function* withNewline(chunks: Iterable<string>): Generator<string, void, undefined> {
  yield* chunks
  yield '\n'
}
