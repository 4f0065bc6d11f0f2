/**
 * The one place where the server meets the scoring engine: validating an upload and scoring a
 * stored run for a track and phase, through the engine barrel (src/internal.ts) only: presets run
 * through `runPreset` (RETECO, until it is a preset on the engine, through `scoreRetecoRuns`),
 * plain tracks through `evaluateRunFile`, uploads through the run validators.
 *
 * Every score is returned with its provenance: trecscore version, preset, conventions, sha256
 * of the qrels and of the run, and the `trecscore` command that reproduces it offline.
 */
import { createHash } from 'node:crypto'
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import {
  type Conventions,
  conventionProfiles,
  decodeId,
  describeConventions,
  evaluateRunFile,
  isTrecscoreError,
  parseMeasures,
  presetRunEvaluation,
  qrelsWarnings,
  type RetecoPreset,
  type RunEvaluation,
  readChunks,
  readQrels,
  renderRetecoValidationText,
  resolveConventions,
  runMessages,
  runPreset,
  SourceError,
  scoreRetecoRuns,
  validateChunks,
  validateRetecoRun,
} from '../internal.js'
import { measureName, runIsDirectory, type Track } from './config/load.js'
import type { PhaseConfig } from './config/schema.js'
import { directoryDigest } from './storage/upload.js'

/** The trecscore version stamped on every score. */
export const TRECSCORE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version

/** What validating an upload found; `text` is the report `trecscore validate` prints. */
export interface ValidationOutcome {
  readonly ok: boolean
  readonly errors: number
  readonly warnings: number
  readonly text: string
}

/** Where a score came from, enough to reproduce it offline. */
export interface Provenance {
  readonly trecscoreVersion: string
  /** Preset id (`null` for a plain qrels + measures track). */
  readonly preset: string | null
  readonly track: string
  readonly phase: string
  readonly qrelsSha256: string
  readonly runSha256: string
  /** The conventions in force, one line each. */
  readonly conventions: readonly string[]
  /** The command that prints the same numbers (`QRELS`/`DATA` and `RUN` stand for the files). */
  readonly command: string
}

/** One run scored for a track and phase. */
export interface ScoreOutcome {
  /** The track's primary measure (`null`: undefined for this run). */
  readonly primary: number | null
  /** Every measure the scorer reports, by name. */
  readonly columns: Readonly<Record<string, number | null>>
  readonly perQuery: readonly {
    readonly query: string
    readonly values: Readonly<Record<string, number | null>>
  }[]
  /** Warnings and counts of what was dropped, deduplicated or zero-filled. */
  readonly notes: {
    readonly warnings: readonly string[]
    readonly counts: Readonly<Record<string, number>>
  }
  readonly provenance: Provenance
}

/** A run that validated but could not be scored (the submission fails with this reason). */
export class ScoringFailure extends Error {
  override readonly name = 'ScoringFailure'
}

/** sha256 (hex) of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256')
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer)
  return h.digest('hex')
}

/** The files of a run directory (per-domain run), in name order; hidden files left out. */
function runFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort()
}

/** sha256 of a run: of its file, or for a directory as {@link directoryDigest} computes it. */
export async function sha256Run(path: string): Promise<string> {
  if (!statSync(path).isDirectory()) return sha256File(path)
  const files = []
  for (const name of runFiles(path))
    files.push({ name, sha256: await sha256File(join(path, name)) })
  return directoryDigest(files)
}

async function sha256Files(files: readonly string[]): Promise<string> {
  if (files.length === 1) return sha256File(files[0]!)
  const h = createHash('sha256')
  for (const f of [...files].sort()) h.update(`${await sha256File(f)}  ${f}\n`)
  return h.digest('hex')
}

function qrelsFileOf(track: Track, phase: PhaseConfig): string {
  const q = track.qrels?.[phase.id]
  if (q === undefined)
    throw new ScoringFailure(`track ${track.id} has no qrels for phase ${phase.id}`)
  return join(track.dataDir, q)
}

function measureKey(m: string): string {
  return measureName(m) ?? m
}

