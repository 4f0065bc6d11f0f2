/**
 * The score columns of a judged track (RETECO 2b/2c), as stored with every score and shown on
 * the board: the judge's overall mean and its five dimensions (normalised means, as `trecscore
 * judge run` reports them), the lexical diagnostics (and BERTScore with a configured model), for 2c the retrieval scores of the
 * submission's run (prefixed `retrieval `), and the judge's accounting: tokens, cost, cache hits,
 * and invalid and missing judgments, in total and per dimension (never averaged in silently).
 */
import { JUDGE_DIMENSIONS } from '../../internal.js'

/** The judge's mean over the dimension means (`overall` of the judge report). */
export const OVERALL = 'overall'
export const ROUGE_L = 'ROUGE-L'
export const METEOR = 'METEOR'
/** BERTScore F1 against the references (only when the track configures a model). */
export const BERTSCORE = 'BERTScore'
export const RETRIEVAL_PREFIX = 'retrieval '

/** The accounting columns, in board order. */
export const ACCOUNTING = {
  tokensIn: 'judge tokens in',
  tokensOut: 'judge tokens out',
  cost: 'judge cost',
  calls: 'judge requests',
  cacheHits: 'judge cache hits',
  invalid: 'judge invalid',
  missing: 'judge missing',
} as const

/** Whether a judged track's column holds a count (tokens, requests, hits, invalid, missing), shown as a whole number. */
export function isCountColumn(name: string): boolean {
  if (name === ACCOUNTING.cost) return false
  return (
    (Object.values(ACCOUNTING) as string[]).includes(name) ||
    name.startsWith('invalid ') ||
    name.startsWith('missing ')
  )
}

export function invalidColumn(dimension: string): string {
  return `invalid ${dimension}`
}
export function missingColumn(dimension: string): string {
  return `missing ${dimension}`
}

/** The retrieval columns of a 2c track (the `score --preset reteco-2c` headline and diagnostics). */
export const RETRIEVAL_COLUMNS = ['nDCG@10', 'MAP@10', 'Recall@10', 'MRR'].map(
  (m) => `${RETRIEVAL_PREFIX}${m}`,
)

/** Columns a judged track shows by default (the config's `columns` overrides). */
export function defaultJudgedColumns(preset: string, bertscore = false): string[] {
  return [
    OVERALL,
    ...JUDGE_DIMENSIONS,
    ...(preset === 'reteco-2c' ? RETRIEVAL_COLUMNS : []),
    ROUGE_L,
    METEOR,
    ...(bertscore ? [BERTSCORE] : []),
  ]
}

/** The accounting and integrity columns every judged board carries (its judge table). */
export function judgeTableColumns(): string[] {
  return [
    ...Object.values(ACCOUNTING),
    ...JUDGE_DIMENSIONS.flatMap((d) => [invalidColumn(d), missingColumn(d)]),
  ]
}
