import type { Conventions } from '../conventions/conventions.js'
import { InputError, TrecscoreError } from '../errors/trecscore-error.js'
import { type QueryJob, type QueryJobModule, runInParallel } from '../io/parallel-run.js'
import { readQrels } from '../io/read.js'
import { streamRunQueries } from '../io/run-reader.js'
import type { QrelsFormat } from '../io/trec-qrels.js'
import type { RunParseOptions } from '../io/trec-run.js'
import type { Measure } from '../measures/measure.js'
import { parseMeasures } from '../measures/name.js'
import type { Qrels } from '../model/types.js'
import {
  type EvaluateOptions,
  type EvaluatorState,
  type RunEvaluation,
  RunEvaluator,
} from './evaluate.js'

/** Serialisable description of an evaluation, rebuilt by worker threads. */
export interface EvaluateJobConfig {
  readonly qrelsFile: string
  readonly remap: readonly (readonly [number, number])[] | null
  readonly format?: QrelsFormat
  readonly measures: readonly string[]
  readonly conventions: Conventions
  /** The auxiliary judgments file (`--aux-qrels`), read the same way. */
  readonly auxQrelsFile?: string
}

/** Build the job a worker runs (see `io/parallel-run.ts`). */
export async function createQueryJob(config: EvaluateJobConfig): Promise<QueryJob<EvaluatorState>> {
  const qrels = await readQrels(config.qrelsFile, {
    comments: config.conventions.comments,
    negativeJudgments: config.conventions.negativeJudgments,
    ...(config.format ? { format: config.format } : {}),
    ...(config.remap ? { remap: new Map(config.remap) } : {}),
  })
  const auxQrels = config.auxQrelsFile
    ? await readAuxQrels(config.auxQrelsFile, config.conventions)
    : undefined
  return new RunEvaluator(
    qrels,
    parseMeasures(config.measures),
    config.conventions,
    auxQrels ? { auxQrels } : {},
  )
}

/**
 * Read an auxiliary judgments file (`--aux-qrels`: `topic 0 docno value`, e.g. understandability
 * 0..100) with the qrels reader, under the same comment and negative-judgment conventions
 * (trectools reads it with the same `TrecQrel`). Throws {@link InputError}.
 */
export function readAuxQrels(file: string, conventions: Conventions): Promise<Qrels> {
  return readQrels(file, {
    comments: conventions.comments,
    negativeJudgments: conventions.negativeJudgments,
  })
}
// This module is a worker job module (`{ module: import.meta.url }` below).
void ({ createQueryJob } satisfies QueryJobModule<EvaluateJobConfig, EvaluatorState>)

/** Where the qrels came from, so worker threads can read them again (see {@link evaluateRunFile}). */
export interface QrelsOrigin {
  readonly file: string
  readonly remap: ReadonlyMap<number, number> | null
  /** The qrels layout (ad hoc when absent). */
  readonly format?: QrelsFormat
  /** The auxiliary judgments file, when `auxQrels` came from one. */
  readonly auxFile?: string
}

/**
 * Evaluate a run file in bounded memory (queries are scored as their lines end); large files
 * are read on several threads when `origin` says where the qrels came from and no corpus list
 * is used. Throws {@link InputError} with every problem of the file. A run without a run line
 * scores every declared query 0 when `missingQueries` is `zero` (each counted as missing), and
 * throws {@link TrecscoreError} (exit 2) saying why when missing queries are skipped.
 */
export async function evaluateRunFile(
  qrels: Qrels,
  source: string,
  measures: readonly Measure[],
  conventions: Conventions,
  options: EvaluateOptions & { readonly origin?: QrelsOrigin } = {},
): Promise<RunEvaluation> {
  const ev = new RunEvaluator(qrels, measures, conventions, { runName: source, ...options })
  const parse: RunParseOptions = {
    file: source,
    comments: conventions.comments,
    float32: conventions.scorePrecision === 'float32',
    keepRanks: conventions.ordering === 'rank',
    compactIds: true,
  }
  if (
    options.origin &&
    !options.corpus &&
    !options.queries &&
    (!options.auxQrels || options.origin.auxFile)
  ) {
    const config: EvaluateJobConfig = {
      qrelsFile: options.origin.file,
      remap: options.origin.remap ? [...options.origin.remap] : null,
      ...(options.origin.format ? { format: options.origin.format } : {}),
      measures: measures.map((m) => m.name),
      conventions,
      ...(options.auxQrels && options.origin.auxFile
        ? { auxQrelsFile: options.origin.auxFile }
        : {}),
    }
    const par = await runInParallel(source, parse, { module: import.meta.url, config }, ev)
    if (par) return ev.finish(par.lastTag)
  }
  const seq = new RunEvaluator(qrels, measures, conventions, { runName: source, ...options })
  const summary = await streamRunQueries(
    source,
    parse,
    () => true,
    (q) => seq.add(q),
  )
  const p = summary.parser
  if (p.issues.length) throw new InputError(p.issues)
  if (p.contentLines === 0) {
    // A run without a line retrieves nothing: every declared query is missing. Zero-filled, they
    // all score 0 (as `evaluate` on an empty in-memory run and ir_measures give); skipped, no
    // query is left to average, so the file cannot be scored.
    if (conventions.missingQueries === 'zero') return seq.finish(p.lastTag)
    const what =
      p.blankLines === 0 && p.commentLines === 0
        ? 'the file is empty'
        : 'the file has no run lines (only blank or comment lines)'
    throw new TrecscoreError(
      `${source}: ${what}, so no query can be scored while missing queries are skipped; --missing-queries zero scores every qrels query 0`,
      2,
    )
  }
  return seq.finish(p.lastTag)
}
