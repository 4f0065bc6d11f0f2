/**
 * `runPreset`: the one way to run a benchmark preset. Every command (`score`, `compare --preset`,
 * `report --preset`, `validate --preset`), the server and the library call it, and every
 * renderer reads only the {@link PresetResult} it returns.
 *
 * Design:
 * - A preset is data ({@link Preset}): measures, conventions (per measure where the official
 *   tool mixes providers), aggregations (summation order), rounding, checks. `runPreset` reads
 *   the inputs with the adapter of its `input.qrels` kind ({@link PRESET_INPUTS}: TREC qrels, a
 *   SkillRet data folder; RETECO's release folder is one more adapter), runs the checks
 *   through the one check table (`checks.ts`), evaluates every run with one
 *   {@link RunEvaluator} (which prepares each query once per distinct convention set), and
 *   aggregates with {@link aggregateQueries}.
 * - {@link PresetResult} is plain, JSON-serialisable data: ids decoded to text, per-query values
 *   at full precision (rounding happens only in renderers), aggregates keyed by aggregation id,
 *   counts, the conventions of every measure, the issues the checks found (file and line where
 *   known), notes and provenance (preset id and version, sha256 of every input's bytes, hashed
 *   while they are read).
 * - Room for the other families (RETECO): a query may carry a `group` (domain, conversation);
 *   aggregations are a list keyed by id, so query macro, group macro, step-then-query or bucket
 *   means are more `kind`s of {@link PresetAggregation}; `inputs` is open to more input files
 *   (labels), each hashed into `provenance.inputs` with its role.
 */
import { createHash, type Hash } from 'node:crypto'
import type { Conventions } from '../conventions/conventions.js'
import { formatPrepareFailure, wordIssue } from '../errors/format-issue.js'
import { InputError, TrecscoreError } from '../errors/trecscore-error.js'
import { type AggregateValue, aggregate } from '../evaluate/aggregate.js'
import {
  type AggregationRow,
  aggregateTable,
  type KeyOrder,
  type QueryTable,
} from '../evaluate/aggregations.js'
import {
  type ConventionSetCounts,
  type EvaluateOptions,
  type MeasureWithConventions,
  type QueryResult,
  type RunEvaluation,
  RunEvaluator,
} from '../evaluate/evaluate.js'
import { splitGroupedQueryId } from '../evaluate/grouped-keys.js'
import { decodeId } from '../io/bytes.js'
import { writeOutputFile } from '../io/output.js'
import { readQrels, readRun } from '../io/read.js'
import { type RunInput, runInputName, runInputPath } from '../io/run-labels.js'
import { readAll } from '../io/source.js'
import { parseQrels } from '../io/trec-qrels.js'
import { type Measure, measureAggregate } from '../measures/measure.js'
import { parseMeasures } from '../measures/name.js'
import type { Qrels, Run } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import type { PrepareCounts } from '../rank/prepare.js'
import {
  checkQrels,
  checkQrelsLines,
  checkRun,
  checkScoredRun,
  type PresetIssue,
  type PresetRunContext,
  presetEnables,
  qrelsScanOptions,
} from './checks.js'
import {
  type LanguageInfo,
  parseDocLanguages,
  parseRelMap,
  type QrelsScan,
  remapQrelsText,
  scanNeuclirQrels,
} from './neuclir-checks.js'
import {
  type OfficialEvaluator,
  type Preset,
  type PresetAggregation,
  type PresetReport,
  QUERY_MEAN,
  type QueryMeanAggregation,
  type Rounding,
} from './preset.js'
import { findPreset, presetIds } from './registry.js'
import { loadRetecoData } from './reteco/data.js'
import {
  missingCorpusProblems,
  retecoCorpusOf,
  retecoEngineData,
  retecoEngineRun,
  retecoLabels,
  runCorpora,
  subtrackDomains,
  unscorableReasons,
} from './reteco/engine-inputs.js'
import { RetecoInputError } from './reteco/errors.js'
import { judgeLabels, offlineLabels, type TemporalLabelProvider } from './reteco/labels.js'
import { formatRunProblem, readRetecoRun } from './reteco/runs.js'
import { type RetecoData, type RetecoRun, type RetecoSubtrack, trackOf } from './reteco/types.js'
import { readSkillRetData, readSkillRetRun } from './skillret-data.js'

/** The `schema` of {@link PresetResult}. */
export const PRESET_RESULT_SCHEMA = 'trecscore.preset-result/1'

/** The files a preset reads; which are needed depends on the preset's `input`. */
export interface PresetInputs {
  /** TREC qrels file (presets with `input.qrels: 'trec-qrels'`). */
  readonly qrels?: string
  /** Data directory (SkillRet: `queries/test.jsonl`). */
  readonly data?: string
  /** Run files, each a path or `{ path, name }` (the label it is shown under). */
  readonly runs: readonly RunInput[]
  /** `--rel-map`: a named map of the preset or `grade:value,...`, applied to the qrels before any check. */
  readonly relMap?: string
  /** With `relMap`: write the remapped qrels text here (lines otherwise unchanged). */
  readonly writeQrels?: string
  /** Score qrels that fail a `qrels-forbidden-grade` check (it becomes a warning). */
  readonly force?: boolean
  /** Reranking candidate lists (a TREC run): checked by the preset's `candidates` check. */
  readonly candidates?: string
  /** Doc-to-language map (`docid lang` lines, or NeuCLIR language qrels) for the `unified-ranking` check. */
  readonly docLang?: string
  /** RETECO: the split of the data folder. @default 'dev' */
  readonly split?: string
  /** RETECO: only these domains. @default every domain of the track */
  readonly domains?: readonly string[]
  /** RETECO: a judge-label file (`trecscore.reteco-labels/1`) instead of the offline labels. */
  readonly labels?: string
  /** RETECO: score domains without `documents.jsonl`, keeping their unknown doc ids. */
  readonly allowMissingCorpus?: boolean
}

