/**
 * METEOR exactly as NLTK 3.8's `nltk.translate.meteor_score` (Lavie & Agarwal 2007 form; not
 * Meteor 1.5), reference first as `single_meteor_score(reference, hypothesis)`:
 *
 * 1. lowercase every token; enumerate both lists.
 * 2. exact stage: for hypothesis positions from last to first, match the last still-unmatched
 *    reference token equal to it;
 * 3. stem stage: Porter-stem the remaining tokens (both sides; the stems are what the next stage
 *    sees) and match greedily the same way;
 * 4. WordNet stage: for the remaining hypothesis stems from last to first, match the last
 *    remaining reference stem in syn(h) ∪ {h} (see `wordnet.ts`);
 * 5. m = matches, P = m/|hyp|, R = m/|ref|, Fmean = P·R/(α·P + (1−α)·R);
 *    chunks = runs of matches (sorted by hypothesis index) adjacent on both sides;
 *    penalty = γ·(chunks/m)^β, score = (1 − penalty)·Fmean; 0 when m, |hyp| or |ref| is 0.
 *
 * Several references: the maximum over them (`meteor_score`); none is an error. Defaults α = 0.9,
 * β = 3, γ = 0.5. `(chunks/m)^β` is correctly rounded (`power.ts`), as CPython's `**` is.
 */
import { TextsimItemError } from './errors.js'
import { porterStem, type Stemmer } from './porter.js'
import { powCorrectlyRounded } from './power.js'
import type { WordNet } from './wordnet.js'

/** METEOR's parameters. */
export interface MeteorParams {
  readonly alpha: number
  readonly beta: number
  readonly gamma: number
}

/** NLTK's defaults: α = 0.9, β = 3, γ = 0.5. */
export const NLTK_METEOR_PARAMS: MeteorParams = { alpha: 0.9, beta: 3, gamma: 0.5 }

/** Something that answers METEOR's synonym question (a {@link WordNet}, or a test double). */
export interface SynonymSource {
  synonyms(word: string): ReadonlySet<string>
}

/** One reference's METEOR with its alignment. */
export interface MeteorDetail {
  readonly score: number
  readonly hypLen: number
  readonly refLen: number
  /** [hypothesis index, reference index], sorted by hypothesis index. */
  readonly matches: readonly (readonly [number, number])[]
  /** Chunks of the alignment; 0 when there is no match. */
  readonly chunks: number
}

/** Options of the METEOR functions. */
export interface MeteorOptions {
  /** Synonym source; normally the bundled WordNet 3.0 (`loadWordNet()`). */
  readonly wordnet: SynonymSource
  readonly params?: Partial<MeteorParams>
  /** Default NLTK's Porter stemmer. */
  readonly stemmer?: Stemmer
  /** Default `toLowerCase` (Python `str.lower`). */
  readonly preprocess?: (token: string) => string
  /**
   * Largest |hypothesis| × |reference| aligned (NLTK's greedy matching scans all pairs); a bigger
   * pair throws {@link TextsimItemError} instead of running for hours. Default 25,000,000.
   */
  readonly maxAlignCells?: number
}

type Enum = [number, string][]

/** NLTK `_match_enums`: greedy right-to-left equal-token matching; removes the matched pairs. */
function matchEnums(hyp: Enum, ref: Enum, matches: [number, number][]): void {
  for (let i = hyp.length - 1; i >= 0; i--) {
    for (let j = ref.length - 1; j >= 0; j--) {
      if (hyp[i]![1] === ref[j]![1]) {
        matches.push([hyp[i]![0], ref[j]![0]])
        hyp.splice(i, 1)
        ref.splice(j, 1)
        break
      }
    }
  }
}

/** NLTK `_count_chunks` (1 for an empty alignment, as NLTK; callers report 0). */
export function countChunks(matches: readonly (readonly [number, number])[]): number {
  let chunks = 1
  for (let i = 0; i < matches.length - 1; i++) {
    const a = matches[i]!
    const b = matches[i + 1]!
    if (!(b[0] === a[0] + 1 && b[1] === a[1] + 1)) chunks++
  }
  return chunks
}

