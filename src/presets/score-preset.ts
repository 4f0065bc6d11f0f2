/**
 * Run a {@link Preset} on the engine: read the TREC qrels and runs under the preset's
 * conventions, evaluate with {@link RunEvaluator}, and collect the preset's warnings. Rendering
 * (trec_eval layout, leaderboard, JSON) is in {@link renderPresetScore}.
 */
import { basename } from 'node:path'
import type { Qrels, Run, RunQuery } from '../model/types.js'
import type { Conventions } from '../conventions/conventions.js'
import type { Measure } from '../measures/measure.js'
import { parseMeasures } from '../measures/name.js'
import { decodeId } from '../io/bytes.js'
import { readQrels, readRun } from '../io/read.js'
import { readAll } from '../io/source.js'
import { runInputName, runInputPath, type RunInput } from '../io/run-labels.js'
import { writeOutputFile } from '../io/output.js'
import { parseQrels } from '../io/trec-qrels.js'
import { docCount, docIdsOf } from '../model/run-query.js'
import { RunEvaluator, type EvaluationCounts, type RunEvaluation } from '../evaluate/evaluate.js'
import { conventionsLine, renderResults, toJson } from '../report/leaderboard.js'
import { formatFixed, padRight } from '../report/printf.js'
import { InputError, TrecscoreError } from '../errors/trecscore-error.js'
import type { Preset, PresetCheck } from './preset.js'
import { checkCandidates, checkUnifiedRanking, languageProblemMessages, parseDocLanguages, parseRelMap, remapQrelsText, scanNeuclirQrels, type LanguageInfo, type QrelsScan } from './neuclir-checks.js'
import { findPreset, presetIds } from './registry.js'

/** The conventions one group of a preset's measures was computed under (presets with per-measure conventions). */
export interface PresetMeasureGroup {
  /** Measures (canonical names) of the group. */
  readonly measures: readonly string[]
  /** The group's conventions. */
  readonly conventions: Conventions
  /** Name of its tie rule, where the preset names one. */
  readonly tieRule: string | null
  /** What the group's preparation dropped, cut or zero-filled. */
  readonly counts: EvaluationCounts
}

/** One run scored by a preset. */
export interface PresetRunScore {
  /** The engine's result (per-query values, aggregates, counts; the counts of the preset's own conventions). */
  readonly evaluation: RunEvaluation
  /** The preset's checks that fired for this run. */
  readonly warnings: readonly string[]
  /** Informational lines (the `topic-sets` check: topics zero-filled and ignored). */
  readonly notes: readonly string[]
  /** Qrels topics absent from the run (scored 0 or skipped, per the conventions), decoded. */
  readonly missingTopics: readonly string[]
  /** Run topics absent from the qrels (ignored), decoded, in run order. */
  readonly ignoredTopics: readonly string[]
  /** One entry per conventions group when the preset has per-measure conventions; else empty. */
  readonly groups: readonly PresetMeasureGroup[]
}

/** Every run of one `score --preset` call. */
export interface PresetScore {
  readonly preset: Preset
  readonly qrelsFile: string
  /** The preset's checks that fired for the qrels. */
  readonly qrelsWarnings: readonly string[]
  readonly runs: readonly PresetRunScore[]
  /** The `--rel-map` applied to the qrels grades (grade → value), if any, and how many judgments it changed. */
  readonly relMap?: { readonly map: ReadonlyMap<number, number>; readonly changed: number }
}

/** Inputs of {@link scorePreset}. */
export interface PresetInputs {
  /** TREC qrels file. */
  readonly qrels: string
  /** TREC run files: paths (printed as typed) or `{ path, name }` (printed under `name`). */
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
}

/** The preset with this id; throws {@link TrecscoreError} (exit 2) listing the known ids. */
export function getPreset(id: string): Preset {
  const p = findPreset(id)
  if (!p) throw new TrecscoreError(`unknown preset '${id}'; known presets: ${presetIds().join(', ')}`, 2)
  return p
}

/** Warnings of the preset's qrels checks (e.g. the DL "-no1" variant). */
export function checkPresetQrels(preset: Preset, qrels: Qrels, file: string): string[] {
  const out: string[] = []
  for (const c of preset.checks) {
    if (c.kind !== 'qrels-missing-grade') continue
    let judged = 0
    let ofGrade = 0
    for (const q of qrels.queries.values()) {
      for (const [g, n] of q.relLevels.entries()) {
        judged += n
        if (g === c.grade) ofGrade += n
      }
    }
    const named = basename(file).includes(`-no${c.grade}`)
    if (named || (judged > 0 && ofGrade === 0)) out.push(`${file}: ${c.message}`)
  }
  return out
}

