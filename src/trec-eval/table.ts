/**
 * trec_eval's measure table (`measures.c`): names, parameter kinds, defaults, how each value is
 * printed and averaged, in trec_eval's fixed print order. The formulas live in `src/measures/`.
 */
import { averagePrecision, averagePrecisionAt, logAveragePrecision, setMap } from '../measures/average-precision.js'
import { bpref, logBpref } from '../measures/bpref.js'
import { numNonrelJudgedRet, numRel, numRelRet, numRet } from '../measures/counts.js'
import { binG, gainG } from '../measures/g.js'
import type { GainPair } from '../measures/gains.js'
import { infAP } from '../measures/infap.js'
import type { RecallRounding } from '../conventions/conventions.js'
import { elevenPointAverage, interpolatedPrecision } from '../measures/interpolated-precision.js'
import { relString, unjudgedAt } from '../measures/judged.js'
import { ndcgAt, ndcgFull } from '../measures/ndcg.js'
import { ndcgRel, rNdcg } from '../measures/ndcg-experimental.js'
import { precision, relativePrecision, rPrecision, rPrecisionMult, setPrecision, setRelativePrecision } from '../measures/precision.js'
import { rbp, rbpResidual } from '../measures/rbp.js'
import { recall, setRecall } from '../measures/recall.js'
import { reciprocalRank, success } from '../measures/reciprocal-rank.js'
import { setF } from '../measures/set-f.js'
import { TREC_EVAL_CUTOFFS, TREC_EVAL_RECALL_POINTS, TREC_EVAL_SUCCESS_CUTOFFS, TREC_EVAL_UNJ_CUTOFFS } from '../measures/trec-eval-defaults.js'
import { utility } from '../measures/utility.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import { mapAvgjg, precisionAvgjg, rPrecisionMultAvgjg } from './prefs/avgjg.js'
import { prefsNumFulfilled, prefsNumFulfilledRet, prefsNumPossible } from './prefs/num-prefs.js'
import type { PrefCounts } from './prefs/pref-counts.js'
import { prefsAvgjg } from './prefs/prefs-avgjg.js'
import { prefsAvgjgRnonrel } from './prefs/prefs-avgjg-rnonrel.js'
import { prefsPair } from './prefs/prefs-pair.js'
import { prefsSimp } from './prefs/prefs-simp.js'

/** How a measure's `-m name.params` string is read (trec_eval's `init_meas_*`). */
export type ParamKind = 'none' | 'long-cutoffs' | 'double-cutoffs' | 'double-params' | 'pairs'

/** Parsed parameters of one measure. */
export type TeParams =
  | { readonly kind: 'none' }
  | { readonly kind: 'long-cutoffs'; readonly values: readonly number[]; readonly printable: string | null }
  | { readonly kind: 'double-cutoffs'; readonly values: readonly number[]; readonly printable: string | null }
  | { readonly kind: 'double-params'; readonly values: readonly number[]; readonly printable: string | null }
  | { readonly kind: 'pairs'; readonly pairs: readonly GainPair[]; readonly printable: string | null }

/** Evaluation settings measures read (trec_eval's `EPI`, the parts measures use). */
export interface TeContext {
  readonly collectionSize: number
  readonly recallRounding: RecallRounding
}

/** What every row of the table has. */
interface TeMeasureRow {
  readonly name: string
  readonly params: ParamKind
  /** Default parameter values (cutoffs or params); pairs default to none. */
  readonly defaults?: readonly number[]
  /** Per-query printing: `double` (%6.4f), `long` (%ld), `string` (relstring), or none. */
  readonly perQuery: 'double' | 'long' | 'string' | 'none'
  /** Summary: arithmetic mean, geometric mean of logs, plain sum, number of queries, run tag, none. */
  readonly summary: 'mean' | 'gm' | 'sum' | 'num_q' | 'num_rel' | 'runid' | 'none'
  /** False for measures that never look at the ranking (runid, num_q). */
  readonly usesRanking: boolean
}

/** A measure of the judged ranking of a `-R qrels` file (trec_eval's `form_res_rels`). */
export interface TeMeasure extends TeMeasureRow {
  readonly input?: 'qrels'
  /** Per-query values, one per printed name. */
  compute(q: JudgedRanking, p: TeParams, ctx: TeContext): number[]
  /** Per-query text (relstring only). */
  text?(q: JudgedRanking, p: TeParams): string
}

/** A measure of the preference counts of a `-R prefs` or `-R qrels_prefs` file. */
export interface TePrefsMeasure extends TeMeasureRow {
  readonly input: 'prefs'
  compute(c: PrefCounts, p: TeParams, ctx: TeContext): number[]
}

/** A measure of the judgment groups of a `-R qrels_jg` file (one judged ranking per group). */
export interface TeJgMeasure extends TeMeasureRow {
  readonly input: 'qrels_jg'
  compute(groups: readonly JudgedRanking[], p: TeParams, ctx: TeContext): number[]
}

/** Any row of the table. */
export type TeAnyMeasure = TeMeasure | TePrefsMeasure | TeJgMeasure

