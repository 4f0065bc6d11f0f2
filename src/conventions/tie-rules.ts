/**
 * Named tie rules: how an evaluator turns run scores into a ranking. A tie rule fixes two
 * conventions at once, the score precision and the ordering of equal scores, because
 * evaluators differ in both together (trec_eval 9 narrows to float32 and then breaks ties by
 * doc id; cwl_eval keeps doubles and a stable sort). Presets name the rule each measure uses.
 */
import type { Conventions, Ordering } from './conventions.js'

/** A named tie rule. */
export interface TieRule {
  /** Name printed by `presets show`, e.g. `pytrec_eval`. */
  readonly name: string
  /** The ordering it implies. */
  readonly ordering: Ordering
  /** The score precision it implies. */
  readonly scorePrecision: Conventions['scorePrecision']
  /** What it does, in words. */
  readonly summary: string
  /** Where the rule comes from (tool, version, code). */
  readonly source: string
}

/**
 * pytrec_eval / trec_eval 9.0.8 (`form_res_rels.c`): scores read as double, stored as C float
 * (float32), sorted descending, equal float32 scores by doc id descending (strcmp).
 */
export const PYTREC_EVAL_TIES: TieRule = Object.freeze({
  name: 'pytrec_eval',
  ordering: 'score-docid-desc',
  scorePrecision: 'float32',
  summary:
    'float32 score descending; equal float32 scores by doc id descending (byte order); file order and rank column ignored',
  source: 'trec_eval 9.0.8 form_res_rels.c, as in pytrec_eval-terrier 0.5.9',
})

/**
 * cwl_eval (ireval/cwl 1.0.12, ir_measures' RBP provider): a stable sort by the double score
 * descending, so equal scores stay in file order; scores are not narrowed.
 */
export const CWL_EVAL_TIES: TieRule = Object.freeze({
  name: 'cwl_eval',
  ordering: 'score-file-order',
  scorePrecision: 'float64',
  summary:
    'double score descending, stable: equal scores stay in run-file order; scores are not narrowed to float32',
  source: 'cwl_eval 1.0.12 (ireval/cwl @ 4c3ea6f), ir_measures 0.4.3 RBP provider',
})

/** The named tie rules, by name. */
export const TIE_RULES: ReadonlyMap<string, TieRule> = new Map(
  [PYTREC_EVAL_TIES, CWL_EVAL_TIES].map((t) => [t.name, t]),
)

/** `c` with the ordering and score precision of tie rule `t`. */
export function withTieRule(c: Conventions, t: TieRule): Conventions {
  return { ...c, ordering: t.ordering, scorePrecision: t.scorePrecision }
}

/** The named tie rule that `c` follows, or `undefined` when it matches none. */
export function tieRuleOf(c: Conventions): TieRule | undefined {
  for (const t of TIE_RULES.values())
    if (t.ordering === c.ordering && t.scorePrecision === c.scorePrecision) return t
  return undefined
}
