/**
 * Convention sensitivity: how much each score, and the ranking of the runs, depends on the
 * evaluator's conventions. Every run and measure is recomputed under each alternative of each
 * convention, one convention at a time (the others kept as chosen), with the engine
 * ({@link RunEvaluator}) on the runs as parsed once (scores at full precision; a float32 set
 * narrows them itself). Alternatives that prepare a query alike share one preparation (gains and
 * the no-relevant-query policy reuse the chosen one); missing queries are re-scored from the
 * chosen evaluation (only the missing queries are evaluated again); the qrels are put under each
 * negative-judgments alternative once. Pure: no I/O.
 */
import type {
  Conventions,
  DuplicatePolicy,
  GainSpec,
  NegativeJudgments,
  Ordering,
} from '../conventions/conventions.js'
import { type Measure, measureAggregate } from '../measures/measure.js'
import type { Qrels, Run, RunQuery } from '../model/types.js'
import { applyNegativeJudgments } from '../rank/negative-judgments.js'
import { aggregate } from './aggregate.js'
import {
  type EvaluateOptions,
  type MeasureWithConventions,
  queryColumns,
  type RunEvaluation,
  RunEvaluator,
} from './evaluate.js'

/** The conventions a sensitivity report varies. */
export type SensitivityConvention =
  | 'ordering'
  | 'scorePrecision'
  | 'duplicates'
  | 'unknownDocs'
  | 'missingQueries'
  | 'queriesWithoutRelevant'
  | 'negativeJudgments'
  | 'relevanceLevel'
  | 'gains'

/** Every {@link SensitivityConvention}, in report order. */
export const SENSITIVITY_CONVENTIONS: readonly SensitivityConvention[] = [
  'ordering',
  'scorePrecision',
  'duplicates',
  'unknownDocs',
  'missingQueries',
  'queriesWithoutRelevant',
  'negativeJudgments',
  'relevanceLevel',
  'gains',
]

/** What each convention is called in reports. */
export const SENSITIVITY_LABELS: Readonly<Record<SensitivityConvention, string>> = {
  ordering: 'ordering and tie rule',
  scorePrecision: 'score precision',
  duplicates: 'duplicate docs',
  unknownDocs: 'unknown docs (not in the corpus)',
  missingQueries: 'missing queries',
  queriesWithoutRelevant: 'queries without relevant docs',
  negativeJudgments: 'negative judgments',
  relevanceLevel: 'relevance level',
  gains: 'gains',
}

/** One alternative value of one convention (typed as the {@link Conventions} field it sets). */
export type ConventionAlternative =
  | { readonly convention: 'ordering'; readonly value: Ordering }
  | { readonly convention: 'scorePrecision'; readonly value: Conventions['scorePrecision'] }
  | { readonly convention: 'duplicates'; readonly value: DuplicatePolicy }
  | { readonly convention: 'unknownDocs'; readonly value: Conventions['unknownDocs'] }
  | { readonly convention: 'missingQueries'; readonly value: Conventions['missingQueries'] }
  | {
      readonly convention: 'queriesWithoutRelevant'
      readonly value: Conventions['queriesWithoutRelevant']
    }
  | { readonly convention: 'negativeJudgments'; readonly value: NegativeJudgments }
  | { readonly convention: 'relevanceLevel'; readonly value: number }
  | { readonly convention: 'gains'; readonly value: GainSpec }

/** A convention left out of a report, and why (a preset fixes it, no corpus was given, …). */
export interface SkippedConvention {
  readonly convention: SensitivityConvention
  readonly reason: string
}

const ORDERINGS: readonly Ordering[] = [
  'score-docid-desc',
  'score-docid-asc',
  'score-file-order',
  'rank',
  'file-order',
]
const DUPLICATES: readonly DuplicatePolicy[] = [
  'error',
  'keep-first',
  'keep-last',
  'keep-first-ranked',
  'keep-all',
]
const GAINS: readonly GainSpec[] = [{ kind: 'grade' }, { kind: 'exp' }, { kind: 'binary' }]

