/**
 * trec_eval's measure table (`measures.c`) in its fixed print order. A row is defined once, in
 * its family file under `src/measures/`: a family's trec_eval names come with the family (see
 * `MeasureSpec.trecEval`), the few the drop-in alone has (`relstring`, `ideal_dcg`, trec_eval's
 * own `rbp_resid`) are the `…TrecEval` exports. Only the preference and judgment-group measures
 * (`-R prefs`, `-R qrels_jg`) and `runid` are written here.
 */

import { relStringTrecEval } from '../measures/judged.js'
import { defineTrecEvalMeasure, type TrecEvalMeasure, teValues } from '../measures/measure.js'
import { idealDcgTrecEval } from '../measures/ndcg.js'
import { rbpResidualTrecEval } from '../measures/rbp.js'
import { MEASURES } from '../measures/registry.js'
import { TREC_EVAL_CUTOFFS, TREC_EVAL_RPREC_MULTIPLES } from '../measures/trec-eval-defaults.js'
import { mapAvgjg, precisionAvgjg, rPrecisionMultAvgjg } from './prefs/avgjg.js'
import { prefsNumFulfilled, prefsNumFulfilledRet, prefsNumPossible } from './prefs/num-prefs.js'
import type { PrefCounts } from './prefs/pref-counts.js'
import { prefsAvgjg } from './prefs/prefs-avgjg.js'
import { prefsAvgjgRnonrel } from './prefs/prefs-avgjg-rnonrel.js'
import { prefsPair } from './prefs/prefs-pair.js'
import { prefsSimp } from './prefs/prefs-simp.js'
import type { TeAnyMeasure, TeJgMeasure, TeMeasure, TePrefsMeasure } from './types.js'

export type {
  ParamKind,
  TeAnyMeasure,
  TeContext,
  TeJgMeasure,
  TeMeasure,
  TeParams,
  TePrefsMeasure,
} from './types.js'

/** Every qrels measure by trec_eval name: the families' trec_eval names and the drop-in's own. */
const QRELS_ROWS: ReadonlyMap<string, TrecEvalMeasure> = new Map(
  [
    defineTrecEvalMeasure({
      name: 'runid',
      perQuery: 'none',
      summary: 'runid',
      usesRanking: false,
      compute: () => [0],
    }),
    ...[...MEASURES.values()].flatMap((s) => s.trecEval),
    relStringTrecEval,
    idealDcgTrecEval,
    rbpResidualTrecEval,
  ].map((m) => [m.name, m]),
)

/** The qrels rows named, in that order. */
function rows(names: readonly string[]): TeMeasure[] {
  return names.map((n) => {
    const row = QRELS_ROWS.get(n)
    if (!row) throw new Error(`trec-eval/table.ts: no measure defines the trec_eval name '${n}'`)
    return row
  })
}

/** The qrels measures up to trec_eval's preference measures, in print order. */
const QRELS_MEASURES: readonly TeMeasure[] = rows([
  'runid',
  'num_q',
  'num_ret',
  'num_rel',
  'num_rel_ret',
  'map',
  'gm_map',
  'Rprec',
  'bpref',
  'recip_rank',
  'iprec_at_recall',
  'P',
  'relstring',
  'recall',
  'infAP',
  'gm_bpref',
  'Rprec_mult',
  'utility',
  '11pt_avg',
  'binG',
  'G',
  'dcg',
  'ideal_dcg',
  'ndcg',
  'ndcg_rel',
  'Rndcg',
  'ndcg_cut',
  'map_cut',
  'relative_P',
  'success',
  'set_P',
  'set_relative_P',
  'set_recall',
  'set_map',
  'set_F',
  'num_nonrel_judged_ret',
])

const prefsCount = (name: string, f: (c: PrefCounts) => number): TePrefsMeasure => ({
  name,
  input: 'prefs',
  params: 'none',
  perQuery: 'long',
  summary: 'sum',
  usesRanking: true,
  v10Only: false,
  compute: (c) => [f(c)],
})
const prefsRatio = (name: string, f: (c: PrefCounts) => number): TePrefsMeasure => ({
  name,
  input: 'prefs',
  params: 'none',
  perQuery: 'double',
  summary: 'mean',
  usesRanking: true,
  v10Only: false,
  compute: (c) => [f(c)],
})