/** What the run checks may look at besides the run (all optional; a check without its input is skipped). */
export interface PresetRunContext {
  /** Reranking candidate lists and their file name (`candidates` check). */
  readonly candidates?: { readonly run: Run; readonly file: string }
  /** Document languages and, from language qrels, the languages judged per topic (`unified-ranking` check). */
  readonly languages?: LanguageInfo
  /** Instead of `languages`: the text of NeuCLIR language qrels (`topic lang docid grade`), decoded as latin1. */
  readonly qrelsText?: string
  /** Instead of `languages`: a doc-to-language map file's text (latin1) and name; with `qrelsText`, the qrels give the judged languages per topic. */
  readonly docLang?: { readonly text: string; readonly file: string }
}

/** The languages a `unified-ranking` check uses, from the context's parsed or raw sources; problems of a bad map file. */
function contextLanguages(context: PresetRunContext): { languages?: LanguageInfo; problems: string[] } {
  if (context.languages) return { languages: context.languages, problems: [] }
  const scan = context.qrelsText === undefined ? null : scanNeuclirQrels(context.qrelsText)
  if (context.docLang) {
    const parsed = parseDocLanguages(context.docLang.text, context.docLang.file)
    return { languages: { docLanguages: parsed.languages, ...(scan ? { topicLanguages: scan.topicLanguages } : {}) }, problems: parsed.problems.map((p) => p.message) }
  }
  return scan ? { languages: { docLanguages: scan.docLanguages, topicLanguages: scan.topicLanguages }, problems: [] } : { problems: [] }
}

/**
 * Warnings of the preset's run checks (task mix-up by doc id prefix, runs deeper than allowed,
 * candidate lists, one unified ranking per topic). `validate --preset` reports the same as errors.
 */
export function checkPresetRun(preset: Preset, run: Run, file: string, context: PresetRunContext = {}): string[] {
  const out: string[] = []
  for (const c of preset.checks) {
    if (c.kind === 'doc-id-prefix') {
      let n = 0
      let first = ''
      for (const q of run.queries.values()) {
        for (const d of docIdsOf(q)) {
          if (d.startsWith(c.prefix)) {
            if (n === 0) first = decodeId(d)
            n++
          }
        }
      }
      if (n > 0) out.push(`${file}: ${n} doc id(s) start with '${c.prefix}' (first: ${first}): ${c.message}`)
    } else if (c.kind === 'max-depth') {
      let n = 0
      let deepest = 0
      let which = ''
      for (const q of run.queries.values()) {
        const k = docCount(q)
        if (k > c.depth) {
          n++
          if (k > deepest) {
            deepest = k
            which = decodeId(q.queryId)
          }
        }
      }
      if (n > 0) out.push(`${file}: ${n} quer${n === 1 ? 'y retrieves' : 'ies retrieve'} more than ${c.depth} documents (deepest: ${which} with ${deepest}): ${c.message}`)
    } else if (c.kind === 'candidates') {
      if (context.candidates) out.push(...checkCandidates(run, context.candidates.run, file, context.candidates.file).map((p) => p.message))
    } else if (c.kind === 'unified-ranking') {
      const { languages, problems } = contextLanguages(context)
      out.push(...problems, ...checkUnifiedRanking(run, file, c.depth, languages).map((p) => p.message))
    }
  }
  return out
}

/** The text of a qrels or map file as binary-string ids (one char per byte), as the parsers keep ids. */
async function readText(file: string): Promise<{ bytes: Buffer; text: string }> {
  const bytes = await readAll(file)
  return { bytes, text: bytes.toString('latin1') }
}

/**
 * Read the preset's qrels: apply `--rel-map`, run the line checks of the qrels' columns
 * (`qrels-language`, `qrels-forbidden-grade`: errors, the latter a warning with `force`), parse.
 */
