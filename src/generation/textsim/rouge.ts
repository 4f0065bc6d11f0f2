/**
 * ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum exactly as Google's rouge-score 0.1.2
 * (`RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], use_stemmer)`), reference ("target")
 * first as its `score(target, prediction)`.
 *
 * - rougeN (n = 1, 2): n-gram multisets G_t, G_p of the whole-text tokens;
 *   hits = Σ_{g ∈ G_t} min(#_t g, #_p g); P = hits / max(|G_p|, 1), R = hits / max(|G_t|, 1),
 *   F as below (so 0 when a side has fewer than n tokens), as `rouge_scorer._score_ngrams`.
 * - rougeL: L = |LCS(target, prediction)| over whole-text tokens; P = L/|prediction|,
 *   R = L/|target|, F = 2·P·R/(P+R) (0 when P+R = 0); all 0 when either side has no token.
 * - rougeLsum (summary-level, ROUGE paper §3.2): sentences split on "\n". For each target
 *   sentence r, the union of one LCS (as indices into r) with every prediction sentence; each
 *   union token counts a hit while both global token counts (target, prediction) are positive,
 *   decrementing both. P = hits/n, R = hits/m (n, m total prediction/target tokens), F as above.
 *   The LCS backtrack is rouge-score's: on a match step both, else step the prediction index when
 *   T[i][j−1] > T[i−1][j], else the target index.
 * - Several references (`score_multi`): per rouge type independently, the whole score of the
 *   reference with the highest F, the first one on ties (`np.argmax`); no reference raises.
 */
import { TextsimItemError } from './errors.js'
import { porterStem, type Stemmer } from './porter.js'
import { rougeSentences, rougeTokenize } from './rouge-tokenize.js'

/** Precision, recall and F1 of one rouge type. */
export interface RougeScore {
  readonly precision: number
  readonly recall: number
  readonly fmeasure: number
}

/** The rouge types computed here. */
export const ROUGE_TYPES = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const
/** A rouge type computed here. */
export type RougeType = (typeof ROUGE_TYPES)[number]

/** Every rouge type for one (reference, prediction) pair. */
export type RougePair = Readonly<Record<RougeType, RougeScore>>

/** A `score_multi` pick: the chosen reference's score and its 0-based index. */
export interface RougeBest extends RougeScore {
  readonly reference: number
}

/** Options of {@link rougeScores}. */
export interface RougeOptions {
  /** `true` for NLTK's Porter stemmer (rouge-score `use_stemmer=True`), or a stemmer; default none. */
  readonly stemmer?: boolean | Stemmer
  /**
   * Largest LCS table (target tokens × prediction tokens, per sentence pair for rougeLsum, per
   * text for rougeL) computed; a bigger one throws {@link TextsimItemError} instead of using
   * unbounded time and memory. Default 25,000,000 (e.g. 5,000 × 5,000 tokens).
   */
  readonly maxLcsCells?: number
}

/** {@link rougeScores}' result: every reference's scores and the `score_multi` choice. */
export interface RougeResult {
  readonly perReference: readonly RougePair[]
  readonly best: Readonly<Record<RougeType, RougeBest>>
}

const ZERO: RougeScore = { precision: 0, recall: 0, fmeasure: 0 }
const DEFAULT_MAX_CELLS = 25_000_000

/** rouge-score `scoring.fmeasure`: 2PR/(P+R), written in that order for identical doubles. */
export function rougeF(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
}

function checkCells(a: number, b: number, max: number): void {
  if (a * b > max) {
    throw new TextsimItemError({ code: 'lcs_too_large', rows: a, columns: b, limit: max })
  }
}

/** LCS length of two token lists (two rolling rows). */
export function lcsLength(
  a: readonly string[],
  b: readonly string[],
  maxCells = DEFAULT_MAX_CELLS,
): number {
  if (a.length === 0 || b.length === 0) return 0
  checkCells(a.length, b.length, maxCells)
  let prev = new Int32Array(b.length + 1)
  let cur = new Int32Array(b.length + 1)
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1]
    for (let j = 1; j <= b.length; j++) {
      cur[j] = ai === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!)
    }
    const t = prev
    prev = cur
    cur = t
  }
  return prev[b.length]!
}

/**
 * One LCS of `ref` and `can` as ascending indices into `ref`, backtracked as rouge-score's
 * `_backtrack_norec` does (ties step up in the reference).
 */
export function lcsIndices(
  ref: readonly string[],
  can: readonly string[],
  maxCells = DEFAULT_MAX_CELLS,
): number[] {
  const n = ref.length
  const m = can.length
  if (n === 0 || m === 0) return []
  checkCells(n, m, maxCells)
  const w = m + 1
  const t = new Int32Array((n + 1) * w)
  for (let i = 1; i <= n; i++) {
    const ri = ref[i - 1]
    for (let j = 1; j <= m; j++) {
      t[i * w + j] =
        ri === can[j - 1]
          ? t[(i - 1) * w + j - 1]! + 1
          : Math.max(t[(i - 1) * w + j]!, t[i * w + j - 1]!)
    }
  }
  const out: number[] = []
  let i = n
  let j = m
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.push(i - 1)
      i--
      j--
    } else if (t[i * w + j - 1]! > t[(i - 1) * w + j]!) {
      j--
    } else {
      i--
    }
  }
  return out.reverse()
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const c = new Map<string, number>()
  // Tokens are [a-z0-9]+ (rouge-score's tokenizer), so a space cannot occur inside one.
  for (let i = 0; i + n <= tokens.length; i++) {
    const g = n === 1 ? tokens[i]! : tokens.slice(i, i + n).join(' ')
    c.set(g, (c.get(g) ?? 0) + 1)
  }
  return c
}

