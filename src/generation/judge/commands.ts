/**
 * What `trecscore judge run | calibrate | report` do, as library functions (the CLI only parses
 * flags and prints): load and hash the config, build items, open the cache, run, aggregate,
 * write judgments, render reports.
 *
 * Endpoint and key come from the environment unless given: base URL = `--base-url`, else
 * `TRECSCORE_JUDGE_BASE_URL`, else `OPENAI_BASE_URL`, else `https://api.openai.com/v1`; API key
 * = `TRECSCORE_JUDGE_API_KEY`, else `OPENAI_API_KEY`, else none (no Authorization header).
 */

import { basename, isAbsolute, relative, resolve, sep } from 'node:path'
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../io/jsonl.js'
import { readAll, SourceError } from '../../io/source.js'
import { formatDecimal } from '../../report/printf.js'
import { judgeAgreement } from '../../stats/agreement/judge-agreement.js'
import { renderAgreementJson, renderAgreementMarkdown } from '../../stats/agreement/render.js'
import { type BertScorerOptions, loadBertScorer } from '../bertscore/scorer.js'
import type { SynonymSource } from '../textsim/meteor.js'
import { loadWordNet } from '../textsim/wordnet-file.js'
import { aggregateJudgments, type Judgment } from './aggregate.js'
import {
  type BatchCollectResult,
  type BatchSubmitResult,
  collectBatches,
  submitBatch,
} from './batch.js'
import { JudgeCache } from './cache.js'
import { calibrate, type GoldenCase, parseGoldenCase } from './calibrate.js'
import { JUDGE_DIMENSIONS, type JudgeDimension } from './config.js'
import { type EmbeddingDiagnostics, embeddingDiagnostics } from './embedding.js'
import { ioReason, JudgeInputError } from './errors.js'
import {
  badRecords,
  checkJudgmentsOut,
  defaultJudgeConfigPath,
  type LoadedJudgeConfig,
  loadJudgeConfig,
  readJsonlFile,
  readJudgeItems,
  readJudgments,
  writeJudgments,
  writeTextFile,
} from './files.js'
import type { JudgeItem } from './items.js'
import { type LexicalDiagnostics, lexicalDiagnostics } from './lexical.js'
import { createProgress, type ProgressStream } from './progress.js'
import {
  disclosureJson,
  type JudgeReportFormat,
  renderCalibration,
  renderDisclosureMarkdown,
  renderRunReport,
  runReportJson,
} from './report.js'
import { type JudgeRunStats, judgeShortfall, runJudge } from './runner.js'
import type { JudgmentStore } from './store.js'

/** The default endpoint when neither a flag nor the environment names one. */
export const DEFAULT_JUDGE_BASE_URL = 'https://api.openai.com/v1'

/** Endpoint settings from flags and environment. */
export function resolveEndpoint(
  env: Readonly<Record<string, string | undefined>>,
  baseUrl?: string,
): { baseUrl: string; apiKey: string | null } {
  const url =
    baseUrl || env['TRECSCORE_JUDGE_BASE_URL'] || env['OPENAI_BASE_URL'] || DEFAULT_JUDGE_BASE_URL
  const key = env['TRECSCORE_JUDGE_API_KEY'] || env['OPENAI_API_KEY'] || null
  return { baseUrl: url, apiKey: key }
}

/** The default cache file of a config: one per config hash, in the working directory. */
export function defaultCacheFile(configHash: string): string {
  return `trecscore-judge-cache-${configHash.slice(0, 12)}.sqlite`
}

/** Options shared by the commands that call the judge. */
export interface JudgeCallOptions {
  /** Judge config file. @default the shipped `data/judge/reteco-judge-v1.json` */
  readonly config?: string
  readonly cache?: string
  /**
   * An open judgment store of this config to use instead of a cache file (`cache` is then not
   * opened); the caller closes it. The server passes its Postgres store here.
   */
  readonly store?: JudgmentStore
  readonly baseUrl?: string
  readonly concurrency?: number
  readonly requestsPerMinute?: number
  readonly quiet?: boolean
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stderr: ProgressStream
  /** Stop asking after this many judgments in a row are missing (0 = never). @default 20 */
  readonly giveUpAfter?: number
  /**
   * The run fails (the result's `failure`; the CLI exits 2) when every judgment that needed the
   * judge, or more than this share of them, ended missing or invalid. @default 0.1
   */
  readonly maxFailedShare?: number
  /** Replace an existing judgments file (`--out`, calibrate `-o`). @default false */
  readonly force?: boolean
  /** Test hooks: sleep and jitter of the client. */
  readonly sleep?: (ms: number) => Promise<void>
  readonly random?: () => number
}