/** Replace a server path by the name the team gave its file (reports never show server paths). */
function hidePath(text: string, file: string, name: string): string {
  return text.split(file).join(name)
}

/**
 * Validate a stored upload for a track and phase with the validator `trecscore validate` runs.
 * Hidden phases check the format only: no qrels topic list is consulted, so no report can
 * depend on the hidden qrels. `topics`: the topic list of a public qrels track (see
 * `topic-cache.ts`), the one the upload page hands to the browser's check. `formatOnly`: check
 * a RETECO run's format only (a hidden phase, or a web process that holds no data folder).
 */
export async function validateSubmission(
  track: Track,
  phase: PhaseConfig,
  file: string,
  name: string,
  maxLineBytes: number,
  topics?: ReadonlySet<string>,
  formatOnly: boolean = phase.hidden,
): Promise<ValidationOutcome> {
  if (track.kind === 'reteco' && !formatOnly) {
    const hide = (t: string): string => hidePath(hidePath(t, file, name), `${track.dataDir}/`, '')
    let v: Awaited<ReturnType<typeof validateRetecoRun>>
    try {
      v = await validateRetecoRun(file, {
        subtrack: track.preset!.slice('reteco-'.length) as '1a' | '1b' | '2a' | '2c',
        data: track.dataDir,
        split: track.splits![phase.id]!,
      })
    } catch (e) {
      // What `trecscore validate` prints on stderr before exiting with 2 (a run directory
      // without a file named after a domain, two files for one domain, a Track 2 single file).
      if (!isTrecscoreError(e)) throw e
      return { ok: false, errors: 1, warnings: 0, text: `${hide((e as Error).message)}\n` }
    }
    return {
      ok: v.ok,
      errors: v.errors,
      warnings: v.warnings,
      text: hide(renderRetecoValidationText(v)),
    }
  }
  if (statSync(file).isDirectory()) {
    // A per-domain run of a hidden phase: the format checks of each file, no topic list.
    let errors = 0
    let warnings = 0
    let text = ''
    for (const f of runFiles(file)) {
      const one = await validateChunks(
        readChunks(join(file, f)),
        { file: `${name}/${f}`, maxLineBytes },
        (e) => (e instanceof SourceError ? e.reason : null),
      )
      errors += one.errors
      warnings += one.warnings
      text += one.text
    }
    return { ok: errors === 0, errors, warnings, text }
  }
  // The same check the upload page runs in the browser (validateChunks), on the stored file.
  return validateChunks(
    readChunks(file),
    { file: name, maxLineBytes, ...(topics ? { topics } : {}) },
    (e) => (e instanceof SourceError ? e.reason : null),
  )
}

function fromEvaluation(
  e: RunEvaluation,
  track: Track,
): Pick<ScoreOutcome, 'primary' | 'columns' | 'perQuery'> & { counts: Record<string, number> } {
  const columns: Record<string, number | null> = {}
  for (const a of e.aggregates) columns[a.measure] = a.value
  const perQuery = e.perQuery.map((q) => ({
    query: decodeId(q.queryId),
    values: Object.fromEntries(e.measures.map((m, i) => [m, q.values[i] ?? null])),
  }))
  const c = e.counts
  const counts = {
    evaluatedQueries: c.evaluatedQueries,
    zeroFilledOrSkippedQueries: c.missingQueries.length,
    extraQueriesIgnored: c.extraQueries,
    duplicatesRemoved: c.duplicatesRemoved,
    unknownDocsDiscarded: c.unknownDiscarded,
    cutByDepth: c.cutByDepth,
    unjudgedDropped: c.unjudgedDropped,
    failedQueries: c.failedQueries.length,
  }
  return { primary: columns[measureKey(track.primary)] ?? null, columns, perQuery, counts }
}

function conventionLines(c: Conventions): string[] {
  return describeConventions(c).split('\n').filter(Boolean)
}