/** rougeN of token lists, reference first (`rouge_scorer._score_ngrams`). */
export function rougeNTokens(
  target: readonly string[],
  prediction: readonly string[],
  n: number,
): RougeScore {
  const t = ngramCounts(target, n)
  const p = ngramCounts(prediction, n)
  let hits = 0
  for (const [g, ct] of t) hits += Math.min(ct, p.get(g) ?? 0)
  const precision = hits / Math.max(prediction.length - n + 1, 1)
  const recall = hits / Math.max(target.length - n + 1, 1)
  return { precision, recall, fmeasure: rougeF(precision, recall) }
}

/** rougeL of token lists, reference first. */
export function rougeLTokens(
  target: readonly string[],
  prediction: readonly string[],
  maxCells = DEFAULT_MAX_CELLS,
): RougeScore {
  if (target.length === 0 || prediction.length === 0) return ZERO
  const l = lcsLength(target, prediction, maxCells)
  const precision = l / prediction.length
  const recall = l / target.length
  return { precision, recall, fmeasure: rougeF(precision, recall) }
}

function counts(sentences: readonly (readonly string[])[]): Map<string, number> {
  const c = new Map<string, number>()
  for (const s of sentences) for (const t of s) c.set(t, (c.get(t) ?? 0) + 1)
  return c
}

/** rougeLsum of tokenized sentences, reference first. */
export function rougeLsumTokens(
  target: readonly (readonly string[])[],
  prediction: readonly (readonly string[])[],
  maxCells = DEFAULT_MAX_CELLS,
): RougeScore {
  if (target.length === 0 || prediction.length === 0) return ZERO
  const m = target.reduce((s, x) => s + x.length, 0)
  const n = prediction.reduce((s, x) => s + x.length, 0)
  if (m === 0 || n === 0) return ZERO
  const cntR = counts(target)
  const cntC = counts(prediction)
  let hits = 0
  for (const r of target) {
    const union = new Set<number>()
    for (const c of prediction) for (const i of lcsIndices(r, c, maxCells)) union.add(i)
    for (const i of [...union].sort((a, b) => a - b)) {
      const t = r[i]!
      const cc = cntC.get(t) ?? 0
      const cr = cntR.get(t) ?? 0
      if (cc > 0 && cr > 0) {
        hits++
        cntC.set(t, cc - 1)
        cntR.set(t, cr - 1)
      }
    }
  }
  const recall = hits / m
  const precision = hits / n
  return { precision, recall, fmeasure: rougeF(precision, recall) }
}

function stemmerOf(option: boolean | Stemmer | undefined): Stemmer | undefined {
  if (option === true) return porterStem
  if (option === false || option === undefined) return undefined
  return option
}

/** rouge-score `RougeScorer(['rouge1','rouge2','rougeL','rougeLsum'], use_stemmer).score(reference, prediction)`. */
export function rougePair(
  reference: string,
  prediction: string,
  options: RougeOptions = {},
): RougePair {
  const stem = stemmerOf(options.stemmer)
  const max = options.maxLcsCells ?? DEFAULT_MAX_CELLS
  const sents = (text: string): string[][] =>
    rougeSentences(text).map((s) => rougeTokenize(s, stem))
  const ref = rougeTokenize(reference, stem)
  const pred = rougeTokenize(prediction, stem)
  return {
    rouge1: rougeNTokens(ref, pred, 1),
    rouge2: rougeNTokens(ref, pred, 2),
    rougeL: rougeLTokens(ref, pred, max),
    rougeLsum: rougeLsumTokens(sents(reference), sents(prediction), max),
  }
}

/**
 * Every rouge type of `prediction` against every reference, and rouge-score's
 * `score_multi` pick per type (highest F, first on ties). Throws {@link TextsimItemError} for an
 * empty reference list (rouge-score raises `ValueError`) or a text over `maxLcsCells`.
 */
export function rougeScores(
  prediction: string,
  references: readonly string[],
  options: RougeOptions = {},
): RougeResult {
  if (references.length === 0)
    throw new TextsimItemError({ code: 'no_references', scorer: 'ROUGE score_multi' })
  const perReference = references.map((r) => rougePair(r, prediction, options))
  const pick = (type: RougeType): RougeBest => {
    let best = 0
    for (let k = 1; k < perReference.length; k++)
      if (perReference[k]![type].fmeasure > perReference[best]![type].fmeasure) best = k
    return { ...perReference[best]![type], reference: best }
  }
  return {
    perReference,
    best: {
      rouge1: pick('rouge1'),
      rouge2: pick('rouge2'),
      rougeL: pick('rougeL'),
      rougeLsum: pick('rougeLsum'),
    },
  }
}