/** How to run a preset differently from its definition (each option is recorded in the result). */
export interface RunPresetOptions {
  /** Only these measures (the preset's per-measure conventions kept for those it names). */
  readonly measures?: readonly string[]
  /** Score queries missing from a run as 0 even when the preset skips them (paired tests need it). */
  readonly zeroFillMissing?: boolean
  /** Presets with `cutoffMeasures` (SkillRet `--k`): rebuild the measures for these cutoffs. */
  readonly cutoffs?: readonly number[]
  /**
   * A run query outside the declared query set: `ignore` (default; listed in the counts) or
   * `error` (exit 2; SkillRet `--strict`).
   */
  readonly unknownQueries?: 'ignore' | 'error'
  /**
   * Called with each query's preparation counts (under the preset's own conventions) and its
   * prepared length, as it is scored: per-query diagnostics (RETECO's per-domain counts).
   */
  readonly onPrepared?: (
    file: string,
    queryId: string,
    counts: PrepareCounts,
    ranking: JudgedRanking,
  ) => void
}

/** One input file as read: its role, name and the sha256 of the bytes read (after gunzip). */
export interface InputDigest {
  readonly role: 'qrels' | 'data' | 'run' | 'candidates' | 'doc-lang'
  readonly file: string
  readonly sha256: string
  readonly bytes: number
}

/** The measures computed under one set of conventions. */
export interface PresetConventionSet {
  /** Canonical names of the measures of the set. */
  readonly measures: readonly string[]
  /** Name of the set's tie rule, where the preset names one. */
  readonly tieRule: string | null
  readonly conventions: Conventions
}

/** One averaged query of a run. */
export interface PresetQueryResult {
  /** Query id, decoded. */
  readonly queryId: string
  /** Group of a grouped query key (e.g. a RETECO domain); absent for plain qids. */
  readonly group?: string
  /** `evaluated`: in the run; `zero-filled`: missing from the run and scored on an empty ranking. */
  readonly status: 'evaluated' | 'zero-filled'
  /** One value per measure of the result, full precision; `null` = undefined for this query. */
  readonly values: readonly (number | null)[]
}

/** What happened to the queries and documents of one run (ids decoded). */
export interface PresetRunCounts {
  /** Queries in the declared query set (qrels topics, or the queries file). */
  readonly declaredQueries: number
  /** Distinct queries in the run. */
  readonly runQueries: number
  readonly evaluatedQueries: number
  /** Declared queries absent from the run: zero-filled or skipped, per `missingPolicy`. */
  readonly missingQueries: readonly string[]
  readonly missingPolicy: Conventions['missingQueries']
  /** Run queries outside the declared set or without judgments: ignored. */
  readonly ignoredQueries: readonly string[]
  /** Averaged run queries with an empty ranking (scored 0). */
  readonly emptyRankings: readonly string[]
  /** Averaged queries judged only negative. */
  readonly negativeOnlyQueries: readonly string[]
  /** Of the preset's own conventions (per-set counts are in `conventionCounts`). */
  readonly duplicatesRemoved: number
  readonly unknownDiscarded: number
  readonly cutByDepth: number
  readonly unjudgedDropped: number
}

/** One run scored by a preset. */
export interface PresetRunResult {
  /** The label the run is shown under (its path unless named). */
  readonly name: string
  readonly file: string
  /** Run tag (TREC column 6), decoded; empty when the file has none. */
  readonly tag: string
  readonly format: 'trec' | 'json'
  /** The averaged queries, in byte order of id. */
  readonly queries: readonly PresetQueryResult[]
  /**
   * Aggregates by aggregation id, one per measure of the result (a `table` aggregation with a
   * `splitBy` has its rows in `tables` only).
   */
  readonly aggregates: Readonly<Record<string, readonly AggregateValue[]>>
  /** The rows of every `table` aggregation, by id (values aligned with the measures). */
  readonly tables?: Readonly<Record<string, readonly AggregationRow[]>>
  /**
   * The summation order (query ids) of every aggregation whose order is not `query-id` (that
   * one is the order of `queries`), by aggregation id.
   */
  readonly summationOrders: Readonly<Record<string, readonly string[]>>
  readonly counts: PresetRunCounts
  /** Preparation counts per convention set, parallel to {@link PresetResult.conventions}. */
  readonly conventionCounts: readonly ConventionSetCounts[]
  /** What the checks found on this run (warnings) and noted after scoring it. */
  readonly issues: readonly PresetIssue[]
  /** Facts about this run's scoring that are no check's (queries judged only negative, ignored queries). */
  readonly notes: readonly string[]
}

/** Everything one `runPreset` call computed: what every renderer, command and the server read. */
export interface PresetResult {
  readonly schema: typeof PRESET_RESULT_SCHEMA
  readonly preset: {
    readonly id: string
    readonly version: string
    readonly title: string
    readonly official: OfficialEvaluator
    readonly report: PresetReport
    readonly rounding: Rounding
    readonly notes: readonly string[]
  }
  /** Canonical names of the measures computed, in the preset's order. */
  readonly measures: readonly string[]
  /** The names printed for them (SkillRet: `NDCG@5`; else the canonical names). */
  readonly labels: readonly string[]
  /** The aggregations of every run, the headline first. */
  readonly aggregations: readonly PresetAggregation[]
  /** The conventions of every measure: one entry per distinct set, the preset's own first. */
  readonly conventions: readonly PresetConventionSet[]
  /** Inputs besides the runs, and what was done to them. */
  readonly inputs: {
    readonly qrels: string | null
    readonly data: string | null
    /** The `--rel-map` applied to the qrels grades (grade → value) and how many judgments it changed. */
    readonly relMap: {
      readonly map: Readonly<Record<string, number>>
      readonly changed: number
    } | null
    /** Cutoffs used, for presets with `cutoffMeasures`. */
    readonly cutoffs: readonly number[] | null
  }
  readonly runs: readonly PresetRunResult[]
  /** What the checks found on the qrels (per-run findings are on each run). */
  readonly issues: readonly PresetIssue[]
  readonly provenance: {
    readonly preset: string
    readonly version: string
    readonly inputs: readonly InputDigest[]
  }
}