/** Options of {@link judgeRunCommand}. */
export interface JudgeRunCommandOptions extends JudgeCallOptions {
  /** Generic items JSONL (or use `preset`). */
  readonly items?: string
  /** A preset served by one of `routes` (`reteco-2b`, `reteco-2c`), with `data` and `answers`. */
  readonly preset?: string
  /** Preset families that build judge items from their data (the CLI passes RETECO's). @default [] */
  readonly routes?: readonly JudgeItemsRoute[]
  readonly data?: string
  readonly answers?: string
  readonly retrieval?: string
  readonly split?: string
  readonly domains?: readonly string[]
  /** Judgments JSONL written here. */
  readonly out: string
  readonly dimensions?: readonly JudgeDimension[]
  readonly format: JudgeReportFormat
  readonly perTurn?: boolean
  /** Also write the JSON report here. */
  readonly reportJson?: string
  /** ROUGE-L and METEOR against the references (when the items have references). @default true */
  readonly lexical?: boolean
  /** BERTScore against the references with this local model (see embedding.ts); none when absent. */
  readonly bertscore?: BertScorerOptions
}

function openRun(
  o: Pick<JudgeCallOptions, 'config' | 'cache' | 'baseUrl' | 'env'>,
  preloaded?: LoadedJudgeConfig,
): {
  loaded: LoadedJudgeConfig
  cache: JudgeCache
  endpoint: { baseUrl: string; apiKey: string | null }
} {
  const loaded = preloaded ?? loadJudgeConfig(o.config ?? defaultJudgeConfigPath())
  const cache = JudgeCache.open(o.cache ?? defaultCacheFile(loaded.hash), loaded.hash)
  return { loaded, cache, endpoint: resolveEndpoint(o.env, o.baseUrl) }
}

/** Is the base URL a server on this machine (`localhost`, 127.x.x.x, `::1`)? */
function isLoopbackUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '')
    return host === 'localhost' || host === '::1' || /^127\./.test(host)
  } catch {
    return false
  }
}

/** One stderr note when a server on this machine is held to the config's requests-per-minute limit. */
function loopbackNote(o: JudgeCallOptions, loaded: LoadedJudgeConfig): void {
  const rpm = loaded.config.requestsPerMinute
  const { baseUrl } = resolveEndpoint(o.env, o.baseUrl)
  if (o.requestsPerMinute === undefined && rpm > 0 && !o.quiet && isLoopbackUrl(baseUrl)) {
    o.stderr.write(
      `trecscore judge: note: ${baseUrl} is on this machine, but the config allows only ${rpm} requests per minute; pass --rpm 0 to lift the limit\n`,
    )
  }
}

async function judgeItems(
  o: JudgeCallOptions,
  items: readonly JudgeItem[],
  dimensions: readonly JudgeDimension[] | undefined,
  preloaded?: LoadedJudgeConfig,
) {
  const loaded = preloaded ?? loadJudgeConfig(o.config ?? defaultJudgeConfigPath())
  const { cache, endpoint } = o.store
    ? { cache: null, endpoint: resolveEndpoint(o.env, o.baseUrl) }
    : openRun(o, loaded)
  const progress = createProgress(o.stderr, { quiet: o.quiet ?? false })
  try {
    const r = await runJudge({
      config: loaded.config,
      configHash: loaded.hash,
      items,
      cache: o.store ?? cache!,
      client: {
        ...endpoint,
        ...(o.sleep ? { sleep: o.sleep } : {}),
        ...(o.random ? { random: o.random } : {}),
      },
      ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
      ...(o.requestsPerMinute !== undefined ? { requestsPerMinute: o.requestsPerMinute } : {}),
      ...(dimensions ? { dimensions } : {}),
      ...(o.giveUpAfter !== undefined ? { giveUpAfter: o.giveUpAfter } : {}),
      onProgress: progress.onProgress,
    })
    return { ...r, loaded, endpoint }
  } finally {
    progress.finish()
    cache?.close()
  }
}

