import { Option, type Command } from 'commander'
import {
  conventionsFromFlags,
  addConventionOptions,
  parseRelMap,
  type ConventionFlags,
} from '../conventions-options.js'
import {
  FORMATS,
  renderResults,
  describeConventions,
  describeCounts,
  evaluateRunFile,
  parseMeasures,
  readIdList,
  readQrels,
  decodeId,
  TrecscoreError,
  type Format,
  type RunEvaluation,
} from '../../index.js'

interface EvaluateFlags extends ConventionFlags {
  measure: string[]
  perQuery?: boolean
  format: Format
  digits: string
  explain?: boolean
}

/** `trecscore evaluate QRELS RUN... -m MEASURE...` */
export function registerEvaluate(program: Command): void {
  const cmd = program
    .command('evaluate')
    .description('evaluate one or more runs side by side, with every convention explicit')
    .argument('<qrels>', 'TREC qrels file (qid iter docno grade); - for stdin; .gz ok')
    .argument('<runs...>', 'TREC run files (qid iter docno rank score tag); .gz ok')
    .requiredOption('-m, --measure <names...>', "measures, ir_measures or trec_eval names: nDCG@10 'P(rel=2)@5' AP ndcg_cut.10", (v: string, prev: string[] = []) => [...prev, v])
    .option('-q, --per-query', 'also print one row per query')
    .addOption(new Option('-f, --format <format>', 'output format').choices(FORMATS).default('table'))
    .option('--digits <n>', 'decimals in text formats', '4')
    .option('--explain', 'print the conventions in force and, per run, what was dropped, deduplicated or zero-filled')
  addConventionOptions(cmd).action(async (qrelsFile: string, runFiles: string[], flags: EvaluateFlags) => {
    const conventions = conventionsFromFlags(flags)
    const measures = parseMeasures(flags.measure)
    const remap = flags.relMap ? parseRelMap(flags.relMap) : null
    const qrels = await readQrels(qrelsFile, { comments: conventions.comments, ...(remap ? { remap } : {}) })
    const origin = qrelsFile === '-' ? {} : { origin: { file: qrelsFile, remap } }
    const corpus = flags.corpus ? await readIdList(flags.corpus) : undefined
    const results: RunEvaluation[] = []
    for (const runFile of runFiles) {
      results.push(await evaluateRunFile(qrels, runFile, measures, conventions, corpus ? { corpus, runName: runFile } : { runName: runFile, ...origin }))
    }
    const failed = results.flatMap((r) => r.counts.failedQueries.map((f) => ({ run: r.runName, ...f })))
    if (failed.length) {
      for (const f of failed.slice(0, 20)) {
        const why =
          f.failure.code === 'duplicate_doc'
            ? `document ${JSON.stringify(decodeId(f.failure.docId))} retrieved more than once (duplicates: ${conventions.duplicates}; see --duplicates)`
            : f.failure.code === 'duplicate_judgment'
              ? `document ${JSON.stringify(decodeId(f.failure.docId))} judged more than once in the qrels`
              : 'the query has only negative (unjudged) judgments'
        process.stderr.write(`trecscore: ${f.run}: query ${JSON.stringify(decodeId(f.queryId))}: ${why}\n`)
      }
      throw new TrecscoreError(`${failed.length} query evaluation(s) failed`, 2)
    }
    const digits = Number(flags.digits)
    if (flags.explain && flags.format !== 'json' && flags.format !== 'jsonl') {
      process.stdout.write(`conventions:\n${describeConventions(conventions).replace(/^/gm, '  ')}\n`)
      for (const r of results) process.stdout.write(describeCounts(r) + '\n')
      process.stdout.write('\n')
    }
    process.stdout.write(renderResults(results, { format: flags.format, perQuery: !!flags.perQuery, digits: Number.isInteger(digits) ? digits : 4 }))
  })
}