async function readPresetQrels(preset: Preset, inputs: PresetInputs): Promise<{ qrels: Qrels; warnings: string[]; scan: QrelsScan | null; relMap?: PresetScore['relMap'] }> {
  const c = preset.conventions
  const map = inputs.relMap === undefined ? undefined : parseRelMap(inputs.relMap, preset.relMaps ?? {})
  if (inputs.writeQrels !== undefined && !map) throw new TrecscoreError('--write-qrels needs --rel-map', 2)
  const lineChecks = preset.checks.filter((k) => k.kind === 'qrels-language' || k.kind === 'qrels-forbidden-grade')
  if (!map && lineChecks.length === 0) return { qrels: await readQrels(inputs.qrels, { comments: c.comments }), warnings: [], scan: null }
  const { bytes, text } = await readText(inputs.qrels)
  if (bytes.length === 0) throw new InputError([{ code: 'empty_file', file: inputs.qrels }])
  const langCheck = preset.checks.find((k) => k.kind === 'qrels-language')
  const gradeCheck = preset.checks.find((k) => k.kind === 'qrels-forbidden-grade')
  const scan = scanNeuclirQrels(text, {
    ...(langCheck ? { languages: langCheck.languages } : {}),
    ...(gradeCheck ? { forbiddenGrade: gradeCheck.grade } : {}),
    ...(map ? { remap: map } : {}),
  })
  const errors: string[] = []
  const warnings: string[] = []
  if (langCheck && scan.languageProblems.length) errors.push(...languageProblemMessages(scan, inputs.qrels, langCheck.languages, preset.id), `(${langCheck.message})`)
  if (gradeCheck && scan.forbiddenGrade.length) {
    const n = scan.forbiddenGrade.length
    const first = scan.forbiddenGrade[0]!
    const what = `${inputs.qrels}: ${n} judgment(s) of grade ${gradeCheck.grade}${map ? ' after --rel-map' : ''} (first: line ${first.line}: ${JSON.stringify(decodeId(first.text.slice(0, 160)))}): ${gradeCheck.message}`
    if (inputs.force) warnings.push(`${what} [--force: scored as they are]`)
    else errors.push(what)
  }
  if (errors.length) throw new TrecscoreError(errors.join('\n'), 2)
  if (inputs.writeQrels !== undefined && map) {
    await writeOutputFile(inputs.writeQrels, remapQrelsText(text, map).text, 'latin1')
  }
  const r = parseQrels(bytes, { file: inputs.qrels, comments: c.comments, ...(map ? { remap: map } : {}) })
  if (!r.ok) throw new InputError(r.issues)
  return { qrels: r.value, warnings, scan, ...(map ? { relMap: { map, changed: scan.remapped } } : {}) }
}

/** The measures of a preset grouped by the conventions they are computed under (the preset's own first). */
function conventionGroups(preset: Preset): { measures: Measure[]; indices: number[]; conventions: Conventions; tieRule: string | null }[] {
  const overrides = preset.measureConventions ?? []
  const groupOf = new Map<string, number>()
  overrides.forEach((o, g) => {
    for (const m of parseMeasures(o.measures)) groupOf.set(m.name, g + 1)
  })
  const groups = [{ conventions: preset.conventions, tieRule: preset.tieRule?.name ?? null }, ...overrides.map((o) => ({ conventions: o.conventions, tieRule: o.tieRule.name }))].map((g) => ({ ...g, measures: [] as Measure[], indices: [] as number[] }))
  preset.parsedMeasures.forEach((m, i) => {
    const g = groups[groupOf.get(m.name) ?? 0]!
    g.measures.push(m)
    g.indices.push(i)
  })
  return groups.filter((g) => g.measures.length > 0)
}

function narrow(q: RunQuery): RunQuery {
  return { ...q, scores: q.scores.map(Math.fround) }
}

/**
 * Evaluate one run (read with float64 scores) group by group and join the values in the
 * preset's measure order. Counts are those of the preset's own conventions; each group's are
 * kept in `groups`.
 */
