import {
  fulfilledIn,
  type JudgmentGroupCounts,
  type PrefCounts,
  possibleIn,
} from './pref-counts.js'

/**
 * `prefs_avgjg` with the non-relevant docs of each judgment group resized to R
 * (`prefs_avgjg_Rnonrel`, `prefs_avgjg_Rnonrel_ret`):
 *
 *   prefs_avgjg_Rnonrel = (1 / |JG|) Σ_jg ful'_jg / poss'_jg
 *
 * with R = relevant docs (level > 0) and N = non-relevant docs (level 0) of the group (for
 * `_ret`: R = relevant retrieved, N = non-relevant retrieved), so that a topic's weight does not
 * grow with the number of non-relevant docs someone judged (akin to bpref for one group with
 * two levels):
 *
 * - N ≤ R: ful' = fulfilled + R_ret · (R − N), poss' = possible + R_all · (R − N): every relevant
 *   doc gains R − N virtual non-relevant docs below it (R_ret = relevant retrieved docs, R_all =
 *   all relevant docs, for both variants, as trec_eval).
 * - N > R: the preferences are recounted keeping only the first R non-relevant docs in internal
 *   rank order; a kept pair is fulfilled when the preferred doc was retrieved and ranks above.
 *
 * Quirks kept from trec_eval: in the recount of a class-based group, the "non-relevant" docs are
 * the first R of the *last* (lowest-level) class, and that class is also paired with itself; in
 * an array-based group the cut-off for `_ret` still counts R_all + 1 non-relevant docs. A group
 * whose ratio is 0/0 makes the sum NaN, and the query then scores 0.
 */
export function prefsAvgjgRnonrel(c: PrefCounts, scope: 'all' | 'ret'): number {
  let sum = 0
  for (const g of c.groups) {
    const R = scope === 'all' ? g.numRel : g.numRelRet
    const N = scope === 'all' ? g.numNonrel : g.numNonrelRet
    if (R >= N) {
      sum +=
        (fulfilledIn(g, scope) + g.numRelRet * (R - N)) /
        (possibleIn(g, scope) + g.numRel * (R - N))
    } else {
      const { fulfilled, possible } = recount(g, c, scope)
      sum += fulfilled / possible
    }
  }
  return sum > 0 ? sum / c.groups.length : 0
}

/** Preferences of `g` recounted with only the first R non-relevant docs (see above). */
function recount(
  g: JudgmentGroupCounts,
  c: PrefCounts,
  scope: 'all' | 'ret',
): { fulfilled: number; possible: number } {
  const njr = c.numJudgedRet
  let fulfilled = 0
  let notFulfilled = 0
  const count = (better: number, worse: number): void => {
    if (better < worse && better < njr) fulfilled++
    else notFulfilled++
  }
  const prefs = g.prefs
  if (prefs.kind === 'classes') {
    const retrievedOnly = (ranks: readonly number[]): readonly number[] => {
      if (scope === 'all') return ranks
      let k = 0
      while (k < ranks.length && ranks[k]! < njr) k++
      return ranks.slice(0, k)
    }
    const classes = prefs.classes.map((ec) => retrievedOnly(ec.ranks))
    const lowest = prefs.classes[prefs.classes.length - 1]!.ranks
    const kept = retrievedOnly(
      lowest.slice(0, Math.min(lowest.length, scope === 'all' ? g.numRel : g.numRelRet)),
    )
    for (let c1 = 0; c1 < classes.length; c1++) {
      for (let c2 = c1 + 1; c2 < classes.length - 1; c2++)
        for (const r1 of classes[c1]!) for (const r2 of classes[c2]!) count(r1, r2)
    }
    for (const ranks of classes) for (const r1 of ranks) for (const r2 of kept) count(r1, r2)
  } else {
    const { array: a, levels } = prefs
    const n = c.numJudged
    const scan = scope === 'all' ? n : njr
    let seen = 0
    let firstDiscarded = 0
    for (; firstDiscarded < scan; firstDiscarded++) {
      if (levels[firstDiscarded] === 0 && ++seen === g.numRel + 1) break
    }
    const dropped = (i: number): boolean => i >= firstDiscarded && levels[i] === 0
    const limit = scope === 'all' ? n : njr
    for (let i = 0; i < limit; i++) {
      if (dropped(i)) continue
      for (let j = 0; j < limit; j++) if (a[i * n + j] && !dropped(j)) count(i, j)
    }
  }
  return { fulfilled, possible: fulfilled + notFulfilled }
}
