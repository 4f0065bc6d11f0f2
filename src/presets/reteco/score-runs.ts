/**
 * One call behind `trecscore score --preset reteco-…`: load the data once, read each run, score it
 * with a registered convention set, and return one {@link RetecoReport} per run.
 */
import { type RunInput, runInputPath } from '../../io/run-labels.js'
import { RETECO_CONVENTION_SETS } from './conventions.js'
import { loadRetecoData } from './data.js'
import { RetecoInputError } from './errors.js'
import { judgeLabels } from './labels.js'
import { missingCorpusProblems, unscorableReasons } from './plan.js'
import { type RetecoPreset, subtrackOfPreset } from './presets.js'
import type { RetecoConventionSetName, RetecoReport } from './report-model.js'
import { readRetecoRun } from './runs.js'
import { trackOf } from './types.js'

export { RETECO_PRESETS, type RetecoPreset, subtrackOfPreset } from './presets.js'

/** Options of {@link scoreRetecoRuns}. */
export interface ScoreRetecoOptions {
  readonly preset: RetecoPreset
  /** Data directory (release or pilot layout). */
  readonly data: string
  /** Split. @default 'dev' */
  readonly split?: string
  /** Runs: TREC files or per-domain directories, as paths (reported as typed) or `{ path, name }` (reported under `name`). */
  readonly runs: readonly RunInput[]
  /** Convention set. @default 'plan' */
  readonly conventions?: RetecoConventionSetName
  /** A judge-label file (`trecscore.reteco-labels/1`) instead of the offline labels. */
  readonly labels?: string
  /** Only these domains. @default every domain of the track */
  readonly domains?: readonly string[]
  /**
   * Plan conventions: score domains that have no `documents.jsonl`, keeping their unknown doc ids
   * (said in the report's conventions). Without it such a domain is an error. @default false
   */
  readonly allowMissingCorpus?: boolean
}

/**
 * Score every run of a sub-track with one convention set. Throws {@link RetecoInputError}
 * (exit code 2) for bad data, a bad label file, an unreadable run path or an unregistered set;
 * a malformed run is not thrown: its report has `errors` and no headline value.
 *
 * @example
 * const [report] = await scoreRetecoRuns({ preset: 'reteco-1a', data: 'RETECO', runs: ['bm25.trec'] })
 * console.log(report.headline.value)
 */
export async function scoreRetecoRuns(options: ScoreRetecoOptions): Promise<RetecoReport[]> {
  const name = options.conventions ?? 'plan'
  const set = RETECO_CONVENTION_SETS.get(name)
  if (!set)
    throw new RetecoInputError([
      `--conventions ${name}: this convention set is not available in this build (available: ${[...RETECO_CONVENTION_SETS.keys()].join(', ')})`,
    ])
  const subtrack = subtrackOfPreset(options.preset)
  const track = trackOf(subtrack)
  const data = await loadRetecoData(options.data, {
    split: options.split ?? 'dev',
    tracks: [track],
    ...(options.domains ? { domains: options.domains } : {}),
  })
  const domains = track === 'track1_tempo' ? data.track1 : data.track2
  const unscorable = unscorableReasons(data, subtrack)
  if (name === 'plan' && !options.allowMissingCorpus)
    unscorable.push(...missingCorpusProblems(data, subtrack).problems)
  if (unscorable.length) throw new RetecoInputError(unscorable)
  const labels = options.labels ? await judgeLabels(options.labels) : null
  const reports: RetecoReport[] = []
  for (const input of options.runs) {
    const run = await readRetecoRun(runInputPath(input), { domains, subtrack })
    const report = await set.score({
      data,
      subtrack,
      run,
      labels,
      ...(options.allowMissingCorpus ? { allowMissingCorpus: true } : {}),
    })
    reports.push(typeof input === 'string' ? report : { ...report, run: input.name })
  }
  return reports
}
