/**
 * Problems found in user input, as data. Each issue says where (file and physical 1-based line
 * where there is one), what was found and what was expected, keyed by `code`; the wording lives
 * only in the one table of `format-issue.ts`. Each module declares its codes as a union (this
 * file, `run-issues.ts`, `answer-issues.ts`, …); {@link IssueKinds} names them all.
 */
import type { AgreementIssue } from './agreement-issues.js'
import type { AnswerIssue } from './answer-issues.js'
import type { ConfigProblem } from './config-issues.js'
import type { JudgeIssue } from './judge-issues.js'
import type { PrepareIssue } from './prepare-issues.js'
import type { PresetFinding } from './preset-issues.js'
import type { RetecoRunProblem as RetecoPlanProblem } from './reteco-plan-issues.js'
import type { RunProblem } from './run-issues.js'
import type { IssueSeverity } from './severity.js'
import type { TextsimIssue } from './textsim-issues.js'

export type { IssueSeverity, Severity } from './severity.js'

/**
 * A position in an input file. `line` is the physical, 1-based line number (every `\n` counts);
 * `column` a 1-based byte offset in the line.
 */
export interface At {
  readonly file: string
  readonly line?: number
  readonly column?: number
}

/** A position with its line. */
export type LineAt = At & { readonly line: number }

/** One problem in an input file or argument, keyed by `code`. */
export type InputIssue =
  | (LineAt & {
      readonly code: 'field_count'
      readonly expected: string
      readonly found: number
      readonly text: string
    })
  | (LineAt & {
      readonly code: 'not_a_number'
      readonly field: 'rank' | 'score' | 'grade'
      readonly found: string
      readonly text: string
    })
  | (LineAt & {
      readonly code: 'not_finite'
      readonly field: 'score'
      readonly found: string
      readonly text: string
    })
  | (LineAt & {
      readonly code: 'not_an_integer'
      readonly field: 'rank' | 'grade'
      readonly found: string
      readonly text: string
    })
  | (LineAt & {
      readonly code: 'grade_too_large'
      readonly found: string
      readonly limit: number
      readonly text: string
    })
  /**
   * A negative judgment in diversity qrels (ndeval rejects them), or in any qrels under the
   * `negativeJudgments: 'error'` convention (`convention: true`).
   */
  | (LineAt & {
      readonly code: 'negative_judgment'
      readonly found: string
      readonly text: string
      readonly convention?: boolean
    })
  /** A carriage return not followed by a newline (old Mac line endings run lines together). */
  | (LineAt & { readonly code: 'bare_cr'; readonly text: string })
  | (LineAt & {
      readonly code: 'duplicate_doc'
      readonly queryId: string
      readonly docId: string
      readonly firstLine: number
    })
  | (LineAt & {
      readonly code: 'duplicate_judgment'
      readonly queryId: string
      readonly docId: string
      readonly firstLine: number
    })
  | (LineAt & { readonly code: 'nul_byte'; readonly text: string })
  | (LineAt & { readonly code: 'line_too_long'; readonly limit: number })
  | (LineAt & { readonly code: 'invalid_utf8'; readonly text: string })
  | { readonly code: 'empty_file'; readonly file: string }
  | { readonly code: 'cannot_read'; readonly file: string; readonly reason: string }
  | {
      readonly code: 'unknown_measure'
      readonly found: string
      readonly position: number
      readonly suggestions: readonly string[]
    }
  | {
      readonly code: 'bad_argument'
      readonly option: string
      readonly found: string
      readonly expected: string
    }

/** The `code` of every {@link InputIssue}. */
export type InputIssueCode = InputIssue['code']

/**
 * Every module's issue union, by module: the one wording table (`format-issue.ts`) is a mapped
 * type over it, so a code without wording, or wording for no code, does not compile.
 */
export interface IssueKinds {
  /** Run, qrels and argument input (`io/`, `measures/`, the drop-in, the commands). */
  readonly input: InputIssue
  /** `validateRun` and the RETECO run checks. */
  readonly run: RunProblem
  /** RETECO 2b/2c generation answer files (`generation/submission`). */
  readonly answer: AnswerIssue
  /** `textsim` pair files (`generation/textsim`). */
  readonly textsim: TextsimIssue
  /** A query the engine cannot prepare (`rank/prepare.ts`): every command words it the same. */
  readonly prepare: PrepareIssue
  /** Preset checks' findings (`presets/checks.ts`, `presets/neuclir-checks.ts`). */
  readonly preset: PresetFinding
  /** `judge agreement` labels and judgments (`stats/agreement/`). */
  readonly agreement: AgreementIssue
  /** Judge configs (`generation/judge/config.ts`). */
  readonly config: ConfigProblem
  /** RETECO plan run files (`presets/reteco/runs.ts`; the validator's codes are `run`'s). */
  readonly retecoPlan: RetecoPlanProblem
  /** The LLM judge's inputs (`generation/judge/`, the RETECO route `presets/reteco/judge-items.ts`). */
  readonly judge: JudgeIssue
}

/** A module's name in {@link IssueKinds}. */
export type IssueKind = keyof IssueKinds

/**
 * One module's issue as its module declares it (the data the wording table words). Codes are
 * unique within a module, not across modules (`run`'s `field_count` is not `input`'s), so
 * wording takes the module too: `wordIssue(kind, issue)`.
 */
export type ModuleIssue = IssueKinds[IssueKind]

/**
 * The one issue shape, for a problem of module `K`: its module (`kind`), its `code`, its
 * `severity`, where it is (`at`, `null` when no file is known: a bad argument, a query that cannot
 * be prepared), the sentence of the one wording table, and the module's data (`detail`, the
 * module's own union, which JSON outputs keep as they always were). Built by `toIssue`.
 */
export interface IssueOf<K extends IssueKind> {
  readonly kind: K
  readonly code: IssueKinds[K]['code']
  readonly severity: IssueSeverity
  readonly at: At | null
  readonly message: string
  readonly detail: IssueKinds[K]
}

/** One issue of any module, keyed by `kind` then `code` (`issue.kind === 'run'` narrows `detail`). */
export type Issue = { readonly [K in IssueKind]: IssueOf<K> }[IssueKind]