/** The preset with this id; throws {@link TrecscoreError} (exit 2) listing the known ids. */
export function getPreset(id: string): Preset {
  const p = findPreset(id)
  if (!p)
    throw new TrecscoreError(`unknown preset '${id}'; known presets: ${presetIds().join(', ')}`, 2)
  return p
}

/** Hashes the chunks of one input as they are read. */
class Digest {
  private readonly hash: Hash = createHash('sha256')
  private n = 0
  constructor(
    private readonly role: InputDigest['role'],
    private readonly file: string,
  ) {}
  readonly update = (chunk: Buffer): void => {
    this.hash.update(chunk)
    this.n += chunk.length
  }
  done(): InputDigest {
    return { role: this.role, file: this.file, sha256: this.hash.digest('hex'), bytes: this.n }
  }
}

function digestOf(role: InputDigest['role'], file: string, bytes: Buffer): InputDigest {
  const d = new Digest(role, file)
  d.update(bytes)
  return d.done()
}

/** The measures a run computes: the preset's, a subset (`measures`) or rebuilt for `cutoffs`, with their labels. */
export function measuresOf(
  preset: Preset,
  options: RunPresetOptions,
): { measures: readonly Measure[]; labels: readonly string[]; cutoffs: readonly number[] | null } {
  const cm = preset.cutoffMeasures
  if (options.cutoffs !== undefined) {
    if (!cm)
      throw new TrecscoreError(`preset '${preset.id}' has fixed measures: cutoffs do not apply`, 2)
    const labels: string[] = []
    const engine: string[] = []
    for (const [printed, m] of cm.families) {
      for (const k of options.cutoffs) {
        labels.push(`${printed}@${k}`)
        engine.push(`${m}@${k}`)
      }
    }
    for (const [printed, m] of cm.fixed) {
      labels.push(printed)
      engine.push(m)
    }
    return { measures: parseMeasures(engine), labels, cutoffs: options.cutoffs }
  }
  const cutoffs = cm ? cm.defaults : null
  if (options.measures !== undefined) {
    const measures = parseMeasures(options.measures)
    return { measures, labels: measures.map((m) => m.name), cutoffs }
  }
  return {
    measures: preset.parsedMeasures,
    labels: preset.labels ?? preset.parsedMeasures.map((m) => m.name),
    cutoffs,
  }
}

/**
 * The convention sets of a preset's measures: each measure with the conventions it is computed
 * under (the preset's own, or its per-measure override), missing queries zero-filled if asked.
 * Sets keep their identity, so the evaluator tells them apart.
 */
export function conventionSets(
  preset: Preset,
  measures: readonly Measure[],
  zeroFill: boolean,
): {
  conventions: Conventions
  input: (Measure | MeasureWithConventions)[]
  sets: { conventions: Conventions; tieRule: string | null }[]
} {
  const adjust = (c: Conventions): Conventions =>
    zeroFill && c.missingQueries !== 'zero' ? { ...c, missingQueries: 'zero' } : c
  const conventions = adjust(preset.conventions)
  const overrides = (preset.measureConventions ?? []).map((o) => ({
    names: new Set(parseMeasures(o.measures).map((m) => m.name)),
    conventions: adjust(o.conventions),
    tieRule: o.tieRule.name,
  }))
  const sets: { conventions: Conventions; tieRule: string | null }[] = [
    { conventions, tieRule: preset.tieRule?.name ?? null },
  ]
  const input = measures.map((m): Measure | MeasureWithConventions => {
    const o = overrides.find((x) => x.names.has(m.name))
    if (!o) return m
    if (!sets.some((s) => s.conventions === o.conventions))
      sets.push({ conventions: o.conventions, tieRule: o.tieRule })
    return { measure: m, conventions: o.conventions }
  })
  // The preset's own set is left out when every measure asked for has an override.
  const used = sets.filter((s) =>
    input.some((m) => ('measure' in m ? m.conventions : conventions) === s.conventions),
  )
  return { conventions, input, sets: used }
}

/**
 * Combine per-query values into one aggregate per measure, in the aggregation's summation
 * order; `order` lists the ids (engine encoding) in that order, `values` holds every averaged
 * query's values. Each measure's own kind (mean, sum, geometric mean) applies.
 */
export function aggregateQueries(
  measures: readonly Measure[],
  values: ReadonlyMap<string, readonly (number | null)[]>,
  order: readonly string[],
): AggregateValue[] {
  const ids = order.filter((q) => values.has(q))
  return measures.map((m, i) =>
    aggregate(
      m.name,
      measureAggregate(m),
      ids.map((q) => values.get(q)![i]!),
    ),
  )
}

/** The ids of the averaged queries in an aggregation's summation order. */
function summationOrder(
  agg: QueryMeanAggregation,
  perQuery: readonly QueryResult[],
  runOrder: readonly string[],
  declared: readonly string[],
): readonly string[] {
  if (agg.order === 'query-id') return perQuery.map((q) => q.queryId)
  return agg.order === 'run' ? runOrder : declared
}

