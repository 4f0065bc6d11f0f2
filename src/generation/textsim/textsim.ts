/**
 * The `textsim` pair file and its scoring, pure: one JSON object per line,
 * `{"id", "prediction", "references": [...]}` (other fields ignored, so the conformance files
 * work as input), scored per line by the requested metrics:
 * ROUGE as rouge-score's `score_multi` (best reference per type), METEOR as NLTK's
 * `meteor_score` (max over references), BERTScore by the `bertscore` module's scorer.
 */
import { wordIssue } from '../../errors/format-issue.js'
import type { TextsimFieldProblem, TextsimIssue } from '../../errors/textsim-issues.js'

export type { TextsimFieldProblem, TextsimIssue } from '../../errors/textsim-issues.js'

import { numpyPairwiseSum } from '../../stats/agreement/numpy-sum.js'
import { TextsimItemError } from './errors.js'
import {
  type MeteorParams,
  type MeteorTokenizer,
  meteorScore,
  type SynonymSource,
} from './meteor.js'
import { ROUGE_TYPES, type RougeBest, rougeScores } from './rouge.js'

/** The metrics `textsim` computes. */
export const TEXTSIM_METRICS = [
  'rouge1',
  'rouge2',
  'rougeL',
  'rougeLsum',
  'meteor',
  'bertscore',
] as const
/** A metric `textsim` computes. */
export type TextsimMetric = (typeof TEXTSIM_METRICS)[number]

/** One input pair. */
export interface TextsimPair {
  readonly id: string
  readonly prediction: string
  readonly references: readonly string[]
}

/** Why a line was not scored. */
/** A parsed line: the pair, or the problem with it. */
export type TextsimLine =
  | { readonly ok: true; readonly pair: TextsimPair; readonly file: string; readonly line: number }
  | { readonly ok: false; readonly issue: TextsimIssue }

const describe = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : `a ${typeof v}`

/**
 * Parses one line of a pair file (already decoded). Reports, at once, every problem of the line:
 * invalid JSON, not an object, `id` not a string, `prediction` not a string, `references` not an
 * array of strings, or an empty `references` (the reference libraries raise on it).
 */
export function parseTextsimLine(text: string, file: string, line: number): TextsimLine {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return {
      ok: false,
      issue: { file, line, code: 'invalid_json', error: (e as Error).message, text },
    }
  }
  return parseTextsimValue(value, text, file, line)
}

/** {@link parseTextsimLine} for a line already JSON-parsed (`text` is the line, for issues). */
export function parseTextsimValue(
  value: unknown,
  text: string,
  file: string,
  line: number,
): TextsimLine {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      issue: {
        file,
        line,
        code: 'not_an_object',
        found: describe(value),
        text,
      },
    }
  }
  const o = value as Record<string, unknown>
  const problems: TextsimFieldProblem[] = []
  const id = typeof o.id === 'string' ? o.id : undefined
  if (!('id' in o)) problems.push({ code: 'missing', field: 'id' })
  else if (id === undefined)
    problems.push({ code: 'wrong_type', field: 'id', found: describe(o.id) })
  if (!('prediction' in o)) problems.push({ code: 'missing', field: 'prediction' })
  else if (typeof o.prediction !== 'string')
    problems.push({ code: 'wrong_type', field: 'prediction', found: describe(o.prediction) })
  if (!('references' in o)) problems.push({ code: 'missing', field: 'references' })
  else if (!Array.isArray(o.references))
    problems.push({ code: 'wrong_type', field: 'references', found: describe(o.references) })
  else if (o.references.length === 0) problems.push({ code: 'no_references' })
  else {
    const bad = o.references.findIndex((r) => typeof r !== 'string')
    if (bad >= 0)
      problems.push({
        code: 'reference_not_a_string',
        index: bad,
        found: describe(o.references[bad]),
      })
  }
  if (problems.length > 0) {
    return {
      ok: false,
      issue: {
        file,
        line,
        ...(id !== undefined ? { id } : {}),
        code: 'bad_fields',
        problems,
        text,
      },
    }
  }
  return {
    ok: true,
    pair: { id: id!, prediction: o.prediction as string, references: o.references as string[] },
    file,
    line,
  }
}

