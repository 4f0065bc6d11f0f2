/**
 * trec_eval's default parameters of its cutoff measures (`m_P.c`, `m_success.c`, `m_unjudged.c`,
 * `m_iprec_at_recall.c`): what a bare name such as `P` or `ndcg_cut` expands to, in the drop-in
 * and in `evaluate` alike.
 */

/** Cutoffs of `P`, `recall`, `map_cut`, `ndcg_cut`, `relative_P`, `P_avgjg`. */
export const TREC_EVAL_CUTOFFS: readonly number[] = [5, 10, 15, 20, 30, 100, 200, 500, 1000]

/** Cutoffs of `success`. */
export const TREC_EVAL_SUCCESS_CUTOFFS: readonly number[] = [1, 5, 10]

/** Cutoffs of `unj` (trec_eval 10). */
export const TREC_EVAL_UNJ_CUTOFFS: readonly number[] = [5, 10, 20]

/** Recall points of `iprec_at_recall` and `11pt_avg`. */
export const TREC_EVAL_RECALL_POINTS: readonly number[] = [
  0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1,
]

/** Beta of `set_F`. */
export const TREC_EVAL_SET_F_BETA = 1

/** Multiples of R of `Rprec_mult` and `Rprec_mult_avgjg`. */
export const TREC_EVAL_RPREC_MULTIPLES: readonly number[] = [
  0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0,
]

/** Coefficients a, b, c, d of `utility`. */
export const TREC_EVAL_UTILITY: readonly number[] = [1, -1, 0, 0]
