import { type Command, InvalidArgumentError, Option } from 'commander'
import { resolveRunLabels } from '../../entries/io.js'
import {
  explainPresetScore,
  explainRetecoReports,
  explainSkillRetScore,
  getPreset,
  isSkillRetPreset,
  PRESETS,
  parseSkillRetCutoffs,
  presetNotes,
  presetScoreTable,
  presetSensitivity,
  presetWarnings,
  renderPresetScore,
  renderSkillRetScore,
  retecoScoreTable,
  runPreset,
  SCORE_TABLE_FORMATS,
} from '../../entries/presets.js'
import {
  renderSensitivity,
  renderTable,
  SENSITIVITY_FORMATS,
  type SensitivityFormat,
} from '../../entries/report.js'
import {
  RETECO_CONVENTION_SET_NAMES,
  RETECO_PRESETS,
  RETECO_REPORT_FORMATS,
  type RetecoConventionSetName,
  type RetecoPreset,
  type RetecoReportFormat,
  renderRetecoReports,
  scoreRetecoRuns,
} from '../../entries/reteco.js'
import { flagsGiven } from '../conventions-options.js'
import {
  addRunLabelOptions,
  explainOption,
  explainStream,
  formatOption,
  type RunLabelFlags,
  runLabelOptions,
} from './shared-options.js'

interface ScoreFlags extends RunLabelFlags {
  preset: RetecoPreset | string
  data?: string
  qrels?: string
  split: string
  conventions: RetecoConventionSetName
  labels?: string
  domains?: string
  perQuery?: boolean
  format: RetecoReportFormat | 'csv' | 'tsv'
  digits: number
  k?: string
  explain?: boolean
  ignoreUnknownQueries?: boolean
  strict?: boolean
  relMap?: string
  force?: boolean
  candidates?: string
  docLang?: string
  writeQrels?: string
  allowMissingCorpus?: boolean
  sensitivity?: boolean
}

/** Options of the presets read from TREC qrels (NeuCLIR's mainly); refused for SkillRet and RETECO. */
const QRELS_PRESET_ONLY = ['relMap', 'force', 'candidates', 'docLang', 'writeQrels']

function qrelsPresetOnlyGiven(cmd: Command): string[] {
  return flagsGiven(cmd, QRELS_PRESET_ONLY)
}

const SKILLRET_ONLY = ['k', 'ignoreUnknownQueries', 'strict']

function skillRetOnlyGiven(cmd: Command): string[] {
  return flagsGiven(cmd, SKILLRET_ONLY)
}

function digits(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 0 || n > 17)
    throw new InvalidArgumentError('expected an integer from 0 to 17')
  return n
}

/** `--sensitivity`: check the format, then print the preset's sensitivity report. */
async function writeSensitivity(
  cmd: Command,
  flags: ScoreFlags,
  report: () => ReturnType<typeof presetSensitivity>,
): Promise<void> {
  if (!(SENSITIVITY_FORMATS as readonly string[]).includes(flags.format))
    cmd.error(
      `error: --sensitivity writes ${SENSITIVITY_FORMATS.join(' or ')}, not --format ${flags.format}`,
      { exitCode: 2, code: 'trecscore.sensitivityFormat' },
    )
  if (flags.perQuery)
    cmd.error('error: --sensitivity counts the queries that change; drop --per-query', {
      exitCode: 2,
      code: 'trecscore.sensitivityPerQuery',
    })
  const r = await report()
  process.stdout.write(
    renderSensitivity(r, {
      format: flags.format as SensitivityFormat,
      ...(cmd.getOptionValueSource('digits') === 'cli' ? { digits: flags.digits } : {}),
    }),
  )
}

function isReteco(preset: string): preset is RetecoPreset {
  return (RETECO_PRESETS as readonly string[]).includes(preset)
}

/**
 * Print the score and, with `--explain`, the text that says how it was made: on stderr next to a
 * machine format (JSON), else on stdout after the table, one blank line between.
 */
function writeScore(rendered: string, explain: string | null, format: string): void {
  process.stdout.write(rendered)
  if (explain === null) return
  const out = explainStream(format)
  out.write(out === process.stdout ? `\n${explain}` : explain)
}