function evaluateGroups(preset: Preset, qrels: Qrels, run: Run, runName: string): { evaluation: RunEvaluation; groups: PresetMeasureGroup[] } {
  const parts = conventionGroups(preset).map((g) => {
    const ev = new RunEvaluator(qrels, g.measures, g.conventions, { runName })
    for (const q of run.queries.values()) ev.add(g.conventions.scorePrecision === 'float32' ? narrow(q) : q)
    return { ...g, evaluation: ev.finish(run.tag) }
  })
  const base = parts.find((p) => p.conventions === preset.conventions) ?? parts[0]!
  const failed = new Map<string, RunEvaluation['counts']['failedQueries'][number]>()
  for (const p of parts) for (const f of p.evaluation.counts.failedQueries) if (!failed.has(f.queryId)) failed.set(f.queryId, f)
  const valuesOf = parts.map((p) => new Map(p.evaluation.perQuery.map((q) => [q.queryId, q.values])))
  const perQuery = base.evaluation.perQuery
    .filter((q) => !failed.has(q.queryId))
    .map((q) => {
      const values: (number | null)[] = new Array(preset.parsedMeasures.length).fill(null)
      parts.forEach((p, pi) => {
        const v = valuesOf[pi]!.get(q.queryId)!
        p.indices.forEach((mi, k) => (values[mi] = v[k]!))
      })
      return { ...q, values }
    })
  const aggregates = new Array<RunEvaluation['aggregates'][number]>(preset.parsedMeasures.length)
  for (const p of parts) p.indices.forEach((mi, k) => (aggregates[mi] = p.evaluation.aggregates[k]!))
  const evaluation: RunEvaluation = {
    ...base.evaluation,
    measures: preset.parsedMeasures.map((m) => m.name),
    conventions: preset.conventions,
    perQuery,
    aggregates,
    counts: { ...base.evaluation.counts, failedQueries: [...failed.values()] },
  }
  const groups = parts.map((p) => ({ measures: p.measures.map((m) => m.name), conventions: p.conventions, tieRule: p.tieRule, counts: p.evaluation.counts }))
  return { evaluation, groups }
}

/** Score TREC run files with a preset (by id or value) against a TREC qrels file. */
export async function scorePreset(presetOrId: Preset | string, inputs: PresetInputs): Promise<PresetScore> {
  const preset = typeof presetOrId === 'string' ? getPreset(presetOrId) : presetOrId
  const c = preset.conventions
  if (preset.input.qrels !== 'trec-qrels') throw new TrecscoreError(`preset '${preset.id}' reads --data DIR, not TREC qrels (use scoreSkillRet)`, 2)
  if (inputs.runs.length === 0) throw new TrecscoreError(`preset '${preset.id}': no run given`, 2)
  const has = (kind: PresetCheck['kind']): boolean => preset.checks.some((k) => k.kind === kind)
  if (inputs.candidates !== undefined && !has('candidates')) throw new TrecscoreError(`preset '${preset.id}' has no reranking mode: --candidates does not apply`, 2)
  if (inputs.docLang !== undefined && !has('unified-ranking')) throw new TrecscoreError(`preset '${preset.id}' does not check unified rankings: --doc-lang does not apply (MLIR presets only)`, 2)
  if (inputs.force && !has('qrels-forbidden-grade')) throw new TrecscoreError(`preset '${preset.id}' refuses no qrels grade: --force does not apply`, 2)
  const read = await readPresetQrels(preset, inputs)
  const qrels = read.qrels
  const qrelsWarnings = [...read.warnings, ...checkPresetQrels(preset, qrels, inputs.qrels)]
  const context = await runContext(preset, inputs, read.scan)
  const grouped = (preset.measureConventions?.length ?? 0) > 0
  const needRanks = c.ordering === 'rank' || has('unified-ranking') || (preset.measureConventions ?? []).some((o) => o.conventions.ordering === 'rank')
  const runs: PresetRunScore[] = []
  for (const input of inputs.runs) {
    const file = runInputPath(input)
    const runName = runInputName(input)
    // With per-measure conventions the run is read once at full precision; groups narrow as they need.
    const run = await readRun(file, { comments: c.comments, float32: !grouped && c.scorePrecision === 'float32', keepRanks: needRanks })
    let evaluation: RunEvaluation
    let groups: PresetMeasureGroup[] = []
    if (grouped) ({ evaluation, groups } = evaluateGroups(preset, qrels, run, runName))
    else {
      const ev = new RunEvaluator(qrels, preset.parsedMeasures, c, { runName })
      for (const q of run.queries.values()) ev.add(q)
      evaluation = ev.finish(run.tag)
    }
    const failed = evaluation.counts.failedQueries
    if (failed.length) {
      // The official evaluator stops here too (trec_eval: "duplicate docs"); never a silent 0.
      const why = failed.slice(0, 10).map(({ queryId, failure: f }) =>
        `query ${JSON.stringify(decodeId(queryId))}: ${f.code === 'duplicate_doc' ? `document ${JSON.stringify(decodeId(f.docId))} retrieved more than once` : f.code === 'duplicate_judgment' ? `document ${JSON.stringify(decodeId(f.docId))} judged more than once in the qrels` : 'only negative (unjudged) judgments'}`,
      )
      throw new TrecscoreError(`${file}: ${failed.length} quer${failed.length === 1 ? 'y' : 'ies'} cannot be scored under preset '${preset.id}' (duplicates: ${c.duplicates}): ${why.join('; ')}${failed.length > 10 ? '; …' : ''}`, 2)
    }
    const missingTopics = evaluation.counts.missingQueries.map(decodeId)
    const ignoredTopics = [...run.queries.keys()].filter((q) => !qrels.queries.has(q)).map(decodeId)
    const notes: string[] = []
    if (has('topic-sets')) {
      const policy = c.missingQueries === 'zero' ? 'scored 0' : 'skipped'
      if (missingTopics.length) notes.push(`${file}: ${missingTopics.length} qrels topic(s) absent from the run, ${policy}: ${missingTopics.join(', ')}`)
      if (ignoredTopics.length) notes.push(`${file}: ${ignoredTopics.length} run topic(s) not in the qrels, ignored: ${ignoredTopics.join(', ')}`)
      for (const g of groups) if (g.counts.cutByDepth > 0) notes.push(`${file}: ${g.measures.join(', ')}: ${g.counts.cutByDepth} document(s) below rank ${g.conventions.depth} not counted (the other measures use them)`)
    }
    const negativeOnly = evaluation.counts.negativeOnlyQueries.map(decodeId)
    if (negativeOnly.length) notes.push(`${file}: ${negativeOnly.length} qrels topic(s) judged only negative (no relevant document), scored 0 where a measure needs one: ${negativeOnly.join(', ')}`)
    runs.push({ evaluation, warnings: checkPresetRun(preset, run, file, context), notes, missingTopics, ignoredTopics, groups })
  }
  return { preset, qrelsFile: inputs.qrels, qrelsWarnings, runs, ...(read.relMap ? { relMap: read.relMap } : {}) }
}

