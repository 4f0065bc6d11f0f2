/**
 * A benchmark preset as declarative, typed data: the official evaluator it reproduces, its input
 * formats, its measures (names parsed by the engine's parser), its {@link Conventions}, the
 * rounding of printed values, its report layout and the checks that warn about misuse. A preset
 * computes nothing: `score-preset.ts` runs it on the engine.
 */
import type { Conventions } from '../conventions/conventions.js'
import type { Measure } from '../measures/measure.js'
import { parseMeasures } from '../measures/name.js'
import { InputError, TrecscoreError } from '../errors/trecscore-error.js'
import { formatIssue } from '../errors/format-issue.js'

/** The official evaluator a preset reproduces. */
export interface OfficialEvaluator {
  /** Tool name, e.g. `trec_eval`. */
  readonly tool: string
  /** The exact version (and commit where known) behind the official numbers. */
  readonly version: string
  /** The command line it runs (`QRELS` and `RUN` stand for the files). */
  readonly command: string
}

/** How printed values are rounded. */
export interface Rounding {
  /** Decimals printed. */
  readonly digits: number
  /**
   * `c-printf`: glibc `%.Nf` (exact binary value, ties to even); `python-round`: Python's
   * `round(mean, N)` on the float64 mean (exact binary value, ties to even), as SkillRet's evaluator.
   */
  readonly rule: 'c-printf' | 'python-round'
}

/** Report layout of `score --format table`. */
export type PresetReport =
  /**
   * trec_eval's own output (`name<TAB>qid<TAB>value`), rows in trec_eval's order; `names` maps
   * each preset measure (as written in `measures`) to the name trec_eval prints.
   */
  | { readonly layout: 'trec_eval'; readonly names: readonly (readonly [measure: string, printed: string])[] }
  /** One leaderboard row per run. */
  | { readonly layout: 'leaderboard' }

/** A check that warns about input that would invalidate the official numbers. */
export type PresetCheck =
  /** Warn when run doc ids start with `prefix` (e.g. document ids in a passage run). */
  | { readonly kind: 'doc-id-prefix'; readonly prefix: string; readonly message: string }
  /** Warn when a run retrieves more than `depth` documents for a query. */
  | { readonly kind: 'max-depth'; readonly depth: number; readonly message: string }
  /** Warn when the qrels hold no judgment of `grade` (or the file name says `-no<grade>`). */
  | { readonly kind: 'qrels-missing-grade'; readonly grade: number; readonly message: string }

/** What a preset declares (the input of {@link definePreset}). */
export interface PresetDefinition {
  /** Name used on the command line, e.g. `dl21-passage`. */
  readonly id: string
  /** One-line title. */
  readonly title: string
  /** The official evaluator reproduced. */
  readonly official: OfficialEvaluator
  /**
   * Input formats: qrels as TREC qrels (`--qrels FILE`) or a SkillRet data directory
   * (`--data DIR`); runs as TREC run files, or SkillRet JSON runs or TREC files.
   */
  readonly input: { readonly qrels: 'trec-qrels' | 'skillret-data'; readonly runs: 'trec-run' | 'skillret-json-or-trec' }
  /** Measures, in the syntax of `parseMeasures` (ir_measures or trec_eval names). */
  readonly measures: readonly string[]
  /** Every convention that changes a number. */
  readonly conventions: Conventions
  /** Rounding of printed values. */
  readonly rounding: Rounding
  /** Layout of the table report. */
  readonly report: PresetReport
  /** Checks run on the inputs; each failure is a warning on stderr. */
  readonly checks: readonly PresetCheck[]
  /** Facts a user must know (what the conventions mean for this benchmark). */
  readonly notes: readonly string[]
}

/** A checked preset: its definition plus the parsed measures. */
export interface Preset extends PresetDefinition {
  /** `measures`, parsed (one entry per measure; `recall.100,1000` gives two). */
  readonly parsedMeasures: readonly Measure[]
}

/**
 * Check and freeze a preset definition: every measure name must parse and every trec_eval
 * report name must belong to a declared measure. Throws {@link TrecscoreError} on a bad one.
 */
export function definePreset(def: PresetDefinition): Preset {
  let parsedMeasures: Measure[]
  try {
    parsedMeasures = parseMeasures(def.measures)
  } catch (e) {
    const why = e instanceof InputError ? e.issues.map(formatIssue).join('; ') : e instanceof Error ? e.message : String(e)
    throw new TrecscoreError(`preset '${def.id}': ${why}`, 2)
  }
  if (def.report.layout === 'trec_eval') {
    const names = new Set(parsedMeasures.map((m) => m.name))
    for (const [m] of def.report.names) {
      if (!names.has(m)) throw new TrecscoreError(`preset '${def.id}': report names measure '${m}', which the preset does not compute`, 2)
    }
    if (def.report.names.length !== names.size) throw new TrecscoreError(`preset '${def.id}': the trec_eval report must name every measure once`, 2)
  }
  return Object.freeze({ ...def, parsedMeasures: Object.freeze(parsedMeasures) })
}
