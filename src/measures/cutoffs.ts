/**
 * Evaluate a prefix statistic at several cutoffs in one pass: `valueAt(count, k)` is called for
 * each cutoff k with `count` = the statistic over the top min(k, numRet) docs. Cutoffs need not
 * be sorted; results come back in the order given.
 */
export function atCutoffs(
  cutoffs: readonly number[],
  numRet: number,
  prefix: (upTo: number) => number,
  valueAt: (stat: number, k: number) => number,
): number[] {
  return cutoffs.map((k) => valueAt(prefix(Math.min(k, numRet)), k))
}

/** Running prefix values `out[i]` = f over the first i docs (length numRet + 1, out[0] = 0). */
export function prefixCounts(grades: Int32Array, numRet: number, rel: number): Int32Array {
  const out = new Int32Array(numRet + 1)
  let c = 0
  for (let i = 0; i < numRet; i++) {
    if (grades[i]! >= rel) c++
    out[i + 1] = c
  }
  return out
}
