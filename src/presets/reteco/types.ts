/**
 * RETECO (SemEval-2027 Task 1) data model: what the loaders in `data.ts` and `runs.ts` return.
 *
 * Every id (query, step, turn topic, document) is a *binary string* (one char per UTF-8 byte,
 * as everywhere in trecscore: see `io/bytes.ts`); JSON ids are converted with `encodeId`, so they
 * compare equal to the ids read from qrels and run files. `decodeId` gives text for display.
 * Document text is never kept: corpora are read as id sets only (`readCorpusIds`).
 */
import type { RetecoRunProblem } from '../../errors/reteco-plan-issues.js'
import type { Qrels } from '../../model/types.js'

/** The two RETECO tracks, named as the release folders are. */
export type RetecoTrack = 'track1_tempo' | 'track2_recor'

/**
 * RETECO retrieval sub-tracks: 1a temporal retrieval (query topics), 1b step-wise retrieval
 * (step topics), 2a conversational retrieval and 2c (RAG; its retrieval is scored like 2a)
 * (turn topics `<conv_id>_turn_<turn_id>`).
 */
export type RetecoSubtrack = '1a' | '1b' | '2a' | '2c'

/** Every sub-track, in display order. */
export const RETECO_SUBTRACKS: readonly RetecoSubtrack[] = ['1a', '1b', '2a', '2c']

/** The track a sub-track belongs to. */
export function trackOf(subtrack: RetecoSubtrack): RetecoTrack {
  return subtrack === '1a' || subtrack === '1b' ? 'track1_tempo' : 'track2_recor'
}

/**
 * Folder layout of a data directory:
 * - `release`: `track1_tempo/<domain>/…` and `track2_recor/<domain>/…` (train/dev splits);
 * - `pilot`: the organizers' flat sample (`docs/sample_data`): `examples.jsonl`, `steps.jsonl`
 *   (flat, no `steps[]`), `qrels.txt` (space-separated), `documents.jsonl` for TEMPO;
 *   `benchmark.jsonl`, `qrels.txt` (`<conv>#turn<n>` ids), `documents.jsonl` for RECOR. No split.
 */
export type RetecoLayout = 'release' | 'pilot'

/** A Track 1 query (`examples_<split>.jsonl`): id and gold ids only (text is not kept). */
export interface Track1Query {
  readonly id: string
  readonly goldIds: readonly string[]
  /** Physical line in the examples file. */
  readonly line: number
}

/** One supplied step of a Track 1 query (`steps_<split>.jsonl` → `steps[]`). */
export interface Track1Step {
  /** Step topic id (`<query_id>_step<n>`), the 1b topic. */
  readonly stepId: string
  /** The `step` number as given (gaps allowed); `null` if absent. */
  readonly step: number | null
  /** Gold ids of the step as given (not restricted to the corpus). */
  readonly goldIds: readonly string[]
}

/**
 * The steps record of one Track 1 query. In the pilot layout the record is flat (`flat: true`):
 * it has no `steps[]` (only the query's `gold_ids`), so `steps` is empty.
 */
export interface Track1StepRecord {
  readonly queryId: string
  readonly steps: readonly Track1Step[]
  readonly flat: boolean
  /** Physical line in the steps file. */
  readonly line: number
}

/** The few `guidance_<split>.jsonl` fields the scorer may use (ids and labels; no free text). */
export interface Track1Guidance {
  readonly queryId: string
  /** `query_guidance.is_temporal_query`, when present. */
  readonly isTemporalQuery: boolean | null
  /** `query_guidance.temporal_reasoning_class_primary`, when present. */
  readonly reasoningClass: string | null
  /** Number of `gold_passage_annotations`. */
  readonly goldPassageAnnotations: number
  readonly line: number
}

/** One turn of a Track 2 conversation. */
export interface Track2Turn {
  /** The release topic id `<conv_id>_turn_<turn_id>` (also for the pilot, whose qrels use `#turn`). */
  readonly topicId: string
  readonly conversationId: string
  readonly turnId: number
  /** `gold_doc_ids` (or `supporting_doc_ids`) as given, not restricted to the corpus. */
  readonly goldDocIds: readonly string[]
}

/** A Track 2 conversation (`benchmark_<split>.json` array element, or a pilot JSONL line). */
export interface Track2Conversation {
  readonly id: string
  /** The record's `task`, lower-cased (`Drones` → `drones`). */
  readonly task: string
  readonly turns: readonly Track2Turn[]
}

/** Per-domain entry of `split_manifest.json` (whatever of these fields it has). */
export interface ManifestDomain {
  readonly documents: number | null
  /** Gold ids that name no corpus document and were dropped from the qrels. */
  readonly droppedGoldIds: readonly string[]
  /** Topic-source ids per split (`train_ids`, `dev_ids`, …): query ids or conversation ids. */
  readonly ids: Readonly<Record<string, readonly string[]>>
}

/** `split_manifest.json`: per track, per domain. `raw` is the parsed file as is. */
export interface SplitManifest {
  readonly file: string
  readonly track1: ReadonlyMap<string, ManifestDomain>
  readonly track2: ReadonlyMap<string, ManifestDomain>
  readonly raw: unknown
}