/** NLTK `_enum_align_words`: exact, then stem, then WordNet matches, sorted by hypothesis index. */
export function meteorAlign(
  referenceTokens: readonly string[],
  hypothesisTokens: readonly string[],
  options: MeteorOptions,
): [number, number][] {
  const pre = options.preprocess ?? ((t: string) => t.toLowerCase())
  const stem = options.stemmer ?? porterStem
  const max = options.maxAlignCells ?? 25_000_000
  if (hypothesisTokens.length * referenceTokens.length > max) {
    throw new TextsimItemError({
      code: 'alignment_too_large',
      hypothesis: hypothesisTokens.length,
      reference: referenceTokens.length,
      limit: max,
    })
  }
  let hyp: Enum = hypothesisTokens.map((t, i) => [i, pre(t)])
  let ref: Enum = referenceTokens.map((t, i) => [i, pre(t)])
  const matches: [number, number][] = []
  matchEnums(hyp, ref, matches)
  hyp = hyp.map(([i, w]) => [i, stem(w)])
  ref = ref.map(([i, w]) => [i, stem(w)])
  matchEnums(hyp, ref, matches)
  for (let i = hyp.length - 1; i >= 0; i--) {
    const h = hyp[i]![1]
    const syn = options.wordnet.synonyms(h)
    for (let j = ref.length - 1; j >= 0; j--) {
      const r = ref[j]![1]
      if (r === h || syn.has(r)) {
        matches.push([hyp[i]![0], ref[j]![0]])
        hyp.splice(i, 1)
        ref.splice(j, 1)
        break
      }
    }
  }
  // Python's sort is stable; hypothesis indices are distinct anyway.
  return matches.sort((a, b) => a[0] - b[0])
}

/** NLTK `single_meteor_score(reference, hypothesis)` with the alignment. */
export function singleMeteor(
  referenceTokens: readonly string[],
  hypothesisTokens: readonly string[],
  options: MeteorOptions,
): MeteorDetail {
  const { alpha, beta, gamma } = { ...NLTK_METEOR_PARAMS, ...options.params }
  const matches = meteorAlign(referenceTokens, hypothesisTokens, options)
  const hypLen = hypothesisTokens.length
  const refLen = referenceTokens.length
  const m = matches.length
  if (m === 0 || hypLen === 0 || refLen === 0)
    return { score: 0, hypLen, refLen, matches, chunks: 0 }
  const precision = m / hypLen
  const recall = m / refLen
  const chunks = countChunks(matches)
  const denominator = alpha * precision + (1 - alpha) * recall
  // Python raises ZeroDivisionError on a zero float divisor and NLTK returns 0.0 then (possible
  // only for α outside [0, 1]).
  if (denominator === 0) return { score: 0, hypLen, refLen, matches, chunks }
  const fmean = (precision * recall) / denominator
  const frag = chunks / m
  const penalty = gamma * powCorrectlyRounded(frag, beta)
  return { score: (1 - penalty) * fmean, hypLen, refLen, matches, chunks }
}

/** {@link meteorScore}'s result. */
export interface MeteorResult {
  /** max over the references (NLTK `meteor_score`). */
  readonly score: number
  /** 0-based index of the first reference reaching the max. */
  readonly reference: number
  readonly perReference: readonly MeteorDetail[]
}

/** A tokenizer for METEOR: text → tokens. */
export type MeteorTokenizer = (text: string) => string[]

/**
 * Python's `str.split()` with no argument: splits on runs of Unicode whitespace as CPython defines
 * it (which includes U+001C–U+001F and U+0085 but not U+FEFF or U+200B), dropping empty pieces.
 */
export function pythonSplit(text: string): string[] {
  return text
    .split(/[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/)
    .filter((t) => t !== '')
}

/** The `split` tokenization of the reference fixtures: `text.lower().split()`. */
export function meteorSplitTokenize(text: string): string[] {
  return pythonSplit(text.toLowerCase())
}

/**
 * NLTK `meteor_score(references, hypothesis)` on texts: both sides tokenized by `tokenize`
 * (default {@link meteorSplitTokenize}), the max over the references. Throws
 * {@link TextsimItemError} when there is no reference (NLTK raises `ValueError`).
 */
export function meteorScore(
  prediction: string,
  references: readonly string[],
  options: MeteorOptions & { readonly tokenize?: MeteorTokenizer },
): MeteorResult {
  if (references.length === 0)
    throw new TextsimItemError({ code: 'no_references', scorer: 'METEOR' })
  const tok = options.tokenize ?? meteorSplitTokenize
  const hyp = tok(prediction)
  return meteorScoreTokens(hyp, references.map(tok), options)
}

/** {@link meteorScore} on tokens. */
export function meteorScoreTokens(
  hypothesis: readonly string[],
  references: readonly (readonly string[])[],
  options: MeteorOptions,
): MeteorResult {
  if (references.length === 0)
    throw new TextsimItemError({ code: 'no_references', scorer: 'METEOR' })
  const perReference = references.map((r) => singleMeteor(r, hypothesis, options))
  let best = 0
  for (let k = 1; k < perReference.length; k++)
    if (perReference[k]!.score > perReference[best]!.score) best = k
  return { score: perReference[best]!.score, reference: best, perReference }
}