/** The aggregates of one evaluation for every aggregation of the preset, and the summation orders that are not by query id. */
function aggregatesOf(
  aggregations: readonly PresetAggregation[],
  measures: readonly Measure[],
  evaluation: RunEvaluation,
  runOrder: readonly string[],
  declared: readonly string[],
  grouping: AdaptedInputs['grouping'],
  undefinedWhenEmpty: ReadonlySet<string>,
): {
  aggregates: Record<string, readonly AggregateValue[]>
  orders: Record<string, readonly string[]>
  tables: Record<string, readonly AggregationRow[]> | null
} {
  const values = new Map(evaluation.perQuery.map((q) => [q.queryId, q.values]))
  const aggregates: Record<string, readonly AggregateValue[]> = {}
  const orders: Record<string, readonly string[]> = {}
  let tables: Record<string, readonly AggregationRow[]> | null = null
  let table: QueryTable | null = null
  for (const a of aggregations) {
    if (a.kind === 'table') {
      table ??= queryTable(measures, values, declared, grouping, undefinedWhenEmpty)
      const rows = aggregateTable(table, a).rows
      ;(tables ??= {})[a.id] = rows
      if (!a.splitBy?.length) aggregates[a.id] = rowAggregates(measures, rows[0]!)
      continue
    }
    if (a.order === 'query-id') {
      aggregates[a.id] = evaluation.aggregates
      continue
    }
    const order = summationOrder(a, evaluation.perQuery, runOrder, declared).filter((q) =>
      values.has(q),
    )
    aggregates[a.id] = aggregateQueries(measures, values, order)
    orders[a.id] = order.map(decodeId)
  }
  return { aggregates, orders, tables }
}

/** The per-query table of `table` aggregations: the declared queries that were averaged, in declared order. */
function queryTable(
  measures: readonly Measure[],
  values: ReadonlyMap<string, readonly (number | null)[]>,
  declared: readonly string[],
  grouping: AdaptedInputs['grouping'],
  undefinedWhenEmpty: ReadonlySet<string>,
): QueryTable {
  const keys = grouping?.keys ?? ((id: string) => ({ group: splitGroupedQueryId(id)?.group ?? '' }))
  return {
    columns: measures.map((m) => ({
      name: m.name,
      empty: undefinedWhenEmpty.has(m.name) ? null : 0,
    })),
    rows: declared.flatMap((id) => {
      const v = values.get(id)
      return v ? [{ keys: keys(id), values: v }] : []
    }),
    ...(grouping?.keyOrders ? { keyOrders: grouping.keyOrders } : {}),
  }
}

/** The single row of an unsplit table aggregation as one aggregate per measure. */
function rowAggregates(measures: readonly Measure[], row: AggregationRow): AggregateValue[] {
  return measures.map((m, i) => ({
    measure: m.name,
    aggregate: 'mean',
    value: row.values[i] ?? null,
    queries: row.defined[i] ?? 0,
    undefinedQueries: row.units - (row.defined[i] ?? 0),
    // A table aggregation (means of group means) has no one set of per-query values.
    std: null,
  }))
}

/** The text of a file as binary-string ids (one char per byte), as the parsers keep ids. */
async function readText(
  file: string,
  role: InputDigest['role'],
  digests: InputDigest[],
): Promise<{ bytes: Buffer; text: string }> {
  const bytes = await readAll(file)
  digests.push(digestOf(role, file, bytes))
  return { bytes, text: bytes.toString('latin1') }
}

/**
 * Read the preset's qrels: apply `--rel-map`, run the checks on the qrels text (errors stop
 * here; `force` turns a refused grade into a warning), parse, then the checks on the parsed qrels.
 */
async function readPresetQrels(
  preset: Preset,
  inputs: PresetInputs,
  file: string,
  digests: InputDigest[],
): Promise<{
  qrels: Qrels
  issues: PresetIssue[]
  scan: QrelsScan | null
  relMap: PresetResult['inputs']['relMap']
}> {
  const c = preset.conventions
  const map =
    inputs.relMap === undefined ? undefined : parseRelMap(inputs.relMap, preset.relMaps ?? {})
  if (inputs.writeQrels !== undefined && !map)
    throw new TrecscoreError('--write-qrels needs --rel-map', 2)
  const scanOptions = qrelsScanOptions(preset)
  if (!map && !scanOptions) {
    const d = new Digest('qrels', file)
    const qrels = await readQrels(file, { comments: c.comments }, d.update)
    digests.push(d.done())
    return { qrels, issues: checkQrels(preset, qrels, file), scan: null, relMap: null }
  }
  const { bytes, text } = await readText(file, 'qrels', digests)
  if (bytes.length === 0) throw new InputError([{ code: 'empty_file', file }])
  const scan = scanNeuclirQrels(text, { ...scanOptions, ...(map ? { remap: map } : {}) })
  const lineIssues = checkQrelsLines(preset, scan, {
    file,
    preset: preset.id,
    remapped: !!map,
    force: !!inputs.force,
  })
  const errors = lineIssues.filter((i) => i.severity === 'error')
  if (errors.length) throw new TrecscoreError(errors.map((i) => i.message).join('\n'), 2)
  if (inputs.writeQrels !== undefined && map)
    await writeOutputFile(inputs.writeQrels, remapQrelsText(text, map).text, 'latin1')
  const r = parseQrels(bytes, { file, comments: c.comments, ...(map ? { remap: map } : {}) })
  if (!r.ok) throw new InputError(r.issues)
  return {
    qrels: r.value,
    issues: [...lineIssues, ...checkQrels(preset, r.value, file)],
    scan,
    relMap: map ? { map: Object.fromEntries(map), changed: scan.remapped } : null,
  }
}