/**
 * A preset family's route to judge items (RETECO 2b/2c: `retecoJudgeItemsRoute`): items built from
 * its data, a submission's answers and (2c) its retrieval run, with a description of the source
 * and notes for the report. Passed in by the caller, so this module imports no preset family.
 */
export interface JudgeItemsRoute {
  /** The preset ids it serves. */
  readonly presets: readonly string[]
  build(o: {
    readonly preset: string
    readonly data: string
    readonly answers: string
    readonly retrieval: string | null
    readonly split?: string
    readonly domains?: readonly string[]
  }): Promise<{ items: JudgeItem[]; source: string; notes: string[] }>
}

/** Where the items of a run come from (generic items, or a preset's route). */
export type JudgeItemsSource = Pick<
  JudgeRunCommandOptions,
  'items' | 'preset' | 'routes' | 'data' | 'answers' | 'retrieval' | 'split' | 'domains'
>

/** Build the items of a run, with a description of the source and the notes for the report. */
export async function resolveJudgeItems(
  o: JudgeItemsSource,
): Promise<{ items: JudgeItem[]; source: string; notes: string[] }> {
  const routes = o.routes ?? []
  const presets = routes.flatMap((r) => r.presets).join('|')
  if (o.preset) {
    if (o.items) throw new JudgeInputError([{ code: 'items_and_preset', preset: o.preset }])
    if (!o.data || !o.answers)
      throw new JudgeInputError([{ code: 'preset_needs_data', preset: o.preset }])
    const route = routes.find((r) => r.presets.includes(o.preset!))
    if (!route)
      throw new JudgeInputError([{ code: 'not_a_judge_preset', preset: o.preset, presets }])
    return route.build({
      preset: o.preset,
      data: o.data,
      answers: o.answers,
      retrieval: o.retrieval ?? null,
      ...(o.split ? { split: o.split } : {}),
      ...(o.domains ? { domains: o.domains } : {}),
    })
  }
  if (!o.items) throw new JudgeInputError([{ code: 'no_items', presets }])
  if (o.data || o.retrieval || o.answers)
    throw new JudgeInputError([{ code: 'data_without_preset', presets }])
  return { items: await readJudgeItems(o.items), source: `items ${o.items}`, notes: [] }
}

/**
 * `judge run`: judge items (or a RETECO submission), write judgments, return the report text.
 * An existing `out` is refused before anything is asked, unless `force`. `failure` is a one-line
 * reason when too much ended missing or invalid (see `maxFailedShare`); the judgments and the
 * report are written all the same, so the failures can be read.
 */
export async function judgeRunCommand(o: JudgeRunCommandOptions): Promise<{
  report: string
  judgments: Judgment[]
  stats: JudgeRunStats
  failure: string | null
}> {
  const loaded0 = loadJudgeConfig(o.config ?? defaultJudgeConfigPath())
  await checkJudgmentsOut(o.out, loaded0.hash, o.force ?? false)
  const { items, source, notes } = await resolveJudgeItems(o)
  loopbackNote(o, loaded0)
  const r = await judgeItems(o, items, o.dimensions, loaded0)
  await writeJudgments(o.out, r.judgments, r.loaded.hash, o.force ?? false)
  notes.push(`judgments written to ${o.out}`)
  const agg = aggregateJudgments(r.judgments, r.loaded.config.invalidPolicy)
  let lexical: LexicalDiagnostics | null = null
  if (o.lexical !== false && items.some((i) => i.reference && i.answer !== null)) {
    let wordnet: SynonymSource | null = null
    try {
      wordnet = await loadWordNet()
    } catch (e) {
      notes.push(
        `METEOR not computed: the bundled WordNet index could not be loaded (${(e as Error).message})`,
      )
    }
    lexical = lexicalDiagnostics(items, wordnet)
  }
  let bertscore: EmbeddingDiagnostics | null = null
  if (o.bertscore && items.some((i) => i.reference && i.answer !== null)) {
    const scorer = await loadBertScorer(o.bertscore)
    try {
      bertscore = await embeddingDiagnostics(items, scorer)
    } finally {
      await scorer.close()
    }
  }
  const meta = {
    config: r.loaded.config,
    configHash: r.loaded.hash,
    baseUrl: r.endpoint.baseUrl,
    source,
    notes,
    lexical,
    bertscore,
  }
  if (o.reportJson)
    await writeTextFile(
      o.reportJson,
      `${JSON.stringify(runReportJson(agg, r.stats, meta), null, 2)}\n`,
    )
  return {
    report: renderRunReport(agg, r.stats, meta, o.format, { perTurn: o.perTurn ?? false }),
    judgments: r.judgments,
    stats: r.stats,
    failure: judgeShortfall([r.stats], o.maxFailedShare ?? DEFAULT_MAX_FAILED_SHARE),
  }
}

