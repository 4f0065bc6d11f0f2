/**
 * The preset checks as one table keyed by {@link PresetCheck}'s `kind`: each entry says which
 * optional input it enables and implements the phases it looks at (the qrels text, the parsed
 * qrels, a parsed run, a scored run). `runPreset` and `validate --preset` both go through this
 * table; a new kind of check is one entry here (the compiler asks for it).
 */
import { basename } from 'node:path'
import type { Conventions } from '../conventions/conventions.js'
import type { IssueOf } from '../errors/issues.js'
import type { PresetFinding } from '../errors/preset-issues.js'
import { toIssue } from '../errors/to-issue.js'
import type { ConventionSetResult } from '../evaluate/evaluate.js'
import { decodeId } from '../io/bytes.js'
import { docCount, docIdsOf } from '../model/run-query.js'
import type { Qrels, Run } from '../model/types.js'
import {
  checkCandidates,
  checkUnifiedRanking,
  type LanguageInfo,
  languageProblems,
  parseDocLanguages,
  type QrelsScan,
  scanNeuclirQrels,
} from './neuclir-checks.js'
import type { Preset, PresetCheck } from './preset.js'

/** Where an issue was found. */
export interface IssueLocation {
  readonly file: string
  /** Physical 1-based line, where the check knows it. */
  readonly line?: number
}

export type { PresetFinding } from '../errors/preset-issues.js'

/**
 * One finding of a preset check: an {@link IssueOf} `'preset'` (the one issue shape) with the
 * check that found it. `severity`: `error` stops scoring (exit 2), `warning` is printed on stderr
 * and kept in the result, `note` is information (topic sets). `validate --preset` reports
 * run-check warnings as errors. `message` is `wordIssue('preset', detail)`, file (and line where
 * known) first; `at` is where the check found it (`null` for a note of no file).
 */
