/**
 * Bad input of the LLM judge (`generation/judge/`: the config, items, judgments and golden files,
 * the judgments output, the cache, the Batch API replies, the command's options; and the RETECO
 * route `presets/reteco/judge-items.ts`), as data keyed by `code` (types only). Worded once, by
 * the one table of `format-issue.ts`, as `file:line: what` (or `file: what`, or `batch API: …`);
 * `JudgeInputError` carries them.
 */
import type { ConfigProblem } from './config-issues.js'
import type { RetecoRunProblem } from './reteco-plan-issues.js'

/** What a judge JSONL file without records was to hold. */
export type JudgeRecords = 'items' | 'golden cases'

/**
 * What is wrong with a judge record (an item, a judgment, a golden case) as its parser finds it
 * (`parseJudgeItem`, `parseJudgmentRecord`, `parseGoldenCase`). `field` is the JSON field,
 * `index` the position in an array field (`"history"[2]`); `found` is the value as JSON text
 * (`nothing` when absent), clipped by the parser that found it.
 */
export type JudgeFieldProblem =
  /** Not a JSON object (`found`: what it is, where the parser says). */
  | { readonly code: 'not_an_object'; readonly found?: string }
  | { readonly code: 'unknown_field'; readonly field: string; readonly known: readonly string[] }
  | {
      readonly code: 'bad_value'
      readonly field: string
      readonly index?: number
      readonly expected: string
      readonly found: string
    }
  /** A golden case whose `better` and `worse` answers are the same text. */
  | { readonly code: 'same_answers' }
  /** A golden case whose two answers cannot be built as judge items. */
  | { readonly code: 'no_answers' }

/**
 * A problem of one line of a judge JSONL file, as `readJsonlFile`'s record callback returns it
 * (the reader adds the file, the line and the text).
 */
export type JudgeRecordFinding =
  /** What the record parser (items, judgments, golden cases) finds wrong with the record. */
  | { readonly code: 'bad_record'; readonly problem: JudgeFieldProblem }
  /** An item of a (domain, turn) already given. */
  | {
      readonly code: 'duplicate_item'
      readonly turnId: string
      readonly domain: string | null
      readonly firstLine: number
    }
  /** A second judgment of a (domain, turn, dimension). */
  | {
      readonly code: 'duplicate_judgment'
      readonly turnId: string
      readonly domain: string | null
      readonly dimension: string
      readonly firstLine: number
    }
  /** A golden case id already given. */
  | { readonly code: 'duplicate_case'; readonly id: string; readonly firstLine: number }

/**
 * Where a line problem is: the file, the physical 1-based line, and the start of the line's text
 * (at most 240 characters; bad bytes decoded as U+FFFD), which the wording clips further.
 */
export interface JudgeLineAt {
  readonly file: string
  readonly line: number
  readonly text: string
}