/** A convention value as text: `exp`, `map {"0":0,"1":1}`, `2`. */
export function alternativeLabel(a: ConventionAlternative): string {
  if (a.convention === 'gains')
    return a.value.kind === 'map' ? `map ${JSON.stringify(a.value.gains)}` : a.value.kind
  return String(a.value)
}

/** The value of convention `k` in `c`, as an alternative. */
export function chosenValue(c: Conventions, k: SensitivityConvention): ConventionAlternative {
  switch (k) {
    case 'ordering':
      return { convention: k, value: c.ordering }
    case 'scorePrecision':
      return { convention: k, value: c.scorePrecision }
    case 'duplicates':
      return { convention: k, value: c.duplicates }
    case 'unknownDocs':
      return { convention: k, value: c.unknownDocs }
    case 'missingQueries':
      return { convention: k, value: c.missingQueries }
    case 'queriesWithoutRelevant':
      return { convention: k, value: c.queriesWithoutRelevant }
    case 'negativeJudgments':
      return { convention: k, value: c.negativeJudgments }
    case 'relevanceLevel':
      return { convention: k, value: c.relevanceLevel }
    case 'gains':
      return { convention: k, value: c.gains }
  }
}

/** `c` with alternative `a` applied. */
export function applyAlternative(c: Conventions, a: ConventionAlternative): Conventions {
  return { ...c, [a.convention]: a.value }
}

function sameValue(a: ConventionAlternative, b: ConventionAlternative): boolean {
  return a.convention === b.convention && alternativeLabel(a) === alternativeLabel(b)
}

/** Whether the qrels hold a negative judgment (read under `nonrelevant`, which keeps them). */
function hasNegativeJudgment(qrels: Qrels): boolean {
  for (const q of qrels.queries.values()) for (const g of q.grades.values()) if (g < 0) return true
  return false
}

/** What {@link defaultAlternatives} needs to know about the inputs. */
export interface AlternativeContext {
  /** The qrels: the relevance levels tried are the positive grades they hold. */
  readonly qrels: Qrels
  /** Whether a corpus id list was given (else unknown docs cannot be told apart). */
  readonly corpus: boolean
  /** Whether every run keeps its rank column (else the `rank` ordering cannot be tried). */
  readonly ranks: boolean
  /** Conventions fixed by the caller (a preset), with why: no alternative is tried for them. */
  readonly fixed?: readonly SkippedConvention[]
}

/**
 * Every alternative of every applicable convention, other than the chosen value: the five
 * orderings, the other score precision, the five duplicate policies, unknown docs kept or
 * discarded (with a corpus), missing queries skipped or zero, queries without relevant docs zero
 * or undefined, negative judgments nonrelevant or unjudged (when the qrels hold one; `error`
 * rejects them rather than scoring them, so is never tried), each positive grade of the qrels as
 * relevance level, and grade, exp and binary gains; plus the conventions left out and why.
 */