/** Candidate lists and languages for the run checks, read once for every run. */
async function runContext(
  preset: Preset,
  inputs: PresetInputs,
  scan: QrelsScan | null,
  digests: InputDigest[],
): Promise<PresetRunContext> {
  let candidates: PresetRunContext['candidates']
  if (inputs.candidates !== undefined) {
    const d = new Digest('candidates', inputs.candidates)
    candidates = {
      run: await readRun(inputs.candidates, { comments: preset.conventions.comments }, d.update),
      file: inputs.candidates,
    }
    digests.push(d.done())
  }
  let languages: LanguageInfo | undefined
  if (inputs.docLang !== undefined) {
    const parsed = parseDocLanguages(
      (await readText(inputs.docLang, 'doc-lang', digests)).text,
      inputs.docLang,
    )
    if (parsed.problems.length)
      throw new TrecscoreError(parsed.problems.map((p) => wordIssue('preset', p)).join('\n'), 2)
    languages = {
      docLanguages: parsed.languages,
      ...(scan ? { topicLanguages: scan.topicLanguages } : {}),
    }
  } else if (scan && preset.checks.some((k) => k.kind === 'unified-ranking')) {
    languages = { docLanguages: scan.docLanguages, topicLanguages: scan.topicLanguages }
  }
  return { ...(candidates ? { candidates } : {}), ...(languages ? { languages } : {}) }
}

/** Refuse inputs no check of the preset gives a meaning to. */
function checkOptionalInputs(preset: Preset, inputs: PresetInputs): void {
  const fail = (why: string): never => {
    throw new TrecscoreError(`preset '${preset.id}' ${why}`, 2)
  }
  if (inputs.candidates !== undefined && !presetEnables(preset, 'candidates'))
    fail('has no reranking mode: --candidates does not apply')
  if (inputs.docLang !== undefined && !presetEnables(preset, 'docLang'))
    fail('does not check unified rankings: --doc-lang does not apply (MLIR presets only)')
  if (inputs.force && !presetEnables(preset, 'force'))
    fail('refuses no qrels grade: --force does not apply')
}

function failedQueriesError(
  file: string,
  preset: Preset,
  evaluation: RunEvaluation,
): TrecscoreError {
  const failed = evaluation.counts.failedQueries
  // The official evaluator stops here too (trec_eval: "duplicate docs"); never a silent 0.
  const why = failed
    .slice(0, 10)
    .map(({ queryId, failure }) => formatPrepareFailure(queryId, failure))
  return new TrecscoreError(
    `${file}: ${failed.length} quer${failed.length === 1 ? 'y' : 'ies'} cannot be scored under preset '${preset.id}' (duplicates: ${evaluation.conventions.duplicates}): ${why.join('; ')}${failed.length > 10 ? '; …' : ''}`,
    2,
  )
}

function listed(ids: readonly string[]): string {
  return `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}`
}

/** One run file as an input adapter read it. */
export interface AdaptedRun {
  readonly run: Run
  readonly format: 'trec' | 'json'
  readonly digest: InputDigest
  /** What the evaluator needs besides the qrels for this run (a per-query corpus, labels). */
  readonly evaluate?: Pick<EvaluateOptions, 'corpusOf' | 'labels'>
}

/** What an input adapter loaded for every run: the judgments, the declared query set, the run checks' context. */
export interface AdaptedInputs {
  readonly qrels: Qrels
  /** The declared query set in its order; absent = every qrels query, in file order. */
  readonly queries?: readonly string[]
  /** What the checks found on the qrels. */
  readonly issues: readonly PresetIssue[]
  readonly relMap: PresetResult['inputs']['relMap']
  readonly context: PresetRunContext
  /** Read one run under the conventions (`float32`: narrow scores while reading; `keepRanks`: keep the rank column). */
  readRun(
    file: string,
    conventions: Conventions,
    read: { readonly float32: boolean; readonly keepRanks: boolean },
  ): Promise<AdaptedRun>
  /** Whether missing queries are listed in the declared order (else byte order of id, the engine's). */
  readonly missingInDeclaredOrder: boolean
  /** Notes about one scored run that are no check's. */
  runNotes(file: string, evaluation: RunEvaluation, ignored: readonly string[]): string[]
  /** The error for queries that could not be scored. */
  failure(file: string, evaluation: RunEvaluation): TrecscoreError
  /** The declared set's name in messages (`the queries file F`). */
  readonly declaredName: string
  /**
   * Grouped queries (`table` aggregations): the table keys of each declared query and the
   * declared orders of key values; absent = each query's `group` only.
   */
  readonly grouping?: {
    keys(queryId: string): Readonly<Record<string, string>>
    readonly keyOrders?: Readonly<Record<string, KeyOrder>>
  }
}

/**
 * How a preset's inputs are read, by `input.qrels` kind: one adapter per kind (the compiler asks
 * for one when a kind is added, e.g. a RETECO release folder with grouped keys and labels).
 */
export interface PresetInputAdapter {
  /** Refuse inputs this kind cannot use (`inputs.runs` is checked by `runPreset`). */
  check(preset: Preset, inputs: PresetInputs): void
  load(preset: Preset, inputs: PresetInputs, digests: InputDigest[]): Promise<AdaptedInputs>
}

function refuse(preset: Preset, why: string): never {
  throw new TrecscoreError(`preset '${preset.id}' ${why}`, 2)
}

/** Refuse the TREC-qrels inputs (qrels, rel maps, candidates, …) of a preset that reads a data folder. */
function refuseQrelsInputs(preset: Preset, inputs: PresetInputs, what: string): void {
  const given = (
    ['qrels', 'relMap', 'writeQrels', 'force', 'candidates', 'docLang'] as const
  ).filter((k) => inputs[k] !== undefined && inputs[k] !== false)
  if (given.length)
    refuse(
      preset,
      `reads ${what}: ${given.join(', ')} do${given.length === 1 ? 'es' : ''} not apply`,
    )
}