/** One line of `textsim` output. Scores of metrics not asked for are absent. */
export interface TextsimRow {
  readonly id: string
  readonly rouge1?: RougeBest
  readonly rouge2?: RougeBest
  readonly rougeL?: RougeBest
  readonly rougeLsum?: RougeBest
  readonly meteor?: { readonly score: number; readonly reference: number }
  /** bert_score's multi-reference rule: each of P, R, F1 is its maximum over the references. */
  readonly bertscore?: { readonly precision: number; readonly recall: number; readonly f1: number }
}

/** A BERTScore scorer as `textsim` uses it (the `bertscore` module's `BertScorer`). */
export interface TextsimBertScorer {
  score(
    predictions: string[],
    references: string[][],
  ): Promise<{ precision: number; recall: number; f1: number }[]>
}

/** How to score: the metrics and everything they need. */
export interface TextsimConfig {
  readonly metrics: readonly TextsimMetric[]
  /** ROUGE with NLTK's Porter stemmer (`use_stemmer=True`). */
  readonly stemmer: boolean
  /** METEOR tokenizer (default `text.lower().split()`). */
  readonly tokenize?: MeteorTokenizer
  readonly meteorParams?: Partial<MeteorParams>
  /** Required for `meteor`. */
  readonly wordnet?: SynonymSource
  /** Required for `bertscore`. */
  readonly bertScorer?: TextsimBertScorer
}

/** The synchronous part of a pair's scores (ROUGE and METEOR). Throws `TextsimItemError`. */
export function scoreTextsimPair(pair: TextsimPair, config: TextsimConfig): TextsimRow {
  const row: { -readonly [K in keyof TextsimRow]: TextsimRow[K] } = { id: pair.id }
  const rouge = ROUGE_TYPES.filter((t) => config.metrics.includes(t))
  if (rouge.length > 0) {
    const r = rougeScores(pair.prediction, pair.references, { stemmer: config.stemmer })
    for (const t of rouge) row[t] = r.best[t]
  }
  if (config.metrics.includes('meteor')) {
    if (config.wordnet === undefined)
      throw new Error('scoreTextsimPair: meteor needs config.wordnet')
    const m = meteorScore(pair.prediction, pair.references, {
      wordnet: config.wordnet,
      ...(config.tokenize !== undefined ? { tokenize: config.tokenize } : {}),
      ...(config.meteorParams !== undefined ? { params: config.meteorParams } : {}),
    })
    row.meteor = { score: m.score, reference: m.reference }
  }
  return row
}

/** {@link scoreTextsim}'s result: rows of the scored pairs and issues of the others, in input order. */
export interface TextsimScored {
  readonly rows: readonly TextsimRow[]
  readonly issues: readonly TextsimIssue[]
}

/**
 * Scores a batch of pairs: ROUGE/METEOR per pair, BERTScore for the whole batch (the scorer
 * gets every reference of a prediction and applies bert_score's multi-reference rule).
 * A pair that cannot be scored (e.g. a text over the LCS limit) becomes an issue at `at(pair)`.
 */
