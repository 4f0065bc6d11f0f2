import type { Command } from 'commander'
import { InputError, TrecscoreError } from '../../entries/errors.js'
import { resolveRunLabels } from '../../entries/io.js'
import { buildReportData, DEFAULT_REPORT_MEASURES, writeHtmlReport } from '../../entries/presets.js'
import { describeConventions } from '../../entries/report.js'
import { PLAN_METRICS, retecoReportRoute } from '../../entries/reteco.js'
import {
  addConventionOptions,
  type ConventionFlags,
  conventionFlagKeys,
  conventionsFromFlags,
  flagName,
} from '../conventions-options.js'
import {
  addRunLabelOptions,
  explainOption,
  measureOption,
  outOption,
  type RunLabelFlags,
  runLabelOptions,
} from './shared-options.js'

interface ReportFlags extends ConventionFlags, RunLabelFlags {
  measure?: string[]
  qrels?: string
  preset?: string
  data?: string
  split: string
  baseline?: string
  out: string
  title?: string
  explain?: boolean
  sensitivity?: boolean
}

/** The convention flags report offers: all but --corpus and --rel-map, which it cannot honour. */
const CONVENTION_FLAGS = conventionFlagKeys(['corpus', 'relMap'])

/** `trecscore report QRELS RUN... [-m MEASURE...] [--preset NAME] [--baseline RUN] --out report.html` */
export function registerReport(program: Command): void {
  const cmd = program
    .command('report')
    .description(
      'write one self-contained HTML report (no network): sortable leaderboard with conventions and counts, per-query distributions, per-domain and turn-depth charts, differences against a baseline, significance markers',
    )
    .argument(
      '<inputs...>',
      'QRELS RUN... (TREC files), or RUN... with --qrels FILE; with a RETECO preset only RUN... (the qrels come from --data); a run may be given as LABEL=PATH',
    )
    .addOption(
      measureOption(
        `measures (default ${DEFAULT_REPORT_MEASURES.join(' ')}; RETECO: ${PLAN_METRICS.join(' ')}; a preset: its own)`,
      ),
    )
    .option(
      '--qrels <file>',
      'TREC qrels file; every argument is then a run (as with score --preset)',
    )
    .option(
      '--preset <name>',
      'reteco-1a|reteco-1b|reteco-2a|reteco-2c (with --data; per-domain bars, turn-depth chart for 2a/2c), skillret|skillret-fusion (with --data), or a preset read from TREC qrels (dl21-…)',
    )
    .option(
      '--data <dir>',
      'RETECO data directory (with a RETECO preset); SkillRet data folder (with a SkillRet preset)',
    )
    .option('--split <split>', 'RETECO split whose qrels are used', 'dev')
    .option(
      '--baseline <run>',
      'baseline run, one of the runs (its label or path as given): difference chart and tests against it (default: difference chart against the first run, tests over all pairs)',
    )
    .addOption(outOption('HTML file to write').makeOptionMandatory())
    .option('--title <text>', 'page title')
    .addOption(explainOption('print the conventions the runs are evaluated under (on stderr)'))
    .option(
      '--sensitivity',
      'add a "Convention sensitivity" section: each score recomputed under every alternative of each convention (a preset: those it does not fix), a delta chart per measure, and the alternatives under which the runs trade places (Kendall tau, pairs)',
    )
  addRunLabelOptions(cmd)
  addConventionOptions(cmd, ['--corpus', '--rel-map']).action(
    async (inputs: string[], flags: ReportFlags, self: Command) => {
      const given = CONVENTION_FLAGS.filter((k) => self.getOptionValueSource(k) === 'cli')
      if (flags.preset !== undefined && given.length)
        throw new InputError(
          given.map((k) => ({
            code: 'bad_argument',
            option: flagName(k),
            found: String((flags as unknown as Record<string, unknown>)[k]),
            expected: `no convention flags with --preset ${flags.preset} (the preset's conventions apply)`,
          })),
        )
      const fromData =
        (flags.preset?.startsWith('reteco-') ?? false) ||
        flags.preset === 'skillret' ||
        flags.preset === 'skillret-fusion'
      if (fromData && flags.qrels !== undefined)
        throw new TrecscoreError(`--qrels: --preset ${flags.preset} takes its qrels from --data`, 2)
      const qrels = fromData ? undefined : (flags.qrels ?? inputs[0])
      const runArgs = fromData || flags.qrels !== undefined ? inputs : inputs.slice(1)
      const runs = await resolveRunLabels(runArgs, runLabelOptions(flags))
      // --baseline may name a run by its path as typed; the report knows runs by their labels.
      const baseline =
        flags.baseline === undefined
          ? undefined
          : ((
              runs.find((r) => r.name === flags.baseline) ??
              runs.find((r, i) => r.path === flags.baseline || runArgs[i] === flags.baseline)
            )?.name ?? flags.baseline)
      const conventions = conventionsFromFlags(flags)
      if (flags.explain)
        process.stderr.write(
          `conventions${flags.preset ? ` (preset ${flags.preset})` : ` (profile ${flags.profile})`}:\n${flags.preset ? `  those of preset ${flags.preset} (see trecscore presets show ${flags.preset})` : describeConventions(conventions).replace(/^/gm, '  ')}\n`,
        )
      const data = await buildReportData({
        runs,
        routes: [retecoReportRoute],
        split: flags.split,
        conventions,
        ...(qrels !== undefined ? { qrels } : {}),
        ...(flags.measure ? { measures: flags.measure } : {}),
        ...(flags.preset !== undefined ? { preset: flags.preset } : {}),
        ...(flags.data !== undefined ? { data: flags.data } : {}),
        ...(baseline !== undefined ? { baseline } : {}),
        ...(flags.title !== undefined ? { title: flags.title } : {}),
        ...(flags.sensitivity ? { sensitivity: true } : {}),
      })
      await writeHtmlReport(data, flags.out)
      for (const n of data.notes.slice(0, 5)) process.stderr.write(`trecscore: note: ${n}\n`)
      if (data.notes.length > 5)
        process.stderr.write(
          `trecscore: note: … ${data.notes.length - 5} more notes, listed in the report\n`,
        )
      process.stderr.write(
        `trecscore: report: wrote ${flags.out} (${data.runs.length} run(s), ${data.measures.length} measure(s)${data.significance ? '' : ', no significance tests'})\n`,
      )
    },
  )
}