const CUTS = TREC_EVAL_CUTOFFS

function values(p: TeParams): readonly number[] {
  return p.kind === 'long-cutoffs' || p.kind === 'double-cutoffs' || p.kind === 'double-params' ? p.values : []
}
function pairs(p: TeParams): readonly GainPair[] {
  return p.kind === 'pairs' ? p.pairs : []
}
function pParam(p: TeParams): number {
  let v = 0.9
  for (const pr of pairs(p)) if (pr.name === 'p') v = pr.value
  return v
}

const single = (f: (q: JudgedRanking, p: TeParams, ctx: TeContext) => number) => (q: JudgedRanking, p: TeParams, ctx: TeContext) => [f(q, p, ctx)]

/** The qrels measures up to trec_eval's preference measures, in print order. */
const QRELS_MEASURES: readonly TeMeasure[] = [
  { name: 'runid', params: 'none', perQuery: 'none', summary: 'runid', usesRanking: false, compute: () => [0] },
  { name: 'num_q', params: 'none', perQuery: 'none', summary: 'num_q', usesRanking: false, compute: () => [1] },
  { name: 'num_ret', params: 'none', perQuery: 'long', summary: 'sum', usesRanking: true, compute: single(numRet) },
  { name: 'num_rel', params: 'none', perQuery: 'long', summary: 'num_rel', usesRanking: true, compute: single((q) => numRel(q)) },
  { name: 'num_rel_ret', params: 'none', perQuery: 'long', summary: 'sum', usesRanking: true, compute: single((q) => numRelRet(q)) },
  { name: 'map', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => averagePrecision(q)) },
  { name: 'gm_map', params: 'none', perQuery: 'none', summary: 'gm', usesRanking: true, compute: single((q) => logAveragePrecision(q)) },
  { name: 'Rprec', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => rPrecision(q)) },
  { name: 'bpref', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => bpref(q)) },
  { name: 'recip_rank', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => reciprocalRank(q)) },
  {
    name: 'iprec_at_recall',
    params: 'double-cutoffs',
    defaults: TREC_EVAL_RECALL_POINTS,
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    compute: (q, p, ctx) => interpolatedPrecision(q, values(p), ctx.recallRounding),
  },
  { name: 'P', params: 'long-cutoffs', defaults: CUTS, perQuery: 'double', summary: 'mean', usesRanking: true, compute: (q, p) => precision(q, values(p)) },
  {
    name: 'relstring',
    params: 'double-params',
    defaults: [10],
    perQuery: 'string',
    summary: 'none',
    usesRanking: true,
    compute: () => [0],
    text: (q, p) => relString(q, Math.trunc(values(p)[0] ?? 10)),
  },
  { name: 'recall', params: 'long-cutoffs', defaults: CUTS, perQuery: 'double', summary: 'mean', usesRanking: true, compute: (q, p) => recall(q, values(p)) },
  { name: 'infAP', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => infAP(q)) },
  { name: 'gm_bpref', params: 'none', perQuery: 'none', summary: 'gm', usesRanking: true, compute: single((q) => logBpref(q)) },
  {
    name: 'Rprec_mult',
    params: 'double-cutoffs',
    defaults: [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0],
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    compute: (q, p) => rPrecisionMult(q, values(p)),
  },
  {
    name: 'utility',
    params: 'double-params',
    defaults: [1, -1, 0, 0],
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    compute: single((q, p, ctx) => utility(q, values(p), ctx.collectionSize)),
  },
  {
    name: '11pt_avg',
    params: 'double-params',
    defaults: TREC_EVAL_RECALL_POINTS,
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    compute: single((q, p, ctx) => elevenPointAverage(q, values(p), ctx.recallRounding)),
  },
  { name: 'binG', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => binG(q)) },
  { name: 'G', params: 'pairs', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => gainG(q, pairs(p))) },
  { name: 'dcg', params: 'pairs', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => ndcgFull(q, pairs(p)).dcg) },
  { name: 'ideal_dcg', params: 'pairs', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => ndcgFull(q, pairs(p)).idealDcg) },
  { name: 'ndcg', params: 'pairs', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => ndcgFull(q, pairs(p)).ndcg) },
  { name: 'ndcg_rel', params: 'pairs', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => ndcgRel(q, pairs(p))) },
  { name: 'Rndcg', params: 'pairs', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => rNdcg(q, pairs(p))) },
  { name: 'ndcg_cut', params: 'long-cutoffs', defaults: CUTS, perQuery: 'double', summary: 'mean', usesRanking: true, compute: (q, p) => ndcgAt(q, values(p)) },
  { name: 'map_cut', params: 'long-cutoffs', defaults: CUTS, perQuery: 'double', summary: 'mean', usesRanking: true, compute: (q, p) => averagePrecisionAt(q, values(p)) },
  { name: 'relative_P', params: 'long-cutoffs', defaults: CUTS, perQuery: 'double', summary: 'mean', usesRanking: true, compute: (q, p) => relativePrecision(q, values(p)) },
  { name: 'success', params: 'long-cutoffs', defaults: TREC_EVAL_SUCCESS_CUTOFFS, perQuery: 'double', summary: 'mean', usesRanking: true, compute: (q, p) => success(q, values(p)) },
  { name: 'set_P', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => setPrecision(q)) },
  { name: 'set_relative_P', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => setRelativePrecision(q)) },
  { name: 'set_recall', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => setRecall(q)) },
  { name: 'set_map', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q) => setMap(q)) },
  { name: 'set_F', params: 'double-params', defaults: [1], perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => setF(q, values(p)[0] ?? 1)) },
  { name: 'num_nonrel_judged_ret', params: 'none', perQuery: 'long', summary: 'sum', usesRanking: true, compute: single(numNonrelJudgedRet) },
]