export function defaultAlternatives(
  chosen: Conventions,
  ctx: AlternativeContext,
): { alternatives: ConventionAlternative[]; skipped: SkippedConvention[] } {
  const skipped: SkippedConvention[] = [...(ctx.fixed ?? [])]
  const isFixed = (k: SensitivityConvention): boolean => skipped.some((s) => s.convention === k)
  if (!ctx.corpus && !isFixed('unknownDocs'))
    skipped.push({ convention: 'unknownDocs', reason: 'no corpus id list given' })
  let negative = false
  if (!isFixed('negativeJudgments')) {
    const read = ctx.qrels.negativeJudgments
    if (read?.policy === 'unjudged' && read.dropped > 0)
      skipped.push({
        convention: 'negativeJudgments',
        reason: 'the qrels were read with their negative judgments dropped (unjudged)',
      })
    else if (!hasNegativeJudgment(ctx.qrels))
      skipped.push({
        convention: 'negativeJudgments',
        reason: 'not applicable: no negative judgments',
      })
    else negative = true
  }
  const levels = new Set<number>()
  for (const q of ctx.qrels.queries.values())
    q.relLevels.forEach((n, g) => {
      if (n > 0 && g >= 1) levels.add(g)
    })
  const all: ConventionAlternative[] = [
    ...ORDERINGS.filter((o) => o !== 'rank' || ctx.ranks).map(
      (value): ConventionAlternative => ({ convention: 'ordering', value }),
    ),
    { convention: 'scorePrecision', value: 'float64' },
    { convention: 'scorePrecision', value: 'float32' },
    ...DUPLICATES.map((value): ConventionAlternative => ({ convention: 'duplicates', value })),
    { convention: 'unknownDocs', value: 'keep' },
    { convention: 'unknownDocs', value: 'discard' },
    { convention: 'missingQueries', value: 'skip' },
    { convention: 'missingQueries', value: 'zero' },
    { convention: 'queriesWithoutRelevant', value: 'zero' },
    { convention: 'queriesWithoutRelevant', value: 'undefined' },
    ...(negative
      ? (['nonrelevant', 'unjudged'] as const).map(
          (value): ConventionAlternative => ({ convention: 'negativeJudgments', value }),
        )
      : []),
    ...[...levels]
      .sort((a, b) => a - b)
      .map((value): ConventionAlternative => ({ convention: 'relevanceLevel', value })),
    ...GAINS.map((value): ConventionAlternative => ({ convention: 'gains', value })),
  ]
  const alternatives = all.filter(
    (a) => !isFixed(a.convention) && !sameValue(a, chosenValue(chosen, a.convention)),
  )
  if (negative)
    skipped.push({
      convention: 'negativeJudgments',
      reason:
        "alternative 'error' not tried: it rejects negative judgments rather than scoring them",
    })
  return { alternatives, skipped }
}

/** One run to recompute: its name and the run as parsed (scores at full precision). */
export interface SensitivityRun {
  readonly name: string
  readonly run: Run
  /** What the evaluator needs besides the qrels for this run (a per-query corpus, labels). */
  readonly options?: Pick<EvaluateOptions, 'corpusOf' | 'labels'>
}

/**
 * `run` with its scores narrowed to float32 (`Math.fround`), as reading it with `float32` gives:
 * a run read once at full precision serves both score precisions.
 */
export function narrowRun(run: Run): Run {
  const queries = new Map<string, RunQuery>()
  for (const [id, q] of run.queries) queries.set(id, { ...q, scores: q.scores.map(Math.fround) })
  return { ...run, queries }
}

/** Whether every query of every run keeps its rank column (the `rank` ordering needs it). */
export function runsHaveRanks(runs: readonly SensitivityRun[]): boolean {
  for (const r of runs) for (const q of r.run.queries.values()) if (q.ranks === null) return false
  return true
}

/** The inputs of {@link sensitivity}. */
export interface SensitivityInput {
  readonly qrels: Qrels
  readonly runs: readonly SensitivityRun[]
  /** The measures, each bare (computed under `conventions`) or with conventions of its own. */
  readonly measures: readonly (Measure | MeasureWithConventions)[]
  /** The chosen conventions (of every bare measure). */
  readonly conventions: Conventions
  /** The alternatives to try (see {@link defaultAlternatives}). */
  readonly alternatives: readonly ConventionAlternative[]
  /** Conventions left out, and why (carried into the report). */
  readonly skipped?: readonly SkippedConvention[]
  /** Corpus doc ids (for the unknown-docs alternatives). */
  readonly corpus?: ReadonlySet<string>
  /** Auxiliary judgments (`--aux-qrels`), given to every evaluation (uRBP and the like need them). */
  readonly auxQrels?: Qrels
  /** The declared query set (default: every qrels query). */
  readonly queries?: readonly string[]
  /** Names the report gives the measures (a preset's printed labels); default: canonical names. */
  readonly labels?: readonly string[]
  /** Lines the report carries (e.g. how a preset's own aggregation differs). */
  readonly notes?: readonly string[]
}