/** The input adapters, by {@link PresetDefinition} `input.qrels`. */
export const PRESET_INPUTS: { readonly [K in Preset['input']['qrels']]: PresetInputAdapter } = {
  'trec-qrels': {
    check(preset, inputs) {
      if (inputs.qrels === undefined) refuse(preset, 'reads TREC qrels: give the qrels file')
      if (inputs.data !== undefined) refuse(preset, 'reads TREC qrels, not a data directory')
      checkOptionalInputs(preset, inputs)
    },
    async load(preset, inputs, digests) {
      const file = inputs.qrels!
      const read = await readPresetQrels(preset, inputs, file, digests)
      const context = await runContext(preset, inputs, read.scan, digests)
      const qrels = read.qrels
      return {
        qrels,
        issues: read.issues,
        relMap: read.relMap,
        context,
        async readRun(runFile, conventions, opts) {
          const d = new Digest('run', runFile)
          const run = await readRun(runFile, { comments: conventions.comments, ...opts }, d.update)
          return { run, format: 'trec', digest: d.done() }
        },
        missingInDeclaredOrder: false,
        runNotes(runFile, evaluation) {
          const negativeOnly = evaluation.counts.negativeOnlyQueries.map(decodeId)
          return negativeOnly.length
            ? [
                `${runFile}: ${negativeOnly.length} qrels topic(s) judged only negative (no relevant document), scored 0 where a measure needs one: ${negativeOnly.join(', ')}`,
              ]
            : []
        },
        failure: (runFile, evaluation) => failedQueriesError(runFile, preset, evaluation),
        declaredName: `the qrels ${file}`,
      }
    },
  },
  'skillret-data': {
    check(preset, inputs) {
      if (inputs.data === undefined) refuse(preset, 'reads a data directory: give it')
      refuseQrelsInputs(preset, inputs, 'a data directory')
    },
    async load(_preset, inputs, digests) {
      const data = await readSkillRetData(inputs.data!)
      digests.push({ role: 'data', file: data.queriesFile, sha256: data.sha256, bytes: data.bytes })
      return {
        qrels: data.qrels,
        queries: data.queryIds,
        issues: [],
        relMap: null,
        context: {},
        async readRun(file, conventions) {
          const run = await readSkillRetRun(file, conventions)
          const lineCount = [...run.queries.values()].reduce((n, q) => n + q.docIds.length, 0)
          return {
            run: { queries: run.queries, tag: '', tags: [], lineCount },
            format: run.format,
            digest: { role: 'run', file, sha256: run.sha256, bytes: run.bytes },
          }
        },
        missingInDeclaredOrder: true,
        runNotes: (file, _evaluation, ignored) =>
          ignored.length
            ? [
                `${file}: ${ignored.length} run quer${ignored.length === 1 ? 'y' : 'ies'} not in the queries file, ignored as the official evaluator does (--strict refuses them): ${listed(ignored)}`,
              ]
            : [],
        failure(file, evaluation) {
          const f = evaluation.counts.failedQueries[0]!
          return new TrecscoreError(`${file}: ${formatPrepareFailure(f.queryId, f.failure)}`, 2)
        },
        declaredName: `the queries file ${data.queriesFile}`,
      }
    },
  },
  'reteco-data': {
    check(preset, inputs) {
      if (inputs.data === undefined)
        refuse(preset, 'reads a RETECO data folder: give it (--data DIR)')
      refuseQrelsInputs(preset, inputs, 'a RETECO data folder')
    },
    async load(preset, inputs, digests) {
      const subtrack = retecoSubtrack(preset)
      const data = await loadRetecoData(inputs.data!, {
        split: inputs.split ?? 'dev',
        tracks: [trackOf(subtrack)],
        ...(inputs.domains ? { domains: inputs.domains } : {}),
      })
      const problems = unscorableReasons(data, subtrack)
      if (!inputs.allowMissingCorpus)
        problems.push(...missingCorpusProblems(data, subtrack).problems)
      if (problems.length) throw new RetecoInputError(problems)
      for (const d of subtrackDomains(data, subtrack).values()) {
        const f = subtrack === '1b' ? d.stepQrelsFile : d.qrelsFile
        if (f) await readText(f, 'qrels', digests)
      }
      const labels = inputs.labels ? await judgeLabels(inputs.labels) : offlineLabels()
      const domains = subtrackDomains(data, subtrack)
      return retecoAdaptedInputs(preset, data, subtrack, labels, async (file) => {
        const run = await readRetecoRun(file, { domains, subtrack })
        const errors = [
          ...(run.whole?.parseErrors ?? []),
          ...[...run.domains.values()].flatMap((f) => (run.whole ? [] : f.parseErrors)),
        ]
        if (errors.length)
          throw new TrecscoreError(
            `${file}: the run cannot be scored: ${errors.slice(0, 10).map(formatRunProblem).join('; ')}`,
            2,
          )
        const files = run.whole ? [run.whole.file] : [...run.domains.values()].map((f) => f.file)
        const hash = new Digest('run', file)
        for (const f of files) hash.update(await readAll(f))
        return { run, corpora: await runCorpora(data, subtrack, run), digest: hash.done() }
      })
    },
  },
}

/** The sub-track a RETECO preset scores (`reteco-2c` scores its retrieval as 2a). */
function retecoSubtrack(preset: Preset): RetecoSubtrack {
  return preset.id.slice('reteco-'.length) as RetecoSubtrack
}

/**
 * The adapted inputs of a RETECO sub-track: grouped qrels and keys from the loaded data, and
 * each run as `readOne` reads it (the RETECO run parser), with its domains' corpus ids and the
 * temporal labels.
 */
