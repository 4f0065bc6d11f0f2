/**
 * Lexical diagnostics beside the judge (the "in the same report"): per turn ROUGE-L F
 * (rouge-score 0.1.2, Porter stemmer on, as RECOR's `generate_and_evaluate.py`) and METEOR
 * (NLTK 3.8 with the bundled WordNet 3.0, whitespace tokenization, lower-cased) of the answer
 * against the turn's reference. Pure: the WordNet index is passed in.
 *
 * Turns without a reference are skipped (counted); an unanswered target turn scores 0 on both
 * (counted), as the plan scores missing turns. Means are macro over the scored turns, overall,
 * per domain and per turn depth. A text too long to align is skipped and counted, never a crash.
 */
import { meteorScore, type SynonymSource } from '../textsim/meteor.js'
import { rougeScores } from '../textsim/rouge.js'
import { depthBucket } from './aggregate.js'
import type { JudgeItem } from './items.js'

/** One turn's lexical scores. */
export interface LexicalTurn {
  readonly turnId: string
  readonly domain: string | null
  readonly turnDepth: number | null
  readonly rougeL: number
  /** `null` when METEOR was not computed (no WordNet given). */
  readonly meteor: number | null
  readonly unanswered: boolean
}

/** Means of a group of turns. */
export interface LexicalGroup {
  readonly key: string
  readonly turns: number
  readonly rougeL: number | null
  readonly meteor: number | null
}

/** Lexical diagnostics of a set of items. */
export interface LexicalDiagnostics {
  readonly method: string
  readonly all: LexicalGroup
  readonly byDomain: readonly LexicalGroup[]
  readonly byDepth: readonly LexicalGroup[]
  readonly turns: readonly LexicalTurn[]
  /** Answered turns without a reference (not scored). */
  readonly noReference: number
  /** Unanswered turns (scored 0). */
  readonly unanswered: number
  /** Turns skipped because a text was too long to align. */
  readonly tooLong: number
}

function group(key: string, rows: readonly LexicalTurn[]): LexicalGroup {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null)
  const m = rows.map((r) => r.meteor).filter((x): x is number => x !== null)
  return {
    key,
    turns: rows.length,
    rougeL: mean(rows.map((r) => r.rougeL)),
    meteor: rows.length && m.length === rows.length ? mean(m) : null,
  }
}

const DEPTHS = ['T1', 'T2', 'T3', 'T4', 'T5+', 'T?']

/** Score every item with a reference. `wordnet: null` computes ROUGE-L only. */
export function lexicalDiagnostics(
  items: readonly JudgeItem[],
  wordnet: SynonymSource | null,
): LexicalDiagnostics {
  const turns: LexicalTurn[] = []
  let noReference = 0
  let tooLong = 0
  const lower = (t: string) => t.toLowerCase().split(/\s+/).filter(Boolean)
  for (const it of items) {
    const base = { turnId: it.turnId, domain: it.domain, turnDepth: it.turnDepth }
    if (it.answer === null) {
      turns.push({ ...base, rougeL: 0, meteor: wordnet ? 0 : null, unanswered: true })
      continue
    }
    if (!it.reference) {
      noReference++
      continue
    }
    try {
      const rougeL = rougeScores(it.answer, [it.reference], { stemmer: true }).best.rougeL.fmeasure
      const meteor = wordnet
        ? meteorScore(it.answer, [it.reference], { wordnet, tokenize: lower }).score
        : null
      turns.push({ ...base, rougeL, meteor, unanswered: false })
    } catch (e) {
      if ((e as { reason?: string }).reason === 'too_long') tooLong++
      else throw e
    }
  }
  const by = (keyOf: (t: LexicalTurn) => string, order: (a: string, b: string) => number) => {
    const m = new Map<string, LexicalTurn[]>()
    for (const t of turns) m.set(keyOf(t), [...(m.get(keyOf(t)) ?? []), t])
    return [...m.keys()].sort(order).map((k) => group(k, m.get(k)!))
  }
  return {
    method: `ROUGE-L F (rouge-score 0.1.2, Porter stemmer) and ${wordnet ? 'METEOR (NLTK 3.8, WordNet 3.0, lower-cased whitespace tokens)' : 'no METEOR'} of each answer against the turn's reference; unanswered target turns 0; macro over turns`,
    all: group('all', turns),
    byDomain: turns.some((t) => t.domain !== null)
      ? by(
          (t) => t.domain ?? '(none)',
          (a, b) => (a < b ? -1 : a > b ? 1 : 0),
        )
      : [],
    byDepth: by(
      (t) => depthBucket(t.turnDepth),
      (a, b) => DEPTHS.indexOf(a) - DEPTHS.indexOf(b),
    ),
    turns,
    noReference,
    unanswered: turns.filter((t) => t.unanswered).length,
    tooLong,
  }
}
