import { fulfilledIn, type PrefCounts, possibleIn } from './pref-counts.js'

/**
 * Number of preferences of a query, summed over its judgment groups jg (summary: sum over
 * queries, not a mean):
 *
 *   prefs_num_prefs_poss    = Σ_jg (possible_ret + possible_imp + possible_notoccur)
 *   prefs_num_prefs_ful     = Σ_jg (fulfilled_ret + fulfilled_imp)
 *   prefs_num_prefs_ful_ret = Σ_jg fulfilled_ret
 *
 * A preference A > B is possible whether or not A and B were retrieved; it is fulfilled when A
 * ranks above B, or A was retrieved and B was not (see `pref-counts.ts`).
 */
export function prefsNumPossible(c: PrefCounts): number {
  let n = 0
  for (const g of c.groups) n += possibleIn(g, 'all')
  return n
}

/** prefs_num_prefs_ful = Σ_jg (fulfilled_ret + fulfilled_imp); see {@link prefsNumPossible}. */
export function prefsNumFulfilled(c: PrefCounts): number {
  let n = 0
  for (const g of c.groups) n += fulfilledIn(g, 'all')
  return n
}

/** prefs_num_prefs_ful_ret = Σ_jg fulfilled_ret (both docs retrieved); see {@link prefsNumPossible}. */
export function prefsNumFulfilledRet(c: PrefCounts): number {
  let n = 0
  for (const g of c.groups) n += fulfilledIn(g, 'ret')
  return n
}