export function retecoAdaptedInputs(
  preset: Preset,
  data: RetecoData,
  subtrack: RetecoSubtrack,
  labels: TemporalLabelProvider,
  readOne: (file: string) => Promise<{
    readonly run: RetecoRun
    readonly corpora: ReadonlyMap<string, ReadonlySet<string>>
    readonly digest: InputDigest
  }>,
): AdaptedInputs {
  const engine = retecoEngineData(data, subtrack)
  const labelsOf = retecoLabels(engine, labels)
  return {
    qrels: engine.qrels,
    queries: engine.queries,
    issues: [],
    relMap: null,
    context: {},
    async readRun(file, _conventions, read) {
      const { run, corpora, digest } = await readOne(file)
      return {
        run: retecoEngineRun(run, read.float32),
        format: 'trec',
        digest,
        evaluate: { corpusOf: retecoCorpusOf(corpora), labels: labelsOf },
      }
    },
    missingInDeclaredOrder: true,
    runNotes: () => [],
    failure: (file, evaluation) => failedQueriesError(file, preset, evaluation),
    declaredName: `the qrels of ${data.root}`,
    grouping: { keys: engine.keys, keyOrders: engine.keyOrders },
  }
}

/** A scored run of the engine, before it becomes a {@link PresetRunResult}. */
interface Scored {
  readonly evaluation: RunEvaluation
  readonly runOrder: readonly string[]
  readonly format: 'trec' | 'json'
  readonly ignored: readonly string[]
  readonly empty: readonly string[]
  readonly missing: readonly string[]
  readonly issues: readonly PresetIssue[]
  readonly notes: readonly string[]
}

/** The {@link PresetResult} and, for the deprecated runners, the engine's own evaluations. */
export interface PresetRunDetail {
  readonly result: PresetResult
  readonly evaluations: readonly RunEvaluation[]
}

/**
 * Run a preset and keep the engine's evaluations too (ids in the engine's byte encoding): for
 * the deprecated `scorePreset`/`scoreSkillRet` shapes only; everything else uses {@link runPreset}.
 */
export async function runPresetDetailed(
  presetOrId: Preset | string,
  inputs: PresetInputs,
  options: RunPresetOptions = {},
): Promise<PresetRunDetail> {
  const preset = typeof presetOrId === 'string' ? getPreset(presetOrId) : presetOrId
  if (inputs.runs.length === 0) throw new TrecscoreError(`preset '${preset.id}': no run given`, 2)
  const adapter = PRESET_INPUTS[preset.input.qrels]
  adapter.check(preset, inputs)
  measuresOf(preset, options)
  const digests: InputDigest[] = []
  const loaded = await adapter.load(preset, inputs, digests)
  return runLoadedPreset(preset, loaded, inputs, options, digests)
}

/**
 * The engine part of {@link runPresetDetailed}, on inputs an adapter has loaded: evaluate every
 * run, run the checks, aggregate. Exported for front ends that load the inputs themselves (the
 * RETECO `plan` convention set, which reads the run with its own format rules first).
 */
export async function runLoadedPreset(
  preset: Preset,
  loaded: AdaptedInputs,
  inputs: PresetInputs,
  options: RunPresetOptions = {},
  digests: InputDigest[] = [],
): Promise<PresetRunDetail> {
  const { measures, labels, cutoffs } = measuresOf(preset, options)
  const { conventions, input, sets } = conventionSets(preset, measures, !!options.zeroFillMissing)
  const aggregations = preset.aggregations ?? [QUERY_MEAN]
  const undefinedWhenEmpty = new Set(
    preset.undefinedWhenEmpty?.length
      ? parseMeasures(preset.undefinedWhenEmpty).map((m) => m.name)
      : [],
  )
  const { qrels } = loaded
  const declared = loaded.queries ?? [...qrels.queries.keys()]
  const declaredSet = loaded.queries ? new Set(loaded.queries) : qrels.queries
  // Scores are read as float32 only when every set wants them so; else each float32 set narrows them itself.
  const read = {
    float32: sets.every((s) => s.conventions.scorePrecision === 'float32'),
    keepRanks:
      sets.some((s) => s.conventions.ordering === 'rank') ||
      preset.checks.some((k) => k.kind === 'unified-ranking'),
  }
  const scored: Scored[] = []
  for (const r of inputs.runs) {
    const file = runInputPath(r)
    const { run, format, digest, evaluate } = await loaded.readRun(file, conventions, read)
    digests.push(digest)
    if (options.unknownQueries === 'error') {
      const unknown = [...run.queries.keys()]
        .filter((q) => !declaredSet.has(q))
        .map((q) => JSON.stringify(decodeId(q)))
      if (unknown.length)
        throw new TrecscoreError(
          `${file}: ${unknown.length} query id(s) not in ${loaded.declaredName} (--strict; the official evaluator ignores them): ${listed(unknown)}`,
          2,
        )
    }
    const onPrepared = options.onPrepared
    const ev = new RunEvaluator(qrels, input, conventions, {
      runName: runInputName(r),
      ...(loaded.queries ? { queries: loaded.queries } : {}),
      ...evaluate,
      ...(onPrepared ? { onPrepared: (q, c, n) => onPrepared(file, q, c, n) } : {}),
    })
    const ignored: string[] = []
    const empty: string[] = []
    for (const q of run.queries.values()) {
      if (!qrels.queries.has(q.queryId)) ignored.push(decodeId(q.queryId))
      else if (q.docIds.length === 0) empty.push(decodeId(q.queryId))
      ev.add(q)
    }
    const evaluation = ev.finish(run.tag)
    if (evaluation.counts.failedQueries.length) throw loaded.failure(file, evaluation)
    const missing = loaded.missingInDeclaredOrder
      ? declared.filter((q) => !run.queries.has(q)).map(decodeId)
      : evaluation.counts.missingQueries.map(decodeId)
    const issues = [
      ...checkRun(preset, run, file, loaded.context),
      ...checkScoredRun(preset, {
        file,
        conventions,
        missingTopics: missing,
        ignoredTopics: ignored,
        conventionSets: evaluation.conventionSets ?? [],
      }),
    ]
    scored.push({
      evaluation,
      runOrder: [...run.queries.keys()],
      format,
      ignored,
      empty,
      missing,
      issues,
      notes: loaded.runNotes(file, evaluation, ignored),
    })
  }
  const runs = scored.map((s, i) =>
    runResult(
      s,
      inputs.runs[i]!,
      aggregatesOf(
        aggregations,
        measures,
        s.evaluation,
        s.runOrder,
        declared,
        loaded.grouping,
        undefinedWhenEmpty,
      ),
      sets.length,
    ),
  )
  const result: PresetResult = {
    schema: PRESET_RESULT_SCHEMA,
    preset: {
      id: preset.id,
      version: preset.version ?? '1',
      title: preset.title,
      official: preset.official,
      report: preset.report,
      rounding: preset.rounding,
      notes: preset.notes,
    },
    measures: measures.map((m) => m.name),
    labels,
    aggregations,
    conventions: sets.map((s) => ({
      measures: input
        .filter((m) => ('measure' in m ? m.conventions : conventions) === s.conventions)
        .map((m) => ('measure' in m ? m.measure : m).name),
      tieRule: s.tieRule,
      conventions: s.conventions,
    })),
    inputs: {
      qrels: inputs.qrels ?? null,
      data: inputs.data ?? null,
      relMap: loaded.relMap,
      cutoffs,
    },
    runs,
    issues: loaded.issues,
    provenance: { preset: preset.id, version: preset.version ?? '1', inputs: digests },
  }
  return { result, evaluations: scored.map((s) => s.evaluation) }
}

