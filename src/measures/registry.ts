/**
 * Every measure `evaluate` knows, in ir_measures' vocabulary. Formulas live in the family files;
 * this table only wires names and parameters to them. Lists in help, docs and errors come from
 * here.
 */
import type { GainSpec } from '../conventions/conventions.js'
import { numRelAt, type JudgedRanking } from '../rank/judged-ranking.js'
import { averagePrecision, averagePrecisionAt, setMap } from './average-precision.js'
import { bpref } from './bpref.js'
import { numNonrelJudgedRet, numRel, numRelRet, numRet } from './counts.js'
import { infAP } from './infap.js'
import { interpolatedPrecision } from './interpolated-precision.js'
import { judgedAt, unjudgedAt } from './judged.js'
import { defineMeasure, type MeasureSpec, type ParamSpec, type ResolvedParams, type MeasureContext } from './measure.js'
import { ndcgAt } from './ndcg.js'
import { precision, rPrecision, setPrecision } from './precision.js'
import { rbp } from './rbp.js'
import { completeness, recall, setRecall } from './recall.js'
import { reciprocalRank, success } from './reciprocal-rank.js'
import { setF } from './set-f.js'
import { NOT_POOLED, UNJUDGED } from '../model/types.js'

const REL: ParamSpec = { type: 'int', doc: 'lowest grade counted as relevant (default: the conventions’ relevance level, trec_eval -l)' }
const JUDGED_ONLY: ParamSpec = { type: 'bool', default: false, doc: 'drop unjudged documents from the ranking first (trec_eval -J)' }

function rel(p: ResolvedParams, ctx: MeasureContext): number {
  const r = p.values['rel']
  return typeof r === 'number' ? r : ctx.conventions.relevanceLevel
}

/** The ranking without unjudged docs (absent from qrels or negative), ranks compacted. */
export function judgedOnly(q: JudgedRanking): JudgedRanking {
  const kept = q.grades.filter((g) => g !== NOT_POOLED && g !== UNJUDGED)
  return { ...q, grades: kept, numRet: kept.length, numNonpool: 0, numUnjudgedInPool: 0 }
}

function view(q: JudgedRanking, p: ResolvedParams): JudgedRanking {
  return p.values['judged_only'] === true ? judgedOnly(q) : q
}

function cut(p: ResolvedParams): number {
  return p.at ?? Infinity
}