/**
 * Everything of one domain and split that scoring needs. Qrels keep the file's topic order (the
 * order means are summed in). The corpus is not loaded here: call `readCorpusIds(corpusFile)`.
 */
export interface RetecoDomainData {
  readonly track: RetecoTrack
  /** Domain name (lower case, the release folder name). */
  readonly domain: string
  readonly dir: string
  /** `documents.jsonl` (ids under `id` or `doc_id`); `null` when absent. */
  readonly corpusFile: string | null
  /** Track 1: 1a qrels (query topics); Track 2: turn qrels. Empty when the file is absent. */
  readonly qrels: Qrels
  /** The qrels file read; `null` when the split has none (hidden test). */
  readonly qrelsFile: string | null
  /** Track 1 only: 1b step qrels (`qrels_steps_<split>.txt`); `null` when absent (pilot, Track 2). */
  readonly stepQrels: Qrels | null
  readonly stepQrelsFile: string | null
  /** Track 1: the examples (queries) of the split, in file order. */
  readonly queries: readonly Track1Query[]
  /** Track 1: steps records by query id (file order). */
  readonly stepRecords: ReadonlyMap<string, Track1StepRecord>
  /** Track 1: guidance records by query id. */
  readonly guidance: ReadonlyMap<string, Track1Guidance>
  /** Track 2: the conversations of the split, in file order. */
  readonly conversations: readonly Track2Conversation[]
}

/** A loaded data directory: the domains of each track for one split. */
export interface RetecoData {
  readonly root: string
  readonly layout: RetecoLayout
  /** The split read (`'pilot'` for the pilot layout, which has none). */
  readonly split: string
  /** Track 1 domains by name, in name (byte) order. */
  readonly track1: ReadonlyMap<string, RetecoDomainData>
  /** Track 2 domains by name, in name (byte) order. */
  readonly track2: ReadonlyMap<string, RetecoDomainData>
  /** `split_manifest.json`, when present. */
  readonly manifest: SplitManifest | null
}

/** The topic source of each sub-track in a domain: 1b scores step qrels, the others `qrels`. */
export function topicQrels(d: RetecoDomainData, subtrack: RetecoSubtrack): Qrels | null {
  return subtrack === '1b' ? d.stepQrels : d.qrels
}

/** One line of a run file, as read by the RETECO run parser (`runs.ts`). */
export interface RetecoRunLine {
  readonly topicId: string
  readonly docId: string
  /** The rank column as an integer (`[+-]?[0-9]+`). */
  readonly rank: number
  /** The score as a double (ordering uses `Math.fround` of it). */
  readonly score: number
  readonly tag: string
  /** Physical, 1-based line number. */
  readonly line: number
}

/** The lines of one topic in a run file, in file order. */
export interface RetecoRunTopic {
  readonly topicId: string
  readonly docIds: string[]
  readonly scores: number[]
  readonly ranks: number[]
  readonly lines: number[]
}

/** A problem in a run file, with its physical line (0 for file-level problems). */
export type { RetecoRunProblem } from '../../errors/reteco-plan-issues.js'

/** One parsed run file. `parseErrors` non-empty means the file cannot be scored (plan rule). */
export interface RetecoRunFile {
  readonly file: string
  /** Topics in order of first appearance. */
  readonly topics: ReadonlyMap<string, RetecoRunTopic>
  /** Lines that are not 6 columns, a non-integer rank or a non-finite-decimal score. */
  readonly parseErrors: readonly RetecoRunProblem[]
  /** Lines that parse but break a rule (rank ≤ 0, a rank repeated in a topic): still scored. */
  readonly validationErrors: readonly RetecoRunProblem[]
  /** Non-blank lines read (good and bad). */
  readonly lines: number
  /** Whitespace-only lines skipped. */
  readonly blankLines: number
  /** Run tags with their line counts, in order of first appearance (parsed lines only). */
  readonly tags: readonly (readonly [string, number])[]
}

/** How the run of one submission was given. */
export type RetecoRunLayout =
  /** One TREC file for every domain: topics are routed to the domain whose qrels hold them. */
  | 'single-file'
  /** A directory with one file per domain, named `<domain>` + any extension (`law.trec`). */
  | 'per-domain'

/** A submission's run, split per domain. */
export interface RetecoRun {
  /** The path given (file or directory). */
  readonly path: string
  readonly layout: RetecoRunLayout
  /** Per domain: the parsed file (per-domain layout) or the routed part of the single file. */
  readonly domains: ReadonlyMap<string, RetecoRunFile>
  /** Domains of the data with no file in a per-domain directory. */
  readonly missingDomainFiles: readonly string[]
  /** Files of a per-domain directory that match no domain. */
  readonly strayFiles: readonly string[]
  /** Single file: topics found in no domain's qrels (with their line count). */
  readonly unroutedTopics: ReadonlyMap<string, number>
  /** The whole single file as parsed (single-file layout); `null` for a directory. */
  readonly whole: RetecoRunFile | null
}
