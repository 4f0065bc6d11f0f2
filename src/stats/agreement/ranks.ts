/**
 * Average ranks (1-based; tied values share the mean of the ranks they span), as
 * `scipy.stats.rankdata(method='average')`. Every rank is an integer or a half-integer, so sums
 * of ranks and of products of centred ranks are exact in float64 for any realistic n.
 */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b)
  const ranks = new Array<number>(values.length)
  let i = 0
  while (i < order.length) {
    let j = i
    while (j + 1 < order.length && values[order[j + 1]!] === values[order[i]!]) j++
    const rank = (i + 1 + (j + 1)) / 2
    for (let t = i; t <= j; t++) ranks[order[t]!] = rank
    i = j + 1
  }
  return ranks
}