const SPECS: readonly MeasureSpec[] = [
  defineMeasure({
    name: 'P',
    aliases: ['Precision'],
    summary: 'Precision at k: share of the top k documents that are relevant.',
    formula: 'P@k = |{d in top k : grade(d) >= rel}| / k  (divides by k even when fewer were retrieved)',
    params: { rel: REL, judged_only: JUDGED_ONLY },
    at: 'cutoff',
    atRequired: true,
    aggregate: 'mean',
    needsRelevant: false,
    compute: (q, p, ctx) => precision(view(q, p), [cut(p)], rel(p, ctx))[0]!,
  }),
  defineMeasure({
    name: 'R',
    aliases: ['Recall'],
    summary: 'Recall at k: share of the relevant documents found in the top k (all retrieved without @k).',
    formula: 'R@k = |{d in top k : grade(d) >= rel}| / R',
    params: { rel: REL, judged_only: JUDGED_ONLY },
    at: 'cutoff',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => (p.at === undefined ? setRecall(view(q, p), rel(p, ctx)) : recall(view(q, p), [p.at], rel(p, ctx))[0]!),
  }),
  defineMeasure({
    name: 'AP',
    aliases: ['MAP'],
    summary: 'Average precision (cut at k when given), divided by all relevant documents R.',
    formula: 'AP@k = (1/R) * sum over relevant d at rank r <= k of P@r',
    params: { rel: REL, judged_only: JUDGED_ONLY },
    at: 'cutoff',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => (p.at === undefined ? averagePrecision(view(q, p), rel(p, ctx)) : averagePrecisionAt(view(q, p), [p.at], rel(p, ctx))[0]!),
  }),
  defineMeasure({
    name: 'GMAP',
    aliases: ['gm_map'],
    summary: 'Geometric mean of average precision over queries (per-query AP floored at 0.00001).',
    formula: 'GMAP = exp(mean over queries of log(max(AP, 0.00001)))',
    params: { rel: REL },
    at: 'none',
    atRequired: false,
    aggregate: 'gmean',
    needsRelevant: true,
    compute: (q, p, ctx) => averagePrecision(q, rel(p, ctx)),
  }),
  defineMeasure({
    name: 'RR',
    aliases: ['MRR'],
    summary: 'Reciprocal rank of the first relevant document (within the top k when given).',
    formula: 'RR@k = 1 / rank of the first d with grade(d) >= rel, 0 if none in the top k',
    params: { rel: REL, judged_only: JUDGED_ONLY },
    at: 'cutoff',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => reciprocalRank(view(q, p), rel(p, ctx), cut(p)),
  }),
  defineMeasure({
    name: 'nDCG',
    aliases: ['NDCG'],
    summary: 'Normalised discounted cumulative gain (at k when given).',
    formula: 'nDCG@k = sum_{i<=k} gain(d_i)/log2(i+1) / IDCG@k; gain = grade (log2), 2^grade-1 (exp-log2), or the gains map',
    params: {
      dcg: { type: 'string', choices: ['log2', 'exp-log2'], default: 'log2', doc: 'gain of a grade g: g (log2) or 2^g - 1 (exp-log2); with log2 (the default) the conventions’ gains apply' },
      gains: { type: 'gains', doc: 'explicit grade:gain map, e.g. {0:0,1:1,2:3,3:7}; overrides dcg' },
      judged_only: JUDGED_ONLY,
    },
    at: 'cutoff',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => {
      const gains = p.values['gains']
      const dcg = p.values['dcg'] ?? 'log2'
      let spec: GainSpec
      if (gains && typeof gains === 'object') spec = { kind: 'map', gains }
      else if (dcg === 'exp-log2') spec = { kind: 'exp' }
      else spec = ctx.conventions.gains
      return ndcgAt(view(q, p), [cut(p)], spec, ctx.conventions.relevanceLevel)[0]!
    },
  }),
  defineMeasure({
    name: 'Rprec',
    aliases: ['RPrec'],
    summary: 'Precision at rank R, the number of relevant documents.',
    formula: 'Rprec = |relevant in top R| / R',
    params: { rel: REL, judged_only: JUDGED_ONLY },
    at: 'none',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => rPrecision(view(q, p), rel(p, ctx)),
  }),
  defineMeasure({
    name: 'Bpref',
    aliases: ['BPref', 'bpref'],
    summary: 'Binary preference: how often judged relevant documents rank above judged non-relevant ones.',
    formula: 'bpref = (1/R) * sum over relevant retrieved r of (1 - min(n_r, R)/min(N, R))',
    params: { rel: REL },
    at: 'none',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => bpref(q, rel(p, ctx)),
  }),
  defineMeasure({
    name: 'infAP',
    aliases: ['InfAP'],
    summary: 'Inferred AP for sampled judgments (Yilmaz & Aslam, CIKM 2006).',
    formula: 'see src/measures/infap.ts',
    params: { rel: REL },
    at: 'none',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => infAP(q, rel(p, ctx)),
  }),
  defineMeasure({
    name: 'Judged',
    aliases: [],
    summary: 'Share of the top k documents that are judged.',
    formula: 'Judged@k = |{d in top k : d judged}| / min(k, n)',
    params: {},
    at: 'cutoff',
    atRequired: true,
    aggregate: 'mean',
    needsRelevant: false,
    compute: (q, p) => judgedAt(q, [cut(p)])[0]!,
  }),
  defineMeasure({
    name: 'Unjudged',
    aliases: ['unj'],
    summary: 'Share of the top k that is unjudged, dividing by k (trec_eval unj.k).',
    formula: 'unj@k = |{d in top k : d unjudged}| / k',
    params: {},
    at: 'cutoff',
    atRequired: true,
    aggregate: 'mean',
    needsRelevant: false,
    compute: (q, p) => unjudgedAt(q, [cut(p)])[0]!,
  }),
  defineMeasure({
    name: 'Success',
    aliases: [],
    summary: '1 when a relevant document is in the top k, else 0.',
    formula: 'Success@k = 1[exists d in top k : grade(d) >= rel]',
    params: { rel: REL, judged_only: JUDGED_ONLY },
    at: 'cutoff',
    atRequired: true,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => success(view(q, p), [cut(p)], rel(p, ctx))[0]!,
  }),
  defineMeasure({
    name: 'Completeness',
    aliases: [],
    summary: '1 when every relevant document is in the top k, else 0.',
    formula: 'Completeness@k = 1[|relevant in top k| = R]',
    params: { rel: REL, judged_only: JUDGED_ONLY },
    at: 'cutoff',
    atRequired: true,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => completeness(view(q, p), [cut(p)], rel(p, ctx))[0]!,
  }),
  defineMeasure({
    name: 'SetF',
    aliases: ['F'],
    summary: 'F-measure of the whole retrieved set (trec_eval set_F: beta not squared).',
    formula: 'F = (beta+1) P R / (beta P + R)',
    params: { beta: { type: 'float', default: 1, range: { min: 0 }, doc: 'weight of recall' }, rel: REL },
    at: 'none',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => setF(q, p.values['beta'] as number, rel(p, ctx)),
  }),
  defineMeasure({
    name: 'SetP',
    aliases: [],
    summary: 'Precision of the whole retrieved set.',
    formula: 'SetP = num_rel_ret / num_ret',
    params: { rel: REL },
    at: 'none',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: false,
    compute: (q, p, ctx) => setPrecision(q, rel(p, ctx)),
  }),
  defineMeasure({
    name: 'SetR',
    aliases: [],
    summary: 'Recall of the whole retrieved set.',
    formula: 'SetR = num_rel_ret / R',
    params: { rel: REL },
    at: 'none',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => setRecall(q, rel(p, ctx)),
  }),
  defineMeasure({
    name: 'SetAP',
    aliases: [],
    summary: 'Set precision times set recall (trec_eval set_map).',
    formula: 'SetAP = num_rel_ret^2 / (num_ret * R)',
    params: {},
    at: 'none',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q) => setMap(q),
  }),
  defineMeasure({
    name: 'IPrec',
    aliases: [],
    summary: 'Interpolated precision at a recall level.',
    formula: 'IPrec@r = max precision at any rank from the c-th relevant retrieved document on; c = lround(r*R) (trec_eval 10) or (long)(r*R + 0.9) (trec_eval 9.0.8), as the conventions say',
    params: {},
    at: 'recall',
    atRequired: true,
    aggregate: 'mean',
    needsRelevant: true,
    compute: (q, p, ctx) => (q.numRet === 0 ? 0 : interpolatedPrecision(q, [p.at!], ctx.conventions.recallRounding)[0]!),
  }),
  defineMeasure({
    name: 'RBP',
    aliases: [],
    summary: 'Rank-biased precision with persistence p (binary gains with rel, else grades scaled to [0,1]).',
    formula: 'RBP = (1-p) * sum_i gain(d_i) * p^(i-1)',
    params: {
      p: { type: 'float', default: 0.8, range: { min: 0, max: 1, maxOpen: true }, doc: 'persistence: the chance of looking at the next document' },
      rel: { type: 'int', doc: 'binary gains: grade >= rel counts 1 (without it, graded gains, whatever the relevance level)' },
    },
    at: 'cutoff',
    atRequired: false,
    aggregate: 'mean',
    needsRelevant: false,
    compute: (q, p) => {
      const pp = p.values['p'] as number
      const r = p.values['rel']
      const k = Math.min(q.numRet, cut(p))
      if (typeof r === 'number') {
        let sum = 0
        let w = 1
        for (let i = 0; i < k; i++) {
          if (q.grades[i]! >= r) sum += w
          w *= pp
        }
        return (1 - pp) * sum
      }
      return rbp(k === q.numRet ? q : { ...q, grades: q.grades.subarray(0, k), numRet: k }, pp)
    },
  }),
  defineMeasure({
    name: 'NumRet',
    aliases: ['num_ret'],
    summary: 'Number of documents retrieved (summed over queries).',
    formula: 'num_ret',
    params: {},
    at: 'none',
    atRequired: false,
    aggregate: 'sum',
    needsRelevant: false,
    compute: (q) => numRet(q),
  }),
  defineMeasure({
    name: 'NumRel',
    aliases: ['num_rel'],
    summary: 'Number of relevant judged documents R (summed over queries).',
    formula: 'R = |{d judged : grade(d) >= rel}|',
    params: { rel: REL },
    at: 'none',
    atRequired: false,
    aggregate: 'sum',
    needsRelevant: false,
    compute: (q, p, ctx) => numRel(q, rel(p, ctx)),
  }),
  defineMeasure({
    name: 'NumRelRet',
    aliases: ['num_rel_ret'],
    summary: 'Number of relevant documents retrieved (summed over queries).',
    formula: 'num_rel_ret = |{d retrieved : grade(d) >= rel}|',
    params: { rel: REL },
    at: 'none',
    atRequired: false,
    aggregate: 'sum',
    needsRelevant: false,
    compute: (q, p, ctx) => numRelRet(q, rel(p, ctx)),
  }),
  defineMeasure({
    name: 'NumNonrelJudgedRet',
    aliases: ['num_nonrel_judged_ret'],
    summary: 'Number of judged non-relevant documents retrieved (summed over queries).',
    formula: 'num_ret - not_in_pool - unjudged - num_rel_ret',
    params: {},
    at: 'none',
    atRequired: false,
    aggregate: 'sum',
    needsRelevant: false,
    compute: (q) => numNonrelJudgedRet(q),
  }),
]

/** All measure families, by canonical name. */
export const MEASURES: ReadonlyMap<string, MeasureSpec> = new Map(SPECS.map((s) => [s.name, s]))

/** Name or alias → family. Lookup is exact first, then case-insensitive. */
export const MEASURE_NAMES: ReadonlyMap<string, MeasureSpec> = new Map(SPECS.flatMap((s) => [[s.name, s] as const, ...s.aliases.map((a) => [a, s] as const)]))

/** Find a family by name or alias (exact, then case-insensitive). */
export function findMeasureSpec(name: string): MeasureSpec | undefined {
  const exact = MEASURE_NAMES.get(name)
  if (exact) return exact
  const lower = name.toLowerCase()
  for (const [n, s] of MEASURE_NAMES) if (n.toLowerCase() === lower) return s
  return undefined
}

/** True when R (at the measure's level) is 0 for this query. */
export function hasNoRelevant(q: JudgedRanking, relLevel: number): boolean {
  return numRelAt(q, relLevel) === 0
}
