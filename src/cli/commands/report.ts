import type { Command } from 'commander'
import { addConventionOptions, conventionsFromFlags, type ConventionFlags } from '../conventions-options.js'
import { DEFAULT_REPORT_MEASURES, PLAN_METRICS, buildReportData, writeHtmlReport, InputError } from '../../index.js'

interface ReportFlags extends ConventionFlags {
  measure?: string[]
  preset?: string
  data?: string
  split: string
  baseline?: string
  out: string
  title?: string
}

const CONVENTION_FLAGS = ['profile', 'ordering', 'scorePrecision', 'duplicates', 'corpus', 'unknownDocs', 'missingQueries', 'depth', 'judgedOnly', 'relLevel', 'gains', 'relMap', 'queriesWithoutRelevant']

function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
}

/** `trecscore report QRELS RUN... [-m MEASURE...] [--preset NAME] [--baseline RUN] --out report.html` */
export function registerReport(program: Command): void {
  const cmd = program
    .command('report')
    .description('write one self-contained HTML report (no network): sortable leaderboard with conventions and counts, per-query distributions, per-domain and turn-depth charts, differences against a baseline, significance markers')
    .argument('<inputs...>', 'QRELS RUN... (TREC files); with a RETECO preset only RUN... (the qrels come from --data)')
    .option('-m, --measure <names...>', `measures (default ${DEFAULT_REPORT_MEASURES.join(' ')}; RETECO: ${PLAN_METRICS.join(' ')}; a preset: its own)`, (v: string, prev: string[] = []) => [...prev, v])
    .option('--preset <name>', 'reteco-1a|reteco-1b|reteco-2a|reteco-2c (with --data; per-domain bars, turn-depth chart for 2a/2c) or a preset read from TREC qrels (dl21-…)')
    .option('--data <dir>', 'RETECO data directory (with a RETECO preset)')
    .option('--split <split>', 'RETECO split whose qrels are used', 'dev')
    .option('--baseline <run>', 'baseline run, one of the runs as given: difference chart and tests against it (default: difference chart against the first run, tests over all pairs)')
    .requiredOption('--out <file>', 'HTML file to write')
    .option('--title <text>', 'page title')
  addConventionOptions(cmd).action(async (inputs: string[], flags: ReportFlags, self: Command) => {
    const given = CONVENTION_FLAGS.filter((k) => self.getOptionValueSource(k) === 'cli')
    const unsupported = given.filter((k) => k === 'corpus' || k === 'relMap')
    if (unsupported.length) throw new InputError(unsupported.map((k) => ({ code: 'bad_argument', option: flagName(k), found: String((flags as unknown as Record<string, unknown>)[k]), expected: 'not with report (use evaluate for it)' })))
    if (flags.preset !== undefined && given.length) throw new InputError(given.map((k) => ({ code: 'bad_argument', option: flagName(k), found: String((flags as unknown as Record<string, unknown>)[k]), expected: `no convention flags with --preset ${flags.preset} (the preset's conventions apply)` })))
    const reteco = flags.preset?.startsWith('reteco-') ?? false
    const qrels = reteco ? undefined : inputs[0]
    const rest = reteco ? inputs : inputs.slice(1)
    const data = await buildReportData({
      runs: rest,
      split: flags.split,
      conventions: conventionsFromFlags(flags),
      ...(qrels !== undefined ? { qrels } : {}),
      ...(flags.measure ? { measures: flags.measure } : {}),
      ...(flags.preset !== undefined ? { preset: flags.preset } : {}),
      ...(flags.data !== undefined ? { data: flags.data } : {}),
      ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
      ...(flags.title !== undefined ? { title: flags.title } : {}),
    })
    await writeHtmlReport(data, flags.out)
    for (const n of data.notes.slice(0, 5)) process.stderr.write(`trecscore: note: ${n}\n`)
    if (data.notes.length > 5) process.stderr.write(`trecscore: note: … ${data.notes.length - 5} more notes, listed in the report\n`)
    process.stderr.write(`trecscore: report: wrote ${flags.out} (${data.runs.length} run(s), ${data.measures.length} measure(s)${data.significance ? '' : ', no significance tests'})\n`)
  })
}