/** Preference measures (`-R prefs`, `-R qrels_prefs`), in print order. */
const PREFS_MEASURES: readonly TePrefsMeasure[] = [
  prefsCount('prefs_num_prefs_poss', prefsNumPossible),
  prefsCount('prefs_num_prefs_ful', prefsNumFulfilled),
  prefsCount('prefs_num_prefs_ful_ret', prefsNumFulfilledRet),
  prefsRatio('prefs_simp', (c) => prefsSimp(c, 'all')),
  prefsRatio('prefs_pair', (c) => prefsPair(c, 'all')),
  prefsRatio('prefs_avgjg', (c) => prefsAvgjg(c, 'all')),
  prefsRatio('prefs_avgjg_Rnonrel', (c) => prefsAvgjgRnonrel(c, 'all')),
  prefsRatio('prefs_simp_ret', (c) => prefsSimp(c, 'ret')),
  prefsRatio('prefs_pair_ret', (c) => prefsPair(c, 'ret')),
  prefsRatio('prefs_avgjg_ret', (c) => prefsAvgjg(c, 'ret')),
  prefsRatio('prefs_avgjg_Rnonrel_ret', (c) => prefsAvgjgRnonrel(c, 'ret')),
  prefsRatio('prefs_simp_imp', (c) => prefsSimp(c, 'imp')),
  prefsRatio('prefs_pair_imp', (c) => prefsPair(c, 'imp')),
  prefsRatio('prefs_avgjg_imp', (c) => prefsAvgjg(c, 'imp')),
]

/** Judgment-group measures (`-R qrels_jg`), in print order. */
const JG_MEASURES: readonly TeJgMeasure[] = [
  {
    name: 'map_avgjg',
    input: 'qrels_jg',
    params: 'none',
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    v10Only: false,
    compute: (g) => [mapAvgjg(g)],
  },
  {
    name: 'P_avgjg',
    input: 'qrels_jg',
    params: 'long-cutoffs',
    defaults: TREC_EVAL_CUTOFFS,
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    v10Only: false,
    compute: (g, p) => precisionAvgjg(g, teValues(p)),
  },
  {
    name: 'Rprec_mult_avgjg',
    input: 'qrels_jg',
    params: 'double-cutoffs',
    defaults: TREC_EVAL_RPREC_MULTIPLES,
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    v10Only: false,
    compute: (g, p) => rPrecisionMultAvgjg(g, teValues(p)),
  },
]

/** The v10 measures trec_eval lists after the judgment-group ones, in print order. */
const LATE_QRELS_MEASURES: readonly TeMeasure[] = rows(['yaap', 'rbp', 'rbp_resid', 'unj'])

/** Every measure, in trec_eval 10's print order. */
export const TREC_EVAL_MEASURES: readonly TeAnyMeasure[] = [
  ...QRELS_MEASURES,
  ...PREFS_MEASURES,
  ...JG_MEASURES,
  ...LATE_QRELS_MEASURES,
]

/** trec_eval's measure nicknames (`-m official`, `-m all_trec`, …); a Map, so `constructor` is no nickname. */
export const TREC_EVAL_NICKNAMES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    official: [
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'map',
      'gm_map',
      'Rprec',
      'bpref',
      'recip_rank',
      'iprec_at_recall',
      'P',
    ],
    set: [
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'utility',
      'set_P',
      'set_recall',
      'set_relative_P',
      'set_map',
      'set_F',
    ],
    all_trec: [
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'map',
      'gm_map',
      'Rprec',
      'bpref',
      'recip_rank',
      'iprec_at_recall',
      'P',
      'relstring',
      'recall',
      'unj',
      'rbp',
      'rbp_resid',
      'infAP',
      'gm_bpref',
      'utility',
      '11pt_avg',
      'ndcg',
      'relative_P',
      'Rprec_mult',
      'success',
      'map_cut',
      'ndcg_cut',
      'ndcg_rel',
      'Rndcg',
      'binG',
      'G',
      'set_P',
      'set_recall',
      'set_relative_P',
      'set_map',
      'set_F',
      'num_nonrel_judged_ret',
    ],
    all_prefs: [
      'runid',
      'num_q',
      'prefs_num_prefs_poss',
      'prefs_num_prefs_ful',
      'prefs_num_prefs_ful_ret',
      'prefs_simp',
      'prefs_pair',
      'prefs_avgjg',
      'prefs_avgjg_Rnonrel',
      'prefs_simp_ret',
      'prefs_pair_ret',
      'prefs_avgjg_ret',
      'prefs_avgjg_Rnonrel_ret',
      'prefs_simp_imp',
      'prefs_pair_imp',
      'prefs_avgjg_imp',
    ],
    prefs: [
      'runid',
      'num_q',
      'prefs_num_prefs_poss',
      'prefs_num_prefs_ful',
      'prefs_num_prefs_ful_ret',
      'prefs_simp',
      'prefs_pair',
      'prefs_avgjg',
    ],
    qrels_jg: ['runid', 'num_q', 'map_avgjg', 'P_avgjg', 'Rprec_mult_avgjg'],
  }),
)

/** trec_eval 9.0.8 lacks these measures. */
export const V10_ONLY_MEASURES: ReadonlySet<string> = new Set(
  TREC_EVAL_MEASURES.filter((m) => m.v10Only).map((m) => m.name),
)

/** The trec_eval names some definition has but the print order above leaves out (none, or the table is wrong). */
export const UNLISTED_TREC_EVAL_NAMES: readonly string[] = [...QRELS_ROWS.keys()].filter(
  (n) => !TREC_EVAL_MEASURES.some((m) => m.name === n),
)