/** One run and measure under one alternative. */
export interface SensitivityCell {
  /** The score under the chosen conventions (`null`: undefined). */
  readonly chosen: number | null
  /** The score under the alternative. */
  readonly score: number | null
  /** `score − chosen`, or `null` when either is undefined. */
  readonly delta: number | null
  /** Queries whose value differs (or that are scored under one side only). */
  readonly changedQueries: number
  /** Queries that could not be evaluated under the alternative (e.g. duplicates under `error`). */
  readonly failedQueries: number
  /**
   * `null`: recomputed. `chosen`: the alternative is this measure's own chosen value (a measure
   * with conventions of its own). `measure-fixes`: the measure's parameters fix this convention
   * (`P(rel=2)@5`, `nDCG(gains=…)`); the score is the chosen one.
   */
  readonly note: null | 'chosen' | 'measure-fixes'
}

/** Whether, and how, one measure's ranking of the runs changes under an alternative. */
export interface RankingChange {
  readonly measure: string
  /**
   * Kendall's tau-b between the runs' chosen and alternative scores (runs with both defined);
   * `null` with fewer than two such runs or when either side is all ties.
   */
  readonly tau: number | null
  /** Pairs that trade places: `[ahead under the chosen conventions, ahead under the alternative]`. */
  readonly swaps: readonly (readonly [string, string])[]
}

/** One alternative value of a convention. */
export interface AlternativeResult {
  /** The value as text (`float32`, `keep-first`, `exp`, `2`). */
  readonly value: string
  readonly alternative: ConventionAlternative
  /** `cells[run][measure]`. */
  readonly cells: readonly (readonly SensitivityCell[])[]
  /** One per measure. */
  readonly rankings: readonly RankingChange[]
}

/** One convention and its alternatives. */
export interface ConventionResult {
  readonly convention: SensitivityConvention
  /** What the convention is called (`score precision`). */
  readonly label: string
  /** The chosen value as text; measures with conventions of their own named after it. */
  readonly chosen: string
  readonly alternatives: readonly AlternativeResult[]
}

/** A convention sensitivity report (JSON schema `trecscore.sensitivity/1`). */
export interface SensitivityReport {
  readonly schema: 'trecscore.sensitivity/1'
  readonly runs: readonly string[]
  readonly measures: readonly string[]
  /** `chosen[run][measure]`: the scores under the chosen conventions. */
  readonly chosen: readonly (readonly (number | null)[])[]
  /** Per run: queries that could not be evaluated under the chosen conventions (left out of `chosen`). */
  readonly failedQueries: readonly number[]
  readonly conventions: readonly ConventionResult[]
  /** The conventions (or alternatives) not varied, what each is called, and why. */
  readonly skipped: readonly (SkippedConvention & { readonly label: string })[]
  /** What else a reader must know about these numbers. */
  readonly notes: readonly string[]
}

/** Whether measure `m`'s own parameters fix convention `k`. */
function measureFixes(m: Measure, k: SensitivityConvention): boolean {
  if (k === 'relevanceLevel') return typeof m.given['rel'] === 'number'
  if (k === 'gains') return m.given['gains'] !== undefined || m.given['dcg'] !== undefined
  return false
}

/** Per measure: the values of the queries scored, in id order. */
interface Outcome {
  readonly ids: readonly string[]
  readonly values: readonly (readonly (number | null)[])[]
  readonly scores: readonly (number | null)[]
  readonly failed: number
}