/** Candidate lists and languages for the run checks, read once for every run. */
async function runContext(preset: Preset, inputs: PresetInputs, scan: QrelsScan | null): Promise<PresetRunContext> {
  const candidates = inputs.candidates === undefined ? undefined : { run: await readRun(inputs.candidates, { comments: preset.conventions.comments }), file: inputs.candidates }
  let languages: LanguageInfo | undefined
  if (inputs.docLang !== undefined) {
    const parsed = parseDocLanguages((await readText(inputs.docLang)).text, inputs.docLang)
    if (parsed.problems.length) throw new TrecscoreError(parsed.problems.map((p) => p.message).join('\n'), 2)
    languages = { docLanguages: parsed.languages, ...(scan ? { topicLanguages: scan.topicLanguages } : {}) }
  } else if (scan && preset.checks.some((k) => k.kind === 'unified-ranking')) {
    languages = { docLanguages: scan.docLanguages, topicLanguages: scan.topicLanguages }
  }
  return { ...(candidates ? { candidates } : {}), ...(languages ? { languages } : {}) }
}

/** The `schema` of {@link renderPresetScore}'s JSON (as `trecscore.reteco-score/1` for RETECO, `trecscore.skillret-score/1` for SkillRet). */
export const PRESET_SCORE_SCHEMA = 'trecscore.preset-score/1'

/** Output formats of {@link renderPresetScore}. */
export const PRESET_REPORT_FORMATS = ['table', 'json', 'markdown'] as const
/** One of {@link PRESET_REPORT_FORMATS}. */
export type PresetReportFormat = (typeof PRESET_REPORT_FORMATS)[number]

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * One run in trec_eval's printed layout (`%-22s\t%s\t%6.4f`): with `perQuery`, the run's queries
 * in byte order of qid, then the `all` rows; exactly what the official command prints.
 */
export function renderTrecEvalLayout(preset: Preset, evaluation: RunEvaluation, perQuery: boolean): string {
  if (preset.report.layout !== 'trec_eval') throw new TrecscoreError(`preset '${preset.id}' has no trec_eval layout`, 2)
  const idx = preset.report.names.map(([m, printed]) => [evaluation.measures.indexOf(m), printed] as const)
  const digits = preset.rounding.digits
  const line = (printed: string, qid: string, v: number | null): string => `${padRight(printed, 22)}\t${qid}\t${formatFixed(v ?? 0, digits)}\n`
  let out = ''
  if (perQuery) {
    const qs = evaluation.perQuery.filter((q) => q.status === 'evaluated').sort((a, b) => byteOrder(a.queryId, b.queryId))
    for (const q of qs) for (const [i, printed] of idx) out += line(printed, decodeId(q.queryId), q.values[i]!)
  }
  for (const [i, printed] of idx) out += line(printed, 'all', evaluation.aggregates[i]!.value)
  return out
}

