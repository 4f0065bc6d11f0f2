import { fulfilledIn, type PrefCounts, type PrefScope, possibleIn } from './pref-counts.js'

/**
 * Preference ratio per judgment group, averaged over groups (`prefs_avgjg`, `_ret`, `_imp`):
 *
 *   prefs_avgjg = (1 / |JG|) Σ_jg fulfilled_jg / possible_jg
 *
 * Every group (typically one user) weighs the same however many preferences it states, unlike
 * `prefs_simp`. A group with no possible preference adds 0 but still counts in |JG|. Scopes as in
 * `prefs_simp`.
 */
export function prefsAvgjg(c: PrefCounts, scope: PrefScope): number {
  let sum = 0
  for (const g of c.groups) {
    const possible = possibleIn(g, scope)
    if (possible) sum += fulfilledIn(g, scope) / possible
  }
  return sum > 0 ? sum / c.groups.length : 0
}
