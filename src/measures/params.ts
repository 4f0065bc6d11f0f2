/**
 * Parameters many families share (`rel`, `judged_only`) and how `compute` reads them and `@`.
 */
import { NOT_POOLED, UNJUDGED } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import type { MeasureContext, ParamSpec } from './measure.js'

/** `rel`: the lowest grade counted as relevant. */
export const REL = {
  type: 'int',
  doc: 'lowest grade counted as relevant (default: the conventions’ relevance level, trec_eval -l)',
} as const satisfies ParamSpec

/** `judged_only`: measure the judged documents alone. */
export const JUDGED_ONLY = {
  type: 'bool',
  default: false,
  doc: 'drop unjudged documents from the ranking first (trec_eval -J)',
} as const satisfies ParamSpec

/** The relevance level: the `rel` parameter when given, else the conventions’. */
export function relOf(rel: number | undefined, ctx: MeasureContext): number {
  return rel ?? ctx.conventions.relevanceLevel
}

/** The rank cutoff `@k`, or no cutoff. */
export function cutOf(at: number | undefined): number {
  return at ?? Infinity
}

/** The ranking without unjudged docs (absent from qrels or negative), ranks compacted. */
export function judgedOnly(q: JudgedRanking): JudgedRanking {
  const kept = q.grades.filter((g) => g !== NOT_POOLED && g !== UNJUDGED)
  return { ...q, grades: kept, numRet: kept.length, numNonpool: 0, numUnjudgedInPool: 0 }
}

/** The ranking a measure with `judged_only` sees. */
export function judgedView(q: JudgedRanking, judgedOnlyParam: boolean): JudgedRanking {
  return judgedOnlyParam ? judgedOnly(q) : q
}