/** Per measure `offset + i` of `e`, for `count` measures. */
function outcomeOf(e: RunEvaluation, offset: number, count: number): Outcome {
  const cols = queryColumns(e)
  const values: (number | null)[][] = []
  const scores: (number | null)[] = []
  for (let i = 0; i < count; i++) {
    const c = cols.column(offset + i)
    const v: (number | null)[] = []
    for (let j = 0; j < cols.queryIds.length; j++) v.push(c.undefinedAt?.[j] ? null : c.values[j]!)
    values.push(v)
    scores.push(e.aggregates[offset + i]!.value)
  }
  return { ids: cols.queryIds, values, scores, failed: e.counts.failedQueries.length }
}

/** Queries whose value of measure `m` differs between two outcomes (ids are sorted in both). */
function changedQueries(a: Outcome, b: Outcome, m: number): number {
  const va = a.values[m]!
  const vb = b.values[m]!
  let i = 0
  let j = 0
  let changed = 0
  while (i < a.ids.length || j < b.ids.length) {
    const ia = a.ids[i]
    const ib = b.ids[j]
    if (ib === undefined || (ia !== undefined && ia < ib)) {
      changed++
      i++
    } else if (ia === undefined || ib < ia) {
      changed++
      j++
    } else {
      if (va[i] !== vb[j]) changed++
      i++
      j++
    }
  }
  return changed
}

/** Kendall's tau-b between two score lists, and the pairs ordered oppositely. */
export function rankingChange(
  measure: string,
  runs: readonly string[],
  chosen: readonly (number | null)[],
  alternative: readonly (number | null)[],
): RankingChange {
  const idx = runs.map((_, i) => i).filter((i) => chosen[i] != null && alternative[i] != null)
  let concordant = 0
  let discordant = 0
  let tiesX = 0
  let tiesY = 0
  let pairs = 0
  const swaps: [string, string][] = []
  for (let p = 0; p < idx.length; p++) {
    for (let q = p + 1; q < idx.length; q++) {
      const i = idx[p]!
      const j = idx[q]!
      const dx = Math.sign(chosen[i]! - chosen[j]!)
      const dy = Math.sign(alternative[i]! - alternative[j]!)
      pairs++
      if (dx === 0) tiesX++
      if (dy === 0) tiesY++
      if (dx * dy > 0) concordant++
      else if (dx * dy < 0) {
        discordant++
        swaps.push(dx > 0 ? [runs[i]!, runs[j]!] : [runs[j]!, runs[i]!])
      }
    }
  }
  const denominator = Math.sqrt((pairs - tiesX) * (pairs - tiesY))
  const tau = denominator > 0 ? (concordant - discordant) / denominator : null
  return { measure, tau, swaps }
}

/** The chosen value of convention `k` as text, with the measures that have their own. */
function chosenLabel(
  k: SensitivityConvention,
  conventions: Conventions,
  own: readonly { name: string; conventions: Conventions }[],
): string {
  const base = alternativeLabel(chosenValue(conventions, k))
  const others = own
    .map((m) => ({ name: m.name, value: alternativeLabel(chosenValue(m.conventions, k)) }))
    .filter((m) => m.value !== base)
  return others.length ? `${base} (${others.map((m) => `${m.name}: ${m.value}`).join(', ')})` : base
}

/**
 * Recompute every run and measure under each alternative, one convention at a time, and report
 * the scores, their deltas from the chosen conventions, how many queries changed, and whether
 * the ranking of the runs changes (Kendall's tau-b, and the pairs that swap).
 *
 * @example
 * const { alternatives, skipped } = defaultAlternatives(conventions, { qrels, corpus: false, ranks: true })
 * const report = sensitivity({ qrels, runs, measures: parseMeasures(['AP']), conventions, alternatives, skipped })
 */