/** One bad judge input, keyed by `code`. */
export type JudgeIssue =
  // The config file.
  | { readonly code: 'config_unreadable'; readonly file: string; readonly reason: string }
  | { readonly code: 'config_not_json'; readonly file: string; readonly error: string }
  | { readonly code: 'config_too_deep'; readonly file: string; readonly limit: number }
  /** A config value the config parser refuses (worded by the `config` table). */
  | { readonly code: 'config_invalid'; readonly file: string; readonly problem: ConfigProblem }
  // JSONL files (`readJsonlFile`).
  | { readonly code: 'not_a_file'; readonly file: string }
  | { readonly code: 'cannot_read'; readonly file: string; readonly reason: string }
  /** The reader stops after `limit` problems. */
  | { readonly code: 'too_many_problems'; readonly file: string; readonly limit: number }
  | {
      readonly code: 'line_too_long'
      readonly file: string
      readonly line: number
      readonly limit: number
    }
  | (JudgeLineAt & { readonly code: 'nul_byte' })
  | (JudgeLineAt & { readonly code: 'invalid_utf8' })
  | (JudgeLineAt & { readonly code: 'invalid_json'; readonly error: string })
  | (JudgeLineAt & JudgeRecordFinding)
  | { readonly code: 'no_records'; readonly file: string; readonly of: JudgeRecords }
  /** Judgments of several config hashes in one file. */
  | { readonly code: 'mixed_configs'; readonly file: string; readonly hashes: readonly string[] }
  // The judgments output and other written files.
  | {
      readonly code: 'out_other_config'
      readonly file: string
      readonly found: string
      readonly expected: string
    }
  | { readonly code: 'out_exists'; readonly file: string }
  | { readonly code: 'cannot_write'; readonly file: string; readonly reason: string }
  // The cache.
  | { readonly code: 'cache_unopenable'; readonly file: string; readonly reason: string }
  | {
      readonly code: 'cache_other_config'
      readonly file: string
      readonly found: string
      readonly expected: string
    }
  // The Batch API (`path` or `what`: the request; `body`: the start of the reply).
  | { readonly code: 'batch_reply_too_large'; readonly path: string; readonly limit: number }
  | { readonly code: 'batch_unreachable'; readonly path: string; readonly reason: string }
  | {
      readonly code: 'batch_http'
      readonly what: string
      readonly status: number
      /** The first 300 characters of the reply. */
      readonly body: string
    }
  /** `body`: the first 120 characters of the reply. */
  | { readonly code: 'batch_not_json'; readonly what: string; readonly body: string }
  | { readonly code: 'batch_no_id'; readonly of: 'file upload' | 'batch creation' }
  // `judge run` options (`presets`: the presets judge items are built for, `|`-joined).
  | { readonly code: 'items_and_preset'; readonly preset: string }
  | { readonly code: 'preset_needs_data'; readonly preset: string }
  | { readonly code: 'not_a_judge_preset'; readonly preset: string; readonly presets: string }
  | { readonly code: 'no_items'; readonly presets: string }
  | { readonly code: 'data_without_preset'; readonly presets: string }
  // `judge report` inputs.
  | {
      readonly code: 'judgments_other_config'
      readonly file: string
      readonly found: string
      readonly configFile: string
      readonly expected: string
    }
  | { readonly code: 'human_unreadable'; readonly file: string; readonly reason: string }
  | { readonly code: 'diagnostics_unreadable'; readonly file: string; readonly reason: string }
  | { readonly code: 'diagnostics_too_deep'; readonly file: string; readonly limit: number }
  | { readonly code: 'diagnostics_not_an_object'; readonly file: string }
  | {
      readonly code: 'diagnostics_other_config'
      readonly file: string
      readonly found: string
      readonly expected: string
    }
  | { readonly code: 'diagnostics_no_lexical'; readonly file: string }
  // The RETECO route (`--preset reteco-2b|reteco-2c`).
  | { readonly code: 'reteco_2c_needs_retrieval' }
  | { readonly code: 'reteco_2b_retrieval' }
  | {
      readonly code: 'recor_not_a_file'
      readonly file: string
      readonly domain: string
      readonly split: string
    }
  | {
      readonly code: 'recor_missing'
      readonly file: string
      readonly domain: string
      readonly split: string
    }
  | { readonly code: 'recor_unreadable'; readonly file: string; readonly reason: string }
  /** Not a JSON array (`tooDeep`: an array nested deeper than `limit`). */
  | {
      readonly code: 'recor_not_an_array'
      readonly file: string
      readonly tooDeep: boolean
      readonly limit: number
    }
  | { readonly code: 'no_recor_conversations'; readonly dir: string }
  /**
   * The submission validator found errors: `report` is its text report (worded by the `answer`
   * table), `errors` how many.
   */
  | {
      readonly code: 'answers_not_judged'
      readonly file: string
      readonly report: string
      readonly errors: number
      readonly preset: string
    }
  /** A 2c retrieval run line the plan's reader cannot score (worded by the `retecoPlan` table). */
  | { readonly code: 'retrieval_run'; readonly problem: RetecoRunProblem }