/**
 * One run in ir_measures' command-line layout: `name<TAB>value` per measure in the preset's
 * order, values with `rounding.digits` decimals (Python's `{:.4f}`, the same rounding as C's).
 * With `perQuery` (ir_measures `-q`): `qid<TAB>name<TAB>value` for every averaged topic
 * (zero-filled ones included), then `all<TAB>name<TAB>value`. ir_measures lists the per-topic
 * rows in its providers' order; here they are in byte order of qid, measures in command order.
 */
export function renderIrMeasuresLayout(preset: Preset, evaluation: RunEvaluation, perQuery: boolean): string {
  const digits = preset.rounding.digits
  let out = ''
  if (perQuery) {
    const qs = [...evaluation.perQuery].sort((a, b) => byteOrder(a.queryId, b.queryId))
    for (const q of qs) evaluation.measures.forEach((m, i) => (out += `${decodeId(q.queryId)}\t${m}\t${formatFixed(q.values[i] ?? 0, digits)}\n`))
  }
  const prefix = perQuery ? 'all\t' : ''
  evaluation.measures.forEach((m, i) => (out += `${prefix}${m}\t${formatFixed(evaluation.aggregates[i]!.value ?? 0, digits)}\n`))
  return out
}

/** The per-measure conventions as lines (`MEASURES: tie rule NAME; conventions`), empty without overrides. */
function groupLines(score: PresetScore): string[] {
  const groups = score.runs[0]?.groups ?? []
  return groups.map((g) => `${g.measures.join(', ')}: ${g.tieRule ? `tie rule ${g.tieRule}; ` : ''}${conventionsLine(g.conventions)}`)
}

/** Render a preset score as text (the preset's layout), JSON (full precision) or markdown. */
export function renderPresetScore(score: PresetScore, opts: { readonly format: PresetReportFormat; readonly perQuery: boolean }): string {
  const { preset } = score
  const evaluations = score.runs.map((r) => r.evaluation)
  const grouped = (preset.measureConventions?.length ?? 0) > 0
  if (opts.format === 'json') {
    const body = {
      schema: PRESET_SCORE_SCHEMA,
      preset: preset.id,
      official: preset.official,
      conventions: preset.conventions,
      ...(grouped
        ? {
            measure_conventions: (score.runs[0]?.groups ?? []).map((g) => ({ measures: g.measures, tie_rule: g.tieRule, conventions: g.conventions })),
          }
        : {}),
      qrels: score.qrelsFile,
      ...(score.relMap ? { rel_map: { map: Object.fromEntries(score.relMap.map), judgments_changed: score.relMap.changed } } : {}),
      warnings: [...score.qrelsWarnings, ...score.runs.flatMap((r) => r.warnings)],
      notes: score.runs.flatMap((r) => r.notes),
      topics: score.runs.map((r) => ({ run: r.evaluation.runName, averaged: r.evaluation.perQuery.length, qrels_topics_missing_from_run: r.missingTopics, run_topics_not_in_qrels: r.ignoredTopics })),
      results: toJson(evaluations, opts.perQuery),
    }
    return JSON.stringify(body, null, 2) + '\n'
  }
  if (opts.format === 'markdown' || preset.report.layout === 'leaderboard') {
    const table = renderResults(evaluations, { format: opts.format === 'markdown' ? 'markdown' : 'table', perQuery: opts.perQuery, digits: preset.rounding.digits })
    const lines = groupLines(score)
    if (!lines.length) return table
    return table + (opts.format === 'markdown' ? lines.map((l) => `\n${escapeMarkdownLine(l)}`).join('\n') + '\n' : lines.map((l) => `${l}\n`).join(''))
  }
  const one = (e: RunEvaluation): string => (preset.report.layout === 'ir_measures' ? renderIrMeasuresLayout(preset, e, opts.perQuery) : renderTrecEvalLayout(preset, e, opts.perQuery))
  if (score.runs.length === 1) return one(evaluations[0]!)
  return evaluations.map((e) => `# ${e.runName}\n${one(e)}`).join('\n')
}

function escapeMarkdownLine(text: string): string {
  return text.replace(/([\\`*_|<>[\]])/g, '\\$1')
}