export async function scoreTextsim(
  pairs: readonly TextsimPair[],
  config: TextsimConfig,
  at: (pair: TextsimPair, index: number) => { file: string; line: number } = (_p, i) => ({
    file: '<pairs>',
    line: i + 1,
  }),
): Promise<TextsimScored> {
  const rows: (TextsimRow | undefined)[] = []
  const issues: TextsimIssue[] = []
  pairs.forEach((pair, i) => {
    try {
      rows.push(scoreTextsimPair(pair, config))
    } catch (e) {
      if (!(e instanceof TextsimItemError)) throw e
      rows.push(undefined)
      issues.push({
        ...at(pair, i),
        id: pair.id,
        code: 'cannot_score',
        problem: e.problem,
        text: pair.prediction,
      })
    }
  })
  if (config.metrics.includes('bertscore')) {
    if (config.bertScorer === undefined)
      throw new Error('scoreTextsim: bertscore needs config.bertScorer')
    const idx = rows.flatMap((row, i) => (row === undefined ? [] : [i]))
    const scores =
      idx.length > 0
        ? await config.bertScorer.score(
            idx.map((i) => pairs[i]!.prediction),
            idx.map((i) => [...pairs[i]!.references]),
          )
        : []
    idx.forEach((i, n) => {
      const s = scores[n]!
      rows[i] = { ...rows[i]!, bertscore: { precision: s.precision, recall: s.recall, f1: s.f1 } }
    })
  }
  return { rows: rows.filter((r): r is TextsimRow => r !== undefined), issues }
}

/** One issue as a line for people: `file:line: id "x": problem: "text…"`. */
export function formatTextsimIssue(issue: TextsimIssue, max = 120): string {
  const clipped =
    issue.text.length > max
      ? `${issue.text.slice(0, max)}… (${issue.text.length} characters)`
      : issue.text
  const id = issue.id !== undefined ? ` id ${JSON.stringify(issue.id)}:` : ''
  return `${issue.file}:${issue.line}:${id} ${wordIssue('textsim', issue)}: ${JSON.stringify(clipped)}`
}

/** One line of a {@link TextsimSummary}: the mean of one component of one metric. */
export interface TextsimMean {
  readonly metric: TextsimMetric
  /** `precision`, `recall`, `fmeasure` (ROUGE), `score` (METEOR), `precision`, `recall`, `f1` (BERTScore). */
  readonly component: string
  /** Mean over the scored pairs with a value; `null` when none has one. */
  readonly mean: number | null
  /** Pairs in the mean. */
  readonly n: number
  /** Scored pairs left out of the mean because their value is undefined (BERTScore NaN). */
  readonly undefined: number
}

/** `textsim`'s summary: per metric component, the mean over the scored pairs. */
export interface TextsimSummary {
  readonly schema: 'trecscore.textsim-summary/1'
  readonly scored: number
  /** Lines that could not be scored (reported as issues; not in any mean). */
  readonly notScored: number
  readonly means: readonly TextsimMean[]
}

const COMPONENTS: Readonly<Record<TextsimMetric, readonly string[]>> = {
  rouge1: ['precision', 'recall', 'fmeasure'],
  rouge2: ['precision', 'recall', 'fmeasure'],
  rougeL: ['precision', 'recall', 'fmeasure'],
  rougeLsum: ['precision', 'recall', 'fmeasure'],
  meteor: ['score'],
  bertscore: ['precision', 'recall', 'f1'],
}

function component(row: TextsimRow, metric: TextsimMetric, c: string): number | null | undefined {
  const v = row[metric] as Readonly<Record<string, number | null>> | undefined
  return v === undefined ? undefined : v[c]
}

/**
 * The mean of every component of every metric over the scored rows, in the order of `metrics`.
 * Means are numpy's `np.mean` of the per-pair values as written in the JSONL (pairwise
 * summation, then one division), so they match a Python mean of the same file bit for bit.
 * A NaN BERTScore value (written as null) is left out and counted in `undefined`.
 */
export function summarizeTextsim(
  rows: readonly TextsimRow[],
  metrics: readonly TextsimMetric[],
  notScored = 0,
): TextsimSummary {
  const means: TextsimMean[] = []
  for (const metric of metrics) {
    for (const c of COMPONENTS[metric]) {
      const values: number[] = []
      let undef = 0
      for (const row of rows) {
        const v = component(row, metric, c)
        if (typeof v === 'number' && !Number.isNaN(v)) values.push(v)
        else undef++
      }
      means.push({
        metric,
        component: c,
        mean: values.length > 0 ? numpyPairwiseSum(values) / values.length : null,
        n: values.length,
        undefined: undef,
      })
    }
  }
  return { schema: 'trecscore.textsim-summary/1', scored: rows.length, notScored, means }
}