/** Default of {@link JudgeCallOptions.maxFailedShare}: more than 10% missing or invalid fails a run. */
export const DEFAULT_MAX_FAILED_SHARE = 0.1

/** Read a golden JSONL file; duplicate ids are problems. */
export async function readGolden(file: string): Promise<GoldenCase[]> {
  const out: GoldenCase[] = []
  const seen = new Map<string, number>()
  const problems = await readJsonlFile(file, (v, line) => {
    const r = parseGoldenCase(v)
    if (!r.ok) return badRecords(r.problems)
    const first = seen.get(r.golden.id)
    if (first !== undefined) return [{ code: 'duplicate_case', id: r.golden.id, firstLine: first }]
    seen.set(r.golden.id, line)
    out.push(r.golden)
  })
  if (problems.length) throw new JudgeInputError(problems)
  if (out.length === 0)
    throw new JudgeInputError([{ code: 'no_records', file, of: 'golden cases' }])
  return out
}

/**
 * `judge calibrate`: judge each golden pair on its dimension and report the ranking agreement.
 * `failure` as for {@link judgeRunCommand} (too many judgments missing or invalid).
 */
export async function judgeCalibrateCommand(
  o: JudgeCallOptions & {
    readonly golden: string
    readonly format: JudgeReportFormat
    readonly out?: string
  },
): Promise<{ report: string; passed: number; total: number; failure: string | null }> {
  const loaded = loadJudgeConfig(o.config ?? defaultJudgeConfigPath())
  if (o.out) await checkJudgmentsOut(o.out, loaded.hash, o.force ?? false)
  const golden = await readGolden(o.golden)
  loopbackNote(o, loaded)
  const judgments: Judgment[] = []
  const stats: JudgeRunStats[] = []
  for (const dim of JUDGE_DIMENSIONS) {
    const cases = golden.filter((g) => g.dimension === dim)
    if (!cases.length) continue
    const r = await judgeItems(
      o,
      cases.flatMap((g) => [g.better, g.worse]),
      [dim],
      loaded,
    )
    judgments.push(...r.judgments)
    stats.push(r.stats)
  }
  if (o.out) await writeJudgments(o.out, judgments, loaded.hash, o.force ?? false)
  const result = calibrate(golden, judgments, loaded.hash)
  return {
    report: renderCalibration(result, { config: loaded.config, golden: o.golden }, o.format),
    passed: result.passed,
    total: result.total,
    failure: judgeShortfall(stats, o.maxFailedShare ?? DEFAULT_MAX_FAILED_SHARE),
  }
}

/** Options of {@link judgeReportCommand}. */
export interface JudgeReportCommandOptions {
  readonly judgments: string
  readonly config?: string
  /** Human labels: agreement of the judge with them (`judgeAgreement` of the agreement module). */
  readonly human?: string
  /** Bootstrap resamples and seed of the agreement CIs. @default 1000, 42 */
  readonly bootstrap?: number
  readonly seed?: number
  readonly markdownOut?: string
  readonly jsonOut?: string
  readonly format: 'markdown' | 'json'
  /** A `judge run --report-json` file whose lexical diagnostics are included. */
  readonly diagnostics?: string
}

/**
 * `judge report`: the disclosure report (markdown and JSON) of a judgments file. `report` is the
 * report in `format`; `stdout` is what the CLI prints: that report, or a one-line summary when
 * it was written to a file (`markdownOut` for markdown, `jsonOut` for JSON). Paths in the report
 * are relative (see {@link reportPath}).
 */