/**
 * `trecscore score --preset reteco-1a|reteco-1b|reteco-2a|reteco-2c --data DIR RUN...`,
 * `trecscore score --preset skillret|skillret-fusion --data DIR RUN... [--k LIST] [--explain]`, and
 * `trecscore score --preset dl21-…|neuclir23-… --qrels FILE RUN... [--rel-map MAP] [--force] [--candidates FILE] [--doc-lang FILE]`
 * for the other presets of the registry.
 */
export function registerScore(program: Command): void {
  const command = program
    .command('score')
    .description(
      'score runs of a benchmark preset (RETECO / SemEval-2027 Task 1, SkillRet, TREC 2023 NeuCLIR, TREC 2021 DL; see `trecscore presets`) with its official conventions',
    )
    .argument(
      '<runs...>',
      'runs: one TREC file for all domains (Track 1), or a directory with one file per domain (<domain>.trec; needed for Track 2)',
    )
    .addOption(
      new Option(
        '--preset <name>',
        'a RETECO sub-track (2c retrieval is scored as 2a) or a preset of `trecscore presets`',
      )
        .choices([...RETECO_PRESETS, ...PRESETS.keys()])
        .makeOptionMandatory(),
    )
    .option(
      '--data <dir>',
      'data directory: RETECO release (track1_tempo/, track2_recor/) or pilot sample; SkillRet data/ (queries/test.jsonl)',
    )
    .option(
      '--qrels <file>',
      'TREC qrels file (presets distributed as TREC qrels, e.g. dl21-passage)',
    )
    .option('--split <split>', 'split whose qrels are used', 'dev')
    .addOption(
      new Option(
        '--conventions <set>',
        'convention set: plan (the evaluation plan, headline), official-baseline (pytrec_eval + official_baseline.py), scorer-py (scorer.py)',
      )
        .choices(RETECO_CONVENTION_SET_NAMES)
        .default('plan'),
    )
    .option(
      '--labels <file>',
      'frozen judge-label JSONL (trecscore.reteco-labels/1) for the temporal diagnostics, instead of qrels + steps',
    )
    .option('--domains <list>', 'score only these domains (comma-separated)')
    .option(
      '--allow-missing-corpus',
      'RETECO plan: score a domain without documents.jsonl, keeping its unknown doc ids (the printed conventions say so); else exit 2',
    )
    .option('-q, --per-query', 'also print one row per topic (query, step or turn)')
    .addOption(
      formatOption(
        [...RETECO_REPORT_FORMATS, ...SCORE_TABLE_FORMATS],
        'output format (csv and tsv: full precision, one row per run and aggregation; with -q the per-query rows first)',
      ),
    )
    .option('--digits <n>', 'decimals in table and markdown output', digits, 4)
    .option('--k <list>', 'SkillRet cutoffs, comma-separated (default 5,10,15)')
    .addOption(
      explainOption(
        "print the conventions that made the numbers (the preset's, per-measure overrides, rounding, official tool and version) and, per run, what was zero-filled, ignored or deduplicated (on stderr for json, csv and tsv, else after the table; SkillRet: also why skillret and skillret-fusion differ)",
      ),
    )
    .option(
      '--strict',
      'SkillRet: refuse (exit 2) run queries that are not in the queries file; by default they are ignored and counted, as the official code does',
    )
    .option(
      '--ignore-unknown-queries',
      'SkillRet: the default (run queries not in the queries file are ignored, with a note on stderr); kept as an alias, the opposite of --strict',
    )
    .option(
      '--rel-map <map>',
      "presets with --qrels: map every qrels grade before scoring and before the qrels checks: a preset's named map (neuclir-4to3 = 3:3,2:1,1:0,0:0) or GRADE:VALUE,... (grades not listed keep their value)",
    )
    .option(
      '--write-qrels <file>',
      'with --rel-map: also write the remapped qrels to this file (lines otherwise unchanged)',
    )
    .option(
      '--force',
      'NeuCLIR: score qrels that hold grade 2 (unconverted 4-point judgments) with a warning instead of exit 2',
    )
    .option(
      '--candidates <file>',
      "NeuCLIR reranking: the provided candidate lists (a TREC run); warn on documents outside a topic's list and on topics with fewer or more documents than it",
    )
    .option(
      '--sensitivity',
      `instead of the scores, how much each score and the ranking of the runs depend on the preset's conventions: each convention the preset does not fix (all but the relevance level) varied in turn, with deltas, queries changed, Kendall tau and the pairs that swap (see README "Convention sensitivity"); -f ${SENSITIVITY_FORMATS.join(' or ')}; RETECO: the plan conventions`,
    )
    .option(
      '--doc-lang <file>',
      'neuclir23-mlir: doc-to-language map ("docid lang" lines, or language qrels) for the one-language check (default: the qrels\' language column)',
    )
  addRunLabelOptions(command, 'path').action(
    async (runArgs: string[], flags: ScoreFlags, cmd: Command) => {
      // Labels are resolved after the option checks, so a usage error never waits on --names-from tag.
      const labelled = (): ReturnType<typeof resolveRunLabels> =>
        resolveRunLabels(runArgs, runLabelOptions(flags, 'path'))
      const qrelsOnly = qrelsPresetOnlyGiven(cmd)
      if (qrelsOnly.length && (isSkillRetPreset(flags.preset) || isReteco(flags.preset))) {
        cmd.error(
          `error: ${qrelsOnly.join(', ')} appl${qrelsOnly.length === 1 ? 'ies' : 'y'} to presets scored from --qrels (TREC 2023 NeuCLIR, TREC 2021 DL), not to '${flags.preset}'`,
          { exitCode: 2, code: 'trecscore.qrelsPresetOption' },
        )
      }
      if (flags.writeQrels !== undefined && flags.relMap === undefined)
        cmd.error('error: --write-qrels needs --rel-map', {
          exitCode: 2,
          code: 'trecscore.writeQrelsWithoutRelMap',
        })
      if (isSkillRetPreset(flags.preset)) {
        if (flags.data === undefined)
          cmd.error(`error: preset '${flags.preset}' needs --data <dir>`, {
            exitCode: 2,
            code: 'trecscore.missingData',
          })
        const other = [
          'qrels',
          'split',
          'conventions',
          'labels',
          'domains',
          'digits',
          'perQuery',
          'allowMissingCorpus',
        ].filter((o) => cmd.getOptionValueSource(o) === 'cli')
        if (other.length)
          cmd.error(
            `error: ${other.map((o) => (o === 'perQuery' ? '--per-query' : o === 'allowMissingCorpus' ? '--allow-missing-corpus' : `--${o}`)).join(', ')} do${other.length === 1 ? 'es' : ''} not apply to '${flags.preset}'`,
            { exitCode: 2, code: 'trecscore.skillretOption' },
          )
        const format = flags.format
        if (flags.strict && flags.ignoreUnknownQueries)
          cmd.error('error: --strict and --ignore-unknown-queries contradict each other', {
            exitCode: 2,
            code: 'trecscore.strictAndIgnore',
          })
        if (flags.sensitivity) {
          const preset = flags.preset
          const data = flags.data
          await writeSensitivity(cmd, flags, async () =>
            presetSensitivity(
              preset,
              { data, runs: await labelled() },
              flags.k !== undefined ? { cutoffs: parseSkillRetCutoffs(flags.k) } : {},
            ),
          )
          return
        }
        const result = await runPreset(
          flags.preset,
          { data: flags.data, runs: await labelled() },
          {
            ...(flags.k !== undefined ? { cutoffs: parseSkillRetCutoffs(flags.k) } : {}),
            unknownQueries: flags.strict ? 'error' : 'ignore',
          },
        )
        for (const n of presetNotes(result)) process.stderr.write(`trecscore: note: ${n}\n`)
        const rendered =
          format === 'csv' || format === 'tsv'
            ? renderTable(presetScoreTable(result, false), format)
            : renderSkillRetScore(result, { format })
        writeScore(rendered, flags.explain ? explainSkillRetScore(result) : null, format)
        return
      }
      const skillRetOnly = skillRetOnlyGiven(cmd)
      if (skillRetOnly.length)
        cmd.error(
          `error: ${skillRetOnly.join(', ')} appl${skillRetOnly.length === 1 ? 'ies' : 'y'} to the SkillRet presets only, not to '${flags.preset}'`,
          { exitCode: 2, code: 'trecscore.skillretOnlyOption' },
        )
      if (!isReteco(flags.preset)) {
        if (!flags.qrels)
          cmd.error(`error: preset '${flags.preset}' needs --qrels <file>`, {
            exitCode: 2,
            code: 'trecscore.missingQrels',
          })
        const retecoOnly = [
          'data',
          'split',
          'conventions',
          'labels',
          'domains',
          'digits',
          'allowMissingCorpus',
        ].filter((o) => cmd.getOptionValueSource(o) === 'cli')
        if (retecoOnly.length)
          cmd.error(
            `error: ${retecoOnly.map((o) => (o === 'allowMissingCorpus' ? '--allow-missing-corpus' : `--${o}`)).join(', ')} appl${retecoOnly.length === 1 ? 'ies' : 'y'} to the RETECO presets only, not to '${flags.preset}'`,
            { exitCode: 2, code: 'trecscore.retecoOnlyOption' },
          )
        if (flags.sensitivity) {
          const preset = flags.preset
          const qrels = flags.qrels
          await writeSensitivity(cmd, flags, async () =>
            presetSensitivity(preset, {
              qrels,
              runs: await labelled(),
              ...(flags.relMap !== undefined ? { relMap: flags.relMap } : {}),
              ...(flags.force ? { force: true } : {}),
            }),
          )
          return
        }
        const result = await runPreset(flags.preset, {
          qrels: flags.qrels,
          runs: await labelled(),
          ...(flags.relMap !== undefined ? { relMap: flags.relMap } : {}),
          ...(flags.writeQrels !== undefined ? { writeQrels: flags.writeQrels } : {}),
          ...(flags.force ? { force: true } : {}),
          ...(flags.candidates !== undefined ? { candidates: flags.candidates } : {}),
          ...(flags.docLang !== undefined ? { docLang: flags.docLang } : {}),
        })
        for (const w of presetWarnings(result)) process.stderr.write(`trecscore: warning: ${w}\n`)
        for (const n of presetNotes(result)) process.stderr.write(`trecscore: note: ${n}\n`)
        const rendered =
          flags.format === 'csv' || flags.format === 'tsv'
            ? renderTable(presetScoreTable(result, !!flags.perQuery), flags.format)
            : renderPresetScore(result, { format: flags.format, perQuery: !!flags.perQuery })
        writeScore(
          rendered,
          flags.explain ? explainPresetScore(getPreset(flags.preset), result) : null,
          flags.format,
        )
        return
      }
      if (flags.data === undefined)
        cmd.error("error: required option '--data <dir>' not specified", {
          code: 'commander.missingMandatoryOptionValue',
        })
      if (flags.sensitivity) {
        if (flags.conventions !== 'plan')
          cmd.error(
            `error: --sensitivity varies the plan conventions on the engine; --conventions ${flags.conventions} is a reference emulation (compare the convention sets by scoring with each)`,
            { exitCode: 2, code: 'trecscore.sensitivityReteco' },
          )
        const preset = flags.preset
        const data = flags.data
        await writeSensitivity(cmd, flags, async () =>
          presetSensitivity(preset, {
            data,
            split: flags.split,
            runs: await labelled(),
            ...(flags.labels ? { labels: flags.labels } : {}),
            ...(flags.domains ? { domains: flags.domains.split(',').filter(Boolean) } : {}),
            ...(flags.allowMissingCorpus ? { allowMissingCorpus: true } : {}),
          }),
        )
        return
      }
      const reports = await scoreRetecoRuns({
        preset: flags.preset,
        data: flags.data,
        split: flags.split,
        runs: await labelled(),
        conventions: flags.conventions,
        ...(flags.labels ? { labels: flags.labels } : {}),
        ...(flags.domains ? { domains: flags.domains.split(',').filter(Boolean) } : {}),
        ...(flags.allowMissingCorpus ? { allowMissingCorpus: true } : {}),
      })
      const rendered =
        flags.format === 'csv' || flags.format === 'tsv'
          ? renderTable(
              retecoScoreTable(
                reports.filter((r) => !r.errors.length),
                !!flags.perQuery,
              ),
              flags.format,
            )
          : renderRetecoReports(reports, {
              format: flags.format,
              perQuery: !!flags.perQuery,
              digits: flags.digits,
            })
      writeScore(
        rendered,
        flags.explain ? explainRetecoReports(reports, { digits: flags.digits }) : null,
        flags.format,
      )
      const bad = reports.filter((r) => r.errors.length)
      for (const r of bad)
        for (const e of r.errors.slice(0, 50)) process.stderr.write(`trecscore: ${e}\n`)
      if (bad.length) {
        process.stderr.write(
          `trecscore: ${bad.length} run(s) could not be scored: ${bad.map((r) => r.run).join(', ')}\n`,
        )
        process.exitCode = 2
      }
    },
  )
}
