import { type Command, Option } from 'commander'
import { formatPrepareFailure, TrecscoreError } from '../../entries/errors.js'
import {
  evaluateRunFile,
  type RunEvaluation,
  readAuxQrels,
  sensitivityOfRunFiles,
} from '../../entries/evaluate.js'
import {
  QRELS_FORMATS,
  type QrelsFormat,
  readIdList,
  readQrels,
  resolveRunLabels,
} from '../../entries/io.js'
import { parseMeasures } from '../../entries/measures.js'
import {
  describeConventions,
  describeCounts,
  FORMATS,
  type Format,
  renderResults,
  renderSensitivity,
  SENSITIVITY_FORMATS,
  type SensitivityFormat,
  SUMMARY_ROWS,
  type SummaryRows,
} from '../../entries/report.js'
import {
  addConventionOptions,
  type ConventionFlags,
  conventionsFromFlags,
  parseRelMap,
} from '../conventions-options.js'
import {
  addRunLabelOptions,
  digitsOption,
  explainOption,
  explainStream,
  formatOption,
  isMachineFormat,
  measureOption,
  type RunLabelFlags,
  runLabelOptions,
} from './shared-options.js'

interface EvaluateFlags extends ConventionFlags, RunLabelFlags {
  measure: string[]
  perQuery?: boolean
  format: Format
  digits?: number
  explain?: boolean
  qrelsFormat?: QrelsFormat
  auxQrels?: string
  sensitivity?: boolean
  aggregate: SummaryRows
}