export async function judgeReportCommand(
  o: JudgeReportCommandOptions,
): Promise<{ report: string; stdout: string }> {
  const loaded = loadJudgeConfig(o.config ?? defaultJudgeConfigPath())
  const judgments = await readJudgments(o.judgments)
  const other = judgments.find((j) => j.configHash !== loaded.hash)
  if (other)
    throw new JudgeInputError([
      {
        code: 'judgments_other_config',
        file: o.judgments,
        found: other.configHash,
        configFile: loaded.file,
        expected: loaded.hash,
      },
    ])
  const agg = aggregateJudgments(judgments, loaded.config.invalidPolicy)
  let agreement: unknown = null
  let agreementNote = 'No human labels were given (--human FILE), so no agreement is reported.'
  let agreementMarkdown: string | null = null
  if (o.human) {
    let human: Buffer
    try {
      human = await readAll(o.human)
    } catch (e) {
      throw new JudgeInputError([
        {
          code: 'human_unreadable',
          file: o.human,
          reason: e instanceof SourceError ? e.reason : ioReason(e),
        },
      ])
    }
    const computed = judgeAgreement(
      {
        human: { file: o.human, bytes: human },
        judgments: { file: o.judgments, bytes: await readAll(o.judgments) },
      },
      {
        ...(o.bootstrap !== undefined ? { bootstrap: o.bootstrap } : {}),
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
      },
    )
    // Problems above name the files as given; the shared report names them by relative paths.
    const result = {
      ...computed,
      humanFile: reportPath(o.human),
      judgmentsFile: reportPath(o.judgments),
    }
    agreement = JSON.parse(renderAgreementJson(result)) as unknown
    agreementMarkdown = renderAgreementMarkdown(result)
    agreementNote = `Agreement of the judge with the human labels in ${reportPath(o.human)} (quadratic-weighted Cohen's kappa, Krippendorff's alpha, Spearman, Kendall tau-b; bootstrap CIs resample whole conversations).`
  }
  let diagnostics: unknown = null
  if (o.diagnostics) {
    let rep: Record<string, unknown>
    try {
      rep = JSON.parse((await readAll(o.diagnostics)).toString('utf8')) as Record<string, unknown>
    } catch (e) {
      throw new JudgeInputError([
        {
          code: 'diagnostics_unreadable',
          file: o.diagnostics,
          reason: e instanceof SourceError ? e.reason : ioReason(e),
        },
      ])
    }
    if (jsonDeeperThan(rep, MAX_JSON_DEPTH))
      throw new JudgeInputError([
        { code: 'diagnostics_too_deep', file: o.diagnostics, limit: MAX_JSON_DEPTH },
      ])
    if (rep === null || typeof rep !== 'object' || Array.isArray(rep))
      throw new JudgeInputError([{ code: 'diagnostics_not_an_object', file: o.diagnostics }])
    if (rep['judge_config_id'] !== loaded.hash)
      throw new JudgeInputError([
        {
          code: 'diagnostics_other_config',
          file: o.diagnostics,
          found: String(rep['judge_config_id']),
          expected: loaded.hash,
        },
      ])
    if (!rep['lexical'])
      throw new JudgeInputError([{ code: 'diagnostics_no_lexical', file: o.diagnostics }])
    const lx = rep['lexical'] as Record<string, unknown>
    diagnostics = {
      method: lx['method'],
      all: lx['all'],
      per_domain: lx['byDomain'],
      per_turn_depth: lx['byDepth'],
      no_reference: lx['noReference'],
      unanswered: lx['unanswered'],
      too_long: lx['tooLong'],
    }
  }
  const input = {
    config: loaded.config,
    configHash: loaded.hash,
    configFile: reportPath(loaded.file),
    judgmentsFile: reportPath(o.judgments),
    aggregates: agg,
    agreement,
    agreementNote,
    agreementMarkdown,
    diagnostics,
  }
  const md = renderDisclosureMarkdown(input)
  const json = `${JSON.stringify(disclosureJson(input), null, 2)}\n`
  const written: string[] = []
  if (o.markdownOut) {
    await writeTextFile(o.markdownOut, md)
    written.push(`${o.markdownOut} (markdown)`)
  }
  if (o.jsonOut) {
    await writeTextFile(o.jsonOut, json)
    written.push(`${o.jsonOut} (JSON)`)
  }
  const report = o.format === 'json' ? json : md
  const toFile = o.format === 'json' ? o.jsonOut : o.markdownOut
  const overall = agg.all.overall === null ? '-' : formatDecimal(agg.all.overall, 4)
  const summary = `judge report: wrote ${written.join(' and ')}: ${agg.turns.length} turns, mean over dimensions ${overall}, judge config ${loaded.hash.slice(0, 12)}\n`
  return { report, stdout: toFile ? summary : report }
}

