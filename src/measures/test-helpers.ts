import type { JudgedRanking } from '../rank/judged-ranking.js'
import type { MeasureSpec } from './measure.js'

/** `k=1` for each parameter a family requires (`alpha_uRBP(goal=1,sd=1)`), comma-joined; '' if none. */
export function requiredArgs(spec: MeasureSpec): string {
  return (spec.required ?? []).map((k) => `${k}=1`).join(',')
}

/** The family's name with its required parameters and `extra` ones: `alpha_uRBP(rel=2,goal=1,sd=1)`. */
export function withRequired(spec: MeasureSpec, extra: readonly string[] = []): string {
  const args = [...extra, requiredArgs(spec)].filter((a) => a !== '')
  return args.length ? `${spec.name}(${args.join(',')})` : spec.name
}

/**
 * Build a JudgedRanking by hand for tests: `ranked` holds the grade of each retrieved doc
 * (-1 not in qrels, -2 negative judgment), `unretrieved` the grades of judged docs not retrieved.
 */
export function ranking(
  ranked: readonly number[],
  unretrieved: readonly number[] = [],
  relevanceLevel = 1,
): JudgedRanking {
  const relLevels: number[] = []
  for (const g of [...ranked, ...unretrieved]) {
    if (g < 0) continue
    while (relLevels.length <= g) relLevels.push(0)
    relLevels[g]!++
  }
  let numRelLevels = 0
  let numRel = 0
  relLevels.forEach((c, g) => {
    if (c) {
      numRelLevels = g + 1
      if (g >= relevanceLevel) numRel += c
    }
  })
  return {
    queryId: 'q',
    grades: Int32Array.from(ranked),
    numRet: ranked.length,
    relLevels,
    numRelLevels,
    relevanceLevel,
    numRel,
    numRelRet: ranked.filter((g) => g >= relevanceLevel).length,
    numNonpool: ranked.filter((g) => g === -1).length,
    numUnjudgedInPool: ranked.filter((g) => g === -2).length,
  }
}