/** `trecscore evaluate QRELS RUN... -m MEASURE...` */
export function registerEvaluate(program: Command): void {
  const cmd = program
    .command('evaluate')
    .description('evaluate one or more runs side by side, with every convention explicit')
    .argument('<qrels>', 'TREC qrels file (qid iter docno grade); - for stdin; .gz ok')
    .argument('<runs...>', 'TREC run files (qid iter docno rank score tag), or LABEL=PATH; .gz ok')
    .addOption(
      measureOption(
        "measures, ir_measures or trec_eval names: nDCG@10 'P(rel=2)@5' AP ndcg_cut.10",
      ).makeOptionMandatory(),
    )
    .option('-q, --per-query', 'also print one row per query')
    .addOption(
      new Option(
        '--aggregate <rows>',
        "summary rows of tables: mean (the 'all' row: each measure's mean, or sum for counts, geometric mean for GMAP), std (population standard deviation over the queries, numpy's std as ranx return_std), or mean+std; JSON always has both",
      )
        .choices(SUMMARY_ROWS)
        .default('mean'),
    )
    .addOption(formatOption(FORMATS))
    .addOption(digitsOption())
    .addOption(explainOption())
    .addOption(
      new Option(
        '--qrels-format <format>',
        'qrels layout: adhoc (qid iter docno grade) or diversity (topic subtopic docno judgment); default: diversity when a diversity measure (alpha_nDCG, ERR_IA, ...) is asked for, else adhoc',
      ).choices(QRELS_FORMATS),
    )
    .option(
      '--aux-qrels <file>',
      'auxiliary judgments, qrels-like (topic 0 docno value: e.g. understandability 0..100), for uRBP, alpha_uRBP and uBpref',
    )
    .option(
      '--sensitivity',
      `instead of the scores, how much each score and the ranking of the runs depend on the conventions: every run and measure recomputed under every alternative of each convention, one at a time (ordering, score precision, duplicates, unknown docs with --corpus, missing queries, queries without relevant docs, relevance level, gains), with deltas, queries changed, Kendall tau and the pairs that swap; -f ${SENSITIVITY_FORMATS.join(' or ')}`,
    )
  addRunLabelOptions(cmd)
  addConventionOptions(cmd).action(
    async (qrelsFile: string, runArgs: string[], flags: EvaluateFlags) => {
      const conventions = conventionsFromFlags(flags)
      const measures = parseMeasures(flags.measure)
      const remap = flags.relMap ? parseRelMap(flags.relMap) : null
      // Diversity measures read the qrels as diversity qrels unless told otherwise.
      const needsSubtopics = measures.filter((m) => m.spec.needsSubtopics)
      const format: QrelsFormat =
        flags.qrelsFormat ?? (needsSubtopics.length ? 'diversity' : 'adhoc')
      if (needsSubtopics.length && format !== 'diversity') {
        throw new TrecscoreError(
          `${needsSubtopics.map((m) => m.name).join(', ')} need diversity qrels (topic subtopic docno judgment), not --qrels-format ${format}`,
          2,
        )
      }
      const qrels = await readQrels(qrelsFile, {
        comments: conventions.comments,
        // --sensitivity keeps negative judgments (it applies each policy itself, `nonrelevant` too).
        negativeJudgments:
          flags.sensitivity && conventions.negativeJudgments === 'unjudged'
            ? 'nonrelevant'
            : conventions.negativeJudgments,
        format,
        ...(remap ? { remap } : {}),
      })
      const auxQrels = flags.auxQrels ? await readAuxQrels(flags.auxQrels, conventions) : undefined
      const auxFile = flags.auxQrels && flags.auxQrels !== '-' ? { auxFile: flags.auxQrels } : {}
      const origin =
        qrelsFile === '-' ? {} : { origin: { file: qrelsFile, remap, format, ...auxFile } }
      const corpus = flags.corpus ? await readIdList(flags.corpus) : undefined
      const runs = await resolveRunLabels(runArgs, runLabelOptions(flags))
      if (flags.sensitivity) {
        if (!(SENSITIVITY_FORMATS as readonly string[]).includes(flags.format))
          throw new TrecscoreError(
            `--sensitivity writes ${SENSITIVITY_FORMATS.join(' or ')}, not --format ${flags.format}`,
            2,
          )
        if (flags.perQuery)
          throw new TrecscoreError('--sensitivity counts the queries that change; drop -q', 2)
        if (flags.explain)
          explainStream(flags.format).write(
            `conventions:\n${describeConventions(conventions).replace(/^/gm, '  ')}\n\n`,
          )
        const report = await sensitivityOfRunFiles({
          qrels,
          runs,
          measures,
          conventions,
          ...(corpus ? { corpus } : {}),
          ...(auxQrels ? { auxQrels } : {}),
        })
        report.failedQueries.forEach((n, i) => {
          if (n)
            process.stderr.write(
              `trecscore: warning: ${report.runs[i]}: ${n} quer${n === 1 ? 'y' : 'ies'} could not be evaluated under the chosen conventions (duplicates: ${conventions.duplicates}) and ${n === 1 ? 'is' : 'are'} left out of its chosen scores\n`,
            )
        })
        process.stdout.write(
          renderSensitivity(report, {
            format: flags.format as SensitivityFormat,
            ...(flags.digits !== undefined ? { digits: flags.digits } : {}),
          }),
        )
        return
      }
      const results: RunEvaluation[] = []
      for (const run of runs) {
        results.push(
          await evaluateRunFile(qrels, run.path, measures, conventions, {
            ...(corpus ? { corpus } : origin),
            runName: run.name,
            ...(auxQrels ? { auxQrels } : {}),
          }),
        )
      }
      const failed = results.flatMap((r) =>
        r.counts.failedQueries.map((f) => ({ run: r.runName, ...f })),
      )
      if (failed.length) {
        for (const f of failed.slice(0, 20)) {
          const hint =
            f.failure.code === 'duplicate_doc'
              ? ` (duplicates: ${conventions.duplicates}; see --duplicates)`
              : ''
          process.stderr.write(
            `trecscore: ${f.run}: ${formatPrepareFailure(f.queryId, f.failure)}${hint}\n`,
          )
        }
        throw new TrecscoreError(`${failed.length} query evaluation(s) failed`, 2)
      }
      if (flags.explain) {
        const out = explainStream(flags.format)
        out.write(`conventions:\n${describeConventions(conventions).replace(/^/gm, '  ')}\n`)
        if (flags.auxQrels) out.write(`auxiliary judgments (--aux-qrels): ${flags.auxQrels}\n`)
        for (const r of results) out.write(describeCounts(r) + '\n')
        out.write('\n')
      }
      const escapeControl = isMachineFormat(flags.format) && process.stdout.isTTY === true
      process.stdout.write(
        renderResults(results, {
          format: flags.format,
          perQuery: !!flags.perQuery,
          aggregate: flags.aggregate,
          escapeControl,
          ...(flags.digits !== undefined ? { digits: flags.digits } : {}),
        }),
      )
    },
  )
}
