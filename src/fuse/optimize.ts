/**
 * Grid search of wsum weights on training judgments (`fuse --optimize MEASURE --train-qrels`).
 * The grid is every weight vector on the simplex with the given step (weights ≥ 0, summing to 1:
 * for 2 runs and step 0.1, (0,1), (0.1,0.9), …, (1,0)). Each vector fuses the runs, the fused run
 * is evaluated on the training qrels, and the best mean wins; equal means keep the vector found
 * first (the first run's weight counts down from 1). Tuning on the qrels you then report on is
 * leakage: the caller must say so.
 */
import type { Conventions } from '../conventions/conventions.js'
import { InputError } from '../errors/trecscore-error.js'
import { evaluate } from '../evaluate/evaluate.js'
import type { Qrels, Run } from '../model/types.js'
import { fusedToRun } from './format.js'
import { fuse } from './fuse.js'
import type { FuseOptions } from './types.js'

/** Options of {@link optimizeWeights}. */
export interface OptimizeOptions {
  /** The measure to maximise (one name, e.g. `nDCG@10`). */
  readonly measure: string
  /** Grid step; 1/step must be a whole number. @default 0.1 */
  readonly step?: number
  /** Conventions of the training evaluation. @default trec_eval 10's */
  readonly conventions?: Partial<Conventions>
  /** Largest grid searched. @default 5000 */
  readonly maxCandidates?: number
}

/** The outcome of {@link optimizeWeights}. */
export interface OptimizeResult {
  readonly measure: string
  readonly weights: readonly number[]
  /** Mean of the measure on the training qrels with the chosen weights (`null`: undefined everywhere). */
  readonly value: number | null
  /** Every weight vector tried, with its training mean, in search order. */
  readonly tried: readonly { readonly weights: readonly number[]; readonly value: number | null }[]
}

/** Every composition of `total` into `parts` non-negative integers, first part counting down. */
function compositions(total: number, parts: number): number[][] {
  if (parts === 1) return [[total]]
  const out: number[][] = []
  for (let first = total; first >= 0; first--)
    for (const rest of compositions(total - first, parts - 1)) out.push([first, ...rest])
  return out
}

function binomial(n: number, k: number): number {
  let r = 1
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i
  return Math.round(r)
}

/**
 * Find the wsum weights that maximise a measure on training qrels.
 * Throws {@link InputError} for a bad step or a grid larger than `maxCandidates`.
 */
export function optimizeWeights(
  runs: readonly Run[],
  qrels: Qrels,
  fuseOptions: Omit<FuseOptions, 'method' | 'weights'>,
  options: OptimizeOptions,
): OptimizeResult {
  const step = options.step ?? 0.1
  const total = Math.round(1 / step)
  if (!(step > 0 && step <= 1) || Math.abs(total * step - 1) > 1e-9)
    throw new InputError([
      {
        code: 'bad_argument',
        option: '--step',
        found: String(step),
        expected: 'a step in (0, 1] that divides 1 (0.1, 0.05, 0.25, …)',
      },
    ])
  const size = binomial(total + runs.length - 1, runs.length - 1)
  const max = options.maxCandidates ?? 5000
  if (size > max)
    throw new InputError([
      {
        code: 'bad_argument',
        option: '--step',
        found: String(step),
        expected: `a coarser step: ${runs.length} runs give ${size} weight vectors, more than ${max}`,
      },
    ])
  const tried: { weights: number[]; value: number | null }[] = []
  let best: { weights: number[]; value: number | null } | null = null
  for (const parts of compositions(total, runs.length)) {
    const weights = parts.map((p) => p / total)
    const fused = fuse(runs, { ...fuseOptions, method: 'wsum', weights })
    const value = evaluate(qrels, fusedToRun(fused), [options.measure], options.conventions ?? {})
      .aggregates[0]!.value
    const entry = { weights, value }
    tried.push(entry)
    if (value !== null && (best === null || best.value === null || value > best.value)) best = entry
  }
  const chosen = best ?? tried[0]!
  return { measure: options.measure, weights: chosen.weights, value: chosen.value, tried }
}
