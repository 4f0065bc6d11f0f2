/**
 * `trecscore/conventions`: the conventions every score depends on, as typed values: profiles
 * (`trecEvalV10`, `trecEvalV9`, `pytrecEval`), tie rules, gain maps.
 *
 * @example
 * import { resolveConventions } from 'trecscore/conventions'
 * const conventions = resolveConventions({ relevanceLevel: 2 })
 *
 * @module
 */

export type {
  Conventions,
  DuplicatePolicy,
  GainSpec,
  Ordering,
} from '../conventions/conventions.js'
export {
  parseGainMap,
  parseGainSpec,
} from '../conventions/gain-spec.js'
export {
  conventionProfiles,
  pytrecEval,
  resolveConventions,
  trecEvalV9,
  trecEvalV10,
} from '../conventions/profiles.js'
export {
  CWL_EVAL_TIES,
  PYTREC_EVAL_TIES,
  TIE_RULES,
  type TieRule,
  tieRuleOf,
  withTieRule,
} from '../conventions/tie-rules.js'