export interface PresetIssue extends IssueOf<'preset'> {
  /** The check that found it. */
  readonly check: PresetCheck['kind']
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

/** What the qrels-text phase knows. */
export interface QrelsLinesContext {
  readonly file: string
  readonly preset: string
  /** Whether a `--rel-map` was applied before the scan. */
  readonly remapped: boolean
  /** `--force`: refused grades become warnings. */
  readonly force: boolean
}

/** What the scored phase knows about one run. */
export interface ScoredRunContext {
  readonly file: string
  readonly conventions: Conventions
  /** Qrels topics absent from the run, decoded. */
  readonly missingTopics: readonly string[]
  /** Run topics absent from the qrels, decoded. */
  readonly ignoredTopics: readonly string[]
  /** Per convention set results (per-measure conventions only). */
  readonly conventionSets: readonly ConventionSetResult[]
}

/** The implementation of one kind of check: every phase optional. */
export interface CheckImplementation<C extends PresetCheck> {
  /** The optional preset input this check gives a meaning to (refused for presets without the check). */
  readonly enables?: 'candidates' | 'docLang' | 'force'
  /** Options of the qrels-text scan the check needs (it then runs before the qrels are parsed). */
  readonly scan?: (check: C) => {
    readonly languages?: readonly string[]
    readonly forbiddenGrade?: number
  }
  readonly qrelsLines?: (check: C, scan: QrelsScan, ctx: QrelsLinesContext) => PresetIssue[]
  readonly qrels?: (check: C, qrels: Qrels, file: string) => PresetIssue[]
  readonly run?: (check: C, run: Run, file: string, context: PresetRunContext) => PresetIssue[]
  readonly scored?: (check: C, run: ScoredRunContext) => PresetIssue[]
}

/** The check table type: one implementation per kind. */
export type PresetCheckTable = {
  readonly [K in PresetCheck['kind']]: CheckImplementation<Extract<PresetCheck, { kind: K }>>
}

function issue(
  check: PresetCheck['kind'],
  severity: PresetIssue['severity'],
  finding: PresetFinding,
  at?: IssueLocation,
): PresetIssue {
  const found = toIssue('preset', finding, { severity })
  return { check, ...found, at: at ?? found.at }
}

/** The languages a `unified-ranking` check uses, from the context's parsed or raw sources; problems of a bad map file. */
function contextLanguages(context: PresetRunContext): {
  languages?: LanguageInfo
  problems: PresetFinding[]
} {
  if (context.languages) return { languages: context.languages, problems: [] }
  const scan = context.qrelsText === undefined ? null : scanNeuclirQrels(context.qrelsText)
  if (context.docLang) {
    const parsed = parseDocLanguages(context.docLang.text, context.docLang.file)
    return {
      languages: {
        docLanguages: parsed.languages,
        ...(scan ? { topicLanguages: scan.topicLanguages } : {}),
      },
      problems: [...parsed.problems],
    }
  }
  return scan
    ? {
        languages: { docLanguages: scan.docLanguages, topicLanguages: scan.topicLanguages },
        problems: [],
      }
    : { problems: [] }
}

/** Every kind of preset check, implemented. */
export const PRESET_CHECKS: PresetCheckTable = {
  'doc-id-prefix': {
    run(c, run, file) {
      let n = 0
      let first = ''
      for (const q of run.queries.values()) {
        for (const d of docIdsOf(q)) {
          if (!d.startsWith(c.prefix)) continue
          if (n === 0) first = decodeId(d)
          n++
        }
      }
      return n > 0
        ? [
            issue(
              c.kind,
              'warning',
              { code: 'doc_id_prefix', file, count: n, prefix: c.prefix, first, note: c.message },
              { file },
            ),
          ]
        : []
    },
  },
  'max-depth': {
    run(c, run, file) {
      let n = 0
      let deepest = 0
      let which = ''
      for (const q of run.queries.values()) {
        const k = docCount(q)
        if (k <= c.depth) continue
        n++
        if (k > deepest) {
          deepest = k
          which = decodeId(q.queryId)
        }
      }
      return n > 0
        ? [
            issue(
              c.kind,
              'warning',
              {
                code: 'too_deep',
                file,
                count: n,
                depth: c.depth,
                deepest: which,
                deepestCount: deepest,
                note: c.message,
              },
              { file },
            ),
          ]
        : []
    },
  },
  'qrels-missing-grade': {
    qrels(c, qrels, file) {
      let judged = 0
      let ofGrade = 0
      for (const q of qrels.queries.values()) {
        for (const [g, n] of q.relLevels.entries()) {
          judged += n
          if (g === c.grade) ofGrade += n
        }
      }
      const named = basename(file).includes(`-no${c.grade}`)
      return named || (judged > 0 && ofGrade === 0)
        ? [
            issue(
              c.kind,
              'warning',
              { code: 'qrels_missing_grade', file, note: c.message },
              { file },
            ),
          ]
        : []
    },
  },
  'qrels-language': {
    scan: (c) => ({ languages: c.languages }),
    qrelsLines(c, scan, ctx) {
      if (!scan.languageProblems.length) return []
      const first = scan.languageProblems[0]!
      const note: PresetFinding = { code: 'qrels_language', part: 'note', note: c.message }
      return [...languageProblems(scan, ctx.file, c.languages, ctx.preset), note].map((f) =>
        issue(c.kind, 'error', f, { file: ctx.file, line: first.line }),
      )
    },
  },
  'qrels-forbidden-grade': {
    enables: 'force',
    scan: (c) => ({ forbiddenGrade: c.grade }),
    qrelsLines(c, scan, ctx) {
      if (!scan.forbiddenGrade.length) return []
      const n = scan.forbiddenGrade.length
      const first = scan.forbiddenGrade[0]!
      const at = { file: ctx.file, line: first.line }
      const finding: PresetFinding = {
        code: 'forbidden_grade',
        file: ctx.file,
        count: n,
        grade: c.grade,
        remapped: ctx.remapped,
        line: first.line,
        text: first.text,
        note: c.message,
        force: ctx.force,
      }
      return [issue(c.kind, ctx.force ? 'warning' : 'error', finding, at)]
    },
  },
  candidates: {
    enables: 'candidates',
    run(c, run, file, context) {
      if (!context.candidates) return []
      return checkCandidates(run, context.candidates.run, file, context.candidates.file).map((p) =>
        issue(c.kind, 'warning', p, { file }),
      )
    },
  },
  'unified-ranking': {
    enables: 'docLang',
    run(c, run, file, context) {
      const { languages, problems } = contextLanguages(context)
      return [
        ...problems.map((p) =>
          issue(c.kind, 'warning', p, context.docLang ? { file: context.docLang.file } : undefined),
        ),
        ...checkUnifiedRanking(run, file, c.depth, languages).map((p) =>
          issue(c.kind, 'warning', p, { file }),
        ),
      ]
    },
  },
  'topic-sets': {
    scored(c, r) {
      const out: PresetIssue[] = []
      const policy = r.conventions.missingQueries === 'zero' ? 'scored 0' : 'skipped'
      const at = { file: r.file }
      if (r.missingTopics.length)
        out.push(
          issue(
            c.kind,
            'note',
            { code: 'qrels_topics_missing', file: r.file, topics: r.missingTopics, policy },
            at,
          ),
        )
      if (r.ignoredTopics.length)
        out.push(
          issue(
            c.kind,
            'note',
            { code: 'run_topics_ignored', file: r.file, topics: r.ignoredTopics },
            at,
          ),
        )
      for (const g of r.conventionSets) {
        if (g.counts.cutByDepth > 0)
          out.push(
            issue(
              c.kind,
              'note',
              {
                code: 'cut_by_depth',
                file: r.file,
                measures: g.measures,
                count: g.counts.cutByDepth,
                depth: g.conventions.depth,
              },
              at,
            ),
          )
      }
      return out
    },
  },
}

/** The implementation of one check (the table entry of its kind). */
function implementationOf(c: PresetCheck): CheckImplementation<PresetCheck> {
  return PRESET_CHECKS[c.kind] as CheckImplementation<PresetCheck>
}

/** Whether the preset has a check that gives `input` a meaning. */
export function presetEnables(
  preset: Preset,
  input: NonNullable<CheckImplementation<PresetCheck>['enables']>,
): boolean {
  return preset.checks.some((c) => implementationOf(c).enables === input)
}

/** The scan options the preset's qrels-text checks need, or `null` when none looks at the text. */
export function qrelsScanOptions(
  preset: Preset,
): { languages?: readonly string[]; forbiddenGrade?: number } | null {
  let out: { languages?: readonly string[]; forbiddenGrade?: number } | null = null
  for (const c of preset.checks) {
    const scan = implementationOf(c).scan
    if (scan) out = { ...(out ?? {}), ...scan(c) }
  }
  return out
}

/** Issues of the preset's qrels-text checks, in the preset's check order. */
export function checkQrelsLines(
  preset: Preset,
  scan: QrelsScan,
  ctx: QrelsLinesContext,
): PresetIssue[] {
  return preset.checks.flatMap((c) => implementationOf(c).qrelsLines?.(c, scan, ctx) ?? [])
}

/** Issues of the preset's checks on the parsed qrels (e.g. the DL "-no1" variant). */
export function checkQrels(preset: Preset, qrels: Qrels, file: string): PresetIssue[] {
  return preset.checks.flatMap((c) => implementationOf(c).qrels?.(c, qrels, file) ?? [])
}

/**
 * Issues of the preset's run checks (task mix-up by doc id prefix, runs deeper than allowed,
 * candidate lists, one unified ranking per topic): warnings when scoring, errors in `validate`.
 */
export function checkRun(
  preset: Preset,
  run: Run,
  file: string,
  context: PresetRunContext = {},
): PresetIssue[] {
  return preset.checks.flatMap((c) => implementationOf(c).run?.(c, run, file, context) ?? [])
}

/** Notes of the preset's checks on a scored run (topic sets, depth cuts). */
export function checkScoredRun(preset: Preset, run: ScoredRunContext): PresetIssue[] {
  return preset.checks.flatMap((c) => implementationOf(c).scored?.(c, run) ?? [])
}