export function sensitivity(input: SensitivityInput): SensitivityReport {
  const { qrels, conventions } = input
  const base = input.measures.map((m) => ('measure' in m ? m : { measure: m, conventions }))
  const names = input.labels ?? base.map((m) => m.measure.name)
  const M = base.length
  const runNames = input.runs.map((r) => r.name)
  // Conventions objects keep their identity (the evaluator groups measures by it).
  const variantCache = new Map<Conventions, Map<string, Conventions>>()
  const variant = (c: Conventions, a: ConventionAlternative | null): Conventions => {
    if (a === null) return c
    let byAlt = variantCache.get(c)
    if (!byAlt) variantCache.set(c, (byAlt = new Map()))
    const key = `${a.convention}=${alternativeLabel(a)}`
    let v = byAlt.get(key)
    if (!v) byAlt.set(key, (v = applyAlternative(c, a)))
    return v
  }
  const measuresFor = (a: ConventionAlternative | null): MeasureWithConventions[] =>
    base.map((m) => ({
      measure: m.measure,
      conventions:
        a && measureFixes(m.measure, a.convention) ? m.conventions : variant(m.conventions, a),
    }))
  // The alternatives that prepare a query as the chosen conventions do (only measures read them)
  // are evaluated with the chosen ones; every other alternative by an evaluator of its own, so a
  // query failing under it (duplicates under `error`) fails there only.
  const alts = input.alternatives.filter((a) => a.convention !== 'missingQueries')
  const shared: ConventionAlternative[] = alts.filter(
    (a) => a.convention === 'gains' || a.convention === 'queriesWithoutRelevant',
  )
  const alone = alts.filter((a) => !shared.includes(a))
  const options = {
    ...(input.corpus ? { corpus: input.corpus } : {}),
    ...(input.queries ? { queries: input.queries } : {}),
    ...(input.auxQrels ? { auxQrels: input.auxQrels } : {}),
  }
  // The qrels under each negative-judgments policy, made once (the evaluator takes them as they are).
  const qrelsByPolicy = new Map<NegativeJudgments, Qrels>()
  const qrelsFor = (c: Conventions): Qrels => {
    let q = qrelsByPolicy.get(c.negativeJudgments)
    if (!q)
      qrelsByPolicy.set(
        c.negativeJudgments,
        (q = applyNegativeJudgments(qrels, c.negativeJudgments)),
      )
    return q
  }
  const evaluateWith = (
    run: SensitivityRun,
    measures: readonly MeasureWithConventions[],
    c: Conventions,
    extra: { readonly queries?: readonly string[] } = {},
  ): RunEvaluation => {
    // A conventions object of the evaluator's own that no measure uses: every set then narrows
    // float32 scores itself (the run is read at full precision).
    const ev = new RunEvaluator(
      qrelsFor(c),
      measures,
      { ...c },
      { runName: run.name, ...options, ...run.options, ...extra },
    )
    if (!extra.queries) for (const q of run.run.queries.values()) ev.add(q)
    return ev.finish(run.run.tag)
  }

  // outcomes.get(alternative)[run]; `null` key = chosen.
  const outcomes = new Map<ConventionAlternative | null, Outcome[]>()
  for (const a of [null, ...input.alternatives]) outcomes.set(a, [])
  for (const run of input.runs) {
    const group = [null, ...shared]
    const e = evaluateWith(
      run,
      group.flatMap((a) => measuresFor(a)),
      conventions,
    )
    group.forEach((a, k) => outcomes.get(a)!.push(outcomeOf(e, k * M, M)))
    // The evaluation's own conventions carry the negative-judgments alternative (every measure
    // of an evaluation shares that convention with it).
    for (const a of alone)
      outcomes
        .get(a)!
        .push(
          outcomeOf(
            evaluateWith(
              run,
              measuresFor(a),
              a.convention === 'negativeJudgments' ? applyAlternative(conventions, a) : conventions,
            ),
            0,
            M,
          ),
        )
    const chosen = outcomes.get(null)!.at(-1)!
    for (const a of input.alternatives) {
      if (a.convention !== 'missingQueries') continue
      outcomes.get(a)!.push(missingOutcome(run, a.value, chosen, e))
    }
  }

  function missingOutcome(
    run: SensitivityRun,
    policy: Conventions['missingQueries'],
    chosen: Outcome,
    chosenEval: RunEvaluation,
  ): Outcome {
    const cols = queryColumns(chosenEval)
    let ids: string[]
    let values: (number | null)[][]
    if (policy === 'skip') {
      const keep = chosen.ids.map((_, j) => !cols.zeroFilled[j])
      ids = chosen.ids.filter((_, j) => keep[j])
      values = chosen.values.map((v) => v.filter((_, j) => keep[j]))
    } else {
      const missing = chosenEval.counts.missingQueries
      const zero = missing.length
        ? outcomeOf(
            evaluateWith(
              run,
              measuresFor({ convention: 'missingQueries', value: 'zero' }),
              applyAlternative(conventions, { convention: 'missingQueries', value: 'zero' }),
              { queries: missing },
            ),
            0,
            M,
          )
        : { ids: [], values: base.map(() => []), scores: [], failed: 0 }
      // Merge the two id-sorted lists.
      ids = []
      values = base.map(() => [])
      let i = 0
      let j = 0
      while (i < chosen.ids.length || j < zero.ids.length) {
        const a = chosen.ids[i]
        const b = zero.ids[j]
        const fromChosen = b === undefined || (a !== undefined && a < b)
        ids.push(fromChosen ? a! : b!)
        for (let m = 0; m < M; m++)
          values[m]!.push(fromChosen ? chosen.values[m]![i]! : zero.values[m]![j]!)
        if (fromChosen) i++
        else j++
      }
    }
    const scores = base.map(
      (m, k) => aggregate(m.measure.name, measureAggregate(m.measure), values[k]!).value,
    )
    return { ids, values, scores, failed: chosen.failed }
  }

  const chosen = outcomes.get(null)!
  const conventionResults: ConventionResult[] = []
  for (const k of SENSITIVITY_CONVENTIONS) {
    const list = input.alternatives.filter((a) => a.convention === k)
    if (!list.length) continue
    conventionResults.push({
      convention: k,
      label: SENSITIVITY_LABELS[k],
      chosen: chosenLabel(
        k,
        conventions,
        base.map((m, i) => ({ name: names[i]!, conventions: m.conventions })),
      ),
      alternatives: list.map((a): AlternativeResult => {
        const outs = outcomes.get(a)!
        const cells = input.runs.map((_, r) =>
          base.map((m, i): SensitivityCell => {
            const c = chosen[r]!.scores[i] ?? null
            const note = measureFixes(m.measure, k)
              ? 'measure-fixes'
              : sameValue(a, chosenValue(m.conventions, k))
                ? 'chosen'
                : null
            const s = note ? c : (outs[r]!.scores[i] ?? null)
            return {
              chosen: c,
              score: s,
              delta: c === null || s === null ? null : s - c,
              changedQueries: note ? 0 : changedQueries(chosen[r]!, outs[r]!, i),
              failedQueries: note ? chosen[r]!.failed : outs[r]!.failed,
              note,
            }
          }),
        )
        return {
          value: alternativeLabel(a),
          alternative: a,
          cells,
          rankings: names.map((measure, i) =>
            rankingChange(
              measure,
              runNames,
              cells.map((row) => row[i]!.chosen),
              cells.map((row) => row[i]!.score),
            ),
          ),
        }
      }),
    })
  }
  return {
    schema: 'trecscore.sensitivity/1',
    runs: runNames,
    measures: names,
    chosen: chosen.map((o) => o.scores),
    failedQueries: chosen.map((o) => o.failed),
    conventions: conventionResults,
    skipped: (input.skipped ?? []).map((s) => ({ ...s, label: SENSITIVITY_LABELS[s.convention] })),
    notes: input.notes ?? [],
  }
}
