import { fulfilledIn, type PrefCounts, type PrefScope, possibleIn } from './pref-counts.js'

/**
 * Simple preference ratio (`prefs_simp`, `prefs_simp_ret`, `prefs_simp_imp`):
 *
 *   prefs_simp = Σ_jg fulfilled_jg / Σ_jg possible_jg
 *
 * over every preference (`all`: a pair with neither doc retrieved counts as a failure), only
 * pairs of retrieved docs (`ret`), or pairs with at least one retrieved doc (`imp`). A doc pair
 * judged by several groups counts once per group, so conflicting groups cap the score below 1.
 * 0 when no preference is possible.
 */
export function prefsSimp(c: PrefCounts, scope: PrefScope): number {
  let fulfilled = 0
  let possible = 0
  for (const g of c.groups) {
    fulfilled += fulfilledIn(g, scope)
    possible += possibleIn(g, scope)
  }
  return possible ? fulfilled / possible : 0
}
