/**
 * File edge of the convention sensitivity report: read every run once (scores at full precision,
 * with its rank column), choose the alternatives, and recompute ({@link sensitivity}).
 */
import type { Conventions } from '../conventions/conventions.js'
import { readRun } from '../io/read.js'
import type { Measure } from '../measures/measure.js'
import type { Qrels } from '../model/types.js'
import type { MeasureWithConventions } from './evaluate.js'
import {
  defaultAlternatives,
  runsHaveRanks,
  type SensitivityReport,
  type SensitivityRun,
  type SkippedConvention,
  sensitivity,
} from './sensitivity.js'

/** What {@link sensitivityOfRunFiles} reads and recomputes. */
export interface SensitivityFilesRequest {
  readonly qrels: Qrels
  /** Run files with the label each is shown under. */
  readonly runs: readonly { readonly path: string; readonly name: string }[]
  readonly measures: readonly (Measure | MeasureWithConventions)[]
  readonly conventions: Conventions
  /** Corpus doc ids: the unknown-docs alternatives are tried only with them. */
  readonly corpus?: ReadonlySet<string>
  /** Auxiliary judgments (`--aux-qrels`), given to every evaluation. */
  readonly auxQrels?: Qrels
  /** The declared query set (default: every qrels query). */
  readonly queries?: readonly string[]
  /** Conventions fixed by the caller (a preset), with why. */
  readonly fixed?: readonly SkippedConvention[]
}

/**
 * Read the runs once and report how much every score and the ranking of the runs depend on each
 * convention. Throws `InputError` for a run that does not parse.
 */
export async function sensitivityOfRunFiles(
  req: SensitivityFilesRequest,
): Promise<SensitivityReport> {
  const runs: SensitivityRun[] = []
  for (const r of req.runs)
    runs.push({
      name: r.name,
      run: await readRun(r.path, { comments: req.conventions.comments, keepRanks: true }),
    })
  const { alternatives, skipped } = defaultAlternatives(req.conventions, {
    qrels: req.qrels,
    corpus: req.corpus !== undefined,
    ranks: runsHaveRanks(runs),
    ...(req.fixed ? { fixed: req.fixed } : {}),
  })
  return sensitivity({
    qrels: req.qrels,
    runs,
    measures: req.measures,
    conventions: req.conventions,
    alternatives,
    skipped,
    ...(req.corpus ? { corpus: req.corpus } : {}),
    ...(req.auxQrels ? { auxQrels: req.auxQrels } : {}),
    ...(req.queries ? { queries: req.queries } : {}),
  })
}
