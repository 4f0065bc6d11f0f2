import { InvalidArgumentError, Option, type Command } from 'commander'
import {
  RETECO_CONVENTION_SET_NAMES,
  RETECO_PRESETS,
  RETECO_REPORT_FORMATS,
  renderRetecoReports,
  scoreRetecoRuns,
  type RetecoConventionSetName,
  type RetecoPreset,
  type RetecoReportFormat,
  PRESETS,
  renderPresetScore,
  scorePreset,
} from '../../index.js'

interface ScoreFlags {
  preset: RetecoPreset | string
  data?: string
  qrels?: string
  split: string
  conventions: RetecoConventionSetName
  labels?: string
  domains?: string
  perQuery?: boolean
  format: RetecoReportFormat
  digits: number
}

function digits(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 0 || n > 17) throw new InvalidArgumentError('expected an integer from 0 to 17')
  return n
}

function isReteco(preset: string): preset is RetecoPreset {
  return (RETECO_PRESETS as readonly string[]).includes(preset)
}

/**
 * `trecscore score --preset reteco-1a|reteco-1b|reteco-2a|reteco-2c --data DIR RUN...`, and
 * `trecscore score --preset dl21-… --qrels FILE RUN...` for the presets of the preset registry.
 */
export function registerScore(program: Command): void {
  program
    .command('score')
    .description('score runs of a benchmark preset (RETECO / SemEval-2027 Task 1, TREC 2021 DL; see `trecscore presets`) with its official conventions')
    .argument('<runs...>', 'runs: one TREC file for all domains (Track 1), or a directory with one file per domain (<domain>.trec; needed for Track 2)')
    .addOption(new Option('--preset <preset>', 'a RETECO sub-track (2c retrieval is scored as 2a) or a preset of `trecscore presets`').choices([...RETECO_PRESETS, ...PRESETS.keys()]).makeOptionMandatory())
    .option('--data <dir>', 'RETECO data directory: the release (track1_tempo/, track2_recor/) or the pilot sample (RETECO presets)')
    .option('--qrels <file>', 'TREC qrels file (presets distributed as TREC qrels, e.g. dl21-passage)')
    .option('--split <split>', 'split whose qrels are used', 'dev')
    .addOption(new Option('--conventions <set>', 'convention set: plan (the evaluation plan, headline), official-baseline (pytrec_eval + official_baseline.py), scorer-py (scorer.py)').choices(RETECO_CONVENTION_SET_NAMES).default('plan'))
    .option('--labels <file>', 'frozen judge-label JSONL (trecscore.reteco-labels/1) for the temporal diagnostics, instead of qrels + steps')
    .option('--domains <list>', 'score only these domains (comma-separated)')
    .option('-q, --per-query', 'also print one row per topic (query, step or turn)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(RETECO_REPORT_FORMATS).default('table'))
    .option('--digits <n>', 'decimals in table and markdown output', digits, 4)
    .action(async (runs: string[], flags: ScoreFlags, cmd: Command) => {
      if (!isReteco(flags.preset)) {
        if (!flags.qrels) cmd.error(`error: preset '${flags.preset}' needs --qrels <file>`, { exitCode: 2, code: 'trecscore.missingQrels' })
        const retecoOnly = ['data', 'split', 'conventions', 'labels', 'domains', 'digits'].filter((o) => cmd.getOptionValueSource(o) === 'cli')
        if (retecoOnly.length) cmd.error(`error: ${retecoOnly.map((o) => `--${o}`).join(', ')} appl${retecoOnly.length === 1 ? 'ies' : 'y'} to the RETECO presets only, not to '${flags.preset}'`, { exitCode: 2, code: 'trecscore.retecoOnlyOption' })
        const score = await scorePreset(flags.preset, { qrels: flags.qrels, runs })
        for (const w of [...score.qrelsWarnings, ...score.runs.flatMap((r) => r.warnings)]) process.stderr.write(`trecscore: warning: ${w}\n`)
        process.stdout.write(renderPresetScore(score, { format: flags.format, perQuery: !!flags.perQuery }))
        return
      }
      if (flags.data === undefined) cmd.error("error: required option '--data <dir>' not specified", { code: 'commander.missingMandatoryOptionValue' })
      const reports = await scoreRetecoRuns({
        preset: flags.preset,
        data: flags.data,
        split: flags.split,
        runs,
        conventions: flags.conventions,
        ...(flags.labels ? { labels: flags.labels } : {}),
        ...(flags.domains ? { domains: flags.domains.split(',').filter(Boolean) } : {}),
      })
      process.stdout.write(renderRetecoReports(reports, { format: flags.format, perQuery: !!flags.perQuery, digits: flags.digits }))
      const bad = reports.filter((r) => r.errors.length)
      for (const r of bad) for (const e of r.errors.slice(0, 50)) process.stderr.write(`trecscore: ${e}\n`)
      if (bad.length) {
        process.stderr.write(`trecscore: ${bad.length} run(s) could not be scored: ${bad.map((r) => r.run).join(', ')}\n`)
        process.exitCode = 2
      }
    })
}