/**
 * A path as a report shows it: the shipped config as `data/judge/reteco-judge-v1.json`, a file
 * under the working directory relative to it, any other by its base name (a report is shared:
 * it should not carry local absolute paths).
 */
function reportPath(file: string, cwd: string = process.cwd()): string {
  if (resolve(file) === resolve(defaultJudgeConfigPath())) return 'data/judge/reteco-judge-v1.json'
  const rel = relative(cwd, resolve(cwd, file))
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
    ? rel.split(sep).join('/')
    : basename(file)
}

/** Options of the `judge batch` commands. */
export interface JudgeBatchOptions extends JudgeItemsSource {
  readonly config?: string
  readonly cache?: string
  readonly baseUrl?: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly dimensions?: readonly JudgeDimension[]
}

/** `judge batch submit`: send every request not yet cached as one Batch API job. */
export async function judgeBatchSubmitCommand(
  o: JudgeBatchOptions,
): Promise<{ report: string; result: BatchSubmitResult }> {
  const { items } = await resolveJudgeItems(o)
  const { loaded, cache, endpoint } = openRun(o)
  try {
    const result = await submitBatch(
      { ...endpoint, timeoutMs: loaded.config.retry.requestTimeoutMs },
      loaded.config,
      loaded.hash,
      items,
      cache,
      o.dimensions ?? JUDGE_DIMENSIONS,
    )
    const lines = [
      `judge config hash: ${loaded.hash}`,
      result.batchId
        ? `batch ${result.batchId} submitted: ${result.requests} request(s) (input file ${result.fileId})`
        : 'nothing to submit: every judgment is already in the cache',
      `already cached: ${result.cached}; in a batch still waiting: ${result.waiting}; needing no request (unanswered turns, nothing to judge against): ${result.notAsked}`,
      `cache: ${cache.file}; collect with \`trecscore judge batch collect\` (same --config and --cache), then \`trecscore judge run\``,
    ]
    return { report: `${lines.join('\n')}\n`, result }
  } finally {
    cache.close()
  }
}

/** `judge batch collect`: poll the submitted batches; cache the valid replies of completed ones. */
export async function judgeBatchCollectCommand(
  o: Omit<JudgeBatchOptions, keyof JudgeItemsSource | 'dimensions'>,
): Promise<{ report: string; results: BatchCollectResult[] }> {
  const { loaded, cache, endpoint } = openRun(o)
  try {
    const results = await collectBatches(
      { ...endpoint, timeoutMs: loaded.config.retry.requestTimeoutMs },
      cache,
    )
    const lines = [`judge config hash: ${loaded.hash}`]
    if (!results.length) lines.push('no submitted batch is waiting in this cache')
    for (const r of results) {
      const bad = Object.entries(r.malformed).map(([k, n]) => `${k} ×${n}`)
      lines.push(
        `batch ${r.batchId}: ${r.status}; ${r.requests} request(s), ${r.collected} judgment(s) cached, ${bad.length ? `malformed: ${bad.join(', ')}` : '0 malformed'}, ${r.failed} without a valid reply (judge run asks the malformed and failed ones again)${r.errorReplies ? `; ${r.errorReplies} HTTP error repl${r.errorReplies === 1 ? 'y' : 'ies'}` : ''}${r.unreadableLines ? `; ${r.unreadableLines} unreadable output line(s) skipped` : ''}${r.unknownRequests ? `; ${r.unknownRequests} output line(s) naming no request of this cache skipped` : ''}`,
      )
    }
    return { report: `${lines.join('\n')}\n`, results }
  } finally {
    cache.close()
  }
}