function runResult(
  s: Scored,
  input: RunInput,
  { aggregates, orders, tables }: ReturnType<typeof aggregatesOf>,
  nSets: number,
): PresetRunResult {
  const e = s.evaluation
  const c = e.counts
  const own: ConventionSetCounts = {
    duplicatesRemoved: c.duplicatesRemoved,
    unknownDiscarded: c.unknownDiscarded,
    cutByDepth: c.cutByDepth,
    unjudgedDropped: c.unjudgedDropped,
  }
  return {
    name: runInputName(input),
    file: runInputPath(input),
    tag: decodeId(e.runTag),
    format: s.format,
    queries: e.perQuery.map((q) => {
      const g = splitGroupedQueryId(q.queryId)
      return g
        ? {
            queryId: decodeId(g.queryId),
            group: decodeId(g.group),
            status: q.status,
            values: q.values,
          }
        : { queryId: decodeId(q.queryId), status: q.status, values: q.values }
    }),
    aggregates,
    ...(tables ? { tables } : {}),
    summationOrders: orders,
    counts: {
      declaredQueries: c.declaredQueries,
      runQueries: c.runQueries,
      evaluatedQueries: c.evaluatedQueries,
      missingQueries: s.missing,
      missingPolicy: c.missingPolicy,
      ignoredQueries: s.ignored,
      emptyRankings: s.empty,
      negativeOnlyQueries: c.negativeOnlyQueries.map(decodeId),
      ...own,
    },
    conventionCounts: nSets > 1 ? e.conventionSets!.map((x) => x.counts) : [own],
    issues: s.issues,
    notes: s.notes,
  }
}

/**
 * Run a preset on its inputs and return the plain {@link PresetResult}: read and check the
 * inputs (errors throw {@link TrecscoreError} or {@link InputError}, exit 2), evaluate every run
 * on the engine under the conventions of each measure, aggregate as the preset declares.
 * @example
 * const r = await runPreset('dl21-passage', { qrels: '2021.qrels.pass.final.txt', runs: ['bm25.run'] })
 * r.runs[0].aggregates.mean[0].value // nDCG@10, full precision
 * r.provenance.inputs // sha256 of the qrels and the run
 */
export async function runPreset(
  preset: Preset | string,
  inputs: PresetInputs,
  options: RunPresetOptions = {},
): Promise<PresetResult> {
  return (await runPresetDetailed(preset, inputs, options)).result
}

/** Every warning of a result (qrels first, then each run's), as printed on stderr. */
export function presetWarnings(result: PresetResult): string[] {
  return [...result.issues, ...result.runs.flatMap((r) => r.issues)]
    .filter((i) => i.severity === 'warning')
    .map((i) => i.message)
}

/** Every note of a result, run by run (check notes, then the run's own notes), as printed on stderr. */
export function presetNotes(result: PresetResult): string[] {
  return result.runs.flatMap((r) => [
    ...r.issues.filter((i) => i.severity === 'note').map((i) => i.message),
    ...r.notes,
  ])
}

/** The warnings of the checks on the qrels of a result. */
export function qrelsWarnings(result: PresetResult): string[] {
  return result.issues.filter((i) => i.severity === 'warning').map((i) => i.message)
}

/** A run's lines for a legend or a log: its check warnings, its check notes, then its own notes. */
export function runMessages(run: PresetRunResult): string[] {
  const of = (severity: PresetIssue['severity']): string[] =>
    run.issues.filter((i) => i.severity === severity).map((i) => i.message)
  return [...of('warning'), ...of('note'), ...run.notes]
}

/** The headline aggregates of a run (the preset's first aggregation). */
export function headlineAggregates(
  result: PresetResult,
  run: PresetRunResult,
): readonly AggregateValue[] {
  return run.aggregates[result.aggregations[0]!.id]!
}
