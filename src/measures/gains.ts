import type { GainSpec } from '../conventions/conventions.js'
import { isIntegerText } from '../io/numbers.js'
import { type JudgedRanking, relevantEnd } from '../rank/judged-ranking.js'

/**
 * Gain of a grade under a {@link GainSpec}; unjudged / not-in-pool (negative) docs gain 0.
 * A map's unlisted grades keep gain = grade (trec_eval `setup_gains`, ir_measures
 * `gains.get(g, g)`).
 */
export function gainOf(spec: GainSpec, grade: number, rel: number): number {
  if (grade < 0) return 0
  switch (spec.kind) {
    case 'grade':
      return grade > 0 ? grade : 0
    case 'exp':
      return 2 ** grade - 1
    case 'binary':
      return grade >= rel ? 1 : 0
    case 'map':
      return Object.hasOwn(spec.gains, grade) ? spec.gains[grade]! : grade
  }
}

/** One gain level of trec_eval's `setup_gains`: a grade, its gain and how many judged docs have it. */
export interface GainLevel {
  readonly grade: number
  gain: number
  readonly count: number
}

/** A `grade=gain` pair as given to trec_eval (`-m ndcg.1=3,2=9`); names need not be integers. */
export interface GainPair {
  readonly name: string
  readonly value: number
}

/**
 * trec_eval's gain table (`gain_init.c`): pairs whose name is an integer first (in order given),
 * then every grade 0 … numRelLevels−1 not listed, with gain = grade; sorted by gain ascending with
 * the difference truncated to an integer (a stable sort, as glibc's).
 */
export function trecGainLevels(q: JudgedRanking, pairs: readonly GainPair[]): GainLevel[] {
  const levels: { grade: number; gain: number; count: number }[] = []
  for (const p of pairs) {
    if (!isIntegerText(p.name)) continue
    levels.push({ grade: Number.parseInt(p.name, 10), gain: p.value, count: 0 })
  }
  const n = levels.length
  for (let i = 0; i < q.numRelLevels; i++) {
    let j = 0
    while (j < n && levels[j]!.grade !== i) j++
    if (j < n) levels[j]!.count = q.relLevels[i] ?? 0
    else levels.push({ grade: i, gain: i, count: q.relLevels[i] ?? 0 })
  }
  return levels.sort((a, b) => Math.trunc(a.gain - b.gain))
}

/** trec_eval's `get_gain`: the gain of a grade in the table, 0 when absent. */
export function trecGain(levels: readonly GainLevel[], grade: number): number {
  for (const l of levels) if (l.grade === grade) return l.gain
  return 0
}

/**
 * {@link trecGain} of every grade −2 … the highest level grade (at most 255), indexed by
 * grade + 2: one lookup per ranked doc instead of a scan of the levels. Built after any change
 * to the levels' gains.
 */
export function trecGainTable(levels: readonly GainLevel[]): Float64Array {
  let max = -1
  for (const l of levels) if (l.grade > max) max = l.grade
  const t = new Float64Array(Math.min(max, 255) + 3)
  for (let k = 0; k < t.length; k++) t[k] = trecGain(levels, k - 2)
  return t
}

/** {@link trecGain} through a {@link trecGainTable} (the scan for grades outside it). */
export function tableGain(t: Float64Array, levels: readonly GainLevel[], grade: number): number {
  const k = grade + 2
  return k >= 0 && k < t.length ? t[k]! : trecGain(levels, grade)
}

/**
 * Where a scan of the ranking for nonzero gains (of the table `t` over `levels`) may stop: past
 * the last doc with a positive grade when grades −2 (unjudged), −1 (not pooled) and 0 gain
 * nothing, else at the end.
 */
export function gainEnd(q: JudgedRanking, t: Float64Array, levels: readonly GainLevel[]): number {
  const zero =
    tableGain(t, levels, -2) === 0 &&
    tableGain(t, levels, -1) === 0 &&
    tableGain(t, levels, 0) === 0
  return zero ? relevantEnd(q, 1) : q.numRet
}

/**
 * Iterates trec_eval's ideal gain sequence: highest gain level first, each repeated `count`
 * times; yields gains until it reaches a non-positive one (then 0 forever).
 */
export class IdealGains {
  private cur: number
  private atLevel = 0
  gain: number
  constructor(private readonly levels: readonly GainLevel[]) {
    this.cur = levels.length - 1
    this.gain = this.cur >= 0 ? levels[this.cur]!.gain : 0
  }
  /** Advance to the next ideal position and return its gain. */
  next(): number {
    this.atLevel++
    while (this.cur >= 0 && this.atLevel > this.levels[this.cur]!.count) {
      this.atLevel = 1
      this.cur--
      this.gain = this.cur >= 0 ? this.levels[this.cur]!.gain : 0
    }
    return this.gain
  }
}

/** A family's `gains` map as trec_eval `grade=gain` pairs (none when absent). */
export function gainPairs(gains: Readonly<Record<number, number>> | undefined): GainPair[] {
  return gains ? Object.entries(gains).map(([name, value]) => ({ name, value })) : []
}
