/**
 * Every measure family `evaluate` knows, in the order `trecscore measures` lists them. Each family
 * is defined once, in its family file (formula, parameters, trec_eval names); lists in help,
 * docs and errors, the trec_eval names and the drop-in's table come from here.
 */
import { type JudgedRanking, numRelAt } from '../rank/judged-ranking.js'
import { accuracyMeasure } from './accuracy.js'
import { averagePrecisionMeasure, gmapMeasure, setMapMeasure } from './average-precision.js'
import { bprefMeasure, gmBprefMeasure } from './bpref.js'
import { compatMeasure } from './compat.js'
import {
  numNonrelJudgedRetMeasure,
  numRelMeasure,
  numRelRetMeasure,
  numRetMeasure,
} from './counts.js'
import {
  bpmMeasure,
  insqMeasure,
  instMeasure,
  nerr8Measure,
  nerr9Measure,
  nerr10Measure,
  nerr11Measure,
  rbpResidualMeasure,
  sdcgMeasure,
} from './cwl.js'
import { dcgMeasure } from './dcg.js'
import {
  alphaDCGMeasure,
  alphaNDCGMeasure,
  apIAMeasure,
  errIAMeasure,
  nERRIAMeasure,
  nNRBPMeasure,
  nrbpMeasure,
  pIAMeasure,
  stRecallMeasure,
} from './diversity.js'
import { errMeasure } from './err.js'
import { f1Measure } from './f1.js'
import { binGMeasure, gainGMeasure } from './g.js'
import { hitsMeasure } from './hits.js'
import { infAPMeasure } from './infap.js'
import {
  elevenPointAverageMeasure,
  interpolatedPrecisionMeasure,
} from './interpolated-precision.js'
import { judgedMeasure, unjudgedMeasure } from './judged.js'
import type { MeasureSpec } from './measure.js'
import { ndcgMeasure } from './ndcg.js'
import { ndcgRelMeasure, rNdcgMeasure } from './ndcg-experimental.js'
import { numQMeasure } from './num-q.js'
import { precisionMeasure, rPrecisionMeasure, setPrecisionMeasure } from './precision.js'
import { rbpMeasure } from './rbp.js'
import { completenessMeasure, recallMeasure, setRecallMeasure } from './recall.js'
import { reciprocalRankMeasure, successMeasure } from './reciprocal-rank.js'
import { setFMeasure } from './set-f.js'
import {
  ndcgFullCoverageMeasure,
  temporalCoverageMeasure,
  temporalPrecisionMeasure,
  temporalPrecisionTempoMeasure,
  temporalRelevanceMeasure,
  unlabelledMeasure,
} from './temporal.js'
import { ubprefMeasure } from './ubpref.js'
import { alphaUrbpMeasure, urbpMeasure } from './urbp.js'
import { utilityMeasure } from './utility.js'
import { yaapMeasure } from './yaap.js'

const SPECS: readonly MeasureSpec[] = [
  precisionMeasure,
  recallMeasure,
  averagePrecisionMeasure,
  gmapMeasure,
  reciprocalRankMeasure,
  ndcgMeasure,
  dcgMeasure,
  errMeasure,
  rPrecisionMeasure,
  bprefMeasure,
  gmBprefMeasure,
  infAPMeasure,
  judgedMeasure,
  unjudgedMeasure,
  successMeasure,
  completenessMeasure,
  setFMeasure,
  setPrecisionMeasure,
  setRecallMeasure,
  setMapMeasure,
  f1Measure,
  hitsMeasure,
  accuracyMeasure,
  interpolatedPrecisionMeasure,
  elevenPointAverageMeasure,
  yaapMeasure,
  gainGMeasure,
  binGMeasure,
  rNdcgMeasure,
  ndcgRelMeasure,
  utilityMeasure,
  rbpMeasure,
  rbpResidualMeasure,
  instMeasure,
  insqMeasure,
  bpmMeasure,
  sdcgMeasure,
  nerr8Measure,
  nerr9Measure,
  nerr10Measure,
  nerr11Measure,
  alphaDCGMeasure,
  alphaNDCGMeasure,
  errIAMeasure,
  nERRIAMeasure,
  nrbpMeasure,
  nNRBPMeasure,
  apIAMeasure,
  pIAMeasure,
  stRecallMeasure,
  compatMeasure,
  urbpMeasure,
  alphaUrbpMeasure,
  ubprefMeasure,
  numQMeasure,
  numRetMeasure,
  numRelMeasure,
  numRelRetMeasure,
  numNonrelJudgedRetMeasure,
  temporalPrecisionMeasure,
  temporalPrecisionTempoMeasure,
  temporalRelevanceMeasure,
  temporalCoverageMeasure,
  ndcgFullCoverageMeasure,
  unlabelledMeasure,
]

/** All measure families, by canonical name. */
export const MEASURES: ReadonlyMap<string, MeasureSpec> = new Map(SPECS.map((s) => [s.name, s]))

/** Name or alias → family. Lookup is exact first, then case-insensitive. */
export const MEASURE_NAMES: ReadonlyMap<string, MeasureSpec> = new Map(
  SPECS.flatMap((s) => [[s.name, s] as const, ...s.aliases.map((a) => [a, s] as const)]),
)

/** Find a family by name or alias (exact, then case-insensitive). */
export function findMeasureSpec(name: string): MeasureSpec | undefined {
  const exact = MEASURE_NAMES.get(name)
  if (exact) return exact
  const lower = name.toLowerCase()
  for (const [n, s] of MEASURE_NAMES) if (n.toLowerCase() === lower) return s
  return undefined
}

/** True when R (at the measure's level) is 0 for this query. */
export function hasNoRelevant(q: JudgedRanking, relLevel: number): boolean {
  return numRelAt(q, relLevel) === 0
}
