import type { Conventions } from './conventions.js'

/** trec_eval 10.0: float64 scores, ties by docId descending, duplicates fatal, `#` comments. */
export const trecEvalV10 = {
  ordering: 'score-docid-desc',
  scorePrecision: 'float64',
  duplicates: 'error',
  unknownDocs: 'keep',
  missingQueries: 'skip',
  extraQueries: 'ignore',
  depth: null,
  judgedOnly: false,
  negativeJudgments: 'nonrelevant',
  relevanceLevel: 1,
  recallRounding: 'lround',
  gains: { kind: 'grade' },
  queryKey: 'qid',
  queriesWithoutRelevant: 'zero',
  comments: true,
} as const satisfies Conventions

/**
 * trec_eval 9.0.8: as 10.0 but float32 scores, no comment lines, and IPrec's recall levels
 * rounded by (long)(r·R + 0.9).
 */
export const trecEvalV9 = {
  ...trecEvalV10,
  scorePrecision: 'float32',
  recallRounding: 'plus-0.9',
  comments: false,
} as const satisfies Conventions

/** pytrec_eval (trec_eval 9 inside, runs as dicts): float32, last duplicate wins. */
export const pytrecEval = {
  ...trecEvalV9,
  duplicates: 'keep-last',
} as const satisfies Conventions

/** The named convention profiles, by id. */
export const conventionProfiles: Readonly<Record<string, Conventions>> = {
  'trec-eval': trecEvalV10,
  'trec-eval-v9': trecEvalV9,
  'pytrec-eval': pytrecEval,
}

/** Fill a partial conventions object from a base profile (trec_eval 10 by default). */
export function resolveConventions(
  partial: Partial<Conventions> = {},
  base: Conventions = trecEvalV10,
): Conventions {
  return { ...base, ...partial }
}
