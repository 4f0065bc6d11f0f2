/**
 * The common result model of every RETECO convention set (JSON schema `trecscore.reteco-score/1`)
 * and the one signature they share (with the set names the CLI accepts). The plan (`conventions.ts`) and the reference
 * ports (`reference-ports/compat-sets.ts`) both build these, and neither imports the other.
 */
import type { TemporalLabelProvider } from './labels.js'
import type { RetecoData, RetecoRun, RetecoSubtrack } from './types.js'

/** The convention-set names the CLI accepts (`--conventions`). */
export const RETECO_CONVENTION_SET_NAMES = ['plan', 'official-baseline', 'scorer-py'] as const

/** One of {@link RETECO_CONVENTION_SET_NAMES}. */
export type RetecoConventionSetName = (typeof RETECO_CONVENTION_SET_NAMES)[number]

/** What every convention set is given. */
export interface RetecoScoreRequest {
  /** The data, loaded for the sub-track's track, the split and the scored domains. */
  readonly data: RetecoData
  readonly subtrack: RetecoSubtrack
  /**
   * The run as read by the plan parser (`readRetecoRun`): layout, per-domain files (each
   * `RetecoRunFile.file` is the path, for sets that must read the bytes their own way).
   */
  readonly run: RetecoRun
  /** `--labels`: a judge-label provider; `null` for the set's default (offline labels). */
  readonly labels: TemporalLabelProvider | null
  /** `--allow-missing-corpus`: score the plan on domains without `documents.jsonl` (unknown ids kept, said in the conventions). */
  readonly allowMissingCorpus?: boolean
}

/** A named value of a report row; `null` = undefined (printed as such, never as 0). */
export type ReportValues = Readonly<Record<string, number | null>>

/** A table of aggregated values (rows share `columns`). */
export interface ReportTable {
  /** Stable key (`aggregations`, `per_domain`, `turn_depth`, …). */
  readonly key: string
  readonly title: string
  readonly columns: readonly string[]
  readonly rows: readonly { readonly label: string; readonly values: ReportValues }[]
}

/** Per-domain counts that explain differences between aggregations and tools. */
export interface ReportCounts {
  readonly domain: string
  /** The run file read for the domain (`null`: none). */
  readonly file: string | null
  readonly topics: number
  readonly lines: number
  /** Qrels topics absent from the run (display ids). */
  readonly missing: readonly string[]
  readonly emptyAfterCleaning: readonly string[]
  readonly duplicatesRemoved: number
  readonly unknownDocsDiscarded: number
  readonly unknownTopics: number
  readonly unknownTopicLines: number
  readonly rankDisagreements: number
  readonly float32OnlyTies: number
  /** Top-10 documents without a temporal label (judge-label files). */
  readonly unlabelled: number
}

/** One topic row (`--per-query`). */
export interface ReportTopic {
  readonly domain: string
  /** Display id (UTF-8). */
  readonly topic: string
  readonly status: string
  readonly values: ReportValues
  /** Extra text fields (`R`, `query`, `bucket`, …). */
  readonly info: Readonly<Record<string, string>>
}

/** The common result of every convention set (JSON schema `trecscore.reteco-score/1`). */
export interface RetecoReport {
  readonly schema: 'trecscore.reteco-score/1'
  readonly conventionSet: RetecoConventionSetName
  readonly subtrack: RetecoSubtrack
  readonly split: string
  /** The run's label: its path as given, or the `name` of a `{ path, name }` run input of `scoreRetecoRuns`. */
  readonly run: string
  readonly runLayout: RetecoRun['layout']
  readonly domains: readonly string[]
  /** The conventions in force, as (name, description) pairs. */
  readonly conventions: readonly (readonly [string, string])[]
  /** The headline: official measure, value (`null` when the run cannot be scored), aggregation. */
  readonly headline: {
    readonly measure: string
    readonly value: number | null
    readonly aggregation: string
  }
  /** Headline-level diagnostics, in display order. */
  readonly diagnostics: ReportValues
  readonly tables: readonly ReportTable[]
  readonly counts: readonly ReportCounts[]
  readonly perTopic: readonly ReportTopic[]
  readonly warnings: readonly string[]
  /** Problems that stop scoring (`file:line: …`); the CLI exits with 2 when any. */
  readonly errors: readonly string[]
  /** The reference tool's own printed output, when the set reproduces one. */
  readonly printed: string | null
}

/** The shared signature of a convention set. */
export type RetecoScorer = (request: RetecoScoreRequest) => Promise<RetecoReport>

/** A registered convention set. */
export interface RetecoConventionSet {
  readonly name: RetecoConventionSetName
  /** One line for `--help` and reports. */
  readonly description: string
  readonly score: RetecoScorer
}
