/**
 * Drawing the spot-validation sample and assigning it to raters. Pure: the same pool, size,
 * seed, share and raters give the same sample and the same assignments on every platform.
 *
 * - Pool order: items sorted by (submission, domain, turn id), byte order.
 * - Strata: (domain, turn-depth bucket T1..T4, T5+, T?, submission), sorted the same way.
 * - Allocation: proportional with largest remainders (Hamilton): stratum s of N_s items gets
 *   ⌊n·N_s/N⌋, and the n − Σ⌊·⌋ left over go one each to the largest fractional parts (ties:
 *   stratum order).
 * - Within a stratum: a Fisher–Yates shuffle of its items (one mulberry32 stream, `createRng(seed)`,
 *   strata in order), the first k kept; then the whole sample is shuffled by the same stream, so
 *   a rater's queue mixes strata.
 * - Double annotation: the first round(share·n) items of the shuffled sample go to two raters.
 * - Assignment: in sample order each item goes to the least-loaded rater (two distinct ones for
 *   a double item), ties by the raters' order; slot 1 is the first of the two.
 */
import { createRng, depthBucket } from '../../internal.js'

/** What sampling needs of a judged item. */
export interface PoolItem {
  readonly id: string
  readonly submission: string
  readonly domain: string | null
  readonly turnId: string
  readonly turnDepth: number | null
}

export interface SampleDesign {
  readonly size: number
  readonly seed: number
  /** Share of the sample given to two raters, in [0, 1]. */
  readonly doubleShare: number
  /** Rater user ids, in the order that breaks ties. */
  readonly raters: readonly string[]
}

export interface Stratum {
  readonly domain: string | null
  readonly depth: string
  readonly submission: string
  readonly available: number
  readonly drawn: number
}

export interface Assignment {
  readonly itemId: string
  readonly raterId: string
  /** 1, or 2 for the second rater of a double-annotated item. */
  readonly slot: 1 | 2
  /** The rater's order, 0-based. */
  readonly position: number
}

export interface DrawnSample {
  readonly strata: readonly Stratum[]
  /** The sampled item ids in sample order, with whether each is double-annotated. */
  readonly items: readonly { readonly itemId: string; readonly double: boolean }[]
  readonly assignments: readonly Assignment[]
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Why a design cannot be drawn from a pool of `n` items, or null. */
export function designProblem(design: SampleDesign, poolSize: number): string | null {
  const { size, seed, doubleShare, raters } = design
  if (poolSize === 0) return 'there are no judged items to sample from'
  if (!Number.isInteger(size) || size < 1) return 'the sample size must be a whole number ≥ 1'
  if (size > poolSize) return `the sample size ${size} is larger than the ${poolSize} judged items`
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    return 'the seed must be a whole number from 0 to 4294967295'
  if (!(doubleShare >= 0 && doubleShare <= 1))
    return 'the double-annotated share must be between 0 and 1'
  if (raters.length === 0) return 'invite at least one rater before drawing a sample'
  if (Math.round(doubleShare * size) > 0 && raters.length < 2)
    return 'double annotation needs at least two raters'
  return null
}

/** Draw and assign a sample (see the module comment); throws RangeError on a bad design. */
export function drawSample(pool: readonly PoolItem[], design: SampleDesign): DrawnSample {
  const problem = designProblem(design, pool.length)
  if (problem) throw new RangeError(problem)
  const rng = createRng(design.seed)
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = rng.int(i + 1)
      ;[xs[i], xs[j]] = [xs[j]!, xs[i]!]
    }
    return xs
  }
  const sorted = [...pool].sort(
    (a, b) =>
      cmp(a.submission, b.submission) ||
      cmp(a.domain ?? '', b.domain ?? '') ||
      cmp(a.turnId, b.turnId) ||
      cmp(a.id, b.id),
  )
  const groups = new Map<string, { key: string[]; items: PoolItem[] }>()
  for (const it of sorted) {
    const key = [it.domain ?? '', depthBucket(it.turnDepth), it.submission]
    const k = JSON.stringify(key)
    let g = groups.get(k)
    if (!g) groups.set(k, (g = { key, items: [] }))
    g.items.push(it)
  }
  const strata = [...groups.values()].sort(
    (a, b) => cmp(a.key[0]!, b.key[0]!) || cmp(a.key[1]!, b.key[1]!) || cmp(a.key[2]!, b.key[2]!),
  )
  const n = design.size
  const total = pool.length
  const quota = strata.map((s) => Math.floor((n * s.items.length) / total))
  let left = n - quota.reduce((a, b) => a + b, 0)
  const byRemainder = strata
    .map((s, i) => ({ i, r: (n * s.items.length) % total }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
  for (const { i } of byRemainder) {
    if (left === 0) break
    quota[i]!++
    left--
  }
  const chosen: PoolItem[] = []
  strata.forEach((s, i) => {
    chosen.push(...shuffle([...s.items]).slice(0, quota[i]!))
  })
  const order = shuffle(chosen)
  const doubles = Math.round(design.doubleShare * n)
  const load = new Map(design.raters.map((r) => [r, 0]))
  const rank = new Map(design.raters.map((r, i) => [r, i]))
  const leastLoaded = (): string[] =>
    [...design.raters].sort((a, b) => load.get(a)! - load.get(b)! || rank.get(a)! - rank.get(b)!)
  const assignments: Assignment[] = []
  const items = order.map((it, i) => {
    const double = i < doubles
    const to = leastLoaded().slice(0, double ? 2 : 1)
    to.forEach((raterId, k) => {
      assignments.push({
        itemId: it.id,
        raterId,
        slot: k === 0 ? 1 : 2,
        position: load.get(raterId)!,
      })
      load.set(raterId, load.get(raterId)! + 1)
    })
    return { itemId: it.id, double }
  })
  return {
    strata: strata.map((s, i) => ({
      domain: s.items[0]!.domain,
      depth: s.key[1]!,
      submission: s.key[2]!,
      available: s.items.length,
      drawn: quota[i]!,
    })),
    items,
    assignments,
  }
}