/** Score a stored, validated run for a track and phase (run in the worker process). */
export async function scoreSubmission(
  track: Track,
  phase: PhaseConfig,
  file: string,
  name: string,
): Promise<ScoreOutcome> {
  const runSha256 = await sha256Run(file)
  const base = { trecscoreVersion: TRECSCORE_VERSION, track: track.id, phase: phase.id, runSha256 }
  if (track.kind === 'reteco') {
    const split = track.splits![phase.id]!
    const [r] = await scoreRetecoRuns({
      preset: track.preset as RetecoPreset,
      data: track.dataDir,
      split,
      runs: [file],
    })
    if (!r) throw new ScoringFailure('the scorer returned no report')
    if (r.errors.length)
      throw new ScoringFailure(
        r.errors
          .slice(0, 5)
          .map((e) => hidePath(e, file, name))
          .join('; '),
      )
    const columns: Record<string, number | null> = { [r.headline.measure]: r.headline.value }
    for (const [k, v] of Object.entries(r.diagnostics)) columns[k] = v
    const qrelsFiles = (r.counts.length ? r.counts.map((c) => c.domain) : r.domains).map((d) =>
      join(
        track.dataDir,
        runIsDirectory(track) ? 'track2_recor' : 'track1_tempo',
        d,
        track.preset === 'reteco-1b' ? `qrels_steps_${split}.txt` : `qrels_${split}.txt`,
      ),
    )
    const counts: Record<string, number> = {}
    for (const c of r.counts)
      for (const [k, v] of Object.entries(c))
        if (typeof v === 'number') counts[k] = (counts[k] ?? 0) + v
    return {
      primary: columns[track.primary] ?? null,
      columns,
      perQuery: r.perTopic.map((t) => ({ query: `${t.domain}/${t.topic}`, values: t.values })),
      notes: { warnings: r.warnings.map((w) => hidePath(w, file, name)), counts },
      provenance: {
        ...base,
        preset: track.preset!,
        qrelsSha256: await sha256Files(qrelsFiles).catch(() => 'unavailable'),
        conventions: r.conventions.map(([k, v]) => `${k}: ${v}`),
        command: `trecscore score --preset ${track.preset} --data DATA --split ${split} --conventions ${r.conventionSet} RUN -f json`,
      },
    }
  }
  const qrels = qrelsFileOf(track, phase)
  const qrelsSha256 = await sha256File(qrels)
  if (track.kind === 'preset') {
    const s = await runPreset(track.preset!, { qrels, runs: [file] })
    const run = s.runs[0]
    if (!run) throw new ScoringFailure('the scorer returned no run')
    const { counts, ...values } = fromEvaluation(presetRunEvaluation(s, run), track)
    return {
      ...values,
      notes: {
        warnings: [
          ...qrelsWarnings(s).map((w) => hidePath(w, qrels, basename(qrels))),
          ...runMessages(run).map((w) => hidePath(w, file, name)),
        ],
        counts,
      },
      provenance: {
        ...base,
        preset: track.preset!,
        qrelsSha256,
        conventions: conventionLines(s.conventions[0]!.conventions),
        command: `trecscore score --preset ${track.preset} --qrels QRELS RUN -f json`,
      },
    }
  }
  const profile = track.conventions ?? 'trec-eval'
  const conventions = resolveConventions(conventionProfiles[profile] ?? {})
  const measures = parseMeasures(track.measures!)
  const q = await readQrels(qrels, { comments: conventions.comments })
  const e = await evaluateRunFile(q, file, measures, conventions, { runName: name })
  if (e.counts.failedQueries.length)
    throw new ScoringFailure(
      `${e.counts.failedQueries.length} query evaluation(s) failed (e.g. a document retrieved twice under duplicates: ${conventions.duplicates})`,
    )
  const { counts, ...values } = fromEvaluation(e, track)
  return {
    ...values,
    notes: { warnings: [], counts },
    provenance: {
      ...base,
      preset: null,
      qrelsSha256,
      conventions: conventionLines(conventions),
      command: `trecscore evaluate --profile ${profile} QRELS RUN ${track.measures!.map((m) => `-m '${m}'`).join(' ')} -f json`,
    },
  }
}