const prefsCount = (name: string, f: (c: PrefCounts) => number): TePrefsMeasure => ({
  name,
  input: 'prefs',
  params: 'none',
  perQuery: 'long',
  summary: 'sum',
  usesRanking: true,
  compute: (c) => [f(c)],
})
const prefsRatio = (name: string, f: (c: PrefCounts) => number): TePrefsMeasure => ({
  name,
  input: 'prefs',
  params: 'none',
  perQuery: 'double',
  summary: 'mean',
  usesRanking: true,
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
  { name: 'map_avgjg', input: 'qrels_jg', params: 'none', perQuery: 'double', summary: 'mean', usesRanking: true, compute: (g) => [mapAvgjg(g)] },
  { name: 'P_avgjg', input: 'qrels_jg', params: 'long-cutoffs', defaults: CUTS, perQuery: 'double', summary: 'mean', usesRanking: true, compute: (g, p) => precisionAvgjg(g, values(p)) },
  {
    name: 'Rprec_mult_avgjg',
    input: 'qrels_jg',
    params: 'double-cutoffs',
    defaults: [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0],
    perQuery: 'double',
    summary: 'mean',
    usesRanking: true,
    compute: (g, p) => rPrecisionMultAvgjg(g, values(p)),
  },
]

/** The v10 measures trec_eval lists after the judgment-group ones, in print order. */
const LATE_QRELS_MEASURES: readonly TeMeasure[] = [
  { name: 'rbp', params: 'pairs', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => rbp(q, pParam(p), pairs(p))) },
  { name: 'rbp_resid', params: 'pairs', perQuery: 'double', summary: 'mean', usesRanking: true, compute: single((q, p) => rbpResidual(q, pParam(p))) },
  { name: 'unj', params: 'long-cutoffs', defaults: TREC_EVAL_UNJ_CUTOFFS, perQuery: 'double', summary: 'mean', usesRanking: true, compute: (q, p) => unjudgedAt(q, values(p)) },
]

/** Every measure, in trec_eval 10's print order (its `yaap` is not provided). */
export const TREC_EVAL_MEASURES: readonly TeAnyMeasure[] = [...QRELS_MEASURES, ...PREFS_MEASURES, ...JG_MEASURES, ...LATE_QRELS_MEASURES]

/** trec_eval's measure nicknames (`-m official`, `-m all_trec`, …); a Map, so `constructor` is no nickname. */
export const TREC_EVAL_NICKNAMES: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
  official: ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank', 'iprec_at_recall', 'P'],
  set: ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'utility', 'set_P', 'set_recall', 'set_relative_P', 'set_map', 'set_F'],
  all_trec: [
    'runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank', 'iprec_at_recall', 'P',
    'relstring', 'recall', 'unj', 'rbp', 'rbp_resid', 'infAP', 'gm_bpref', 'utility', '11pt_avg', 'ndcg', 'relative_P', 'Rprec_mult',
    'success', 'map_cut', 'ndcg_cut', 'ndcg_rel', 'Rndcg', 'binG', 'G', 'set_P', 'set_recall', 'set_relative_P', 'set_map', 'set_F',
    'num_nonrel_judged_ret',
  ],
  all_prefs: [
    'runid', 'num_q', 'prefs_num_prefs_poss', 'prefs_num_prefs_ful', 'prefs_num_prefs_ful_ret', 'prefs_simp', 'prefs_pair',
    'prefs_avgjg', 'prefs_avgjg_Rnonrel', 'prefs_simp_ret', 'prefs_pair_ret', 'prefs_avgjg_ret', 'prefs_avgjg_Rnonrel_ret',
    'prefs_simp_imp', 'prefs_pair_imp', 'prefs_avgjg_imp',
  ],
  prefs: ['runid', 'num_q', 'prefs_num_prefs_poss', 'prefs_num_prefs_ful', 'prefs_num_prefs_ful_ret', 'prefs_simp', 'prefs_pair', 'prefs_avgjg'],
  qrels_jg: ['runid', 'num_q', 'map_avgjg', 'P_avgjg', 'Rprec_mult_avgjg'],
}))

/** trec_eval 9.0.8 lacks these measures. */
export const V10_ONLY_MEASURES: ReadonlySet<string> = new Set(['unj', 'rbp', 'rbp_resid'])
